/* report_out.c - render a report document as a text table, CSV, JSON or
 * Chrome trace-event JSON. Writers only format: every number is computed
 * before they run. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The text of a cell into BUF (at least 64 bytes, N) or its own string;
 * NULL for an empty cell. *LEN: its length. */
static const char *cell_text(const struct rp_cell *c, char *buf, size_t n, size_t *len)
{
	const char *s = buf;
	switch (c->kind) {
	case RP_INT:
		*len = rp_fmt_int(buf, c->i);
		return s;
	case RP_HALF:
		s = rp_fmt_half(buf, c->h);
		break;
	case RP_REAL:
		*len = (size_t)snprintf(buf, n, "%.*f", c->prec, c->r);
		*len = *len < n ? *len : n - 1;
		return s;
	case RP_STR:
		s = c->s;
		break;
	case RP_NULL:
		return NULL;
	}
	*len = strlen(s);
	return s;
}

/* ---- text ---- */

/* One cell of a row at P, padded to WIDTH on the side its column aligns;
 * returns the end. */
static char *text_cell(char *p, const char *s, size_t len, int left, size_t width, int first, int last)
{
	size_t fill = len < width ? width - len : 0;
	if (!first) {
		*p++ = ' ';
		*p++ = ' ';
	}
	if (!left) {
		memset(p, ' ', fill);
		p += fill;
	}
	memcpy(p, s, len);
	p += len;
	if (left && !last) { /* no trailing blanks */
		memset(p, ' ', fill);
		p += fill;
	}
	return p;
}

/* Every cell formatted once, into one buffer (*TXT, cell i at OFF[i] ..
 * OFF[i + 1]): the widths come from the same strings. */
static size_t *format_cells(const struct rp_table *t, size_t *w, unsigned char *left, char **txt)
{
	size_t n = t->nrows * t->ncols, cap = 16 * n + 64, len = 0;
	size_t *off = pk_xmalloc((n + 1) * sizeof(*off));
	char *out = pk_xmalloc(cap), buf[64];
	for (size_t c = 0; c < t->ncols; c++)
		w[c] = strlen(t->cols[c]);
	for (size_t i = 0; i < n; i++) {
		const struct rp_cell *cl = &t->cells[i];
		size_t m = 1;
		const char *s = cell_text(cl, buf, sizeof(buf), &m);
		if (!s)
			s = "-";
		if (len + m > cap)
			PK_GROW(out, cap, len + m);
		memcpy(out + len, s, m);
		off[i] = len;
		len += m;
		size_t c = i % t->ncols;
		if (m > w[c])
			w[c] = m;
		if (cl->kind == RP_STR)
			left[c] = 1;
	}
	off[n] = len;
	*txt = out;
	return off;
}

static void text_table(FILE *f, const struct rp_table *t)
{
	size_t *w = pk_xcalloc(t->ncols, sizeof(*w)), linew = 1;
	unsigned char *left = pk_xcalloc(t->ncols, 1);
	char *txt;
	size_t *off = format_cells(t, w, left, &txt);
	for (size_t c = 0; c < t->ncols; c++)
		linew += w[c] + 2;
	char *line = pk_xmalloc(linew), *p = line;
	fprintf(f, "%s\n", t->title);
	for (size_t c = 0; c < t->ncols; c++)
		p = text_cell(p, t->cols[c], strlen(t->cols[c]), left[c], w[c], c == 0, c + 1 == t->ncols);
	*p++ = '\n';
	fwrite(line, 1, (size_t)(p - line), f);
	for (size_t r = 0; r < t->nrows; r++) {
		p = line;
		for (size_t c = 0, i = r * t->ncols; c < t->ncols; c++, i++)
			p = text_cell(p, txt + off[i], off[i + 1] - off[i], left[c], w[c], c == 0, c + 1 == t->ncols);
		*p++ = '\n';
		fwrite(line, 1, (size_t)(p - line), f);
	}
	free(line);
	free(off);
	free(txt);
	free(w);
	free(left);
}

void rp_write_text(FILE *f, const struct rp_doc *d)
{
	if (d->freq_hz > 0)
		fprintf(f, "unit: cycles; times in us at %.0f Hz (%s)\n\n", d->freq_hz, d->freq_source);
	else
		fprintf(f, "unit: cycles (no frequency given: no times)\n\n");
	for (size_t i = 0; i < d->ntables; i++) {
		text_table(f, d->tables[i]);
		fputc('\n', f);
	}
	for (size_t i = 0; i < d->nnotes; i++)
		fprintf(f, "note: %s\n", d->notes[i]);
	if (d->nwarnings)
		fprintf(f, "%zu warning%s (listed on standard error)\n", d->nwarnings, d->nwarnings == 1 ? "" : "s");
}

/* ---- CSV ---- */

static void csv_field(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void rp_write_csv(FILE *f, const struct rp_doc *d)
{
	char buf[64];
	for (size_t i = 0; i < d->ntables; i++) {
		const struct rp_table *t = d->tables[i];
		if (i)
			fputc('\n', f);
		fputs("table", f);
		for (size_t c = 0; c < t->ncols; c++) {
			fputc(',', f);
			csv_field(f, t->cols[c]);
		}
		fputc('\n', f);
		for (size_t r = 0; r < t->nrows; r++) {
			csv_field(f, t->name);
			for (size_t c = 0; c < t->ncols; c++) {
				fputc(',', f);
				size_t len = 0;
				csv_field(f, cell_text(&t->cells[r * t->ncols + c], buf, sizeof(buf), &len));
			}
			fputc('\n', f);
		}
	}
}

/* ---- JSON ---- */

void rp_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void json_cell(FILE *f, const struct rp_cell *c)
{
	char buf[64];
	if (c->kind == RP_STR)
		rp_json_str(f, c->s);
	else if (c->kind == RP_NULL || (c->kind == RP_REAL && !isfinite(c->r)))
		fputs("null", f);
	else {
		size_t len = 0;
		const char *s = cell_text(c, buf, sizeof(buf), &len);
		fwrite(s, 1, len, f);
	}
}

static void json_strings(FILE *f, const char *key, char *const *v, size_t n, int last)
{
	fprintf(f, "  \"%s\": [", key);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n    " : "\n    ", f);
		rp_json_str(f, v[i]);
	}
	fprintf(f, "%s]%s\n", n ? "\n  " : "", last ? "" : ",");
}

/* BEFORE, S as a JSON string, AFTER. */
static void json_str_between(FILE *f, const char *before, const char *s, const char *after)
{
	fputs(before, f);
	rp_json_str(f, s);
	fputs(after, f);
}

static void json_lanes(FILE *f, const struct rp_doc *d)
{
	fputs("  \"timeline\": {\n    \"origin\": ", f);
	if (d->origin)
		rp_json_str(f, d->origin);
	else
		fputs("null", f);
	fputs(",\n    \"lanes\": [", f);
	for (size_t i = 0; i < d->nlanes; i++) {
		const struct rp_lane *l = d->lanes[i];
		json_str_between(f, i ? ",\n      {\"group\": " : "\n      {\"group\": ", l->group, ", \"name\": ");
		json_str_between(f, "", l->name, ", \"spans\": [");
		for (size_t s = 0; s < l->nspans; s++) {
			fprintf(f, "%s{\"start\": %lld, \"end\": %lld, \"label\": ", s ? ", " : "",
			        (long long)l->spans[s].start, (long long)l->spans[s].end);
			json_str_between(f, "", l->spans[s].label, ", \"kind\": ");
			json_str_between(f, "", l->spans[s].kind, "}");
		}
		fputs("]}", f);
	}
	fprintf(f, "%s]\n  },\n", d->nlanes ? "\n    " : "");
}

void rp_write_json(FILE *f, const struct rp_doc *d)
{
	fprintf(f, "{\n  \"tool\": \"probe-report\",\n  \"version\": \"%s\",\n  \"unit\": \"cycles\",\n", PK_VERSION);
	if (d->freq_hz > 0) {
		fprintf(f, "  \"freq_hz\": %.17g,\n", d->freq_hz);
		json_str_between(f, "  \"freq_source\": ", d->freq_source, ",\n");
	} else {
		fputs("  \"freq_hz\": null,\n  \"freq_source\": null,\n", f);
	}
	fputs("  \"tables\": {", f);
	for (size_t i = 0; i < d->ntables; i++) {
		const struct rp_table *t = d->tables[i];
		json_str_between(f, i ? ",\n    " : "\n    ", t->name, ": [");
		for (size_t r = 0; r < t->nrows; r++) {
			fputs(r ? ",\n      {" : "\n      {", f);
			for (size_t c = 0; c < t->ncols; c++) {
				json_str_between(f, c ? ", " : "", t->cols[c], ": ");
				json_cell(f, &t->cells[r * t->ncols + c]);
			}
			fputc('}', f);
		}
		fputs(t->nrows ? "\n    ]" : "]", f);
	}
	fputs(d->ntables ? "\n  },\n" : "},\n", f);
	json_lanes(f, d);
	json_strings(f, "notes", d->notes, d->nnotes, 0);
	json_strings(f, "warnings", d->warnings, d->nwarnings, 1);
	fputs("}\n", f);
}

/* ---- Chrome trace events (chrome://tracing, Perfetto) ---- */

/* Trace timestamps are microseconds. With a frequency they are real time;
 * without one, one cycle is drawn as one microsecond (said in otherData). */
static double trace_ts(const struct rp_doc *d, int64_t cycles)
{
	return d->freq_hz > 0 ? (double)cycles * 1e6 / d->freq_hz : (double)cycles;
}

/* A metadata event naming process PID (TID 0) or its thread TID; the name
 * carries the unit, which a viewer shows as microseconds. */
static void trace_meta(FILE *f, const struct rp_doc *d, const char *what, int pid, size_t tid, const char *name,
                       int *first)
{
	char *named = pk_xmalloc(strlen(name) + 32);
	sprintf(named, "%s [%s]", name, d->freq_hz > 0 ? "us" : "cycles, drawn as us");
	fprintf(f, "%s\n  {\"name\": \"%s\", \"cat\": \"__metadata\", \"ph\": \"M\", \"pid\": %d", *first ? "" : ",",
	        what, pid);
	if (tid)
		fprintf(f, ", \"tid\": %zu", tid);
	fputs(", \"args\": {\"name\": ", f);
	rp_json_str(f, named);
	fputs("}}", f);
	*first = 0;
	free(named);
}

/* SP as a complete event on thread TID of process PID: its cycles, and
 * each run's when it is a span of medians. */
static void trace_span(FILE *f, const struct rp_doc *d, const struct rp_span *sp, int pid, size_t tid)
{
	double ts = trace_ts(d, sp->start), te = trace_ts(d, sp->end);
	fputs(",\n  {\"name\": ", f);
	rp_json_str(f, sp->label);
	fputs(", \"cat\": ", f);
	rp_json_str(f, sp->kind);
	fprintf(f,
	        ", \"ph\": \"X\", \"pid\": %d, \"tid\": %zu, \"ts\": %.3f, \"dur\": %.3f, "
	        "\"args\": {\"start_cycles\": %lld, \"end_cycles\": %lld",
	        pid, tid, ts, te > ts ? te - ts : 0.0, (long long)sp->start, (long long)sp->end);
	if (sp->runs) {
		fputs(", \"runs_start_end_cycles\": [", f);
		for (size_t r = 0; r < sp->nruns; r++)
			fprintf(f, "%s[%lld, %lld]", r ? ", " : "", (long long)sp->runs[2 * r],
			        (long long)sp->runs[2 * r + 1]);
		fputc(']', f);
	}
	fputs("}}", f);
}

void rp_write_trace(FILE *f, const struct rp_doc *d)
{
	int first = 1, pid = 0; /* a process per run of lanes of one group */
	fputs("{\"traceEvents\": [", f);
	for (size_t i = 0; i < d->nlanes; i++) {
		const struct rp_lane *l = d->lanes[i];
		if (i == 0 || strcmp(l->group, d->lanes[i - 1]->group))
			trace_meta(f, d, "process_name", ++pid, 0, l->group, &first);
		trace_meta(f, d, "thread_name", pid, i + 1, l->name, &first);
		for (size_t s = 0; s < l->nspans; s++)
			trace_span(f, d, &l->spans[s], pid, i + 1);
	}
	fputs("\n], \"otherData\": {\"unit\": ", f);
	if (d->freq_hz > 0)
		fprintf(f, "\"us at %.0f Hz\"", d->freq_hz);
	else
		fputs("\"cycles (no frequency given: 1 cycle drawn as 1 us)\"", f);
	fputs(", \"origin\": ", f);
	rp_json_str(f, d->origin ? d->origin : "absolute cycles");
	fputs("}}\n", f);
}
