/* emit.c - the last stage: deliver a checked plan (in place, -o, stdout,
 * diff, check). The original file is replaced only by an atomic rename, and
 * only when it still is the file we read. */
#include "emit.h"
#include "journal.h"
#include "pk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

static int write_full(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The size and mtime alone miss an edit of the same size whose writer set
 * the mtime back (cp -p, touch -r, rsync); nobody can set the ctime. */
static int same_file_state(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* Mode bits decide "read-only" for everyone: as root access(2) says yes to
 * everything, yet a user who made a file read-only means it. Another user's
 * file is refused too, though the directory would let us replace it (and
 * take it over): for a user other than root the file must be writable by
 * that user, as access(2) with the effective ids says. */
static int check_writable(const char *shown, const char *target, const char *dir)
{
	struct stat st;
	int exists = stat(target, &st) == 0;
	if (exists && !(st.st_mode & 0222))
		return pk_error("%s: file is read-only; not changed", shown);
	if (exists && geteuid() != 0 && faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) < 0)
		return pk_error("%s: no write permission on the file (owner uid %ld, mode %03o); not changed", shown,
		                (long)st.st_uid, (unsigned)(st.st_mode & 0777));
	if (stat(dir, &st) == 0 && !(st.st_mode & 0222))
		return pk_error("%s: directory '%s' is read-only; not changed", shown, dir);
	return 0;
}

/* The folder PATH as named stands in, reached from the current directory
 * (physical) by its folders without following a link: a link the tree
 * brings is not a way to choose its bound. Then its nearest folder holding
 * .git; else the current directory when that folder is in it, else the
 * folder itself. Into ROOT (PATH_MAX). */
static int tree_root(const char *path, char *root)
{
	char cwd[PATH_MAX], cur[PATH_MAX], next[PATH_MAX], name[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)) || strlen(path) >= sizeof(name))
		return -1;
	strcpy(cur, path[0] == '/' || !strcmp(cwd, "/") ? "" : cwd);
	strcpy(name, path);
	char *last = strrchr(name, '/');
	if (!last)
		name[0] = '\0';
	else
		*last = '\0';
	for (char *save = NULL, *c = strtok_r(name, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		struct stat st;
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			char *s = strrchr(cur, '/');
			if (s)
				*s = '\0';
			continue;
		}
		if ((size_t)snprintf(next, sizeof(next), "%s/%s", cur, c) >= sizeof(next) || lstat(next, &st) < 0 ||
		    !S_ISDIR(st.st_mode))
			break; /* a link (or nothing): stop before it */
		strcpy(cur, next);
	}
	strcpy(root, *cur ? cur : "/");
	for (;;) {
		struct stat st;
		if ((size_t)snprintf(next, sizeof(next), "%s/.git", strcmp(root, "/") ? root : "") < sizeof(next) &&
		    lstat(next, &st) == 0)
			return 0;
		char *s = strrchr(root, '/');
		if (!s || s == root)
			break;
		*s = '\0';
	}
	strcpy(root, *cur ? cur : "/");
	if (pk_path_within(root, cwd))
		strcpy(root, cwd);
	return 0;
}

/* A file the tool writes must lie, links resolved, inside the work tree of
 * SHOWN as named: a link a repository brings (a source file, or a folder on
 * its way) never sends a write outside it. TARGET: the resolved file. */
static int check_in_tree(const char *shown, const char *target)
{
	char root[PATH_MAX], dir[PATH_MAX];
	if (tree_root(shown, root) < 0)
		return pk_error("%s: cannot find the folder it lies in: %s; not changed", shown, strerror(errno));
	strcpy(dir, target);
	if (pk_path_within(dirname(dir), root))
		return 0;
	return pk_error("%s: a link leads to %s, outside the work tree '%s'; not changed (if that file is yours, "
	                "run on %s itself)",
	                shown, target, root, target);
}

/* ---- temporary files removed on SIGTERM, SIGINT and SIGHUP ---------
 * The handlers are in place only while a temporary file exists, and the
 * caller's own handlers (probe-sweep's, when it rewrites in-process) are put
 * back afterwards and receive the signal after the files are removed. The
 * names are registered with those signals blocked, so the handler never sees
 * the list half-changed; a signal that was ignored stays ignored. */
#define NCLEANUP 3
static const int cleanup_signals[NCLEANUP] = {SIGTERM, SIGINT, SIGHUP};
static struct sigaction saved_actions[NCLEANUP];
static int handlers_in_place;
static char **pending;
static size_t npending, cap_pending;

static void restore_handlers(void)
{
	for (size_t i = 0; i < NCLEANUP; i++)
		sigaction(cleanup_signals[i], &saved_actions[i], NULL);
	handlers_in_place = 0;
}

static void remove_pending(int sig)
{
	for (size_t i = 0; i < npending; i++)
		unlink(pending[i]);
	restore_handlers();
	raise(sig);
}

static void block_signals(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < NCLEANUP; i++)
		sigaddset(&set, cleanup_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void install_handlers(void)
{
	if (handlers_in_place)
		return;
	handlers_in_place = 1;
	for (size_t i = 0; i < NCLEANUP; i++) {
		struct sigaction sa;
		if (sigaction(cleanup_signals[i], NULL, &saved_actions[i]) < 0 ||
		    saved_actions[i].sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = remove_pending;
		sigemptyset(&sa.sa_mask);
		sigaction(cleanup_signals[i], &sa, NULL);
	}
}

/* mkstemp with the name registered for removal should a signal come */
static int temp_create(char *tmp)
{
	sigset_t old;
	block_signals(&old);
	install_handlers();
	int fd = mkstemp(tmp);
	if (fd >= 0) {
		PK_GROW(pending, cap_pending, npending + 1);
		pending[npending++] = pk_xstrdup(tmp);
	} else if (npending == 0) {
		restore_handlers();
	}
	int saved = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = saved;
	return fd;
}

/* TMP is gone (renamed) or to go (UNLINK): no longer the handler's */
static void temp_forget(const char *tmp, int unlink_it)
{
	sigset_t old;
	block_signals(&old);
	if (unlink_it)
		unlink(tmp);
	for (size_t i = 0; i < npending; i++)
		if (!strcmp(pending[i], tmp)) {
			free(pending[i]);
			pending[i] = pending[--npending];
			break;
		}
	if (npending == 0 && handlers_in_place)
		restore_handlers();
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* One file of a group: its temporary file is written and synced, the
 * rename waits for pk_txn_commit. */
struct pk_txn_file {
	char *shown;  /* the path as the user gave it, for messages */
	char *target; /* the file itself (symlinks resolved) */
	char *dir;
	char *tmp;
	struct stat expect;
	int have_expect;  /* the file existed: EXPECT gives its mode and owner */
	int check;        /* ... and it must still be that file at commit */
	const char *orig; /* the bytes it had (NULL: a new file), to put back */
	size_t orig_len;
	char *owned;       /* ORIG when this file owns it */
	int tmp_fd;        /* the temporary file, locked until the commit ends */
	int removal;       /* the file goes (pk_txn_remove): no temporary file */
	struct pk_jfile j; /* before and after, for the journal */
};

static void txn_file_free(struct pk_txn_file *f)
{
	if (f->tmp_fd >= 0)
		close(f->tmp_fd);
	f->tmp_fd = -1;
	free(f->owned);
	free(f->shown);
	free(f->target);
	free(f->dir);
	free(f->tmp);
}

/* A pause in a multi-file commit, for the crash-safety tests only:
 * $PROBEKIT_TEST_RENAME_PAUSE seconds once DONE files are renamed, where
 * DONE is $PROBEKIT_TEST_RENAME_AT (default 1: between the first two
 * renames; 0: the journal written, nothing renamed; the number of files:
 * every file renamed, the journal not yet removed). */
static void test_pause(size_t done)
{
	const char *s = getenv("PROBEKIT_TEST_RENAME_PAUSE"), *at = getenv("PROBEKIT_TEST_RENAME_AT");
	double v = s ? atof(s) : 0;
	if (v > 0 && (size_t)(at ? atol(at) : 1) == done) {
		struct timespec ts = {(time_t)v, (long)((v - (double)(time_t)v) * 1e9)};
		nanosleep(&ts, NULL);
	}
}

/* Fill the temporary file FD for TARGET with DATA, synced and locked (the
 * new file is the set's until the commit ends), with the mode (and owner,
 * as root) of EXPECT's file, else of an existing TARGET (-o OUT), else
 * the umask's. NULL, or what failed (errno set); *AFTER its stat. */
static const char *write_temp(int fd, const char *target, const char *data, size_t len, const struct stat *expect,
                              struct stat *after)
{
	mode_t mode;
	struct stat cur;
	const struct stat *keep = expect;
	if (!keep && stat(target, &cur) == 0 && S_ISREG(cur.st_mode))
		keep = &cur;
	if (keep) {
		mode = keep->st_mode & 07777;
		if (fchown(fd, keep->st_uid, keep->st_gid) < 0) {
			/* not our file to give away: keep our ownership, as an editor would */
		}
	} else {
		mode_t um = umask(0);
		umask(um);
		mode = 0666 & ~um;
	}
	if (fchmod(fd, mode) < 0)
		return "cannot set mode";
	if (write_full(fd, data, len) < 0)
		return "cannot write";
	if (fsync(fd) < 0)
		return "cannot sync";
	if (flock(fd, LOCK_EX) < 0)
		return "cannot lock";
	if (fstat(fd, after) < 0)
		return "cannot stat";
	return NULL;
}

/* What TARGET holds before the write, for the journal: EXPECT and ORIG
 * when the caller read it; else the file as it is now (or no file). */
static void before_state(struct pk_txn_file *f, const struct stat *expect, const char *orig, size_t orig_len)
{
	struct stat st;
	if (expect && orig) {
		f->j.before = 1;
		f->j.bdev = expect->st_dev;
		f->j.bino = expect->st_ino;
		f->j.bsize = orig_len;
		f->j.bhash = pk_hash64(orig, orig_len);
		return;
	}
	int fd = open(f->target, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return; /* no file there (a link or a FIFO: never one of two states) */
	}
	FILE *fp = fdopen(fd, "rb");
	size_t n = 0;
	char *d = fp ? pk_read_all(fp, &n) : NULL;
	if (fp)
		fclose(fp);
	else
		close(fd);
	f->j.before = 1;
	f->j.bdev = st.st_dev;
	f->j.bino = st.st_ino;
	f->j.bsize = n;
	f->j.bhash = d ? pk_hash64(d, n) : 0;
	if (f->removal) { /* kept to put back should a later step fail */
		f->owned = d;
		f->orig = d;
		f->orig_len = n;
	} else {
		free(d);
	}
}

int pk_txn_remove(struct pk_txn *t, const char *path)
{
	char target[PATH_MAX];
	if (!realpath(path, target))
		return pk_error("%s: %s", path, strerror(errno));
	char dirbuf[PATH_MAX];
	strcpy(dirbuf, target);
	const char *dir = dirname(dirbuf);
	if (check_in_tree(path, target) < 0 || check_writable(path, target, dir) < 0 || pk_txn_recover(target) < 0)
		return -1;
	struct stat st;
	if (lstat(target, &st) < 0 || !S_ISREG(st.st_mode))
		return pk_error("%s: not a regular file; not removed", path);
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 4;
		t->v = pk_xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	struct pk_txn_file *f = &t->v[t->n++];
	memset(f, 0, sizeof(*f));
	f->tmp_fd = -1;
	f->removal = 1;
	f->shown = pk_xstrdup(path);
	f->target = pk_xstrdup(target);
	f->dir = pk_xstrdup(dir);
	f->expect = st;
	f->have_expect = 1;
	before_state(f, NULL, NULL, 0);
	f->j.target = f->target;
	return 0;
}

/* CHECK: at commit, refuse when the file is no longer the one EXPECT
 * describes; EXPECT alone gives the mode and owner of the new file. */
static int stage(struct pk_txn *t, const char *path, const char *data, size_t len, const struct stat *expect, int check,
                 const char *orig, size_t orig_len)
{
	char target[PATH_MAX];
	/* write through a symlink to the file it names, keeping the link */
	if (!realpath(path, target)) {
		if (expect || strlen(path) >= sizeof(target))
			return pk_error("%s: %s", path, strerror(errno));
		/* a new file: its directory's real path, so that a journal names it
		 * wherever the run that replays it stands */
		char d[PATH_MAX], b[PATH_MAX], rd[PATH_MAX];
		strcpy(d, path);
		strcpy(b, path);
		if (!realpath(dirname(d), rd) ||
		    (size_t)snprintf(target, sizeof(target), "%s/%s", rd, basename(b)) >= sizeof(target))
			strcpy(target, path);
	}
	char dirbuf[PATH_MAX], basebuf[PATH_MAX];
	strcpy(dirbuf, target);
	strcpy(basebuf, target);
	const char *dir = dirname(dirbuf), *base = basename(basebuf);
	if (check_in_tree(path, target) < 0 || check_writable(path, target, dir) < 0)
		return -1;

	if (pk_txn_recover(target) < 0)
		return -1;
	char tmp[PATH_MAX];
	if (pk_temp_template(tmp, sizeof(tmp), dir, base) < 0)
		return pk_error("%s: path too long", path);
	int fd = temp_create(tmp);
	if (fd < 0)
		return pk_error("%s: cannot create a temporary file in '%s': %s", path, dir, strerror(errno));

	struct stat after;
	const char *what = write_temp(fd, target, data, len, expect, &after);
	int saved = errno;
	if (what) {
		close(fd);
		temp_forget(tmp, 1);
		return pk_error("%s: %s: %s; not changed", path, what, strerror(saved));
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 4;
		t->v = pk_xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	struct pk_txn_file *f = &t->v[t->n++];
	memset(f, 0, sizeof(*f));
	f->shown = pk_xstrdup(path);
	f->target = pk_xstrdup(target);
	f->dir = pk_xstrdup(dir);
	f->tmp = pk_xstrdup(tmp);
	if (expect) {
		f->expect = *expect;
		f->have_expect = 1;
	}
	f->check = check && expect;
	f->orig = orig;
	f->orig_len = orig_len;
	f->tmp_fd = fd;
	before_state(f, expect, orig, orig_len);
	f->j.target = f->target;
	f->j.tmp = f->tmp;
	f->j.after = 1;
	f->j.adev = after.st_dev;
	f->j.aino = after.st_ino;
	f->j.asize = len;
	f->j.ahash = pk_hash64(data, len);
	return 0;
}

int pk_txn_add(struct pk_txn *t, const char *path, const char *data, size_t len, const struct stat *expect,
               const char *orig, size_t orig_len)
{
	return stage(t, path, data, len, expect, 1, orig, orig_len);
}

void pk_txn_abort(struct pk_txn *t)
{
	for (size_t i = 0; i < t->n; i++) {
		if (!t->v[i].removal)
			temp_forget(t->v[i].tmp, 1);
		txn_file_free(&t->v[i]);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* Removals after every rename: a file goes only once the set is new. */
static void removals_last(struct pk_txn *t)
{
	for (size_t i = 0, k = 0; i < t->n; i++)
		if (!t->v[i].removal) {
			struct pk_txn_file x = t->v[i];
			memmove(&t->v[k + 1], &t->v[k], (i - k) * sizeof(*t->v));
			t->v[k++] = x;
		}
}

/* The journal of T's files (journal.c), every copy written and locked. */
static int txn_journal(struct pk_txn *t, struct pk_journal *jn)
{
	struct pk_jfile *jf = pk_xcalloc(t->n, sizeof(*jf));
	for (size_t i = 0; i < t->n; i++)
		jf[i] = t->v[i].j;
	int rc = pk_journal_begin(jn, jf, t->n, t->v[0].shown);
	free(jf);
	return rc;
}

/* Not seen in practice (same directory, file already written and synced):
 * the DONE files of T already renamed when the next could not be are put
 * back, from memory. */
static void put_back(struct pk_txn *t, size_t done)
{
	for (size_t k = 0; k < done; k++) {
		struct pk_txn_file *f = &t->v[k];
		int back = -1;
		if (!f->have_expect)
			back = unlink(f->target);
		else if (f->orig) {
			struct pk_txn one = {0};
			if (stage(&one, f->shown, f->orig, f->orig_len, f->removal ? NULL : &f->expect, 0, NULL, 0) ==
			    0)
				back = pk_txn_commit(&one);
			else
				pk_txn_abort(&one);
		}
		if (back == 0)
			pk_warning("%s: put back, because '%s' could not be replaced", f->shown, t->v[done].shown);
		else
			pk_error("%s: already replaced and could not be put back", f->shown);
	}
}

int pk_txn_commit(struct pk_txn *t)
{
	removals_last(t);
	/* every file must still be the one we read, before any is replaced */
	for (size_t i = 0; i < t->n; i++) {
		struct pk_txn_file *f = &t->v[i];
		struct stat now;
		if (f->check && (stat(f->target, &now) < 0 || !same_file_state(&f->expect, &now))) {
			pk_error("%s: file changed since it was read; not overwritten", f->shown);
			for (size_t k = 0; k < t->n; k++)
				if (k != i)
					pk_error("%s: not changed, because '%s' was not", t->v[k].shown, f->shown);
			pk_txn_abort(t);
			return -1;
		}
	}
	/* a signal waits until every file is renamed, or put back */
	sigset_t old;
	block_signals(&old);
	/* several files: a journal first, so that a crash between two renames
	 * is finished by the next run */
	struct pk_journal jn = {0};
	if (t->n > 1 && txn_journal(t, &jn) < 0) {
		pk_txn_abort(t);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	size_t done = 0;
	int rc = 0;
	for (; done < t->n; done++) {
		struct pk_txn_file *f = &t->v[done];
		if (t->n > 1)
			test_pause(done);
		if (f->removal ? unlink(f->target) < 0 : rename(f->tmp, f->target) < 0) {
			rc = pk_error("%s: cannot %s: %s; not changed", f->shown, f->removal ? "remove" : "replace",
			              strerror(errno));
			break;
		}
	}
	if (t->n > 1 && rc == 0)
		test_pause(done);
	if (rc < 0)
		put_back(t, done);
	for (size_t i = 0; i < t->n; i++) {
		struct pk_txn_file *f = &t->v[i];
		if (!f->removal)
			temp_forget(f->tmp, i >= done);
		if (i < done && rc == 0) {
			int dfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (dfd >= 0) {
				fsync(dfd);
				close(dfd);
			}
		}
	}
	/* the journal goes once the renames are synced; the new files stay
	 * locked until then, so that no run reads a set half new */
	pk_journal_end(&jn);
	for (size_t i = 0; i < t->n; i++)
		txn_file_free(&t->v[i]);
	free(t->v);
	memset(t, 0, sizeof(*t));
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int pk_write_atomic(const char *path, const char *data, size_t len, const struct stat *expect)
{
	struct pk_txn t = {0};
	if (pk_txn_add(&t, path, data, len, expect, NULL, 0) < 0)
		return -1;
	return pk_txn_commit(&t);
}

/* ---- unified diff from the plan ------------------------------------- */

struct region {
	size_t a, b;   /* old lines [a, b), 0-based */
	size_t e0, e1; /* plan edits [e0, e1) */
	char *text;    /* new text replacing those lines */
	size_t text_len;
};

static size_t count_lines(const struct pk_buf *b)
{
	if (b->len == 0)
		return 0;
	return b->nlines;
}

static size_t line_off(const struct pk_buf *b, size_t line)
{
	return line < b->nlines ? b->line_start[line] : b->len;
}

static size_t text_lines(const char *t, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += t[i] == '\n';
	if (n > 0 && t[n - 1] != '\n')
		c++;
	return c;
}

static void put_line(FILE *out, char tag, const char *p, size_t n)
{
	fputc(tag, out);
	fwrite(p, 1, n, out);
	if (n == 0 || p[n - 1] != '\n')
		fputs("\n\\ No newline at end of file\n", out);
}

static void put_text(FILE *out, char tag, const char *t, size_t n)
{
	size_t i = 0;
	while (i < n) {
		const char *nl = memchr(t + i, '\n', n - i);
		size_t e = nl ? (size_t)(nl - t) + 1 : n;
		put_line(out, tag, t + i, e - i);
		i = e;
	}
}

static void region_text(struct pk_buf *b, const struct pk_plan *plan, struct region *r)
{
	size_t from = line_off(b, r->a), to = line_off(b, r->b);
	struct pk_plan sub = {plan->e + r->e0, r->e1 - r->e0, 0};
	/* edits are relative to the whole file: apply on the slice by shifting */
	size_t n = to - from;
	for (size_t i = 0; i < sub.n; i++)
		n = n - (sub.e[i].end - sub.e[i].start) + sub.e[i].text_len;
	char *dst = pk_xmalloc(n + 1), *q = dst;
	size_t pos = from;
	for (size_t i = 0; i < sub.n; i++) {
		memcpy(q, b->data + pos, sub.e[i].start - pos);
		q += sub.e[i].start - pos;
		memcpy(q, sub.e[i].text, sub.e[i].text_len);
		q += sub.e[i].text_len;
		pos = sub.e[i].end;
	}
	memcpy(q, b->data + pos, to - pos);
	q += to - pos;
	r->text = dst;
	r->text_len = (size_t)(q - dst);
}

static void edit_lines(struct pk_buf *b, const struct pk_edit *e, size_t nl, size_t *a, size_t *z)
{
	size_t la;
	if (e->start == b->len && (b->len == 0 || b->data[b->len - 1] == '\n'))
		la = nl;
	else
		la = pk_buf_line_of(b, e->start) - 1;
	if (e->start == e->end)
		*z = (e->start == line_off(b, la)) ? la : la + 1;
	else
		*z = pk_buf_line_of(b, e->end - 1);
	*a = la;
}

void pk_print_diff(FILE *out, struct pk_buf *b, const struct pk_plan *plan)
{
	const size_t ctx = 3;
	pk_buf_lines(b);
	size_t nl = count_lines(b);
	struct region *r = NULL;
	size_t nr = 0, cap = 0;
	for (size_t i = 0; i < plan->n; i++) {
		size_t a, z;
		edit_lines(b, &plan->e[i], nl, &a, &z);
		/* an insertion whose text does not end a line merges with that line */
		const struct pk_edit *e = &plan->e[i];
		if (e->text_len && e->text[e->text_len - 1] != '\n' && e->end == line_off(b, z) && z < nl)
			z++;
		if (nr > 0 && a <= r[nr - 1].b) {
			if (z > r[nr - 1].b)
				r[nr - 1].b = z;
			r[nr - 1].e1 = i + 1;
			continue;
		}
		PK_GROW(r, cap, nr + 1);
		r[nr++] = (struct region){a, z, i, i + 1, NULL, 0};
	}
	for (size_t i = 0; i < nr; i++)
		region_text(b, plan, &r[i]);

	/* a/ and b/ as git diff writes them: git apply and patch -p1 take it */
	const char *name = b->path;
	while (name[0] == '/' || (name[0] == '.' && name[1] == '/'))
		name += name[0] == '/' ? 1 : 2;
	fprintf(out, "--- a/%s\n+++ b/%s\n", name, name);
	long delta = 0;
	size_t i = 0;
	while (i < nr) {
		size_t j = i;
		while (j + 1 < nr && r[j + 1].a - r[j].b <= 2 * ctx)
			j++;
		size_t ha = r[i].a > ctx ? r[i].a - ctx : 0;
		size_t hz = r[j].b + ctx < nl ? r[j].b + ctx : nl;
		size_t old_n = hz - ha, new_n = old_n;
		for (size_t k = i; k <= j; k++)
			new_n = new_n - (r[k].b - r[k].a) + text_lines(r[k].text, r[k].text_len);
		size_t new_a = (size_t)((long)ha + delta);
		fprintf(out, "@@ -%zu,%zu +%zu,%zu @@\n", old_n ? ha + 1 : ha, old_n, new_n ? new_a + 1 : new_a, new_n);
		size_t line = ha;
		for (size_t k = i; k <= j; k++) {
			for (; line < r[k].a; line++)
				put_line(out, ' ', b->data + line_off(b, line),
				         line_off(b, line + 1) - line_off(b, line));
			for (; line < r[k].b; line++)
				put_line(out, '-', b->data + line_off(b, line),
				         line_off(b, line + 1) - line_off(b, line));
			put_text(out, '+', r[k].text, r[k].text_len);
			delta += (long)text_lines(r[k].text, r[k].text_len) - (long)(r[k].b - r[k].a);
		}
		for (; line < hz; line++)
			put_line(out, ' ', b->data + line_off(b, line), line_off(b, line + 1) - line_off(b, line));
		i = j + 1;
	}
	for (size_t k = 0; k < nr; k++)
		free(r[k].text);
	free(r);
}

int pk_emit(const struct pk_emit_opts *o, struct pk_buf *b, const struct pk_plan *plan, int *changed)
{
	return pk_emit_txn(o, b, plan, changed, NULL);
}

int pk_emit_txn(const struct pk_emit_opts *o, struct pk_buf *b, const struct pk_plan *plan, int *changed,
                struct pk_txn *txn)
{
	char *out;
	size_t out_len;
	pk_plan_apply(plan, b->data, b->len, &out, &out_len);
	*changed = out_len != b->len || memcmp(out, b->data, out_len) != 0;
	int rc = 0;
	enum pk_emit_mode mode = o->mode;
	if (mode == PK_EMIT_INPLACE && b->from_stdin)
		mode = PK_EMIT_STDOUT;
	switch (mode) {
	case PK_EMIT_INPLACE:
		if (*changed)
			rc = txn ? pk_txn_add(txn, b->path, out, out_len, &b->st, b->data, b->len)
			         : pk_write_atomic(b->path, out, out_len, &b->st);
		break;
	case PK_EMIT_OUTFILE:
		rc = txn ? pk_txn_add(txn, o->out_path, out, out_len, NULL, NULL, 0)
		         : pk_write_atomic(o->out_path, out, out_len, NULL);
		break;
	case PK_EMIT_STDOUT:
		if (fwrite(out, 1, out_len, stdout) != out_len)
			rc = pk_error("error writing standard output");
		break;
	case PK_EMIT_DIFF:
		if (*changed)
			pk_print_diff(stdout, b, plan);
		break;
	case PK_EMIT_CHECK:
		if (*changed)
			printf("would change: %s\n", b->path);
		break;
	}
	free(out);
	return rc;
}

int pk_emit_exit(const struct pk_emit_opts *o, size_t changed)
{
	int report = o->mode == PK_EMIT_CHECK || o->mode == PK_EMIT_DIFF;
	return report && changed ? PK_EXIT_FINDINGS : PK_EXIT_OK;
}

int pk_emit_option(struct pk_emit_opts *o, int c, const char *arg)
{
	enum pk_emit_mode m;
	switch (c) {
	case 'o':
		m = PK_EMIT_OUTFILE;
		o->out_path = arg;
		break;
	case PK_OPT_STDOUT:
		m = PK_EMIT_STDOUT;
		break;
	case PK_OPT_DIFF:
		m = PK_EMIT_DIFF;
		break;
	case PK_OPT_CHECK:
		m = PK_EMIT_CHECK;
		break;
	case PK_OPT_DISCARD_JOURNAL:
		pk_journal_set_discard(1);
		return 1;
	default:
		return 0;
	}
	if (o->mode != PK_EMIT_INPLACE && o->mode != m) {
		pk_error("-o, --stdout, --diff and --check exclude each other");
		return -1;
	}
	o->mode = m;
	return 1;
}

int pk_emit_validate(const struct pk_emit_opts *o, size_t ninputs)
{
	if (o->mode == PK_EMIT_OUTFILE && ninputs != 1)
		return pk_error("-o takes exactly one input file");
	return 0;
}
