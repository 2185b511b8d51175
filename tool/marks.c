/* marks.c - find and remove the brace markers of marks.h, on text alone. */
#include "marks.h"
#include "pk.h"
#include "scan.h"
#include "source.h"

#include <stdlib.h>
#include <string.h>

#define SPLIT_WORD "split"

int pk_marks_text(char *dst, size_t cap, int open, int split, const char *name)
{
	int n =
	    snprintf(dst, cap, "%c  // %s %s%s", open ? '{' : '}', PK_BRACE_MARKER, name, split ? " " SPLIT_WORD : "");
	return n < 0 || (size_t)n >= cap ? -1 : n;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Parse one line [p, e) (EOL excluded) as a marker. Returns 1 and fills
 * *open, *split, *brace (offset of the brace in the line) and *name; 0 if
 * the line does not mention the marker; -1 if it is damaged. */
static int parse_line(const char *p, const char *e, int *open, int *split, size_t *brace, char **name)
{
	const char *hit = NULL;
	size_t ml = strlen(PK_BRACE_MARKER);
	for (const char *q = p; q + ml <= e; q++)
		if (!memcmp(q, PK_BRACE_MARKER, ml)) {
			hit = q;
			break;
		}
	if (!hit)
		return 0;
	/* backwards from the marker: '//', blanks, the brace */
	const char *q = hit;
	while (q > p && is_blank(q[-1]))
		q--;
	if (q - p < 2 || q[-1] != '/' || q[-2] != '/')
		return -1;
	q -= 2;
	while (q > p && is_blank(q[-1]))
		q--;
	if (q == p || (q[-1] != '{' && q[-1] != '}'))
		return -1;
	const char *br = q - 1;
	*open = *br == '{';
	int code_before = 0;
	for (const char *c = p; c < br; c++)
		if (!is_blank(*c))
			code_before = 1;
	/* forwards: NAME, then " split" on a split marker */
	const char *r = hit + ml;
	while (r < e && is_blank(*r))
		r++;
	const char *ns = r;
	while (r < e && pk_is_ident(*r))
		r++;
	const char *ne = r;
	while (r < e && is_blank(*r))
		r++;
	*split = 0;
	size_t sl = strlen(SPLIT_WORD);
	if ((size_t)(e - r) >= sl && !memcmp(r, SPLIT_WORD, sl)) {
		*split = 1;
		r += sl;
		while (r < e && is_blank(*r))
			r++;
	}
	if (ns == ne || r != e || *split != code_before || (*split && !*open))
		return -1;
	*name = pk_xstrndup(ns, (size_t)(ne - ns));
	if (!pk_probe_name_ok(*name)) {
		free(*name);
		*name = NULL;
		return -1;
	}
	*brace = (size_t)(br - p);
	return 1;
}

/* Braces must pair per name, '{' first, like the code they wrap. NULL, or
 * what is wrong (malloc'd). */
static char *check_pairs(const struct pk_buf *b, const struct pk_mark *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!m[i].open)
			continue;
		int depth = 0;
		size_t j;
		for (j = i; j < n; j++) {
			if (strcmp(m[j].name, m[i].name))
				continue;
			depth += m[j].open ? 1 : -1;
			if (depth == 0)
				break;
		}
		if (j == n)
			return pk_xasprintf("%s:%u: brace marker of '%s' has no closing '}' marker", b->path, m[i].line,
			                    m[i].name);
	}
	for (size_t i = 0; i < n; i++) {
		if (m[i].open)
			continue;
		int depth = 0;
		size_t j = i + 1;
		while (j-- > 0) {
			if (strcmp(m[j].name, m[i].name))
				continue;
			depth += m[j].open ? -1 : 1;
			if (depth == 0)
				break;
		}
		if (depth != 0)
			return pk_xasprintf("%s:%u: brace marker of '%s' has no opening '{' marker", b->path, m[i].line,
			                    m[i].name);
	}
	return NULL;
}

int pk_marks_find(const struct pk_buf *b, const struct pk_scan *s, struct pk_mark **marks, size_t *n, char **damage)
{
	struct pk_mark *m = NULL;
	size_t cnt = 0, cap = 0;
	unsigned line = 1;
	*damage = NULL;
	if (!memmem(b->data, b->len, PK_BRACE_MARKER, strlen(PK_BRACE_MARKER)))
		b = NULL; /* no marker: no need to read the lines */
	for (size_t ls = 0; b && ls < b->len && !*damage; line++) {
		const char *nl = memchr(b->data + ls, '\n', b->len - ls);
		size_t le = nl ? (size_t)(nl - b->data) + 1 : b->len;
		size_t ce = nl ? le - 1 : le;
		if (ce > ls && b->data[ce - 1] == '\r')
			ce--;
		int open, split;
		size_t brace = 0;
		char *name = NULL;
		int r = parse_line(b->data + ls, b->data + ce, &open, &split, &brace, &name);
		/* a mention inside a comment is prose, not a marker */
		if (r > 0 && pk_scan_in_comment(s, ls + brace)) {
			free(name);
			r = 0;
		}
		if (r < 0 && pk_scan_in_comment(s, ls + strspn(b->data + ls, " \t")))
			r = 0; /* damaged prose: parse_line kept no name */
		if (r < 0) {
			*damage =
			    pk_xasprintf("%s:%u: damaged brace marker (expected '{  // %s NAME' "
			                 "or '}  // %s NAME' alone on its line, or '{  // %s NAME %s' "
			                 "ending a line)",
			                 b->path, line, PK_BRACE_MARKER, PK_BRACE_MARKER, PK_BRACE_MARKER, SPLIT_WORD);
		} else if (r > 0) {
			PK_GROW(m, cap, cnt + 1);
			m[cnt++] = (struct pk_mark){name, open, split, line, split ? ls + brace : ls, le};
		}
		ls = le;
	}
	if (b && !*damage)
		*damage = check_pairs(b, m, cnt);
	if (*damage) {
		pk_marks_free(m, cnt);
		m = NULL;
		cnt = 0;
	}
	*marks = m;
	*n = cnt;
	return *damage ? -1 : 0;
}

void pk_marks_free(struct pk_mark *marks, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(marks[i].name);
	free(marks);
}

/* Where the line at OFF goes whole in a full strip, the offset after it;
 * else OFF. A probe block goes whole in every strip, a timing-marked line
 * only when ALL (every probe, the timing tensor with them). */
static size_t skip_removed(const struct pk_source *src, size_t off, int all)
{
	const struct pk_scan *s = &src->scan;
	for (size_t k = 0; k < s->nblocks; k++)
		if (s->blocks[k].dir_start == off)
			return s->blocks[k].endif_end;
	for (size_t k = 0; all && k < src->ntmarks; k++) {
		const struct pk_tmark *t = &src->tmarks[k];
		if (t->start == off && t->len == 0 && t->end > off && src->buf.data[t->end - 1] == '\n')
			return t->end; /* a whole marked line (in-line marks end in a comment) */
	}
	return off;
}

/* A split marker moved the body to its own line: take back the indentation
 * of the first code line after OFF (lines that go whole in between, too). */
static void plan_join(const struct pk_source *src, size_t off, int all, struct pk_plan *plan)
{
	for (size_t next; (next = skip_removed(src, off, all)) != off;)
		off = next; /* blocks and marked lines may follow each other */
	size_t e = off;
	while (e < src->buf.len && is_blank(src->buf.data[e]))
		e++;
	if (e > off)
		pk_plan_add(plan, off, e, "", 0);
}

int pk_marks_plan_strip(const struct pk_source *src, const char *only_name, struct pk_plan *plan)
{
	if (src->marks_damage)
		return pk_error("%s", src->marks_damage);
	int planned = 0;
	for (size_t i = 0; i < src->nmarks; i++) {
		const struct pk_mark *m = &src->marks[i];
		if (only_name && strcmp(m->name, only_name))
			continue;
		/* a line inside a block the same strip removes goes with it:
		 * the plan check drops this edit then */
		pk_plan_add(plan, m->start, m->end, "", 0);
		if (m->split)
			plan_join(src, m->end, only_name == NULL, plan);
		planned++;
	}
	return planned;
}
