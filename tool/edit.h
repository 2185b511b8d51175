/* edit.h - an edit plan: byte-range replacements against the ORIGINAL buffer.
 * Planners only add edits; nothing edits text in place, and no planner
 * trims or drops another's edits. pk_plan_check sorts the plan and applies
 * its one rule (below); pk_plan_apply then builds the new text once.
 * Any tool/ file may include this. */
#ifndef PK_EDIT_H
#define PK_EDIT_H

#include <stddef.h>

struct pk_edit {
	size_t start, end; /* replace original bytes [start, end) */
	char *text;        /* with these bytes (owned) */
	size_t text_len;
	size_t seq; /* insertion order, keeps same-offset inserts stable */
};

struct pk_plan {
	struct pk_edit *e;
	size_t n, cap;
};

void pk_plan_init(struct pk_plan *p);
void pk_plan_free(struct pk_plan *p);
/* Replace [start,end) by text (copied). Pure insertion: start == end. */
void pk_plan_add(struct pk_plan *p, size_t start, size_t end, const char *text, size_t len);
/* Sort and validate. The one rule: an edit that lies wholly inside a range
 * another edit of the plan removes (replaces with nothing: a probe block, a
 * marked line) is dropped, since its text goes anyway; an insertion counts
 * as inside only strictly between the removal's ends. Any other overlap is
 * refused: -1 with "internal error" naming PATH. Edits outside the file are
 * refused too. */
int pk_plan_check(struct pk_plan *p, const char *path, size_t orig_len);
/* Build the edited text; *out is malloc'd and NUL-terminated. Plan must be checked. */
void pk_plan_apply(const struct pk_plan *p, const char *orig, size_t orig_len, char **out, size_t *out_len);

#endif
