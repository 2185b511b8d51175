/* scan.h - the TIMING_PROBE block scanner: the one home of the probe grammar.
 *
 * A probe block is a directive line `#if 0` or `#if 1` whose comment reads
 * `TIMING_PROBE: NAME` (// or / * * /), up to its matching #endif. The scanner
 * is a C lexer reduced to what matters: comments, string / char / raw-string
 * literals, backslash continuations, and preprocessor nesting. It never
 * needs libclang. Any tool/ file may include this. */
#ifndef PK_SCAN_H
#define PK_SCAN_H

#include "buf.h"
#include "names.h"

#define PK_MARKER "TIMING_PROBE:"
/* The base-alignment probe: printed once at entry, every other probe
 * is read relative to it, so it runs together with the one probe enabled. */
#define PK_BASE_PROBE PK_NAME_PROBE_BASE

/* Why the base probe's block is as it is, from the words after its name
 * (rules/names.ini [probe]): probe-inject inserted it with another probe,
 * or turned an existing one on for probe NAME; probe-strip --probe undoes
 * either (the first when no other probe needs it). */
enum pk_base_mark { PK_BASE_MARK_NONE, PK_BASE_MARK_ADDED, PK_BASE_MARK_ON };

struct pk_block {
	char *name;         /* probe NAME */
	int enabled;        /* #if 1 */
	size_t dir_start;   /* offset of the directive line's first byte */
	size_t dir_end;     /* offset just past the directive line's EOL */
	size_t value_off;   /* offset of the '0' / '1' */
	size_t endif_start; /* offset of the #endif line's first byte */
	size_t endif_end;   /* offset just past the #endif line (its EOL, if any) */
	unsigned line;      /* 1-based line of the directive */
	unsigned endif_line;
	size_t scope;           /* innermost brace scope at the directive (0 = file) */
	size_t name_end;        /* offset just past NAME on the directive line */
	enum pk_base_mark mark; /* the base probe's words after its name, or none */
	size_t mark_end;        /* with a mark: offset past it ([name_end, mark_end) is " (WORDS)") */
	size_t mark_probe;      /* PK_BASE_MARK_ON: offset of the probe named in the words */
	size_t mark_probe_len;  /* and its length */
};

struct pk_diag {
	size_t off; /* where */
	char *msg;  /* lowercase, no full stop */
};

/* A byte range of a comment, for rules that must skip comments. */
struct pk_range {
	size_t start, end;
};

struct pk_scan {
	struct pk_block *blocks;
	size_t nblocks, cap_blocks;
	struct pk_diag *errors; /* malformed or unbalanced, in file order: the file cannot be edited */
	size_t nerrors, cap_errors;
	size_t unterminated;       /* 1 + where the first probe block with no #endif starts (the
	                              rest of the file is in it), or 0 */
	struct pk_range *comments; /* only with PK_SCAN_COMMENTS */
	size_t ncomments, cap_comments;
	size_t *scope_parent;         /* brace scopes: parent of scope k (scope 0 = file) */
	unsigned char *scope_is_func; /* a '{' right after ')' outside any function */
	size_t nscopes, cap_scopes, cap_scope_func;
};

/* Is scope INNER equal to or nested inside scope OUTER? */
int pk_scope_within(const struct pk_scan *s, size_t inner, size_t outer);
/* The function body containing SCOPE (a heuristic: a '{' after ')' outside
 * any other function body), else its outermost scope below file scope. */
size_t pk_scope_top(const struct pk_scan *s, size_t scope);

enum pk_scan_flags {
	PK_SCAN_COMMENTS = 1, /* record comment ranges */
};

/* Scan B. Always succeeds; problems land in s->errors. */
void pk_scan_buf(const struct pk_buf *b, struct pk_scan *s, int flags);
void pk_scan_free(struct pk_scan *s);
/* Is OFF inside a recorded comment? (needs PK_SCAN_COMMENTS) */
int pk_scan_in_comment(const struct pk_scan *s, size_t off);
/* Index of the block containing OFF (directive..endif), or -1. */
long pk_scan_block_at(const struct pk_scan *s, size_t off);
/* Print every scan error as "probekit: PATH:LINE: msg"; returns their count. */
size_t pk_scan_report_errors(struct pk_buf *b, const struct pk_scan *s);

/* Is the '\'' at Q in D a C++14 digit separator (1'000), not a quote? */
int pk_digit_separator(const char *d, size_t q);
/* Is NAME a valid probe name ([A-Za-z_][A-Za-z0-9_]*)? */
int pk_probe_name_ok(const char *name);
/* Canonical directive text (no EOL): "#if 0  // TIMING_PROBE: NAME". */
int pk_canonical_directive(char *dst, size_t cap, int enabled, const char *name);
/* The text of base mark M (not NONE) for probe NAME (PK_BASE_MARK_ON), with
 * the space before it: " (inserted with a probe)"; malloc'd. */
char *pk_base_mark_text(enum pk_base_mark m, const char *name);

#endif
