/* report_svg.c - a self-contained SVG timeline: one row per lane, one bar per
 * span, an axis in cycles (or us when a frequency is known). Readable in any
 * browser or image viewer; no script, no external font or style. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LABEL_W 220
#define PLOT_W  760
#define ROW_H   24
#define TOP     56
#define PAD     20

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

/* A 1-2-5 tick step giving about eight ticks over RANGE (at most 5e18:
 * RANGE is below 2^64). */
static uint64_t tick_step(uint64_t range)
{
	uint64_t step = 1;
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

/* Tableau 10, then hues a golden angle apart (no colour repeats); colours
 * go to span kinds in order of first appearance, so one phase has one
 * colour on every lane. */
static const char *const palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

static void colour(char buf[32], size_t k)
{
	if (k < 10)
		snprintf(buf, 32, "%s", palette[k]);
	else
		snprintf(buf, 32, "hsl(%.0f,60%%,%d%%)", fmod((double)k * 137.508, 360.0), k % 2 ? 38 : 55);
}

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

/* Legend: an entry's width from its label's length, at a width per
 * character above that of sans-serif capitals at 11 px (labels are mostly
 * probe names), so no label runs into the next swatch. */
#define LEGEND_CHAR_W 8.0
#define LEGEND_MAX    40
#define LEGEND_ROW_H  16

static double xpos(int64_t v, int64_t lo, int64_t hi)
{
	/* in doubles: V - LO and HI - LO need not fit in an int64 */
	return LABEL_W + ((double)v - (double)lo) * PLOT_W / ((double)hi - (double)lo);
}

static void axis(FILE *f, const struct rp_doc *d, int64_t lo, int64_t hi, int height)
{
	uint64_t step = tick_step((uint64_t)hi - (uint64_t)lo);
	int64_t first = lo / (int64_t)step * (int64_t)step; /* not below LO: LO <= 0 */
	for (int64_t t = first; t <= hi; t += (int64_t)step) {
		double x = xpos(t, lo, hi);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", x, TOP - 6, x,
		        height - PAD);
		if (d->freq_hz > 0)
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%g</text>\n", x,
			        TOP - 10, (double)t * 1e6 / d->freq_hz);
		else
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%lld</text>\n", x,
			        TOP - 10, (long long)t);
		if ((uint64_t)hi - (uint64_t)t < step)
			break; /* the next tick would pass HI, or INT64_MAX */
	}
}

static void bars(FILE *f, struct labels *ls, const struct rp_lane *l, int row, int64_t lo, int64_t hi)
{
	int y = TOP + row * ROW_H;
	char fill[32];
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">", 16, y + 16);
	xml_text(f, l->name);
	fputs("</text>\n", f);
	for (size_t s = 0; s < l->nspans; s++) {
		const struct rp_span *sp = &l->spans[s];
		double x0 = xpos(sp->start, lo, hi), x1 = xpos(sp->end, lo, hi);
		double w = x1 > x0 ? x1 - x0 : 0;
		colour(fill, label_index(ls, sp->kind));
		/* at least 3 px wide, and the white outline that parts
		 * neighbours only where it leaves the bar visible */
		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" stroke=\"%s\">", x0,
		        y + 3, w < 3 ? 3 : w, ROW_H - 6, fill,
		        x1 < x0  ? "red"
		        : w >= 6 ? "#fff"
		                 : "none");
		fprintf(f, "<title>");
		xml_text(f, sp->label);
		fprintf(f, ": %lld .. %lld (%lld cycles%s)</title></rect>\n", (long long)sp->start, (long long)sp->end,
		        (long long)(sp->end - sp->start), l->medians ? "; median start .. median end" : "");
		if (w > 7.0 * (double)strlen(sp->label)) {
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#fff\">", x0 + 3, y + 16);
			xml_text(f, sp->label);
			fputs("</text>\n", f);
		}
	}
}

/* Where legend entry K goes (row, x), wrapping at the plot's right edge;
 * returns the rows the legend takes. */
static int legend_place(const struct labels *ls, size_t k_want, double *x_out)
{
	double x = 8;
	int row = 0;
	for (size_t k = 0; k < ls->n && k < LEGEND_MAX; k++) {
		double w = 24 + LEGEND_CHAR_W * (double)strlen(ls->v[k]);
		if (x > 8 && x + w > LABEL_W + PLOT_W) {
			x = 8;
			row++;
		}
		if (k == k_want) {
			*x_out = x;
			return row;
		}
		x += w;
	}
	return row + 1;
}

/* Each span kind with its colour: small bars carry no text. */
static void legend(FILE *f, const struct labels *ls, int y)
{
	char fill[32];
	for (size_t k = 0; k < ls->n && k < LEGEND_MAX; k++) {
		double x = 8;
		int row = legend_place(ls, k, &x), yy = y + row * LEGEND_ROW_H;
		colour(fill, k);
		fprintf(f,
		        "<rect x=\"%.1f\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
		        "<text x=\"%.1f\" y=\"%d\" font-size=\"11\">",
		        x, yy, fill, x + 14, yy + 9);
		xml_text(f, ls->v[k]);
		fputs("</text>\n", f);
	}
	if (ls->n > LEGEND_MAX)
		fprintf(f, "<text x=\"8\" y=\"%d\" font-size=\"11\">and %zu more kinds</text>\n",
		        y + legend_place(ls, SIZE_MAX, &(double){0}) * LEGEND_ROW_H + 9, ls->n - LEGEND_MAX);
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

/* Every span kind, in the order the lanes show them (the legend's order,
 * needed before drawing to size the picture). */
static void collect_kinds(const struct rp_doc *d, struct labels *ls, int *medians)
{
	for (size_t i = 0; i < d->nlanes; i++) {
		*medians |= d->lanes[i]->medians;
		for (size_t s = 0; s < d->lanes[i]->nspans; s++)
			label_index(ls, d->lanes[i]->spans[s].kind);
	}
}

static void heading(FILE *f, const struct rp_doc *d, int width, int height, int medians)
{
	fprintf(f,
	        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	        "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
	        width, height);
	fprintf(f, "<text x=\"8\" y=\"20\" font-size=\"14\" font-weight=\"bold\">probe-report timeline</text>\n");
	fputs("<text x=\"8\" y=\"36\" font-size=\"11\">", f);
	if (d->freq_hz > 0)
		fprintf(f, "us at %.0f Hz, from ", d->freq_hz);
	else
		fputs("cycles from ", f);
	xml_text(f, d->origin ? d->origin : "absolute zero");
	if (medians)
		fputs("; bars: median start to median end (not the median dur)", f);
	fputs("</text>\n", f);
}

void rp_write_svg(FILE *f, const struct rp_doc *d)
{
	int64_t lo, hi;
	extent(d, &lo, &hi);
	struct labels ls = {0};
	int medians = 0;
	collect_kinds(d, &ls, &medians);
	int rows = count_rows(d), legend_rows = ls.n ? legend_place(&ls, SIZE_MAX, &(double){0}) : 0;
	legend_rows += ls.n > LEGEND_MAX;
	int legend_y = TOP + (rows ? rows : 1) * ROW_H + PAD + 6;
	int height = legend_y + (legend_rows ? legend_rows : 1) * LEGEND_ROW_H + 20;
	heading(f, d, LABEL_W + PLOT_W + PAD, height, medians);
	if (!rows) {
		fprintf(f, "<text x=\"8\" y=\"%d\" font-size=\"12\">no timeline: nothing with a common origin</text>\n",
		        TOP + 16);
	} else {
		axis(f, d, lo, hi, legend_y + PAD - 6);
		lanes(f, d, &ls, lo, hi);
		legend(f, &ls, legend_y);
	}
	if (d->nwarnings)
		fprintf(f,
		        "<text x=\"8\" y=\"%d\" font-size=\"11\" fill=\"#c00\">%zu warning%s: see the text or JSON "
		        "report</text>\n",
		        height - 8, d->nwarnings, d->nwarnings == 1 ? "" : "s");
	fputs("</svg>\n", f);
	free(ls.v);
	rp_hash_free(&ls.index);
}
