/* edit.c - plan edits against the original bytes, check them, apply once. */
#include "edit.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

void pk_plan_init(struct pk_plan *p)
{
	memset(p, 0, sizeof(*p));
}

void pk_plan_free(struct pk_plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->e[i].text);
	free(p->e);
	memset(p, 0, sizeof(*p));
}

void pk_plan_add(struct pk_plan *p, size_t start, size_t end, const char *text, size_t len)
{
	PK_GROW(p->e, p->cap, p->n + 1);
	struct pk_edit *e = &p->e[p->n];
	e->start = start;
	e->end = end;
	e->text = pk_xstrndup(text ? text : "", text ? len : 0);
	e->text_len = text ? len : 0;
	e->seq = p->n;
	p->n++;
}

static int cmp_edit(const void *a, const void *b)
{
	const struct pk_edit *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* a pure insertion goes before a replacement starting at the same byte */
	int xi = x->start == x->end, yi = y->start == y->end;
	if (xi != yi)
		return xi ? -1 : 1;
	/* of two edits from one byte, the wider first, and of two the same a
	 * removal first: it may hold the other */
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	if (!xi && (x->text_len == 0) != (y->text_len == 0))
		return x->text_len == 0 ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Does the removal R take E whole? An insertion is taken only strictly
 * inside R: at either end it still has a place to go. */
static int removed_with(const struct pk_edit *r, const struct pk_edit *e)
{
	if (r->text_len != 0 || r->start == r->end)
		return 0;
	if (e->start == e->end)
		return r->start < e->start && e->start < r->end;
	return r->start <= e->start && e->end <= r->end;
}

int pk_plan_check(struct pk_plan *p, const char *path, size_t orig_len)
{
	if (p->n > 1)
		qsort(p->e, p->n, sizeof(*p->e), cmp_edit);
	size_t w = 0;
	for (size_t i = 0; i < p->n; i++) {
		struct pk_edit *e = &p->e[i];
		if (e->start > e->end || e->end > orig_len)
			return pk_error("%s: internal error: edit [%zu,%zu) outside the file", path, e->start, e->end);
		if (w > 0 && removed_with(&p->e[w - 1], e)) {
			free(e->text); /* the text it edits goes anyway */
			e->text = NULL;
			e->text_len = 0;
			continue;
		}
		if (w > 0 && p->e[w - 1].end > e->start)
			return pk_error("%s: internal error: overlapping edits at byte %zu", path, e->start);
		/* kept edits move to the front, dropped ones (no text) behind them */
		struct pk_edit keep = *e;
		*e = p->e[w];
		p->e[w++] = keep;
	}
	p->n = w;
	return 0;
}

void pk_plan_apply(const struct pk_plan *p, const char *orig, size_t orig_len, char **out, size_t *out_len)
{
	size_t n = orig_len;
	for (size_t i = 0; i < p->n; i++)
		n = n - (p->e[i].end - p->e[i].start) + p->e[i].text_len;
	char *dst = pk_xmalloc(n + 1), *q = dst;
	size_t pos = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct pk_edit *e = &p->e[i];
		memcpy(q, orig + pos, e->start - pos);
		q += e->start - pos;
		memcpy(q, e->text, e->text_len);
		q += e->text_len;
		pos = e->end;
	}
	memcpy(q, orig + pos, orig_len - pos);
	q += orig_len - pos;
	*q = '\0';
	*out = dst;
	*out_len = (size_t)(q - dst);
}
