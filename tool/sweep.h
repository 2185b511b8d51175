/* sweep.h - the parts of probe-sweep below its command: putting sources
 * back (and the journal that lets a later run do it after probe-sweep itself
 * was killed), and running a command in its own process group with signals
 * forwarded. Included by cmd_sweep.c and sweep_*.c only. */
#ifndef PK_SWEEP_H
#define PK_SWEEP_H

#include "buf.h"
#include "scan.h"

#include <stddef.h>

/* Does CUR differ from ORIG (scanned as SCAN) only by probe switches, i.e.
 * '#if 1' where ORIG has '#if 0'? (Equal bytes count as yes.) */
int sw_only_flips(const struct pk_buf *orig, const struct pk_scan *scan, const char *cur, size_t len);

/* Put every file back to its original bytes, as one unit (temporary file,
 * rename, via the rewriting commands' transaction). A file that differs
 * from its original by more than probe switches is someone's edit: it is
 * left alone and reported, with WHERE naming the copy of its original.
 * *RESTORED counts the files rewritten. Returns 0 or -1. */
int sw_put_back(const struct pk_buf *orig, const struct pk_scan *scans, size_t n, const char *where, size_t *restored);

/* DIR/.lock, held (flock) for the whole sweep: one sweep per DIR. Returns
 * the fd, or -1 (message printed) when another sweep holds it. */
int sw_lock_dir(const char *dir);
/* Save the original bytes of the N files in DIR/.journal before any is
 * changed. Returns 0 or -1 (message printed; nothing was changed). */
int sw_journal_write(const char *dir, const struct pk_buf *orig, size_t n);
/* A journal in DIR (a sweep that did not finish)? 1 yes, 0 no. */
int sw_journal_exists(const char *dir);
/* Put back the files a journal in DIR names, then remove it. 0 when there
 * was none or every file is back (said on stderr), -1 when one could not be
 * (the journal is kept). */
int sw_journal_recover(const char *dir);
/* Remove DIR/.journal (after the files are back). */
void sw_journal_remove(const char *dir);

/* Catch SIGINT, SIGTERM and SIGHUP (not SIGHUP when it is ignored, as under
 * nohup): the first is remembered and forwarded to the running child's
 * process group, a second one kills that group. */
void sw_signals_install(void);
/* The first signal caught, or 0. */
int sw_caught(void);
/* Run ARGV (ARGV[0] a path) in a new process group, with ENV ("K=V"
 * strings, NULL-terminated, may be NULL) added, standard input from
 * /dev/null, standard output and error to OUT_FD / ERR_FD (-1: ours).
 * *STATUS is the exit code, or 128 + the signal that ended it. With
 * TIMEOUT_MS > 0, a command still running after that long has its whole
 * process group stopped (SIGTERM, then SIGKILL). Returns 0, 1 when it was
 * stopped for its time limit, or -1 when it could not be started (message
 * printed). */
int sw_spawn(char *const argv[], char *const env[], int out_fd, int err_fd, long timeout_ms, int *status);

#endif
