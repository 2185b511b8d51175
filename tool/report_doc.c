/* report_doc.c - the report document every analysis fills and every writer
 * renders: named tables of typed cells, timeline lanes, notes and warnings. */
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void rp_doc_init(struct rp_doc *d)
{
	memset(d, 0, sizeof(*d));
}

static void free_table(struct rp_table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i].s);
	for (size_t i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	free(t->cells);
	free(t->cols);
	free(t->name);
	free(t->title);
	free(t);
}

static void free_lane(struct rp_lane *l)
{
	for (size_t i = 0; i < l->nspans; i++) {
		free(l->spans[i].label);
		free(l->spans[i].kind);
		free(l->spans[i].runs);
	}
	free(l->spans);
	free(l->group);
	free(l->name);
	free(l);
}

void rp_doc_free(struct rp_doc *d)
{
	for (size_t i = 0; i < d->ntables; i++)
		free_table(d->tables[i]);
	for (size_t i = 0; i < d->nlanes; i++)
		free_lane(d->lanes[i]);
	for (size_t i = 0; i < d->nnotes; i++)
		free(d->notes[i]);
	for (size_t i = 0; i < d->nwarnings; i++)
		free(d->warnings[i]);
	free(d->tables);
	free(d->lanes);
	free(d->notes);
	free(d->warnings);
	free(d->origin);
	memset(d, 0, sizeof(*d));
}

static char *vformat(const char *fmt, va_list ap)
{
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0) {
		fputs("probekit: out of memory\n", stderr);
		exit(PK_EXIT_ERROR);
	}
	return s;
}

void rp_warn(struct rp_doc *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vformat(fmt, ap);
	va_end(ap);
	pk_warning("%s", s);
	PK_GROW(d->warnings, d->wcap, d->nwarnings + 1);
	d->warnings[d->nwarnings++] = s;
}

void rp_note(struct rp_doc *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vformat(fmt, ap);
	va_end(ap);
	PK_GROW(d->notes, d->ncap, d->nnotes + 1);
	d->notes[d->nnotes++] = s;
}

struct rp_table *rp_table_new(struct rp_doc *d, const char *name, const char *title, ...)
{
	struct rp_table *t = pk_xcalloc(1, sizeof(*t));
	t->name = pk_xstrdup(name);
	t->title = pk_xstrdup(title);
	va_list ap;
	va_start(ap, title);
	size_t cap = 0;
	for (const char *c; (c = va_arg(ap, const char *));) {
		PK_GROW(t->cols, cap, t->ncols + 1);
		t->cols[t->ncols++] = pk_xstrdup(c);
	}
	va_end(ap);
	PK_GROW(d->tables, d->tcap, d->ntables + 1);
	d->tables[d->ntables++] = t;
	return t;
}

struct rp_table *rp_table_newv(struct rp_doc *d, const char *name, const char *title, size_t ncols,
                               const char *const *cols)
{
	struct rp_table *t = pk_xcalloc(1, sizeof(*t));
	t->name = pk_xstrdup(name);
	t->title = pk_xstrdup(title);
	t->ncols = ncols;
	t->cols = pk_xcalloc(ncols, sizeof(char *));
	for (size_t i = 0; i < ncols; i++)
		t->cols[i] = pk_xstrdup(cols[i]);
	PK_GROW(d->tables, d->tcap, d->ntables + 1);
	d->tables[d->ntables++] = t;
	return t;
}

void rp_table_reserve(struct rp_table *t, size_t nrows)
{
	size_t want = nrows * t->ncols;
	if (want <= t->cap)
		return;
	if (!t->cells) { /* fresh zero pages, no clearing pass */
		t->cells = pk_xcalloc(want, sizeof(*t->cells));
		t->cap = want;
		return;
	}
	t->cells = pk_xrealloc(t->cells, want * sizeof(*t->cells));
	memset(t->cells + t->cap, 0, (want - t->cap) * sizeof(*t->cells));
	t->cap = want;
}

size_t rp_row(struct rp_table *t)
{
	size_t want = (t->nrows + 1) * t->ncols;
	if (want > t->cap) {
		size_t old = t->cap;
		PK_GROW(t->cells, t->cap, want);
		memset(t->cells + old, 0, (t->cap - old) * sizeof(*t->cells));
	}
	return t->nrows++;
}

static struct rp_cell *cell(struct rp_table *t, size_t row, size_t col)
{
	struct rp_cell *c = &t->cells[row * t->ncols + col];
	free(c->s);
	memset(c, 0, sizeof(*c));
	return c;
}

void rp_set_int(struct rp_table *t, size_t row, size_t col, int64_t v)
{
	struct rp_cell *c = cell(t, row, col);
	c->kind = RP_INT;
	c->i = v;
}

void rp_set_half(struct rp_table *t, size_t row, size_t col, rp_x2 x2)
{
	struct rp_cell *c = cell(t, row, col);
	c->kind = RP_HALF;
	c->h = x2;
}

#define EXACT_DOUBLE ((int64_t)1 << 52)

void rp_set_mean(struct rp_table *t, size_t row, size_t col, const struct rp_stats *s)
{
	if (s->mean_whole > -EXACT_DOUBLE && s->mean_whole < EXACT_DOUBLE) {
		rp_set_real(t, row, col, s->mean, 1);
		return;
	}
	/* a double would round past the largest value: the nearest half-integer
	 * of the exact mean lies between min and max, which are integers */
	rp_set_half(t, row, col, 2 * (rp_x2)s->mean_whole + (rp_x2)lround(2 * s->mean_frac));
}

void rp_set_real(struct rp_table *t, size_t row, size_t col, double v, int prec)
{
	struct rp_cell *c = cell(t, row, col);
	c->kind = RP_REAL;
	c->r = v;
	c->prec = prec;
}

void rp_set_str(struct rp_table *t, size_t row, size_t col, const char *s)
{
	struct rp_cell *c = cell(t, row, col);
	c->kind = RP_STR;
	c->s = pk_xstrdup(s);
}

void rp_set_us(const struct rp_doc *d, struct rp_table *t, size_t row, size_t col, double cycles)
{
	/* Presentation only: analysis stays in integer cycles. */
	if (d->freq_hz > 0)
		rp_set_real(t, row, col, cycles * 1e6 / d->freq_hz, 3);
}

struct rp_lane *rp_lane_new(struct rp_doc *d, const char *group, const char *name)
{
	struct rp_lane *l = pk_xcalloc(1, sizeof(*l));
	l->group = pk_xstrdup(group);
	l->name = pk_xstrdup(name);
	PK_GROW(d->lanes, d->lcap, d->nlanes + 1);
	d->lanes[d->nlanes++] = l;
	return l;
}

void rp_span_add_kind(struct rp_lane *l, int64_t start, int64_t end, const char *label, const char *kind)
{
	PK_GROW(l->spans, l->cap, l->nspans + 1);
	struct rp_span *s = &l->spans[l->nspans++];
	s->start = start;
	s->end = end;
	s->label = pk_xstrdup(label);
	s->kind = pk_xstrdup(kind);
	s->runs = NULL;
	s->nruns = 0;
}

void rp_span_runs(struct rp_lane *l, const int64_t *pairs, size_t n)
{
	struct rp_span *s = &l->spans[l->nspans - 1];
	s->runs = pk_xmalloc((n ? n : 1) * 2 * sizeof(*pairs));
	memcpy(s->runs, pairs, n * 2 * sizeof(*pairs));
	s->nruns = n;
}

void rp_span_add(struct rp_lane *l, int64_t start, int64_t end, const char *label)
{
	rp_span_add_kind(l, start, end, label, label);
}

size_t rp_fmt_int(char *buf, int64_t v)
{
	char tmp[24];
	size_t n = 0;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	do
		tmp[n++] = (char)('0' + u % 10);
	while ((u /= 10));
	char *p = buf;
	if (v < 0)
		*p++ = '-';
	while (n)
		*p++ = tmp[--n];
	*p = '\0';
	return (size_t)(p - buf);
}

const char *rp_fmt_half(char *buf, rp_x2 x2)
{
	unsigned __int128 u = x2 < 0 ? 0 - (unsigned __int128)x2 : (unsigned __int128)x2;
	int odd = (int)(u % 2);
	u /= 2;
	char tmp[48];
	size_t n = 0;
	do
		tmp[n++] = (char)('0' + (int)(u % 10));
	while ((u /= 10));
	char *p = buf;
	if (x2 < 0)
		*p++ = '-';
	while (n)
		*p++ = tmp[--n];
	if (odd) {
		memcpy(p, ".5", 2);
		p += 2;
	}
	*p = '\0';
	return buf;
}
