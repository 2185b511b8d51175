/* timing_strip.h - the text form of timing-tensor instrumentation and
 * its removal. One home for the marker syntax: the injector (tool/timing/tt_*.c,
 * in the libclang module) writes it with pk_timing_wrap(), probe-strip and
 * probe-check read it here. Text only, never libclang.
 *
 * Two marks, both carrying `TIMING_PROBE:` so a global search finds them:
 *
 *   a whole inserted line ends with the line mark
 *       <indent>CODE  // TIMING_PROBE: @timing LABEL<eol>
 *   and is removed whole (its end of line included);
 *
 *   a change inside a line keeps the bytes it replaced
 *       / * TIMING_PROBE: @timing-was "ORIG" * /NEW/ * TIMING_PROBE: @timing-end * /
 *   (ORIG escaped: \\ \" \n \r \t \/) and is replaced by ORIG again, so the
 *   original ABI comes back byte for byte.
 *
 * Any tool/ file may include this. */
#ifndef PK_TIMING_STRIP_H
#define PK_TIMING_STRIP_H

#include "buf.h"
#include "edit.h"
#include "scan.h"

#define PK_TT_TAG       "TIMING_PROBE: @timing"
#define PK_TT_LINE_MARK "// TIMING_PROBE: @timing"
#define PK_TT_WAS_OPEN  "/* TIMING_PROBE: @timing-was \""
#define PK_TT_WAS_CLOSE "\" */"
#define PK_TT_END       "/* TIMING_PROBE: @timing-end */"
/* Python (a file named *.py): an added line ends with PK_TT_PY_MARK LABEL, a
 * changed line with PK_TT_PY_LINE_OPEN ORIG" (ORIG escaped: \\ \" \t). */
#define PK_TT_PY_MARK      "# TIMING_PROBE: @timing"
#define PK_TT_PY_LINE_OPEN "# TIMING_PROBE: @timing-line \""

/* One timing mark found: replace [start, end) by text (empty: a whole line). */
struct pk_tmark {
	size_t start, end;
	char *text; /* the original bytes an in-line change keeps (owned) */
	size_t len;
};

struct pk_source;

/* Every timing mark of B in file order, with S the block scan of B and its
 * comment map (a Python file is read line by line, S unused). A damaged
 * mark (nothing useful can be planned then) gives -1, no marks and
 * *damage = "PATH:LINE: damaged timing mark: ..." (malloc'd); else 0 and
 * *damage = NULL. pk_source_scan calls this once per file. */
int pk_timing_find(const struct pk_buf *b, const struct pk_scan *s, struct pk_tmark **marks, size_t *n, char **damage);
void pk_timing_free(struct pk_tmark *marks, size_t n);

/* Add to PLAN the edits that remove every timing mark of SRC: whole marked
 * lines go, in-line changes get their original bytes back. An edit inside a
 * probe block the same plan removes is dropped by the plan check. Returns
 * the number of edits added, or -1 with "probekit: PATH:LINE: ..." printed
 * when a mark is damaged. */
int pk_timing_plan_strip(const struct pk_source *src, struct pk_plan *plan);

/* The in-line form replacing ORIG (ORIG_LEN bytes) by NEW: malloc'd, NUL-
 * terminated; *len (if not NULL) gets its length. */
char *pk_timing_wrap(const char *orig, size_t orig_len, const char *new_text, size_t *len);

/* Does B carry any timing mark (in a comment)? For "already instrumented",
 * on a file the timing-tensor injector loaded without a pk_source. */
int pk_timing_marked(const struct pk_buf *b);

#endif
