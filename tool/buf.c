/* buf.c - load a file once, exactly as it is on disk. */
#include "buf.h"
#include "emit.h"
#include "pk.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

static int read_all(int fd, char **data, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *p = pk_xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			cap *= 2;
			p = pk_xrealloc(p, cap + 1);
		}
		ssize_t r = read(fd, p + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(p);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	/* keep 64 zero bytes of slack, no more: PCRE2's JIT may read whole
	 * words past the subject's end, which must then be defined bytes
	 * (valgrind checks this), and a tree of small files must not hold a
	 * 64 KiB read buffer each */
	if (cap - n > 64) {
		p = pk_xrealloc(p, n + 65);
		cap = n + 64;
	}
	memset(p + n, 0, cap + 1 - n);
	*data = p;
	*len = n;
	return 0;
}

/* Failures are written to MSG ("PATH: what"); the callers decide where
 * they go (stderr, or a per-file slot when threads must not interleave). */
static int fail(char *msg, size_t cap, const char *path, const char *what)
{
	snprintf(msg, cap, "%s: %s", path, what);
	return -1;
}

/* Open PATH and refuse anything but a regular file before reading or locking
 * it: without O_NONBLOCK, open(2) of a FIFO waits for a writer forever. */
static int open_regular(const char *path, int *fdp, struct stat *st, char *msg, size_t cap)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return fail(msg, cap, path, strerror(errno));
	const char *why = NULL;
	if (fstat(fd, st) < 0)
		why = strerror(errno);
	else if (S_ISDIR(st->st_mode))
		why = "is a directory; name its files (probe-list DIR lists those that hold probes)";
	else if (!S_ISREG(st->st_mode))
		why = "not a regular file (a FIFO, socket or device); give the source file itself";
	else if (fcntl(fd, F_SETFL, 0) < 0)
		why = strerror(errno);
	if (why) {
		close(fd);
		return fail(msg, cap, path, why);
	}
	*fdp = fd;
	return 0;
}

/* Once the lock is held: the open file's state into ST, and 1 when PATH
 * now names another file (a writer renamed its result over it). */
static int locked_state(int fd, const char *path, struct stat *st, char *msg, size_t cap)
{
	struct stat now;
	if (fstat(fd, st) < 0)
		return fail(msg, cap, path, strerror(errno));
	if (stat(path, &now) < 0 || now.st_ino != st->st_ino || now.st_dev != st->st_dev)
		return 1;
	return 0;
}

/* Lock an open file so two probekit processes never interleave on it.
 * Returns 1 when, after the wait, PATH names another file (a run we waited
 * for renamed its result over it): the caller opens it again. *WAITED is
 * set when the lock had to be waited for: the run waited for may have died
 * half-way through a set, so its journal is looked for again. */
static int lock_open(int fd, const char *path, struct stat *st, char *msg, size_t cap, int *waited)
{
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK) {
			*waited = 1;
			while (flock(fd, LOCK_EX) < 0)
				if (errno != EINTR)
					return fail(msg, cap, path, strerror(errno));
			break;
		}
		if (errno != EINTR)
			return fail(msg, cap, path, strerror(errno));
	}
	return locked_state(fd, path, st, msg, cap);
}

/* Is the open FD still the file PATH names? */
static int still_same(int fd, const char *path)
{
	struct stat a, b;
	return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

/* A shared lock on an open file: 1 when PATH names another file once we
 * hold it (a writer renamed its result over it), as lock_open. */
static int lock_shared(int fd, const char *path, struct stat *st, char *msg, size_t cap)
{
	while (flock(fd, LOCK_SH) < 0)
		if (errno != EINTR)
			return fail(msg, cap, path, strerror(errno));
	return locked_state(fd, path, st, msg, cap);
}

/* Does PATH have an event map beside it (the lock of its set is kept)? */
static int has_map(const char *path)
{
	char *map = pk_xasprintf("%s.timing.json", path);
	int yes = access(map, F_OK) == 0;
	free(map);
	return yes;
}

int pk_open_small(const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > max)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Read an opened file into B; keep FD (its lock) with PK_LOAD_FOR_WRITE,
 * and with PK_LOAD_SHARED for a kernel with an event map. */
static int read_opened(struct pk_buf *b, int fd, int flags, char *msg, size_t cap)
{
	int rc = read_all(fd, &b->data, &b->len);
	int saved = errno;
	pk_note_read(b->path, b->from_stdin ? NULL : &b->st);
	int keep = (flags & PK_LOAD_FOR_WRITE) || ((flags & PK_LOAD_SHARED) && has_map(b->path));
	if (b->from_stdin)
		;
	else if (rc < 0 || !keep)
		close(fd);
	else
		b->lock_fd = fd;
	if (rc < 0)
		return fail(msg, cap, b->path, strerror(saved));
	if (!(flags & PK_LOAD_ALLOW_NUL) && memchr(b->data, '\0', b->len))
		return fail(msg, cap, b->path, "binary file (contains NUL bytes), not a source file");
	return 0;
}

static void buf_init(struct pk_buf *b, const char *path)
{
	memset(b, 0, sizeof(*b));
	b->lock_fd = -1;
	b->path = pk_xstrdup(path);
}

int pk_buf_load_msg(struct pk_buf *b, const char *path, int flags, char *msg, size_t cap)
{
	buf_init(b, path);
	if (!strcmp(path, "-")) {
		b->from_stdin = 1;
		return read_opened(b, STDIN_FILENO, flags, msg, cap);
	}
	for (int tries = 0; tries < 100; tries++) {
		/* a rewrite that died half-way is finished first, or its journal
		 * refused (the message is printed there: MSG stays empty) */
		if ((flags & PK_LOAD_FOR_WRITE) && pk_txn_recover(path) < 0) {
			if (cap)
				msg[0] = '\0';
			return -1;
		}
		int fd;
		if (open_regular(path, &fd, &b->st, msg, cap) < 0)
			return -1;
		int waited = 0;
		int r = (flags & PK_LOAD_FOR_WRITE) ? lock_open(fd, path, &b->st, msg, cap, &waited)
		        : (flags & PK_LOAD_SHARED)  ? lock_shared(fd, path, &b->st, msg, cap)
		                                    : 0;
		if (r == 0 && waited) { /* the run waited for may have left a journal */
			pk_txn_forget();
			if (pk_txn_recover(path) < 0) {
				close(fd);
				if (cap)
					msg[0] = '\0';
				return -1;
			}
			r = still_same(fd, path) ? 0 : 1;
		}
		if (r == 0)
			return read_opened(b, fd, flags, msg, cap);
		close(fd);
		if (r < 0)
			return -1;
	}
	return fail(msg, cap, path, strerror(EAGAIN));
}

/* ---- a set of files, each once, locked in one global order ---------- */

static struct pk_buf *const *sort_bufs;

static int by_file(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	const struct stat *a = &sort_bufs[i]->st, *b = &sort_bufs[j]->st;
	if (a->st_dev != b->st_dev)
		return a->st_dev < b->st_dev ? -1 : 1;
	if (a->st_ino != b->st_ino)
		return a->st_ino < b->st_ino ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* ORDER: the opened files by (device, inode), each once; a file met again
 * (the same name twice, or a link to it) is marked in FIRST as a duplicate
 * of its first name. Returns how many ORDER holds. */
static size_t order_files(struct pk_buf *const *b, size_t n, size_t *first, size_t *order)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (first[i] == i && !b[i]->from_stdin)
			order[m++] = i;
	sort_bufs = b;
	qsort(order, m, sizeof(*order), by_file);
	size_t k = 0;
	for (size_t i = 0; i < m; i++) {
		const struct stat *s = &b[order[i]]->st;
		if (k && s->st_dev == b[order[k - 1]]->st.st_dev && s->st_ino == b[order[k - 1]]->st.st_ino)
			first[order[i]] = order[k - 1];
		else
			order[k++] = order[i];
	}
	return k;
}

/* Open every path, holding the fds: their locks are taken in order next. */
static int open_set(struct pk_buf *const *b, char *const *paths, size_t n, size_t *first, int *fds)
{
	int rc = 0;
	char msg[PATH_MAX + 128];
	for (size_t i = 0; i < n; i++) {
		buf_init(b[i], paths[i]);
		fds[i] = -1;
		first[i] = i;
		if (!strcmp(paths[i], "-")) {
			b[i]->from_stdin = 1;
			fds[i] = STDIN_FILENO;
		} else if (open_regular(paths[i], &fds[i], &b[i]->st, msg, sizeof(msg)) < 0) {
			rc = pk_error("%s", msg);
			first[i] = PK_LOAD_FAILED;
		}
	}
	return rc;
}

/* Lock in ORDER. 1: a file was replaced while we waited; start again.
 * *WAITED as lock_open. */
static int lock_set(struct pk_buf *const *b, const size_t *order, size_t m, const int *fds, int *waited)
{
	char msg[PATH_MAX + 128];
	for (size_t k = 0; k < m; k++) {
		int r = lock_open(fds[order[k]], b[order[k]]->path, &b[order[k]]->st, msg, sizeof(msg), waited);
		if (r < 0)
			pk_error("%s", msg);
		if (r)
			return r;
	}
	return 0;
}

static void close_set(struct pk_buf *const *b, size_t n, const int *fds)
{
	for (size_t i = 0; i < n; i++) {
		if (fds[i] >= 0 && !b[i]->from_stdin)
			close(fds[i]);
		pk_buf_free(b[i]);
	}
}

/* Read the files of the set, each once; duplicates' fds are closed. */
static int read_set(struct pk_buf *const *b, size_t n, int flags, size_t *first, const int *fds)
{
	int rc = 0;
	char msg[PATH_MAX + 128];
	for (size_t i = 0; i < n; i++) {
		if (first[i] != i) {
			if (first[i] != PK_LOAD_FAILED)
				close(fds[i]);
			continue;
		}
		if (read_opened(b[i], fds[i], flags, msg, sizeof(msg)) < 0) {
			rc = pk_error("%s", msg);
			first[i] = PK_LOAD_FAILED;
		}
	}
	return rc;
}

/* Without locks nothing is held open: each file is read and closed (a run
 * may name more files than it may hold open), duplicates dropped after. */
static int load_set_unlocked(struct pk_buf *const *b, char *const *paths, size_t n, int flags, size_t *first)
{
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		first[i] = i;
		if (pk_buf_load(b[i], paths[i], flags) < 0) {
			rc = -1;
			first[i] = PK_LOAD_FAILED;
		}
	}
	size_t *order = pk_xcalloc(n, sizeof(*order));
	order_files(b, n, first, order);
	free(order);
	for (size_t i = 0; i < n; i++)
		if (first[i] != i && first[i] != PK_LOAD_FAILED) {
			pk_buf_free(b[i]);
			buf_init(b[i], paths[i]);
		}
	return rc;
}

int pk_buf_load_set(struct pk_buf *const *b, char *const *paths, size_t n, int flags, size_t *first)
{
	if (!(flags & PK_LOAD_FOR_WRITE))
		return load_set_unlocked(b, paths, n, flags, first);
	int *fds = pk_xcalloc(n, sizeof(*fds));
	size_t *order = pk_xcalloc(n, sizeof(*order));
	int rc = 0;
	for (int tries = 0;; tries++) {
		int refused = 0;
		for (size_t i = 0; i < n; i++) /* a rewrite that died half-way is finished first */
			refused |= pk_txn_recover(paths[i]) < 0;
		if (refused) {
			for (size_t i = 0; i < n; i++) {
				buf_init(b[i], paths[i]);
				first[i] = PK_LOAD_FAILED;
			}
			rc = -1;
			break;
		}
		int opened = open_set(b, paths, n, first, fds), waited = 0;
		size_t m = order_files(b, n, first, order);
		int r = lock_set(b, order, m, fds, &waited);
		if (r == 0 && waited) { /* a run waited for may have left a journal */
			pk_txn_forget();
			for (size_t i = 0; i < n; i++)
				refused |= pk_txn_recover(paths[i]) < 0;
			for (size_t k = 0; k < m && !refused && r == 0; k++)
				r = still_same(fds[order[k]], paths[order[k]]) ? 0 : 1;
			if (refused)
				r = -1;
		}
		if (r == 0) {
			rc = read_set(b, n, flags, first, fds) < 0 ? -1 : opened;
			break;
		}
		close_set(b, n, fds);
		if (r < 0 || tries == 100) {
			if (r > 0)
				pk_error("%s: %s", paths[0], strerror(EAGAIN));
			for (size_t i = 0; i < n; i++) {
				buf_init(b[i], paths[i]);
				first[i] = PK_LOAD_FAILED;
			}
			rc = -1;
			break;
		}
	}
	free(fds);
	free(order);
	return rc;
}

/* Is the open file as it was when read (ST: its state then)? */
static int same_state(const struct stat *was, const struct stat *now)
{
	return was->st_dev == now->st_dev && was->st_ino == now->st_ino && was->st_size == now->st_size &&
	       was->st_mtim.tv_sec == now->st_mtim.tv_sec && was->st_mtim.tv_nsec == now->st_mtim.tv_nsec &&
	       was->st_ctim.tv_sec == now->st_ctim.tv_sec && was->st_ctim.tv_nsec == now->st_ctim.tv_nsec;
}

/* Open, order and lock the files of B (each a distinct file): 0, 1 (start
 * again), -1. FDS and ORDER as load_set's; WAS the state each had when read. */
static int lock_named(struct pk_buf *const *b, size_t n, int *fds, size_t *order, size_t *m, struct stat *was)
{
	char msg[PATH_MAX + 128];
	*m = 0;
	for (size_t i = 0; i < n; i++) {
		if (b[i]->from_stdin)
			continue;
		if (pk_txn_recover(b[i]->path) < 0) /* a rewrite that died half-way is finished first */
			return -1;
		was[i] = b[i]->st;
		if (open_regular(b[i]->path, &fds[i], &b[i]->st, msg, sizeof(msg)) < 0)
			return pk_error("%s", msg);
		order[(*m)++] = i;
	}
	sort_bufs = b;
	qsort(order, *m, sizeof(*order), by_file);
	for (size_t k = 1; k < *m; k++) /* two names now open one file: it was replaced */
		if (b[order[k]]->st.st_dev == b[order[k - 1]]->st.st_dev &&
		    b[order[k]]->st.st_ino == b[order[k - 1]]->st.st_ino)
			return 1;
	int waited = 0;
	for (size_t k = 0; k < *m; k++) {
		size_t i = order[k];
		int r = lock_open(fds[i], b[i]->path, &b[i]->st, msg, sizeof(msg), &waited);
		if (r)
			return r < 0 ? pk_error("%s", msg) : 1;
	}
	if (waited) { /* a run waited for may have left a journal */
		pk_txn_forget();
		for (size_t k = 0; k < *m; k++)
			if (pk_txn_recover(b[order[k]]->path) < 0)
				return -1;
		for (size_t k = 0; k < *m; k++)
			if (!still_same(fds[order[k]], b[order[k]]->path))
				return 1;
	}
	for (size_t k = 0; k < *m; k++)
		if (b[order[k]]->data && !same_state(&was[order[k]], &b[order[k]]->st))
			return 1;
	return 0;
}

int pk_buf_lock_set(struct pk_buf *const *b, size_t n)
{
	int *fds = pk_xcalloc(n + 1, sizeof(*fds));
	size_t *order = pk_xcalloc(n + 1, sizeof(*order)), m;
	struct stat *was = pk_xcalloc(n + 1, sizeof(*was));
	char msg[PATH_MAX + 128];
	for (size_t i = 0; i < n; i++)
		fds[i] = -1;
	int rc = lock_named(b, n, fds, order, &m, was);
	for (size_t k = 0; k < m && rc == 0; k++) {
		size_t i = order[k];
		int fd = fds[i];
		fds[i] = -1; /* the buffer holds it from now on */
		if (b[i]->data)
			b[i]->lock_fd = fd;
		else if (read_opened(b[i], fd, PK_LOAD_FOR_WRITE, msg, sizeof(msg)) < 0)
			rc = pk_error("%s", msg);
	}
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	free(order);
	free(was);
	return rc;
}

/* A file read before without a lock (B's bytes, B->st its state then), now
 * that its map says it is one of a set: under its shared lock, kept with
 * the bytes when the file is the one read; read again only when it changed
 * or PATH now names another file. */
static int share_adopted(struct pk_buf *b, int flags)
{
	char msg[PATH_MAX + 128];
	struct stat now;
	int fd;
	if (open_regular(b->path, &fd, &now, msg, sizeof(msg)) == 0) {
		if (lock_shared(fd, b->path, &now, msg, sizeof(msg)) == 0 && same_state(&b->st, &now)) {
			b->lock_fd = fd;
			return 0;
		}
		close(fd);
	}
	char *path = pk_xstrdup(b->path);
	pk_buf_free(b);
	int rc = pk_buf_load(b, path, flags);
	free(path);
	return rc;
}

/* pk_buf_lock_set over the distinct files U (M of them) until it holds
 * them all: a file changed since its first read is then read under the
 * lock, every other one of U kept as read. */
static int lock_adopted(struct pk_buf **u, size_t m)
{
	for (int tries = 0;; tries++) {
		int r = pk_buf_lock_set(u, m);
		if (r <= 0)
			return r;
		if (tries == 100)
			return pk_error("%s: %s", u[0]->path, strerror(EAGAIN));
		for (size_t k = 0; k < m; k++) /* changed meanwhile: read each under its lock */
			if (u[k]->data && u[k]->lock_fd < 0) {
				free(u[k]->data);
				u[k]->data = NULL;
				u[k]->len = 0;
			}
	}
}

/* The first step of pk_buf_adopt_set: bytes read before checked as a load
 * checks them, standard input read, every other file opened for its
 * identity only (to find a file named twice). */
static int adopt_identities(struct pk_buf *const *b, char *const *paths, size_t n, int flags, size_t *first)
{
	int rc = 0;
	char msg[PATH_MAX + 128];
	for (size_t i = 0; i < n; i++) {
		first[i] = i;
		if (b[i]->data) {
			if (!(flags & PK_LOAD_ALLOW_NUL) && memchr(b[i]->data, '\0', b[i]->len)) {
				rc = pk_error("%s: binary file (contains NUL bytes), not a source file", b[i]->path);
				first[i] = PK_LOAD_FAILED;
			}
			continue;
		}
		if (!strcmp(paths[i], "-")) {
			if (pk_buf_load(b[i], paths[i], flags) < 0) {
				rc = -1;
				first[i] = PK_LOAD_FAILED;
			}
			continue;
		}
		/* its identity only (to find a file named twice): it is read
		 * below, under its lock when the set is written */
		int fd;
		buf_init(b[i], paths[i]);
		if (open_regular(paths[i], &fd, &b[i]->st, msg, sizeof(msg)) < 0) {
			rc = pk_error("%s", msg);
			first[i] = PK_LOAD_FAILED;
		} else
			close(fd);
	}
	return rc;
}

/* A file named, then found and read through a later name: the first name
 * takes the bytes. */
static void give_bytes_to_first(struct pk_buf *const *b, size_t n, const size_t *first)
{
	for (size_t i = 0; i < n; i++) {
		struct pk_buf *f = first[i] != i && first[i] != PK_LOAD_FAILED ? b[first[i]] : NULL;
		if (f && b[i]->data && !f->data && !f->from_stdin) {
			f->data = b[i]->data;
			f->len = b[i]->len;
			f->st = b[i]->st;
			b[i]->data = NULL;
		}
	}
}

int pk_buf_adopt_set(struct pk_buf *const *b, char *const *paths, size_t n, int flags, size_t *first)
{
	size_t pre = 0;
	for (size_t i = 0; i < n; i++)
		pre += b[i]->data != NULL;
	if (!pre)
		return pk_buf_load_set(b, paths, n, flags, first);
	int rc = adopt_identities(b, paths, n, flags, first);
	size_t *order = pk_xcalloc(n + 1, sizeof(*order));
	order_files(b, n, first, order);
	give_bytes_to_first(b, n, first);
	struct pk_buf **u = pk_xcalloc(n + 1, sizeof(*u));
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (first[i] == i && !b[i]->from_stdin)
			u[m++] = b[i];
		else if (first[i] != i) { /* named again, or failed: empty */
			pk_buf_free(b[i]);
			buf_init(b[i], paths[i]);
		}
	}
	int held = 0;
	if (flags & PK_LOAD_FOR_WRITE)
		held = rc == 0 ? lock_adopted(u, m) : -1;
	for (size_t i = 0; !(flags & PK_LOAD_FOR_WRITE) && i < n; i++)
		if (first[i] == i && !b[i]->data && !b[i]->from_stdin) { /* not read before: now */
			char *path = b[i]->path;
			b[i]->path = NULL;
			pk_buf_free(b[i]);
			if (pk_buf_load(b[i], path, flags) < 0) {
				rc = -1;
				first[i] = PK_LOAD_FAILED;
			}
			free(path);
		}
	for (size_t i = 0; !(flags & PK_LOAD_FOR_WRITE) && (flags & PK_LOAD_SHARED) && i < n; i++)
		if (first[i] == i && b[i]->data && b[i]->lock_fd < 0 && !b[i]->from_stdin && has_map(b[i]->path) &&
		    share_adopted(b[i], flags) < 0) {
			rc = -1;
			first[i] = PK_LOAD_FAILED;
		}
	if (held < 0)
		for (size_t i = 0; i < n; i++) { /* a set not held is not kept: nothing was written */
			rc = -1;
			pk_buf_free(b[i]);
			buf_init(b[i], paths[i]);
			first[i] = PK_LOAD_FAILED;
		}
	free(u);
	free(order);
	return rc;
}

int pk_buf_load(struct pk_buf *b, const char *path, int flags)
{
	char msg[PATH_MAX + 128];
	if (pk_buf_load_msg(b, path, flags, msg, sizeof(msg)) < 0)
		return msg[0] ? pk_error("%s", msg) : -1;
	return 0;
}

void pk_buf_from_mem(struct pk_buf *b, const char *path, char *data, size_t len)
{
	buf_init(b, path);
	b->data = data;
	b->len = len;
}

void pk_buf_free(struct pk_buf *b)
{
	if (b->lock_fd >= 0)
		close(b->lock_fd);
	free(b->path);
	free(b->data);
	free(b->line_start);
	memset(b, 0, sizeof(*b));
	b->lock_fd = -1;
}

void pk_buf_lines(struct pk_buf *b)
{
	if (b->line_start)
		return;
	size_t cap = 0, n = 0;
	PK_GROW(b->line_start, cap, 1);
	b->line_start[n++] = 0;
	const char *p = b->data, *end = b->data + b->len;
	while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		p++;
		if (p == end)
			break;
		PK_GROW(b->line_start, cap, n + 1);
		b->line_start[n++] = (size_t)(p - b->data);
	}
	b->nlines = n;
}

unsigned pk_buf_line_of(struct pk_buf *b, size_t off)
{
	pk_buf_lines(b);
	size_t lo = 0, hi = b->nlines;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (b->line_start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return (unsigned)(lo + 1);
}

unsigned pk_buf_col_of(struct pk_buf *b, size_t off)
{
	unsigned line = pk_buf_line_of(b, off);
	return (unsigned)(off - b->line_start[line - 1] + 1);
}

void pk_buf_line_bounds(const struct pk_buf *b, size_t off, size_t *ls, size_t *le)
{
	size_t s = off;
	while (s > 0 && b->data[s - 1] != '\n')
		s--;
	const char *nl = off < b->len ? memchr(b->data + off, '\n', b->len - off) : NULL;
	*ls = s;
	*le = nl ? (size_t)(nl - b->data) + 1 : b->len;
}

const char *pk_buf_eol(const struct pk_buf *b)
{
	size_t crlf = 0, lf = 0;
	for (const char *p = b->data, *end = b->data + b->len; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
		if (p > b->data && p[-1] == '\r')
			crlf++;
		else
			lf++;
	}
	return crlf > lf ? "\r\n" : "\n";
}
