/* report_svg.c - a self-contained SVG timeline: one row per lane, one bar per
 * span, an axis in cycles (or us when a frequency is known). Readable in any
 * browser or image viewer; no script, no external font or style. */
#include "report.h"

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

/* Fixed palette; colour by lane group so a legend is unnecessary. */
static const char *const palette[] = { "#4e79a7", "#f28e2b", "#59a14f", "#e15759",
				       "#76b7b2", "#edc948", "#b07aa1", "#9c755f" };

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
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%.3f</text>\n",
				x, TOP - 10, (double)t * 1e6 / d->freq_hz);
		else
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%lld</text>\n",
				x, TOP - 10, (long long)t);
	}
}

static void bars(FILE *f, const struct rp_lane *l, int row, int colour, int64_t lo, int64_t hi)
{
	int y = TOP + row * ROW_H;
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">", 8, y + 16);
	xml_text(f, l->name);
	fputs("</text>\n", f);
	for (size_t s = 0; s < l->nspans; s++) {
		const struct rp_span *sp = &l->spans[s];
		double x0 = xpos(sp->start, lo, hi), x1 = xpos(sp->end, lo, hi);
		double w = x1 > x0 ? x1 - x0 : 0;
		fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"%s>",
			x0, y + 3, w < 1 ? 1 : w, ROW_H - 6, palette[colour % 8],
			x1 < x0 ? " stroke=\"red\"" : "");
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

void rp_write_svg(FILE *f, const struct rp_doc *d)
{
	int64_t lo, hi;
	extent(d, &lo, &hi);
	int rows = (int)d->nlanes, height = TOP + (rows ? rows : 1) * ROW_H + PAD + 20;
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
		int colour = 0;
		for (int i = 0; i < rows; i++) {
			if (i && strcmp(d->lanes[i]->group, d->lanes[i - 1]->group))
				colour++;
			bars(f, d->lanes[i], i, colour, lo, hi);
		}
	}
	if (d->nwarnings)
		fprintf(f, "<text x=\"8\" y=\"%d\" font-size=\"11\" fill=\"#c00\">%zu warning%s: see the text or JSON report</text>\n",
			height - 8, d->nwarnings, d->nwarnings == 1 ? "" : "s");
	fputs("</svg>\n", f);
}
