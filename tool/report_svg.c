/* report_svg.c - a self-contained SVG timeline: one row per lane, one bar per
 * span, an axis in cycles (or us when a frequency is known). Readable in any
 * browser or image viewer; no script, no external font or style. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#define LABEL_W 220
#define PLOT_W 760
#define ROW_H 24
#define TOP 56
#define PAD 20

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

static void extent(const struct rp_doc *d, int64_t *lo, int64_t *hi)
{
	int any = 0;
	*lo = 0;
	*hi = 1;
	for (size_t i = 0; i < d->nlanes; i++)
		for (size_t s = 0; s < d->lanes[i]->nspans; s++) {
			const struct rp_span *sp = &d->lanes[i]->spans[s];
			int64_t a = sp->start < sp->end ? sp->start : sp->end;
			int64_t b = sp->start < sp->end ? sp->end : sp->start;
			if (!any || a < *lo)
				*lo = a;
			if (!any || b > *hi)
				*hi = b;
			any = 1;
		}
	if (*lo > 0) /* keep the origin (T_BASE, E or M0) on the axis */
		*lo = 0;
	if (*hi <= *lo)
		*hi = *lo + 1;
}

/* A 1-2-5 tick step giving about eight ticks over RANGE. */
static int64_t tick_step(int64_t range)
{
	int64_t step = 1;
	for (;;) {
		if (range / step <= 8)
			return step;
		if (range / (step * 2) <= 8)
			return step * 2;
		if (range / (step * 5) <= 8)
			return step * 5;
		step *= 10;
	}
}

/* Tableau 10; colours go to span labels (phase or probe) in order of first
 * appearance, so one phase has one colour on every lane. */
static const char *const palette[] = { "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
				       "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac" };

struct labels {
	const char **v;
	size_t n, cap;
	struct rp_hash index; /* (hash, length, collision) -> k: a log of thousands
				 of probes has as many labels, met once a span */
};

static size_t label_index(struct labels *ls, const char *label)
{
	int64_t key[4];
	rp_hash_str_key(label, strlen(label), key);
	for (uint32_t k; (k = rp_hash_get(&ls->index, key)) != UINT32_MAX; key[2]++)
		if (!strcmp(ls->v[k], label))
			return k;
	PK_GROW(ls->v, ls->cap, ls->n + 1);
	ls->v[ls->n] = label;
	rp_hash_put(&ls->index, key, (uint32_t)ls->n);
	return ls->n++;
}

static const char *colour_of(struct labels *ls, const char *label)
{
	return palette[label_index(ls, label) % 10];
}

static double xpos(int64_t v, int64_t lo, int64_t hi)
{
	return LABEL_W + (double)(v - lo) * PLOT_W / (double)(hi - lo);
}

static void axis(FILE *f, const struct rp_doc *d, int64_t lo, int64_t hi, int height)
{
	int64_t step = tick_step(hi - lo);
	int64_t first = lo / step * step;
	if (first < lo)
		first += step;
	for (int64_t t = first; t <= hi; t += step) {
		double x = xpos(t, lo, hi);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", x,
			TOP - 6, x, height - PAD);
		if (d->freq_hz > 0)
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%g</text>\n",
				x, TOP - 10, (double)t * 1e6 / d->freq_hz);
		else
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%lld</text>\n",
				x, TOP - 10, (long long)t);
	}
}

static void bars(FILE *f, struct labels *ls, const struct rp_lane *l, int row, int64_t lo, int64_t hi)
{
	int y = TOP + row * ROW_H;
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">", 16, y + 16);
	xml_text(f, l->name);
	fputs("</text>\n", f);
	for (size_t s = 0; s < l->nspans; s++) {
		const struct rp_span *sp = &l->spans[s];
		double x0 = xpos(sp->start, lo, hi), x1 = xpos(sp->end, lo, hi);
		double w = x1 > x0 ? x1 - x0 : 0;
		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" stroke=\"%s\">",
			x0, y + 3, w < 1 ? 1 : w, ROW_H - 6, colour_of(ls, sp->kind),
			x1 < x0 ? "red" : "#fff");
		fprintf(f, "<title>");
		xml_text(f, sp->label);
		fprintf(f, ": %lld .. %lld (%lld cycles)</title></rect>\n", (long long)sp->start,
			(long long)sp->end, (long long)(sp->end - sp->start));
		if (w > 7.0 * (double)strlen(sp->label)) {
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#fff\">", x0 + 3, y + 16);
			xml_text(f, sp->label);
			fputs("</text>\n", f);
		}
	}
}

/* Each span label with its colour: small bars carry no text. */
static void legend(FILE *f, struct labels *ls, int y)
{
	double x = 8;
	for (size_t k = 0; k < ls->n && k < 20; k++) {
		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			   "<text x=\"%.1f\" y=\"%d\" font-size=\"11\">",
			x, y, palette[k % 10], x + 14, y + 9);
		xml_text(f, ls->v[k]);
		fputs("</text>\n", f);
		x += 24 + 6.5 * (double)strlen(ls->v[k]);
	}
}

/* Lanes plus one heading row per group ("in-core slots", "L2 tasks ..."). */
static int count_rows(const struct rp_doc *d)
{
	int rows = 0;
	for (size_t i = 0; i < d->nlanes; i++)
		rows += 1 + (i == 0 || strcmp(d->lanes[i]->group, d->lanes[i - 1]->group));
	return rows;
}

static void lanes(FILE *f, const struct rp_doc *d, struct labels *ls, int64_t lo, int64_t hi)
{
	int row = 0;
	for (size_t i = 0; i < d->nlanes; i++) {
		if (i == 0 || strcmp(d->lanes[i]->group, d->lanes[i - 1]->group)) {
			fprintf(f, "<text x=\"8\" y=\"%d\" font-size=\"11\" font-style=\"italic\" fill=\"#555\">",
				TOP + row * ROW_H + 16);
			xml_text(f, d->lanes[i]->group);
			fputs("</text>\n", f);
			row++;
		}
		bars(f, ls, d->lanes[i], row++, lo, hi);
	}
}

void rp_write_svg(FILE *f, const struct rp_doc *d)
{
	int64_t lo, hi;
	extent(d, &lo, &hi);
	int rows = count_rows(d), height = TOP + (rows ? rows : 1) * ROW_H + PAD + 40;
	struct labels ls = { 0 };
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
		LABEL_W + PLOT_W + PAD, height);
	fprintf(f, "<text x=\"8\" y=\"20\" font-size=\"14\" font-weight=\"bold\">probe-report timeline</text>\n");
	fputs("<text x=\"8\" y=\"36\" font-size=\"11\">", f);
	if (d->freq_hz > 0)
		fprintf(f, "us at %.0f Hz, from ", d->freq_hz);
	else
		fputs("cycles from ", f);
	xml_text(f, d->origin ? d->origin : "absolute zero");
	fputs("</text>\n", f);
	if (!rows) {
		fprintf(f, "<text x=\"8\" y=\"%d\" font-size=\"12\">no timeline: nothing with a common origin</text>\n",
			TOP + 16);
	} else {
		axis(f, d, lo, hi, height - 20);
		lanes(f, d, &ls, lo, hi);
		legend(f, &ls, height - 34);
	}
	if (d->nwarnings)
		fprintf(f, "<text x=\"8\" y=\"%d\" font-size=\"11\" fill=\"#c00\">%zu warning%s: see the text or JSON report</text>\n",
			height - 8, d->nwarnings, d->nwarnings == 1 ? "" : "s");
	fputs("</svg>\n", f);
	free(ls.v);
	rp_hash_free(&ls.index);
}
