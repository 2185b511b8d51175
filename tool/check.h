/* check.h - probe-check's shared state: the files to check, their findings,
 * and the three parts that fill and read it (cmd_check.c checks and prints
 * text, check_walk.c collects files, check_sarif.c writes SARIF); probe-list
 * and probe-strip use its directory walk (pk_check_expand_dirs). */
#ifndef PK_CHECK_H
#define PK_CHECK_H

#include "litset.h"
#include "rules.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct pk_buf;

/* the kernel and C/C++ source suffixes a directory walk checks */
#define PK_CHECK_EXTS ".cpp,.cc,.cxx,.c,.c++,.h,.hpp,.hh,.hxx,.h++,.inl,.ipp,.tpp,.tcc,.cce,.asc,.cu,.cuh,.py"

struct finding {
	size_t off;
	unsigned line, col;
	const struct pk_rule *rule;
	enum pk_severity sev; /* the rule's, or a note (see needs-sign) */
	char *msg;
	char *text; /* the line's text, trimmed (SARIF fingerprints) */
};

struct item {        /* one file to check */
	char *path;  /* as shown (--staged, --diff-base: from the top of the work tree) */
	char *shown; /* --staged, --diff-base in a subfolder: PATH from there (text output) */
	char *load;  /* where to read it from, when not PATH (NULL: PATH) */
	char *data;  /* preloaded content (--staged), else NULL */
	size_t len;
	struct finding *f;
	size_t n, cap;
	int failed; /* could not be read or scanned */
	int python; /* a .py file: only the rules marked python, on its plain text */
	char *err;
	int named;       /* named on the command line (not found by a walk) */
	char *note;      /* why it was skipped (a binary file), printed on stderr */
	int change;      /* --staged / --diff-base: heuristic rules on added lines only */
	unsigned *added; /* added line ranges: first, last, first, last, ... ascending */
	size_t nadded, cap_added;
	/* read by the worker when its folder differs from the item before:
	 * the folder's pending-journal lines (NULL: none) and their count */
	int journals_read;
	char *journals;
	size_t njournals;
};

/* What one pass over a file's bytes must find before any rule can report
 * on it, for one kind of file (C/C++ sources, Python): every literal of the
 * rules in force, the probe marker (the block rules and probe markers) and
 * a NUL byte (a binary file). */
struct check_gate {
	struct pk_litset *set;
	uint64_t *rule_bits;  /* per rule: its literals' bits; 0: none known, always matched */
	uint64_t marker, nul; /* the bits of TIMING_PROBE and of a NUL byte */
};

struct check {
	struct pk_ruleset rules;
	struct check_gate gate[2]; /* [it->python] */
	int strict;
	int sarif;
	int staged;
	const char *diff_base;
	int no_ignore;
	char **excludes;
	size_t nexcludes;
	long jobs;
	char **exts;
	size_t nexts;
	struct item *items;
	size_t nitems, cap_items;
	atomic_size_t next;
};

int pk_check_ext_ok(const struct check *c, const char *name);
struct item *pk_check_add_item(struct check *c, const char *path);

/* Files and directories named on the command line; directories are walked
 * as git sees them (or honouring .gitignore outside git), minus
 * .probekitignore and --exclude, unless --no-ignore. With several paths
 * that overlap (one inside another, or the same twice), a file met twice
 * (device and inode) is one item, under its first spelling. */
int pk_check_collect_paths(struct check *c, char **paths, int n);
/* probe-list and probe-strip: PATHS with each directory replaced by the
 * files the walk above finds in it (default extensions, ignores; no event
 * map) that hold a probe marker; a named file stays as given. Returns
 * *NOUT malloc'd paths (NULL when none); *RC -1 when a walk failed
 * (reported). Each found file is read once to look for the marker: with
 * PRE, *PRE gets *NOUT buffers, (*PRE)[i] holding the bytes read of path i
 * (an unreadable file, or a named one the walk did not meet: empty, data
 * NULL) for pk_buf_adopt_set, so the set never reads them again; a named
 * file the walk met without a marker (the same device and inode) has the
 * bytes the walk read, under its name. Free what is left with
 * pk_check_free_pre, then the array. */
char **pk_check_expand_dirs(char **paths, size_t n, size_t *nout, int *rc, struct pk_buf **pre);
void pk_check_free_pre(struct pk_buf *pre, size_t n);
/* --staged / --diff-base: the changed files (intersected with NAMES when
 * given) and the lines each change adds. */
int pk_check_collect_change(struct check *c, char **names, int n);

/* The work tree's top directory (realpath), or NULL outside git. */
char *pk_check_git_toplevel(void);

void pk_check_print_sarif(const struct check *c);
/* The work the function check of cycle reads has done in this process (bytes
 * scanned, findings and blocks looked at): a count for the test that it grows
 * linearly with the file. */
size_t pk_check_sign_work(void);
const char *pk_check_sev_name(enum pk_severity s);

#endif
