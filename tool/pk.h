/* pk.h - facts every probekit layer shares: result codes, messages, version.
 * Any tool/ file may include this. */
#ifndef PK_H
#define PK_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define PK_VERSION "0.1.0"

/* Process exit codes, the same for every command (README "Exit codes"). */
enum pk_exit {
	PK_EXIT_OK = 0,       /* clean, or nothing to do                  */
	PK_EXIT_FINDINGS = 1, /* check found problems / --check would change */
	PK_EXIT_ERROR = 2,    /* usage or input error; nothing written     */
};

#if defined(__GNUC__)
#define PK_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PK_PRINTF(a, b)
#endif

/* "probekit: <msg>" on stderr; returns -1 so lower layers can
 * `return pk_error(...)` and let the caller decide what to do. */
int pk_error(const char *fmt, ...) PK_PRINTF(1, 2);
/* "probekit: warning: <msg>" on stderr. */
void pk_warning(const char *fmt, ...) PK_PRINTF(1, 2);
/* A status line of a command as it goes ("probe-sweep: [2/6] ..."), on the
 * message stream as it is, without the "probekit: " prefix (the command
 * decides whether -q drops it). */
void pk_note(const char *fmt, ...) PK_PRINTF(1, 2);
/* -1 (-q: pk_warning prints nothing), 0, or 1 (--verbose: every detail) */
void pk_set_verbosity(int v);
int pk_verbosity(void);
/* Hold every message in memory from now on, until pk_msg_release prints
 * them in order (SHOW) or drops them: a first attempt that may be redone
 * keeps its messages to itself. */
void pk_msg_hold(void);
void pk_msg_release(int show);
/* Abort on allocation failure: probekit never continues half-built. */
void *pk_xmalloc(size_t n);
void *pk_xcalloc(size_t n, size_t sz);
void *pk_xrealloc(void *p, size_t n);
char *pk_xstrdup(const char *s);
char *pk_xstrndup(const char *s, size_t n);
/* Is WORD (N bytes) one of the words of LIST (separated by blanks or commas)? */
int pk_word_in(const char *list, const char *word, size_t n);
/* The formatted text, malloc'd. */
char *pk_xasprintf(const char *fmt, ...) PK_PRINTF(1, 2);
char *pk_xvasprintf(const char *fmt, va_list ap);
/* A growing string: { NULL, 0, 0 } is empty; s stays NUL-terminated. */
struct pk_sb {
	char *s;
	size_t n, cap;
};
void pk_sb_add(struct pk_sb *sb, const char *s);
void pk_sb_addn(struct pk_sb *sb, const char *s, size_t n);
void pk_sb_addf(struct pk_sb *sb, const char *fmt, ...) PK_PRINTF(2, 3);
void pk_sb_free(struct pk_sb *sb);
/* Everything FP still holds, malloc'd, NUL-terminated and zeroed past the
 * end; *len (if not NULL) gets its length. */
char *pk_read_all(FILE *fp, size_t *len);
/* The one binary search over sorted records: in the N records of SIZE
 * bytes at V, sorted by the size_t at byte FIELD of each (an offset), the
 * index of the first one whose FIELD is at or after OFF (N if none). */
size_t pk_first_at(const void *v, size_t n, size_t size, size_t field, size_t off);
/* A test hook: with PROBEKIT_TEST_READS=FILE set, every read of an input
 * through the file layer appends a line to FILE, "DEV:INODE PATH" when ST
 * is given, else "PATH" (a rules file: "rules/NAME"), so a test can count
 * how many times a run read each file. Nothing otherwise. */
struct stat;
void pk_note_read(const char *path, const struct stat *st);
/* TARGET as a relative path from the folder holding FILE; NULL when either is missing. */
char *pk_path_from(const char *file, const char *target);
/* PATH (from some root) as a path from folder DIR ("" or ending in '/', from the same root). */
char *pk_path_relative(const char *dir, const char *path);
/* PATH with "." parts, empty parts and "NAME/.." pairs folded away, lexically
 * (a leading ".." stays). */
char *pk_path_fold(const char *path);
/* The work tree holding PATH (a file or a folder): its nearest folder
 * with a .git, else the
 * folder the command runs in (malloc'd; NULL when PATH is not there). The
 * folder no file a repository names (an event map's list, a header it
 * includes) may make the tool touch anything outside. */
char *pk_work_tree(const char *path);
/* Is PATH, links resolved, inside folder DIR (by device and inode)? */
int pk_path_within(const char *path, const char *dir);
/* Grow *arr (of *cap elements of size sz) to hold at least want. */
void pk_grow(void **arr, size_t *cap, size_t want, size_t sz);
#define PK_GROW(arr, cap, want) pk_grow((void **)&(arr), &(cap), (want), sizeof(*(arr)))

/* A set of strings (copies), hashed: membership in constant time where a
 * run meets thousands (the folders of a tree). Zero-initialised is empty. */
struct pk_strset {
	char **v;
	size_t n, cap;
	size_t *slots; /* open addressing: 1 + index into v, 0 = free */
	size_t nslots;
};
/* Add S; returns 1 when it was there already (nothing added). */
int pk_strset_add(struct pk_strset *set, const char *s);
/* The index of S in SET (v[], in the order added), or -1. */
long pk_strset_index(const struct pk_strset *set, const char *s);
void pk_strset_clear(struct pk_strset *set);

/* The kinds of a timing-tensor event: what its stamp means. The injection
 * writes them into the event map; probe-report reads them from it. */
enum pk_event_kind { PK_EV_ISSUE, PK_EV_DRAIN, PK_EV_PHASE, PK_EV_ARRIVAL, PK_EV_RELEASE, PK_EV_KINDS };
extern const char *const pk_event_kind_names[PK_EV_KINDS];
/* The kind named NAME, or -1. */
int pk_event_kind_of(const char *name);

/* Can byte C be part of an identifier?  Bytes of 0x80 and above count: C++
 * and Python accept UTF-8 identifiers, and a name is never split inside one. */
static inline int pk_is_ident(int c)
{
	unsigned char u = (unsigned char)c;
	return u == '_' || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u >= 0x80;
}

/* Options every command has: -h/--help and --version. */
enum { PK_OPT_VERSION = 0x2000 };
#define PK_COMMON_LONGOPTS                                                                                             \
	{"help", no_argument, 0, 'h'},                                                                                 \
	{                                                                                                              \
		"version", no_argument, 0, PK_OPT_VERSION                                                              \
	}
/* Handle C when it is -h, --version, or getopt's complaint about ARGV (':'
 * missing value, '?' unknown option). Returns 1 and sets *rc when the
 * command should end now; 0 when C is the command's own option. */
int pk_common_option(int c, char **argv, const char *usage, int *rc);
/* getopt_long, remembering LONGOPTS so that pk_common_option can suggest the
 * closest one for a mistyped long option. */
struct option;
int pk_getopt_long(int argc, char **argv, const char *shortopts, const struct option *longopts);
/* The option loop of every command: getopt_long over SHORTOPTS (':' first)
 * and LONGOPTS, getopt's own messages off, from the first argument. Each
 * option C goes to ON(USER, C, ITS VALUE), which answers PK_OPT_TAKEN,
 * PK_OPT_REFUSED (its message printed), PK_OPT_DONE (it printed what was
 * asked, such as its own help) or PK_OPT_OTHER: then -h (USAGE), --version
 * and getopt's complaints, with "did you mean", are answered here. Returns 0
 * when the options are read (the operands start at optind; *RC untouched),
 * else 1 with *RC: PK_EXIT_OK after help or the version, PK_EXIT_ERROR after
 * an error. */
enum { PK_OPT_REFUSED = -1, PK_OPT_TAKEN = 0, PK_OPT_OTHER = 1, PK_OPT_DONE = 2 };
int pk_options(int argc, char **argv, const char *shortopts, const struct option *longopts,
               int (*on)(void *user, int c, const char *arg), void *user, const char *usage, int *rc);
/* Levenshtein distance, case-insensitive. */
size_t pk_distance(const char *a, const char *b);

/* Command entry points (tool/main.c dispatches). */
int cmd_inject(int argc, char **argv);
int cmd_strip(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_sweep(int argc, char **argv);

/* Name of the command being run, for --help/--version ("probe-inject"). */
extern const char *pk_progname;
/* Print "<progname> (probekit) VERSION" and return 0. */
int pk_print_version(void);

#endif
