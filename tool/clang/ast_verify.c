/* ast_verify.c - nothing is written that does not parse: the planned text
 * is parsed again (same flags, stubs and unit as the first parse) and its
 * errors are compared with the first parse's, line by line through the
 * plan. An error on an inserted line, or one more on an original line,
 * refuses the edit, naming the error and the inserted line. */
#include "ast.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

/* Where byte X of the edited text came from: the original offset (*orig,
 * returns -1) or the index of the plan's edit whose text holds it. */
static long origin(const struct pk_plan *p, size_t x, size_t *orig)
{
	size_t no = 0, oo = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct pk_edit *e = &p->e[i];
		size_t keep = e->start - oo;
		if (x < no + keep) {
			*orig = oo + (x - no);
			return -1;
		}
		no += keep;
		oo = e->start;
		if (x < no + e->text_len) {
			*orig = e->start;
			return (long)i;
		}
		no += e->text_len;
		oo = e->end;
	}
	*orig = oo + (x - no);
	return -1;
}

/* The line of TEXT holding offset X, trimmed (malloc'd). */
static char *line_at(const char *text, size_t len, size_t x)
{
	size_t s = x < len ? x : len, e = s;
	while (s > 0 && text[s - 1] != '\n')
		s--;
	while (e < len && text[e] != '\n' && text[e] != '\r')
		e++;
	while (s < e && (text[s] == ' ' || text[s] == '\t'))
		s++;
	return pk_xstrndup(text + s, e - s);
}

/* Is there an error of the first parse, not yet matched, on LINE (0: a
 * header's) with message MSG? It is matched then. */
static int match_old(const struct pk_ast *a, unsigned char *used, unsigned line, const char *msg)
{
	for (size_t i = 0; i < a->nerrs; i++)
		if (!used[i] && a->errs[i].line == line && !strcmp(a->errs[i].msg, msg)) {
			used[i] = 1;
			return 1;
		}
	return 0;
}

/* The first inserted line at or after original offset OFF (the probe's
 * line nearest an error it caused on an original line), or NULL. */
static char *next_inserted(const struct pk_plan *p, size_t off, unsigned *line, struct pk_ast *a)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->e[i].end >= off && p->e[i].text_len) {
			*line = pk_ast_line(a, p->e[i].start);
			return line_at(p->e[i].text, p->e[i].text_len, 0);
		}
	return NULL;
}

static int refuse(struct pk_ast *a, const struct pk_plan *plan, const char *text, size_t len,
                  const struct pk_parse_error *e, const char *name)
{
	size_t orig;
	long ins = e->line ? origin(plan, e->off, &orig) : -1;
	if (ins >= 0) {
		char *l = line_at(text, len, e->off);
		int rc = pk_error("%s:%u: probe '%s': the inserted line '%s' does not parse here: %s; nothing "
		                  "written (its API must be declared where the probe goes: give the build's "
		                  "flags with -p BUILD_DIR or after --)",
		                  a->b->path, pk_ast_line(a, orig), name, l, e->msg);
		free(l);
		return rc;
	}
	if (!e->line)
		return pk_error("%s: probe '%s': the result does not parse: %s; nothing written", a->b->path, name,
		                e->msg);
	unsigned il = 0;
	char *l = next_inserted(plan, orig, &il, a);
	int rc = pk_error("%s:%u: probe '%s': with the probe inserted (line %u: '%s') clang reports a new error "
	                  "here: %s; nothing written",
	                  a->b->path, pk_ast_line(a, orig), name, il, l ? l : "", e->msg);
	free(l);
	return rc;
}

int pk_ast_verify(struct pk_ast *a, const struct pk_plan *plan, const char *name)
{
	if (!plan->n)
		return 0;
	char *text;
	size_t len;
	pk_plan_apply(plan, a->b->data, a->b->len, &text, &len);
	struct pk_parse_error *errs;
	size_t n;
	int rc = pk_ast_reparse(a, text, len, &errs, &n);
	unsigned char *used = pk_xcalloc(a->nerrs + 1, 1);
	for (size_t i = 0; i < n && rc == 0; i++) {
		size_t orig = 0;
		unsigned line = 0;
		if (errs[i].line && origin(plan, errs[i].off, &orig) < 0)
			line = pk_ast_line(a, orig);
		else if (errs[i].line)
			line = (unsigned)-1; /* an inserted line: never matched */
		if (!match_old(a, used, line, errs[i].msg))
			rc = refuse(a, plan, text, len, &errs[i], name);
	}
	free(used);
	pk_parse_errors_free(errs, n);
	free(text);
	return rc;
}
