/* report_logsum.c - from a parsed probe log to tables, a timeline and the
 * findings: several probes in one run, blocks that all print, no T_BASE,
 * leaked warmup output, and the gaps between phases. */
#include "names.h"
#include "report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const sub_kinds[] = {"WAIT", "COMPUTE", "LOAD", "WRITEBACK", "SYNC"};
#define NSUB (sizeof(sub_kinds) / sizeof(sub_kinds[0]))

/* "STAGE_B_WAIT" -> kind "WAIT", parent length 7; -1 when not a sub-probe. */
static int sub_probe(const char *name, size_t *parent_len)
{
	size_t n = strlen(name);
	for (size_t k = 0; k < NSUB; k++) {
		size_t m = strlen(sub_kinds[k]);
		if (n > m + 1 && name[n - m - 1] == '_' && !strcmp(name + n - m, sub_kinds[k])) {
			*parent_len = n - m - 1;
			return (int)k;
		}
	}
	return -1;
}

static void set_stats(const struct rp_doc *d, struct rp_table *t, size_t row, size_t col, const struct rp_stats *s,
                      int with_us)
{
	rp_set_int(t, row, col, (int64_t)s->n);
	rp_set_int(t, row, col + 1, s->min);
	rp_set_half(t, row, col + 2, s->median_x2);
	rp_set_mean(t, row, col + 3, s);
	rp_set_int(t, row, col + 4, s->max);
	rp_set_real(t, row, col + 5, s->stddev, 1);
	if (!with_us)
		return;
	rp_set_us(d, t, row, col + 6, (double)s->min);
	rp_set_us(d, t, row, col + 7, (double)s->median_x2 / 2);
	rp_set_us(d, t, row, col + 8, s->mean);
	rp_set_us(d, t, row, col + 9, (double)s->max);
}

/* The numbers the tables show, computed before any table is built. */
struct summary {
	struct rp_stats *probe;   /* per probe: all its durations */
	struct rp_stats *series;  /* per series (with_series) */
	rp_x2 *start_x2, *end_x2; /* per series with relative times: medians */
	int with_series;
};

static int has_fields(const struct rp_log *lg);

/* Field F (0: dur, 1: relative start, 2: relative end) of SE's samples
 * (relative fields: of those that have one) into V[*N...]. */
static void field_values(const struct rp_series *se, int f, int64_t *v, size_t *n)
{
	for (size_t i = 0; i < se->n; i++)
		if (f == 0 || se->v[3 * i + 1] != RP_NO_REL)
			v[(*n)++] = se->v[3 * i + f];
}

/* Each probe's durations, series by series in the order they came. */
static void probe_summaries(const struct rp_log *lg, struct summary *sm)
{
	size_t *at = pk_xmalloc((lg->nprobes + 1) * sizeof(*at));
	at[0] = 0;
	for (size_t p = 0; p < lg->nprobes; p++)
		at[p + 1] = at[p] + lg->probes[p].lines;
	int64_t *all = pk_xmalloc((at[lg->nprobes] ? at[lg->nprobes] : 1) * sizeof(*all));
	for (size_t i = 0; i < lg->nseries; i++)
		field_values(&lg->series[i], 0, all, &at[lg->series[i].probe]);
	for (size_t p = 0, first = 0; p < lg->nprobes; first = at[p++])
		rp_stats_compute(all + first, at[p] - first, &sm->probe[p]);
	free(all);
	free(at);
}

static void summarise(const struct rp_log *lg, struct summary *sm)
{
	sm->with_series = has_fields(lg);
	sm->probe = pk_xcalloc(lg->nprobes, sizeof(*sm->probe));
	sm->series = pk_xcalloc(lg->nseries, sizeof(*sm->series));
	sm->start_x2 = pk_xcalloc(lg->nseries, sizeof(*sm->start_x2));
	sm->end_x2 = pk_xcalloc(lg->nseries, sizeof(*sm->end_x2));
	probe_summaries(lg, sm);
	int64_t *v = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < lg->nseries; i++) {
		const struct rp_series *se = &lg->series[i];
		size_t n = 0;
		PK_GROW(v, cap, se->n);
		if (sm->with_series) {
			field_values(se, 0, v, &n);
			rp_stats_compute(v, n, &sm->series[i]);
		}
		if (!se->nrel)
			continue;
		n = 0;
		field_values(se, 1, v, &n);
		sm->start_x2[i] = rp_median_x2(v, n);
		n = 0;
		field_values(se, 2, v, &n);
		sm->end_x2[i] = rp_median_x2(v, n);
	}
	free(v);
}

static void summary_free(struct summary *sm)
{
	free(sm->probe);
	free(sm->series);
	free(sm->start_x2);
	free(sm->end_x2);
}

static void probes_table(const struct rp_log *lg, struct rp_doc *d, const struct summary *sm, rp_x2 *median_x2)
{
	int us = d->freq_hz > 0;
	struct rp_table *t = us ? rp_table_new(d, "probes", "probes (dur in cycles; us at the given frequency)",
	                                       "probe", "count", "min", "median", "mean", "max", "stddev", "min_us",
	                                       "median_us", "mean_us", "max_us", "dur_mismatch", NULL)
	                        : rp_table_new(d, "probes", "probes (dur in cycles)", "probe", "count", "min", "median",
	                                       "mean", "max", "stddev", "dur_mismatch", NULL);
	for (uint32_t p = 0; p < lg->nprobes; p++) {
		median_x2[p] = sm->probe[p].median_x2;
		size_t r = rp_row(t);
		rp_set_str(t, r, 0, lg->probes[p].name);
		set_stats(d, t, r, 1, &sm->probe[p], us);
		rp_set_int(t, r, us ? 11 : 7, (int64_t)lg->probes[p].dur_mismatch);
	}
}

static int has_fields(const struct rp_log *lg)
{
	for (size_t i = 0; i < lg->nseries; i++)
		if (lg->series[i].block >= 0 || lg->series[i].iter >= 0)
			return 1;
	return 0;
}

static void set_opt_int(struct rp_table *t, size_t r, size_t c, int64_t v)
{
	if (v >= 0)
		rp_set_int(t, r, c, v);
}

/* Series sorted by block, iter, then first appearance. */
static int cmp_series(const void *a, const void *b, void *ctx)
{
	const struct rp_log *lg = ctx;
	const struct rp_series *x = &lg->series[*(const uint32_t *)a];
	const struct rp_series *y = &lg->series[*(const uint32_t *)b];
	if (x->block != y->block)
		return x->block < y->block ? -1 : 1;
	if (x->iter != y->iter)
		return x->iter < y->iter ? -1 : 1;
	return (*(const uint32_t *)a > *(const uint32_t *)b) - (*(const uint32_t *)a < *(const uint32_t *)b);
}

static void series_table(const struct rp_log *lg, struct rp_doc *d, const struct summary *sm, const uint32_t *order)
{
	struct rp_table *t = rp_table_new(d, "series", "per block and iteration (dur in cycles)", "probe", "block",
	                                  "iter", "count", "min", "median", "mean", "max", "stddev", NULL);
	rp_table_reserve(t, lg->nseries);
	for (size_t i = 0; i < lg->nseries; i++) {
		const struct rp_series *se = &lg->series[order[i]];
		size_t r = rp_row(t);
		rp_set_str(t, r, 0, lg->probes[se->probe].name);
		set_opt_int(t, r, 1, se->block);
		set_opt_int(t, r, 2, se->iter);
		set_stats(d, t, r, 3, &sm->series[order[i]], 0);
	}
}

/* One timeline entry: a series with relative times. */
struct tl_entry {
	uint32_t series;
	rp_x2 start_x2, end_x2;
	int in_chain; /* a stage of the gap chain (not nested in a present parent) */
};

static int cmp_tl(const void *a, const void *b, void *ctx)
{
	const struct rp_log *lg = ctx;
	const struct tl_entry *x = a, *y = b;
	const struct rp_series *sx = &lg->series[x->series], *sy = &lg->series[y->series];
	if (sx->block != sy->block)
		return sx->block < sy->block ? -1 : 1;
	if (sx->iter != sy->iter)
		return sx->iter < sy->iter ? -1 : 1;
	if (x->start_x2 != y->start_x2)
		return x->start_x2 < y->start_x2 ? -1 : 1;
	return (x->series > y->series) - (x->series < y->series);
}

/* A sub-probe nests in its stage when the stage (same block and iter) is on
 * the timeline and encloses it. A "wait" measured before its stage starts
 * does not: it is a stage of its own and takes part in the gaps.
 * Returns 1 nested, 0 not nested, -1 no parent on the timeline. */
static int nested_in_parent(const struct rp_log *lg, const struct tl_entry *tl, const size_t *pos,
                            const struct tl_entry *e)
{
	const struct rp_series *se = &lg->series[e->series];
	const char *name = lg->probes[se->probe].name;
	size_t plen;
	if (sub_probe(name, &plen) < 0)
		return -1;
	uint32_t parent = rp_log_find_probe(lg, name, plen);
	if (parent == UINT32_MAX)
		return -1;
	uint32_t s = rp_log_find_series(lg, parent, se->block, se->iter);
	if (s == UINT32_MAX || pos[s] == SIZE_MAX)
		return -1;
	const struct tl_entry *p = &tl[pos[s]];
	return p->start_x2 <= e->start_x2 && e->end_x2 <= p->end_x2;
}

/* Lane groups name their origin: a report may hold logs and a tensor. */
#define LOG_GROUP "probes (from " PK_NAME_PROBE_BASE ")"

/* The lane of SE's probe and block, made at its first span; LANES maps
 * (probe, block) to lane indexes in D (a log with thousands of probes and
 * blocks has as many lanes: no scan of them per span). */
static struct rp_lane *lane_for(struct rp_doc *d, const struct rp_log *lg, struct rp_hash *lanes,
                                const struct rp_series *se)
{
	int64_t k[4] = {se->probe, se->block, 0, 0};
	uint32_t i = rp_hash_get(lanes, k);
	if (i != UINT32_MAX)
		return d->lanes[i];
	char name[256];
	if (se->block >= 0)
		snprintf(name, sizeof(name), "%s block %lld", lg->probes[se->probe].name, (long long)se->block);
	else
		snprintf(name, sizeof(name), "%s", lg->probes[se->probe].name);
	rp_hash_put(lanes, k, (uint32_t)d->nlanes);
	struct rp_lane *l = rp_lane_new(d, LOG_GROUP, name);
	l->medians = 1;
	return l;
}

static void add_span(struct rp_doc *d, const struct rp_log *lg, struct rp_hash *lanes, const struct tl_entry *e)
{
	const struct rp_series *se = &lg->series[e->series];
	char label[256];
	if (se->iter >= 0)
		snprintf(label, sizeof(label), "%s iter %lld", lg->probes[se->probe].name, (long long)se->iter);
	else
		snprintf(label, sizeof(label), "%s", lg->probes[se->probe].name);
	struct rp_lane *l = lane_for(d, lg, lanes, se);
	rp_span_add_kind(l, e->start_x2 / 2, e->end_x2 / 2, label, lg->probes[se->probe].name);
	int64_t *pairs = pk_xmalloc((se->nrel ? se->nrel : 1) * 2 * sizeof(*pairs));
	size_t n = 0;
	for (size_t i = 0; i < se->n; i++)
		if (se->v[3 * i + 1] != RP_NO_REL) {
			pairs[2 * n] = se->v[3 * i + 1];
			pairs[2 * n++ + 1] = se->v[3 * i + 2];
		}
	rp_span_runs(l, pairs, n);
	free(pairs);
}

/* Series with relative times, in chain order: block, iter, median start. */
static struct tl_entry *collect_timeline(const struct rp_log *lg, const struct summary *sm, size_t *n,
                                         int *nested_state)
{
	struct tl_entry *tl = pk_xcalloc(lg->nseries, sizeof(*tl));
	size_t *pos = pk_xmalloc(lg->nseries * sizeof(*pos)); /* series -> entry */
	*n = 0;
	for (uint32_t i = 0; i < lg->nseries; i++) {
		pos[i] = SIZE_MAX;
		if (!lg->series[i].nrel)
			continue;
		pos[i] = *n;
		tl[*n].series = i;
		tl[*n].start_x2 = sm->start_x2[i];
		tl[*n].end_x2 = sm->end_x2[i];
		(*n)++;
	}
	for (size_t i = 0; i < *n; i++) {
		int nested = nested_in_parent(lg, tl, pos, &tl[i]);
		uint32_t p = lg->series[tl[i].series].probe;
		tl[i].in_chain = nested != 1;
		if (nested >= 0 && nested_state[p] != 0)
			nested_state[p] = nested; /* any series not nested: not nested */
	}
	free(pos);
	qsort_r(tl, *n, sizeof(*tl), cmp_tl, (void *)lg);
	return tl;
}

/* Columns: block and iter only when the lines carry those fields, times
 * only with a frequency. Returns the table; *c_probe is the probe column. */
static struct rp_table *timeline_new(const struct rp_log *lg, struct rp_doc *d, size_t *c_probe)
{
	const char *cols[9];
	size_t nc = 0;
	if (has_fields(lg)) {
		cols[nc++] = "block";
		cols[nc++] = "iter";
	}
	*c_probe = nc;
	cols[nc++] = "probe";
	cols[nc++] = "rel_start";
	cols[nc++] = "rel_end";
	cols[nc++] = "gap";
	if (d->freq_hz > 0) {
		cols[nc++] = "rel_start_us";
		cols[nc++] = "rel_end_us";
		cols[nc++] = "gap_us";
	}
	return rp_table_newv(d, "timeline", "timeline (median cycles relative to " PK_NAME_PROBE_BASE ")", nc, cols);
}

static void timeline_row(struct rp_doc *d, struct rp_table *t, size_t c, const struct rp_log *lg,
                         const struct tl_entry *e, const struct tl_entry *prev)
{
	const struct rp_series *se = &lg->series[e->series];
	size_t r = rp_row(t);
	if (c) {
		set_opt_int(t, r, 0, se->block);
		set_opt_int(t, r, 1, se->iter);
	}
	rp_set_str(t, r, c, lg->probes[se->probe].name);
	rp_set_half(t, r, c + 1, e->start_x2);
	rp_set_half(t, r, c + 2, e->end_x2);
	rp_set_us(d, t, r, c + 4, (double)e->start_x2 / 2);
	rp_set_us(d, t, r, c + 5, (double)e->end_x2 / 2);
	/* gap = next start - previous end; negative means overlap, kept. */
	if (e->in_chain && prev) {
		rp_set_half(t, r, c + 3, e->start_x2 - prev->end_x2);
		rp_set_us(d, t, r, c + 6, (double)(e->start_x2 - prev->end_x2) / 2);
	}
}

/* NESTED_STATE[probe] (preset -1) becomes 1 or 0 for sub-probes whose
 * stage is on the timeline: whether the stage encloses them. */
static void timeline_table(const struct rp_log *lg, struct rp_doc *d, const struct summary *sm, int *nested_state)
{
	size_t n, c_probe;
	struct tl_entry *tl = collect_timeline(lg, sm, &n, nested_state);
	if (!n) {
		if (lg->probe_lines)
			rp_note(d, "no timeline: no probe line follows a [T_BASE] line in its run");
		free(tl);
		return;
	}
	struct rp_table *t = timeline_new(lg, d, &c_probe);
	rp_table_reserve(t, n);
	d->origin = pk_xstrdup(PK_NAME_PROBE_BASE " of each run");
	const struct tl_entry *prev = NULL; /* the previous stage of the same chain */
	struct rp_hash lanes = {0};
	for (size_t i = 0; i < n; i++) {
		const struct rp_series *se = &lg->series[tl[i].series];
		if (prev && (lg->series[prev->series].block != se->block || lg->series[prev->series].iter != se->iter))
			prev = NULL;
		timeline_row(d, t, c_probe, lg, &tl[i], prev);
		if (tl[i].in_chain)
			prev = &tl[i];
		add_span(d, lg, &lanes, &tl[i]);
	}
	rp_hash_free(&lanes);
	free(tl);
}

/* Wait, compute, load and writeback shares: median sub-probe dur /
 * median stage dur, only for sub-probes inside their stage (or where the
 * timeline cannot tell). */
static void ratios_table(const struct rp_log *lg, struct rp_doc *d, const rp_x2 *median_x2, const int *nested_state)
{
	static const char *const nested_text[] = {"no", "yes"};
	struct rp_table *t = NULL;
	for (uint32_t p = 0; p < lg->nprobes; p++) {
		size_t plen;
		int k = sub_probe(lg->probes[p].name, &plen);
		uint32_t parent = k < 0 ? UINT32_MAX : rp_log_find_probe(lg, lg->probes[p].name, plen);
		if (parent == UINT32_MAX)
			continue;
		if (!t)
			t = rp_table_new(d, "ratios", "sub-probe share of its stage (median dur / median dur)", "stage",
			                 "sub_probe", "kind", "nested", "sub_median", "stage_median", "ratio", NULL);
		size_t r = rp_row(t);
		rp_set_str(t, r, 0, lg->probes[parent].name);
		rp_set_str(t, r, 1, lg->probes[p].name);
		rp_set_str(t, r, 2, sub_kinds[k]);
		rp_set_str(t, r, 3, nested_state[p] < 0 ? "unknown" : nested_text[nested_state[p]]);
		rp_set_half(t, r, 4, median_x2[p]);
		rp_set_half(t, r, 5, median_x2[parent]);
		if (median_x2[parent] != 0 && nested_state[p] != 0)
			rp_set_real(t, r, 6, (double)median_x2[p] / (double)median_x2[parent], 3);
		if (nested_state[p] == 0)
			rp_note(d,
			        "'%s' lies outside '%s' on the timeline: no share of it; it counts as a stage of its "
			        "own in the gaps",
			        lg->probes[p].name, lg->probes[parent].name);
	}
}

static void input_table(const struct rp_log *lg, struct rp_doc *d)
{
	struct rp_table *t = rp_table_new(d, "input", "input", "runs", "lines", "probe_lines", "tbase_lines",
	                                  "other_lines", "garbled_lines", NULL);
	size_t r = rp_row(t);
	rp_set_int(t, r, 0, (int64_t)lg->nruns);
	rp_set_int(t, r, 1, (int64_t)lg->total_lines);
	rp_set_int(t, r, 2, (int64_t)lg->probe_lines);
	rp_set_int(t, r, 3, (int64_t)lg->tbase_lines);
	rp_set_int(t, r, 4, (int64_t)lg->other_lines);
	rp_set_int(t, r, 5, (int64_t)(lg->garbled_lines + lg->past_int64_lines));
}

/* "N ONE|MANY, not counted (FILE:LINE, ...)" for the first five: ONE and
 * MANY are the singular and the plural (the plural is not always at the end). */
static void warn_lines(struct rp_doc *d, size_t n, char *const *where, const char *one, const char *many)
{
	if (!n)
		return;
	char list[512] = "";
	for (size_t i = 0; i < 5 && i < n; i++) {
		strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
		strncat(list, where[i], sizeof(list) - strlen(list) - 1);
	}
	rp_warn(d, "%zu %s, not counted (%s%s)", n, n == 1 ? one : many, list, n > 5 ? ", ..." : "");
}

static void warn_garbled(const struct rp_log *lg, struct rp_doc *d)
{
	warn_lines(d, lg->garbled_lines, lg->garbled_where, "garbled or truncated probe line",
	           "garbled or truncated probe lines");
	warn_lines(d, lg->past_int64_lines, lg->past_int64_where,
	           "probe line with an unsigned value past int64 (an end before its start?)",
	           "probe lines with an unsigned value past int64 (an end before its start?)");
}

static void warn_runs(const struct rp_log *lg, struct rp_doc *d)
{
	for (size_t i = 0; i < lg->nruns; i++) {
		const struct rp_run *r = &lg->runs[i];
		if (r->nprobes > 1) {
			char list[512] = "";
			for (size_t k = 0; k < r->nprobes && k < 4; k++) {
				if (k)
					strncat(list, ", ", sizeof(list) - strlen(list) - 1);
				strncat(list, "'", sizeof(list) - strlen(list) - 1);
				strncat(list, lg->probes[r->probes[k]].name, sizeof(list) - strlen(list) - 1);
				strncat(list, "'", sizeof(list) - strlen(list) - 1);
			}
			rp_warn(d,
			        "'%s': %zu probes in one run (%s%s): each printf delays the others; enable one probe "
			        "per run",
			        r->label, r->nprobes, list, r->nprobes > 4 ? ", ..." : "");
		}
		if (r->nlines && !r->ntbase)
			rp_warn(d, "'%s': no [T_BASE] line: no relative times for this run", r->label);
		else if (r->nlines && r->tbase_late)
			rp_warn(d, "'%s': probe lines before the first [T_BASE] have no relative times", r->label);
		if (r->ntbase > lg->repeat)
			rp_warn(
			    d,
			    "'%s': %zu [T_BASE] lines, more than --repeat %zu (warmup output leaked, or several tasks "
			    "ran the kernel?)",
			    r->label, r->ntbase, lg->repeat);
	}
}

/* Findings were recorded once per (run, probe, kind) while reading. */
static void warn_findings(const struct rp_log *lg, struct rp_doc *d)
{
	for (size_t i = 0; i < lg->nfindings; i++) {
		const struct rp_finding *f = &lg->findings[i];
		const char *run = lg->runs[f->run].label, *name = lg->probes[f->probe].name;
		/* several blocks explain the count better than warmup */
		int overlap = rp_log_has_finding(lg, f->run, f->probe, RP_FIND_OVERLAP);
		if (f->kind == RP_FIND_OVERLAP)
			rp_warn(d,
			        "'%s': '%s' lines without block= overlap in time: several blocks print; restrict the "
			        "print to one block or add block=",
			        run, name);
		else if (!overlap)
			rp_warn(d,
			        "'%s': up to %u '%s' lines for one block and iteration, more than --repeat %zu (warmup "
			        "output leaked, or several tasks ran the kernel?)",
			        run, f->count, name, lg->repeat);
	}
}

static void warn_probes(const struct rp_log *lg, struct rp_doc *d)
{
	for (size_t p = 0; p < lg->nprobes; p++) {
		const struct rp_probe *pr = &lg->probes[p];
		if (pr->dur_mismatch)
			rp_warn(d, "'%s': %zu line%s where dur != end - start (first at %s)", pr->name,
			        pr->dur_mismatch, pr->dur_mismatch == 1 ? "" : "s", pr->first_mismatch_file);
		if (pr->with_block && pr->without_block)
			rp_warn(d, "'%s': %zu lines with block= and %zu without", pr->name, pr->with_block,
			        pr->without_block);
	}
}

void rp_log_analyse(const struct rp_log *lg, struct rp_doc *d)
{
	input_table(lg, d);
	warn_garbled(lg, d);
	if (!lg->probe_lines) {
		rp_note(d, "no probe lines ([NAME] start=S end=E dur=D) in the input");
		return;
	}
	warn_runs(lg, d);
	warn_findings(lg, d);
	warn_probes(lg, d);
	struct summary sm;
	summarise(lg, &sm);
	rp_x2 *median_x2 = pk_xcalloc(lg->nprobes, sizeof(*median_x2));
	probes_table(lg, d, &sm, median_x2);
	if (sm.with_series) {
		uint32_t *order = pk_xmalloc(lg->nseries * sizeof(*order));
		for (uint32_t i = 0; i < lg->nseries; i++)
			order[i] = i;
		qsort_r(order, lg->nseries, sizeof(*order), cmp_series, (void *)lg);
		series_table(lg, d, &sm, order);
		free(order);
	}
	int *nested_state = pk_xmalloc(lg->nprobes * sizeof(int));
	for (size_t p = 0; p < lg->nprobes; p++)
		nested_state[p] = -1;
	timeline_table(lg, d, &sm, nested_state);
	ratios_table(lg, d, median_x2, nested_state);
	free(nested_state);
	free(median_x2);
	summary_free(&sm);
}
