/* buf.h - a source file held in memory exactly as read, byte for byte.
 * Every later stage reads from a pk_buf and never re-reads the file.
 * Any tool/ file may include this. */
#ifndef PK_BUF_H
#define PK_BUF_H

#include <stddef.h>
#include <sys/stat.h>

struct pk_buf {
	char *path; /* as the user named it ("-" for standard input) */
	char *data; /* the bytes, NUL-terminated after len for convenience */
	size_t len;
	int from_stdin;
	int lock_fd;    /* fd holding an flock while we may rewrite the file, or -1 */
	struct stat st; /* stat at read time: detects a change before we write */
	/* line index, built on demand by pk_buf_lines() */
	size_t *line_start; /* offset of each line's first byte */
	size_t nlines;
};

enum pk_load_flags {
	PK_LOAD_FOR_WRITE = 1, /* take an exclusive lock until pk_buf_free */
	PK_LOAD_ALLOW_NUL = 2, /* do not refuse binary content */
	/* wait for a writer of the file (a shared lock while it is read); the
	 * lock of a kernel with an event map beside it (PATH.timing.json), the
	 * lock of its whole set, is kept until pk_buf_free */
	PK_LOAD_SHARED = 4,
};

/* Read PATH ("-" = stdin). On error prints "probekit: PATH: msg", returns -1. */
int pk_buf_load(struct pk_buf *b, const char *path, int flags);
/* The same, but a failure is written to MSG ("PATH: what") instead of stderr. */
int pk_buf_load_msg(struct pk_buf *b, const char *path, int flags, char *msg, size_t cap);
/* Load N paths as one set (the files of one rewriting run). A file named
 * twice, or once more through a link, is loaded once: FIRST[i] is the index
 * of the first name of path i's file (i itself when it is the first), or
 * PK_LOAD_FAILED; B[i] of a later name stays empty. With PK_LOAD_FOR_WRITE
 * the locks are taken in one order for every process (device, inode), so
 * two runs naming the same files in another order never wait on each
 * other. Messages printed; returns -1 if any path failed. */
#define PK_LOAD_FAILED ((size_t)-1)
int pk_buf_load_set(struct pk_buf *const *b, char *const *paths, size_t n, int flags, size_t *first);
/* Lock the N files of B as one set, in the order pk_buf_load_set takes,
 * each held until pk_buf_free. A B[i] holding bytes already (read before
 * without a lock, to learn which files the set has) is not read again:
 * once locked it must be the file read, untouched (device, inode, size,
 * modification and change times of the open file). An empty B[i] (its path
 * set) is read now. Standard input is left as it is. Returns 0; 1 when a
 * file read before changed since (or a name now opens another file): nothing
 * more was read, and the caller starts again from reading; -1 on error
 * (printed). */
int pk_buf_lock_set(struct pk_buf *const *b, size_t n);
/* pk_buf_load_set for a set some of whose files were read before, without
 * a lock, to learn that they belong to it (a directory's files, read for
 * their probe markers): a B[i] holding bytes (B[i]->st the state of the
 * file read) is adopted, not read again; an empty B[i] is loaded from
 * PATHS[i]. With PK_LOAD_FOR_WRITE the whole set is locked once in the
 * usual order and each adopted file must be the one read, untouched
 * (pk_buf_lock_set), or it is read again under its lock; with
 * PK_LOAD_SHARED an adopted kernel with an event map is checked so under
 * its shared lock. FIRST and the result as pk_buf_load_set. */
int pk_buf_adopt_set(struct pk_buf *const *b, char *const *paths, size_t n, int flags, size_t *first);
/* Take ownership of memory already holding a file's bytes (for --staged). */
void pk_buf_from_mem(struct pk_buf *b, const char *path, char *data, size_t len);
void pk_buf_free(struct pk_buf *b);
/* PATH opened for reading without blocking and without following a final
 * link: its fd, or -1 unless it is a regular file of at most MAX bytes (a
 * FIFO or a huge file a repository brings never stalls a run). */
int pk_open_small(const char *path, size_t max);

/* Build the line index (idempotent). */
void pk_buf_lines(struct pk_buf *b);
/* 1-based line and column of OFF. */
unsigned pk_buf_line_of(struct pk_buf *b, size_t off);
unsigned pk_buf_col_of(struct pk_buf *b, size_t off);
/* Offsets of the line containing OFF: [*ls, *le) where *le includes the EOL. */
void pk_buf_line_bounds(const struct pk_buf *b, size_t off, size_t *ls, size_t *le);
/* The end-of-line sequence the file uses most ("\r\n" or "\n"). */
const char *pk_buf_eol(const struct pk_buf *b);

#endif
