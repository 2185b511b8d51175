/* buf.c - load a file once, exactly as it is on disk. */
#include "buf.h"
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

/* Lock the file so two probekit processes never interleave on it. After the
 * wait, the path may name a newer file (the other process renamed its result
 * over it): then read that one instead. */
static int open_locked(const char *path, int *fdp)
{
	for (int tries = 0; tries < 100; tries++) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		if (flock(fd, LOCK_EX) < 0) {
			close(fd);
			return -1;
		}
		struct stat a, b;
		if (fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev) {
			*fdp = fd;
			return 0;
		}
		close(fd);
	}
	errno = EAGAIN;
	return -1;
}

int pk_buf_load_msg(struct pk_buf *b, const char *path, int flags, char *msg, size_t cap)
{
	memset(b, 0, sizeof(*b));
	b->lock_fd = -1;
	b->path = pk_xstrdup(path);
	int fd = STDIN_FILENO;
	if (!strcmp(path, "-")) {
		b->from_stdin = 1;
	} else {
		if (flags & PK_LOAD_FOR_WRITE) {
			if (open_locked(path, &fd) < 0)
				return fail(msg, cap, path, strerror(errno));
		} else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
			return fail(msg, cap, path, strerror(errno));
		}
		const char *why = NULL;
		if (fstat(fd, &b->st) < 0)
			why = strerror(errno);
		else if (S_ISDIR(b->st.st_mode))
			why = "is a directory";
		else if (!S_ISREG(b->st.st_mode))
			why = "not a regular file";
		if (why) {
			close(fd);
			return fail(msg, cap, path, why);
		}
	}
	int rc = read_all(fd, &b->data, &b->len);
	int saved = errno;
	if (!b->from_stdin) {
		if (rc < 0 || !(flags & PK_LOAD_FOR_WRITE))
			close(fd);
		else
			b->lock_fd = fd;
	}
	if (rc < 0)
		return fail(msg, cap, path, strerror(saved));
	if (!(flags & PK_LOAD_ALLOW_NUL) && memchr(b->data, '\0', b->len))
		return fail(msg, cap, path, "binary file (contains NUL bytes), not a source file");
	return 0;
}

int pk_buf_load(struct pk_buf *b, const char *path, int flags)
{
	char msg[PATH_MAX + 128];
	if (pk_buf_load_msg(b, path, flags, msg, sizeof(msg)) < 0)
		return pk_error("%s", msg);
	return 0;
}

void pk_buf_from_mem(struct pk_buf *b, const char *path, char *data, size_t len)
{
	memset(b, 0, sizeof(*b));
	b->lock_fd = -1;
	b->path = pk_xstrdup(path);
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
	for (const char *p = b->data, *end = b->data + b->len;
	     (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
		if (p > b->data && p[-1] == '\r')
			crlf++;
		else
			lf++;
	}
	return crlf > lf ? "\r\n" : "\n";
}
