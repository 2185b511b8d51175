/* tt_files.c - the files of one timing-tensor run, each once, with the
 * roles it plays (see tt.h). One identity rule: the device and inode of
 * what the name opens, as pk_buf_load_set decides it for the named files. */
#include "tt.h"
#include "emit.h"
#include "pk.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct tt_file *new_entry(struct tt_files *fs)
{
	PK_GROW(fs->v, fs->cap, fs->n + 1);
	struct tt_file *f = pk_xcalloc(1, sizeof(*f));
	pk_plan_init(&f->plan);
	fs->v[fs->n++] = f;
	return f;
}

int tt_files_load(struct tt_files *fs, const struct tt_named *named, size_t n, int flags, struct tt_file **at)
{
	fs->flags = flags;
	struct pk_buf *bufs = pk_xcalloc(n + 1, sizeof(*bufs));
	struct pk_buf **bp = pk_xcalloc(n + 1, sizeof(*bp));
	char **paths = pk_xcalloc(n + 1, sizeof(*paths));
	size_t *first = pk_xcalloc(n + 1, sizeof(*first));
	for (size_t i = 0; i < n; i++) {
		bp[i] = &bufs[i];
		bufs[i].lock_fd = -1;
		paths[i] = (char *)named[i].path;
	}
	/* a rewrite that died half-way is finished (or refused) before the
	 * files are read; they are locked once every file of the run is named */
	int refused = 0;
	for (size_t i = 0; (flags & PK_LOAD_FOR_WRITE) && i < n; i++)
		refused |= strcmp(paths[i], "-") && pk_txn_recover(paths[i]) < 0;
	int rc = refused ? -1 : pk_buf_load_set(bp, paths, n, flags & ~PK_LOAD_FOR_WRITE, first);
	for (size_t i = 0; refused && i < n; i++)
		first[i] = PK_LOAD_FAILED;
	for (size_t i = 0; i < n; i++) {
		at[i] = NULL;
		if (first[i] == PK_LOAD_FAILED)
			continue;
		if (first[i] == i) {
			at[i] = new_entry(fs);
			at[i]->b = bufs[i]; /* the entry owns the bytes and the lock now */
			memset(&bufs[i], 0, sizeof(bufs[i]));
		} else {
			at[i] = at[first[i]];
			pk_buf_free(&bufs[i]);
		}
		at[i]->roles |= named[i].role;
	}
	for (size_t i = 0; i < n; i++)
		if (first[i] == PK_LOAD_FAILED)
			pk_buf_free(&bufs[i]);
	free(bufs);
	free(bp);
	free(paths);
	free(first);
	return rc < 0 ? -1 : 0;
}

struct tt_file *tt_files_find(const struct tt_files *fs, const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return NULL;
	for (size_t i = 0; i < fs->n; i++) {
		const struct pk_buf *b = &fs->v[i]->b;
		if (!b->from_stdin && b->st.st_dev == st.st_dev && b->st.st_ino == st.st_ino)
			return fs->v[i];
	}
	return NULL;
}

struct tt_file *tt_files_name(struct tt_files *fs, const char *path, unsigned role)
{
	struct tt_file *f = tt_files_find(fs, path);
	if (!f) {
		f = new_entry(fs);
		f->b.path = pk_xstrdup(path);
		f->b.lock_fd = -1;
		if (stat(path, &f->b.st) < 0) /* the load says why */
			memset(&f->b.st, 0, sizeof(f->b.st));
	}
	f->roles |= role;
	return f;
}

/* A test hook: with PROBEKIT_TEST_LOCK_FIFO=P, the first lock of a run
 * waits, once every file is read, until a reader takes a byte from the FIFO
 * P.ready and a writer closes the FIFO P.go, so that a test changes a file
 * between its read and its lock (tests/sh/timing_read_lock.sh). */
static void test_pause(void)
{
	static int done;
	const char *p = getenv("PROBEKIT_TEST_LOCK_FIFO");
	if (!p || !*p || done++)
		return;
	char *ready = pk_xasprintf("%s.ready", p), *go = pk_xasprintf("%s.go", p), c = 1;
	int fd = open(ready, O_WRONLY | O_CLOEXEC);
	if (fd >= 0 && write(fd, &c, 1) == 1)
		close(fd);
	else if (fd >= 0)
		close(fd);
	if ((fd = open(go, O_RDONLY | O_CLOEXEC)) >= 0) {
		while (read(fd, &c, 1) > 0)
			;
		close(fd);
	}
	free(ready);
	free(go);
}

int tt_files_lock(struct tt_files *fs)
{
	test_pause();
	if (!(fs->flags & PK_LOAD_FOR_WRITE)) { /* nothing to lock: the files named since are read */
		int rc = 0;
		for (size_t i = 0; i < fs->n; i++) {
			struct pk_buf *b = &fs->v[i]->b;
			if (b->data || b->from_stdin)
				continue;
			char *path = b->path;
			if (pk_buf_load(b, path, fs->flags) < 0)
				rc = -1;
			free(path);
		}
		return rc;
	}
	struct pk_buf **bp = pk_xcalloc(fs->n + 1, sizeof(*bp));
	for (size_t i = 0; i < fs->n; i++)
		bp[i] = &fs->v[i]->b;
	int rc = pk_buf_lock_set(bp, fs->n);
	free(bp);
	return rc;
}

const char *tt_role_name(unsigned roles)
{
	static const struct {
		unsigned role;
		const char *name;
	} names[] = {{TT_ROLE_KERNEL, "the kernel"},
	             {TT_ROLE_HOST, "--host"},
	             {TT_ROLE_EXTERN, "--host"},
	             {TT_ROLE_TEST, "--test-script"},
	             {TT_ROLE_EDIT, "--edit"},
	             {TT_ROLE_CALLER, "--edit"},
	             {TT_ROLE_SIDE, "a header the kernel includes"}};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (roles & names[i].role)
			return names[i].name;
	return "a file";
}

void tt_files_free(struct tt_files *fs)
{
	/* views first: they borrow the kernel's translation unit */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < fs->n; i++) {
			struct tt_file *f = fs->v[i];
			if (f->have_t && f->t.borrowed == !pass) {
				pk_ast_free(&f->t);
				f->have_t = 0;
			}
		}
	for (size_t i = 0; i < fs->n; i++) {
		pk_plan_free(&fs->v[i]->plan);
		pk_buf_free(&fs->v[i]->b);
		free(fs->v[i]->out);
		free(fs->v[i]);
	}
	free(fs->v);
	memset(fs, 0, sizeof(*fs));
}
