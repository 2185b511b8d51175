/* marks.h - the brace markers probe-inject writes around a braceless
 * if/for/while body so a probe can sit inside it. Text only, never libclang:
 * probe-strip, probe-list and probe-check use it to find and remove them.
 *
 * A marker is a whole line, alone on it apart from indentation:
 *     {  // TIMING_PROBE_BRACE: NAME
 *     }  // TIMING_PROBE_BRACE: NAME
 * Removing both lines (with their EOL) restores the original bytes.
 *
 * A body on its owner's line (`if (c) work();`) gets a split opening marker
 * that ends the owner's line, the body moving to the next line:
 *     if (c) {  // TIMING_PROBE_BRACE: NAME split
 *         work();
 * Strip removes from the '{' to the end of the line and the indentation of
 * the next line that is not in a probe block, which joins the body back.
 * Any tool/ file may include this. */
#ifndef PK_MARKS_H
#define PK_MARKS_H

#include <stddef.h>

#include "buf.h"
#include "edit.h"
#include "scan.h"

#define PK_BRACE_MARKER "TIMING_PROBE_BRACE:"

struct pk_mark {
	char *name;    /* probe NAME */
	int open;      /* '{' line (1) or '}' line (0) */
	int split;     /* a split '{' marker: code before it on its line */
	unsigned line; /* 1-based */
	size_t start;  /* offset of the line's first byte (split: of the '{') */
	size_t end;    /* offset just past its EOL */
};

/* Marker text without indentation or EOL: "{  // TIMING_PROBE_BRACE: NAME"
 * (with " split" when SPLIT). Returns the length, or -1 if it does not fit. */
int pk_marks_text(char *dst, size_t cap, int open, int split, const char *name);

/* Every marker line of B in file order, with S the block scan of B and its
 * comment map (a mention in a comment is prose). A line that mentions the
 * marker but is not one, or braces that do not pair up per name, is damage:
 * -1, no marks and *damage = "PATH:LINE: ..." (malloc'd); else 0 and
 * *damage = NULL. pk_source_scan calls this once per file. */
int pk_marks_find(const struct pk_buf *b, const struct pk_scan *s, struct pk_mark **marks, size_t *n, char **damage);
void pk_marks_free(struct pk_mark *marks, size_t n);

struct pk_source;

/* Add to PLAN the removal of every marker line of probe ONLY_NAME (NULL: of
 * every probe, as the full strip that also removes the timing tensor) in
 * SRC. A line inside a probe block the same plan removes is dropped by the
 * plan check, with the block. A split marker's body joins the first line
 * after it that does not go whole (a probe block; with ONLY_NAME NULL, a
 * timing-marked line too). Returns the number of lines
 * planned, or -1 (message printed) when a marker of SRC is damaged. */
int pk_marks_plan_strip(const struct pk_source *src, const char *only_name, struct pk_plan *plan);

#endif
