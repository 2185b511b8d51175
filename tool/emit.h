/* emit.h - where a command's result goes: in place (atomic), -o, --stdout,
 * --diff, --check. Shared by every rewriting command.
 * Any tool/ file may include this. */
#ifndef PK_EMIT_H
#define PK_EMIT_H

#include "buf.h"
#include "edit.h"

#include <getopt.h>
#include <stdio.h>

enum pk_emit_mode {
	PK_EMIT_INPLACE = 0,
	PK_EMIT_OUTFILE, /* -o PATH (one input only) */
	PK_EMIT_STDOUT,  /* --stdout, or input "-" */
	PK_EMIT_DIFF,    /* --diff: unified diff on stdout, nothing written */
	PK_EMIT_CHECK,   /* --check: nothing written, exit 1 if it would change */
};

struct pk_emit_opts {
	enum pk_emit_mode mode;
	const char *out_path; /* for PK_EMIT_OUTFILE */
};

/* Command-line options shared by every rewriting command. */
enum { PK_OPT_STDOUT = 0x1000, PK_OPT_DIFF, PK_OPT_CHECK, PK_OPT_DISCARD_JOURNAL };
#define PK_EMIT_LONGOPTS                                                                                               \
	{"stdout", no_argument, 0, PK_OPT_STDOUT}, {"diff", no_argument, 0, PK_OPT_DIFF},                              \
	    {"check", no_argument, 0, PK_OPT_CHECK}, {"discard-journal", no_argument, 0, PK_OPT_DISCARD_JOURNAL},      \
	{                                                                                                              \
		"output", required_argument, 0, 'o'                                                                    \
	}
#define PK_EMIT_HELP                                                                                                   \
	"output (default: rewrite each FILE in place, atomically; '-' reads stdin, writes stdout):\n"                  \
	"  -o, --output OUT   write the result to OUT (one input only)\n"                                              \
	"      --stdout       write the result to standard output\n"                                                   \
	"      --diff         print a unified diff with a/ b/ prefixes (git apply,\n"                                  \
	"                     patch -p1); write nothing; exit 1 if it has changes\n"                                   \
	"      --check        write nothing; exit 1 if anything would change\n"                                        \
	"      --discard-journal  remove a journal of an interrupted write that is\n"                                  \
	"                     refused (not provably this user's own on these files)\n"
/* Handle option C (from getopt_long). 1 = handled, 0 = not ours, -1 = error. */
int pk_emit_option(struct pk_emit_opts *o, int c, const char *arg);
/* The exit code of a run that changed CHANGED files: 1 with --check or
 * --diff when anything changes (as diff(1) does), else 0. */
int pk_emit_exit(const struct pk_emit_opts *o, size_t changed);
/* After parsing: validate against the number of inputs. */
int pk_emit_validate(const struct pk_emit_opts *o, size_t ninputs);

/* Final stage for one file: apply the checked plan and deliver it.
 * *changed is set to whether the text differs. Returns 0 or -1 (message printed,
 * the original file untouched). */
int pk_emit(const struct pk_emit_opts *o, struct pk_buf *b, const struct pk_plan *plan, int *changed);

/* Several files replaced together. pk_txn_add writes DATA to a temporary
 * file beside PATH and syncs it (EXPECT as for pk_write_atomic; ORIG/ORIG_LEN
 * the bytes PATH holds now, to put back should a later rename fail, NULL
 * for a new file); nothing is replaced yet. pk_txn_commit checks that every
 * file is still the one read, then renames them all. A failure at any step
 * before the renames (the usual ones: a full disk, a read-only file, a file
 * changed meanwhile) leaves every file as it was. Both return 0 or -1
 * (messages printed); a failed add leaves T to be committed or aborted;
 * commit and abort free T. */
struct pk_txn_file;
struct pk_txn {
	struct pk_txn_file *v;
	size_t n, cap;
};
int pk_txn_add(struct pk_txn *t, const char *path, const char *data, size_t len, const struct stat *expect,
               const char *orig, size_t orig_len);
int pk_txn_commit(struct pk_txn *t);
/* Stage the removal of PATH (a regular file, as it is now) in T: it goes
 * after every rename of T, in the same journalled set. 0 or -1. */
int pk_txn_remove(struct pk_txn *t, const char *path);
/* Before PATH is read for a rewrite: act on the journals of its folder
 * (journal.h). 0, or -1 when one was refused (message printed). */
int pk_txn_recover(const char *path);
/* Look at every folder's journals again (a run waited for may have died
 * half-way through a set since). */
void pk_txn_forget(void);
/* The name of a temporary file beside DIR/BASE, as a mkstemp template in
 * OUT: ".probekit.BASE.PID.XXXXXX", so that a later run can tell whose it
 * is (BASE cut so that the name stays within NAME_MAX). -1 if too long. */
int pk_temp_template(char *out, size_t size, const char *dir, const char *base);
void pk_txn_abort(struct pk_txn *t);
/* pk_emit with its file writes (in place, -o) staged in TXN, not done. */
int pk_emit_txn(const struct pk_emit_opts *o, struct pk_buf *b, const struct pk_plan *plan, int *changed,
                struct pk_txn *txn);
/* Write DATA to PATH atomically: temp file in the same directory, fsync,
 * rename; keeps the mode of EXPECT's file; refuses if PATH no longer matches
 * EXPECT's stat (someone changed it after we read it). EXPECT may be NULL
 * for a new output file. */
int pk_write_atomic(const char *path, const char *data, size_t len, const struct stat *expect);

/* Print a unified diff of the plan against B on stdout (3 lines of context). */
void pk_print_diff(FILE *out, struct pk_buf *b, const struct pk_plan *plan);

#endif
