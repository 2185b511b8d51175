/* journal.h - the journal of a multi-file write: written by emit.c before
 * the first rename, read back by the next run that writes a file of one of
 * its directories, and reported by probe-list and probe-check. The format
 * and the rules for acting on one are in journal.c (and docs/safety.md).
 * Only emit.c, buf.c and the commands that report or discard journals
 * include this. */
#ifndef PK_JOURNAL_H
#define PK_JOURNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

/* One file of a write, by its real path: what it held before (absent, or
 * the file of DEV/INO with SIZE bytes hashing to HASH) and what it holds
 * after (the temporary file TMP renamed over it, or absent: a removal). */
struct pk_jfile {
	const char *target, *tmp; /* real paths; TMP NULL for a removal */
	int before, after;        /* 1: the file exists in that state */
	dev_t bdev, adev;
	ino_t bino, aino;
	uint64_t bsize, asize, bhash, ahash;
};

/* The copies of one journal, each locked while the renames run. */
struct pk_journal {
	int *fd;
	int *dirfd;
	char **name; /* each copy's name in its folder */
	size_t n;
};

/* The hash a journal records of a file's bytes (64-bit FNV-1a). */
uint64_t pk_hash64(const char *p, size_t n);
/* Write and sync a copy in every folder of F, each locked: 0, or -1 with
 * a message naming SHOWN (nothing left behind). */
int pk_journal_begin(struct pk_journal *j, const struct pk_jfile *f, size_t n, const char *shown);
/* Remove the copies (the write finished or was put back) and unlock. */
void pk_journal_end(struct pk_journal *j);
/* Before PATH is read for a rewrite: act on the journals of its folder.
 * One that is provably this user's own unfinished write on these very
 * files is finished (or put back) and says so on stderr in one line; any
 * other journal there is refused: one line naming it and the option that
 * discards it, nothing touched, -1. Each folder once a run. */
int pk_txn_recover(const char *path);
/* --discard-journal: a journal that would be refused is removed instead
 * (that file alone). */
void pk_journal_set_discard(int on);
int pk_journal_discard(void);
/* This machine as a journal records it (/etc/machine-id and host name). */
const char *pk_host_id(void);
/* For probe-list and probe-check: print one finding line per pending
 * journal (a multi-file write or a probe-sweep) in the folder of PATH or
 * in its default probe-sweep output folder, without acting on any. Returns
 * how many were found. Each folder once a run. */
size_t pk_journal_report(const char *path, FILE *out);
/* Its parts, for a caller that reads the folders in parallel and prints in
 * order: the probe-sweep journal's line (0 or 1), the folder of PATH as
 * read (malloc'd; NULL for standard input), and the lines of folder DIR's
 * pending journals (malloc'd, NULL when none) with their count in *N. */
size_t pk_journal_sweep_report(FILE *out);
char *pk_journal_dir_of(const char *path);
char *pk_journal_dir_text(const char *dir, size_t *n);

#endif
