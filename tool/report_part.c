/* report_part.c - what a timing tensor says (the checks of each
 * row, the global partition, collective diagnostics, L2 bounds) and the merged vs
 * split comparison. All arithmetic in integer cycles; boundaries are
 * reductions of absolute stamps, never sums of per-core maxima. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

struct tensor_ctx {
	const struct rp_matrix *m;
	const struct rp_event_map *em;
	const struct rp_tensor_opts *o;
	struct rp_doc *d;
	unsigned char *active, *producer, *valid;
	/* a room ("row_wrap"): the rows the run used (the highest run row a
	 * marker holds + 1) and the rows holding a run row past the room */
	uint64_t run_rows;
	size_t wrapped;
};

static int64_t at(const struct tensor_ctx *c, size_t slot, int col)
{
	return c->m->v[slot * c->m->cols + (size_t)col];
}

static int bad_at(const struct tensor_ctx *c, size_t slot, int col)
{
	return c->m->bad[slot * c->m->cols + (size_t)col] || at(c, slot, col) < 0;
}

/* Does event I of the map apply to SLOT? producer_done only for producers. */
static int applies(const struct tensor_ctx *c, size_t slot, size_t i)
{
	return strcmp(c->em->names[i], "producer_done") || c->producer[slot];
}

/* The active and producer masks from the options, and every column the
 * event map names inside the tensor. */
static int prepare(struct tensor_ctx *c)
{
	size_t n = c->m->rows;
	c->active = pk_xmalloc(n);
	c->producer = pk_xmalloc(n);
	c->valid = pk_xcalloc(n, 1);
	memset(c->active, 1, n);
	if (c->o->active && rp_parse_slot_list("--active", c->o->active, c->active, n) < 0)
		return -1;
	if (c->o->producers) {
		if (rp_parse_slot_list("--producers", c->o->producers, c->producer, n) < 0)
			return -1;
		for (size_t i = 0; i < n; i++)
			if (c->producer[i] && !c->active[i])
				return pk_error("--producers: slot %zu is not in --active", i);
	} else {
		memcpy(c->producer, c->active, n);
	}
	if (c->em->magic_column >= 0 && (size_t)c->em->magic_column >= c->m->cols)
		return pk_error("%s: the magic is in column %d, but the tensor has %zu columns", c->o->path,
		                c->em->magic_column, c->m->cols);
	for (size_t i = 0; i < c->em->n; i++)
		if ((size_t)c->em->cols[i] >= c->m->cols)
			return pk_error("%s: event '%s' is in column %d, but the tensor has %zu columns", c->o->path,
			                c->em->names[i], c->em->cols[i], c->m->cols);
	return 0;
}

/* In a room the marker keeps the run row u, written at row u % rows: row S
 * holds u when u and S agree modulo the rows (with --generation, u's low
 * 16 bits); a u past the rows is a task whose row overwrote an earlier one. */
static int run_row_ok(struct tensor_ctx *c, size_t s, const char *path)
{
	uint64_t got = (uint64_t)at(c, s, c->em->magic_column), rows = c->m->rows;
	uint64_t u = c->em->generation ? got & 0xFFFF : got - c->em->magic;
	int ok = (got >> 32) == (c->em->magic >> 32) && (u % rows == s || (c->em->generation && u == (s & 0xFFFF)));
	if (ok && c->em->generation) {
		uint64_t gen = (got >> 16) & 0xFFFF;
		if (c->o->have_generation && gen != (c->o->generation & 0xFFFF)) {
			rp_warn(c->d,
			        "%s: slot %zu: written by generation %llu, not the current %llu (mod 65536): "
			        "a stale row from an earlier launch",
			        path, s, (unsigned long long)gen, (unsigned long long)(c->o->generation & 0xFFFF));
			return 0;
		}
	}
	if (!ok) {
		rp_warn(c->d,
		        "%s: slot %zu: magic column %d holds %llu, not magic + a run row written at this row: a stale "
		        "row from an earlier invocation, or another writer",
		        path, s, c->em->magic_column, (unsigned long long)got);
		return 0;
	}
	if (u + 1 > c->run_rows)
		c->run_rows = u + 1;
	if (u >= rows)
		c->wrapped++;
	return 1;
}

/* A run that used more rows than its room: the rows of its first tasks were
 * overwritten by later ones; the rows kept are whole rows of their last
 * writer, but the run is not all there. */
static void warn_wrapped(const struct tensor_ctx *c, const char *path)
{
	uint64_t rows = c->m->rows;
	if (!c->em->row_wrap || c->run_rows <= rows)
		return;
	rp_warn(c->d,
	        "%s: the run used %llu rows, but the timing tensor has %llu: %llu were overwritten by later tasks "
	        "(%zu rows hold a run row past the room); inject again with --slots %llu",
	        path, (unsigned long long)c->run_rows, (unsigned long long)rows,
	        (unsigned long long)(c->run_rows - rows), c->wrapped, (unsigned long long)c->run_rows);
}

/* The sidecar's stale-row guard: row[magic_column] == magic + slot. */
static int magic_ok(struct tensor_ctx *c, size_t s, const char *path)
{
	if (c->em->magic_column < 0)
		return 1;
	if (c->em->row_wrap)
		return run_row_ok(c, s, path);
	uint64_t got = (uint64_t)at(c, s, c->em->magic_column), want = c->em->magic + s;
	if (c->em->generation) { /* magic + (generation & 0xFFFF) << 16 + (slot & 0xFFFF) */
		uint64_t gen = (got >> 16) & 0xFFFF;
		want = c->em->magic + (gen << 16) + (s & 0xFFFF);
		if (got == want && c->o->have_generation && gen != (c->o->generation & 0xFFFF)) {
			rp_warn(c->d,
			        "%s: slot %zu: written by generation %llu, not the current %llu (mod 65536): "
			        "a stale row from an earlier launch",
			        path, s, (unsigned long long)gen, (unsigned long long)(c->o->generation & 0xFFFF));
			return 0;
		}
		if (got == want)
			return 1;
		rp_warn(c->d,
		        "%s: slot %zu: magic column %d holds %llu, not magic + (generation << 16) + slot: "
		        "never written by this kernel, or another writer",
		        path, s, c->em->magic_column, (unsigned long long)got);
		return 0;
	}
	if (got == want)
		return 1;
	rp_warn(c->d,
	        "%s: slot %zu: magic column %d holds %llu, not magic + slot %llu: a stale row from an earlier "
	        "invocation, or another writer",
	        path, s, c->em->magic_column, (unsigned long long)got, (unsigned long long)want);
	return 0;
}

static int zero_row(const struct tensor_ctx *c, size_t s)
{
	for (size_t k = 0; k < c->m->cols; k++)
		if (c->m->v[s * c->m->cols + k])
			return 0;
	return 1;
}

/* Active slots FIRST..LAST hold nothing: one finding for the run of them. */
static void warn_unwritten(struct tensor_ctx *c, size_t first, size_t last, const char *path)
{
	if (first < last) {
		rp_warn(c->d,
		        "%s: slots %zu-%zu: not written (all zero); stale or inactive? exclude them with --active",
		        path, first, last);
		return;
	}
	char lane[64];
	rp_events_lane(c->em, first, lane, sizeof(lane));
	rp_warn(c->d, "%s: slot %zu%s%s%s: not written (all zero); stale or inactive? exclude it with --active", path,
	        first, lane[0] ? " (" : "", lane, lane[0] ? ")" : "");
}

/* Rows the tool could not count are written one after another from row 0
 * (blocks, then tasks): unwritten rows past the last written one are the
 * room --slots left beyond this run, not a finding (unless --active says
 * which rows to read). A room with no row left unwritten is a finding: a
 * task past the room wraps onto the first rows and overwrites them, and the
 * overwritten rows still look valid, so the run cannot show it did not. */
static void spare_rows(struct tensor_ctx *c, const char *path)
{
	size_t n = c->m->rows, end = n;
	if (!c->em->slots_bound || c->o->active)
		return;
	while (end > 0 && zero_row(c, end - 1))
		end--;
	/* a room's markers tell a wrap exactly; rows counted (one task's blocks, or the tasks), a
	 * branch's at most, cannot wrap */
	if (end == n && n > 0 && !c->em->row_wrap &&
	    !(c->em->conditional && (c->em->tasks_counted || !c->em->task_rows)))
		rp_warn(c->d,
		        "%s: all %zu rows --slots gave were written: a task past them wraps onto the first rows and "
		        "overwrites them unseen; inject again with a larger --slots (say %zu) to be sure",
		        path, n, 2 * n);
	if (end == 0 || end == n)
		return;
	memset(c->active + end, 0, n - end);
	rp_note(c->d, "slots %zu-%zu: not written: room --slots left past the rows this run wrote (excluded)", end,
	        n - 1);
}

/* A row is valid when written, its required stamps nonzero, monotonic in event order. */
static void validate_slot(struct tensor_ctx *c, size_t s, const char *path)
{
	int ok = magic_ok(c, s, path);
	int prev = -1;
	for (size_t i = 0; i < c->em->n; i++) {
		if (!applies(c, s, i))
			continue;
		int col = c->em->cols[i];
		const char *name = c->em->names[i];
		if (bad_at(c, s, col)) {
			rp_warn(c->d, "%s: slot %zu: '%s' is not a cycle count (%s)", path, s, name,
			        c->m->bad[s * c->m->cols + (size_t)col] ? "above INT64_MAX" : "negative");
			ok = 0;
		} else if (at(c, s, col) == 0) {
			rp_warn(c->d, "%s: slot %zu: '%s' is zero (never stamped)%s", path, s, name,
			        strcmp(name, "producer_done") ? ""
			                                      : "; not a producer? list producers with --producers");
			ok = 0;
		} else if (prev >= 0 && at(c, s, col) < at(c, s, c->em->cols[prev])) {
			rp_warn(c->d, "%s: slot %zu: '%s' (%lld) is before '%s' (%lld): not monotonic", path, s, name,
			        (long long)at(c, s, col), c->em->names[prev], (long long)at(c, s, c->em->cols[prev]));
			ok = 0;
		}
		if (ok)
			prev = (int)i;
	}
	c->valid[s] = (unsigned char)ok;
}

static void slots_table(struct tensor_ctx *c)
{
	/* columns: slot, role, one per event of the map, status; who owns each
	 * row after the slot when the map says (a mixed kernel's lane, or the
	 * task, lane and core of the identity columns) */
	struct rp_rows rows = {c->m, c->em, c->valid, c->producer, NULL, NULL};
	char lane[160];
	int ident = c->em->id_task >= 0 || c->em->id_core >= 0 || c->em->id_block >= 0 || c->em->id_lane >= 0;
	int lanes = ident || (rp_events_lane(c->em, 0, lane, sizeof(lane)), lane[0] != '\0');
	size_t ncols = c->em->n + 3 + (size_t)lanes, ev0 = 2 + (size_t)lanes;
	const char **cols = pk_xcalloc(ncols, sizeof(char *));
	cols[0] = "slot";
	if (lanes)
		cols[1] = ident ? "row" : "lane";
	cols[ev0 - 1] = "role";
	for (size_t i = 0; i < c->em->n; i++)
		cols[ev0 + i] = c->em->names[i];
	cols[ncols - 1] = "status";
	struct rp_table *t = rp_table_newv(c->d, "slots", "slots (absolute cycles)", ncols, cols);
	free(cols);
	/* the unwritten rows past the last written one: one line */
	size_t n = c->m->rows, tail = n;
	while (tail > 0 && zero_row(c, tail - 1))
		tail--;
	if (n - tail < 2)
		tail = n;
	for (size_t s = 0; s < tail; s++) {
		size_t r = rp_row(t);
		rp_set_int(t, r, 0, (int64_t)s);
		if (lanes) {
			if (ident && zero_row(c, s))
				lane[0] = '\0';
			else
				rp_row_label(&rows, s, lane, sizeof(lane));
			rp_set_str(t, r, 1, lane[0] ? lane : "-");
		}
		int producer = c->producer[s] && c->em->column[RP_EV_PRODUCER_DONE] >= 0;
		rp_set_str(t, r, ev0 - 1, !c->active[s] ? "inactive" : producer ? "producer" : "participant");
		for (size_t i = 0; i < c->em->n; i++)
			if (!c->m->bad[s * c->m->cols + (size_t)c->em->cols[i]])
				rp_set_int(t, r, ev0 + i, at(c, s, c->em->cols[i]));
		rp_set_str(t, r, ncols - 1, !c->active[s] ? "excluded" : c->valid[s] ? "ok" : "invalid");
	}
	if (tail < n) {
		size_t r = rp_row(t), excluded = 0;
		char range[64], status[64];
		for (size_t s = tail; s < n; s++)
			excluded += !c->active[s];
		snprintf(range, sizeof(range), "%zu-%zu", tail, n - 1);
		snprintf(status, sizeof(status), "not written (%zu rows%s)", n - tail,
		         excluded == n - tail ? ", excluded"
		         : excluded           ? ", some excluded"
		                              : "");
		rp_set_str(t, r, 0, range);
		rp_set_str(t, r, ev0 - 1, excluded == n - tail ? "inactive" : "participant");
		rp_set_str(t, r, ncols - 1, status);
	}
}

struct bound {
	const char *name; /* "E" */
	int event;        /* enum rp_event, or -1 for L2 bounds */
	int is_max;
	int64_t v;
	int have;
};

/* Reduce one event over valid slots (producer_done: valid producers only). */
static void reduce(const struct tensor_ctx *c, struct bound *b)
{
	int col = c->em->column[b->event];
	b->have = 0;
	if (col < 0)
		return;
	for (size_t s = 0; s < c->m->rows; s++) {
		if (!c->valid[s] || (b->event == RP_EV_PRODUCER_DONE && !c->producer[s]))
			continue;
		int64_t v = at(c, s, col);
		if (!b->have || (b->is_max ? v > b->v : v < b->v))
			b->v = v;
		b->have = 1;
	}
}

static const char *const reductions[RP_EV_N] = {"min entry, all participants", "max producer_done, active producers",
                                                "max collective_arrival, all", "min collective_release, all",
                                                "max body_done, all"};

static void interval_row(struct tensor_ctx *c, struct rp_table *t, const struct bound *a, const struct bound *b)
{
	char name[16];
	size_t r = rp_row(t);
	snprintf(name, sizeof(name), "%s-%s", b->name, a->name);
	rp_set_str(t, r, 0, name);
	rp_set_int(t, r, 1, b->v - a->v);
	rp_set_us(c->d, t, r, 2, (double)(b->v - a->v));
}

/* The consecutive boundaries present, their intervals, the identity and the
 * ordering, all in integer cycles. */
static int partition(struct tensor_ctx *c, struct bound *bs, size_t nb, const char *what)
{
	int ordered = 1;
	struct bound *have[8];
	size_t n = 0;
	for (size_t i = 0; i < nb; i++)
		if (bs[i].have)
			have[n++] = &bs[i];
	if (n < 2)
		return ordered;
	struct rp_table *t = rp_table_new(c->d, "intervals", "partition intervals (cycles)", "interval", "cycles",
	                                  c->d->freq_hz > 0 ? "us" : NULL, NULL);
	int64_t sum = 0;
	int overflow = 0;
	for (size_t i = 1; i < n; i++) {
		interval_row(c, t, have[i - 1], have[i]);
		overflow |= __builtin_add_overflow(sum, have[i]->v - have[i - 1]->v, &sum);
	}
	if (n > 2)
		interval_row(c, t, have[0], have[n - 1]);
	char chain[64] = "", terms[128] = "";
	for (size_t i = 0; i < n; i++) {
		strcat(chain, i ? " <= " : "");
		strcat(chain, have[i]->name);
		if (i) {
			char term[16];
			snprintf(term, sizeof(term), "%s(%s-%s)", i > 1 ? " + " : "", have[i]->name, have[i - 1]->name);
			strcat(terms, term);
		}
	}
	int64_t total = have[n - 1]->v - have[0]->v;
	if (n > 2 && (overflow || sum != total)) /* one interval has no identity */
		rp_warn(c->d, "%s identity %s = %s-%s fails: %lld != %lld", what, terms, have[n - 1]->name,
		        have[0]->name, (long long)sum, (long long)total);
	else if (n > 2)
		rp_note(c->d, "%s identity %s = %s-%s = %lld cycles holds", what, terms, have[n - 1]->name,
		        have[0]->name, (long long)total);
	for (size_t i = 1; i < n; i++)
		if (have[i]->v < have[i - 1]->v) {
			rp_warn(c->d, "%s ordering %s fails: %s (%lld) > %s (%lld)", what, chain, have[i - 1]->name,
			        (long long)have[i - 1]->v, have[i]->name, (long long)have[i]->v);
			ordered = 0;
		}
	return ordered;
}

static void bounds_table(struct tensor_ctx *c, const struct bound *bs, size_t nb, int64_t origin)
{
	struct rp_table *t = rp_table_new(c->d, "boundaries", "global boundaries (cycles)", "boundary", "reduction",
	                                  "cycles", "relative", NULL);
	for (size_t i = 0; i < nb; i++) {
		if (!bs[i].have)
			continue;
		size_t r = rp_row(t);
		rp_set_str(t, r, 0, bs[i].name);
		rp_set_str(t, r, 1,
		           bs[i].event >= 0 ? reductions[bs[i].event]
		           : bs[i].is_max   ? "latest L2 task end"
		                            : "earliest L2 task start");
		rp_set_int(t, r, 2, bs[i].v);
		rp_set_int(t, r, 3, bs[i].v - origin);
	}
}

static void diag_row(struct tensor_ctx *c, struct rp_table *t, const char *name, const char *formula, int64_t v)
{
	size_t r = rp_row(t);
	rp_set_str(t, r, 0, name);
	rp_set_str(t, r, 1, formula);
	rp_set_int(t, r, 2, v);
	rp_set_us(c->d, t, r, 3, (double)v);
}

/* Collective diagnostics over the valid slots with both stamps. */
static void collective(struct tensor_ctx *c)
{
	int bc = c->em->column[RP_EV_ARRIVAL], ac = c->em->column[RP_EV_RELEASE];
	const char *bname = rp_event_names[RP_EV_ARRIVAL], *aname = rp_event_names[RP_EV_RELEASE];
	/* no standard pair: the first event of kind arrival and the first
	 * release after it */
	for (size_t i = 0; (bc < 0 || ac < 0) && i < c->em->n; i++)
		if (!strcmp(c->em->kinds[i], "arrival") && bc < 0) {
			bc = c->em->cols[i];
			bname = c->em->names[i];
		} else if (!strcmp(c->em->kinds[i], "release") && bc >= 0 && ac < 0) {
			ac = c->em->cols[i];
			aname = c->em->names[i];
		}
	if (bc < 0 || ac < 0)
		return;
	int64_t bmin = 0, bmax = 0, amin = 0, amax = 0, res = 0;
	size_t n = 0, res_slot = 0;
	for (size_t s = 0; s < c->m->rows; s++) {
		if (!c->valid[s])
			continue;
		int64_t b = at(c, s, bc), a = at(c, s, ac);
		if (!n || b < bmin)
			bmin = b;
		if (!n || b > bmax)
			bmax = b;
		if (!n || a < amin)
			amin = a;
		if (!n || a > amax)
			amax = a;
		if (!n || a - b > res) {
			res = a - b;
			res_slot = s;
		}
		n++;
	}
	if (!n)
		return;
	struct rp_table *t = rp_table_new(c->d, "collective", "collective diagnostics (cycles)", "diagnostic",
	                                  "formula", "cycles", c->d->freq_hz > 0 ? "us" : NULL, NULL);
	if (strcmp(bname, rp_event_names[RP_EV_ARRIVAL]) || strcmp(aname, rp_event_names[RP_EV_RELEASE]))
		rp_note(c->d, "collective diagnostics: b = %s (arrival), a = %s (release)", bname, aname);
	diag_row(c, t, "arrival skew", "max b - min b", bmax - bmin);
	diag_row(c, t, "first-release service", "min a - max b", amin - bmax);
	diag_row(c, t, "release skew", "max a - min a", amax - amin);
	diag_row(c, t, "full-release tail", "max a - max b", amax - bmax);
	diag_row(c, t, "early-core residence", "max_i (a[i] - b[i])", res);
	rp_note(c->d,
	        "early-core residence is largest on slot %zu and includes arrival skew; a consumer interval starting "
	        "at min a already covers release skew: do not add it again",
	        res_slot);
}

static void partition_lane(struct tensor_ctx *c, const struct bound *bs, size_t nb, int64_t origin)
{
	struct rp_lane *l =
	    rp_lane_new(c->d, c->o->l2 && c->o->same_epoch ? "global partition (from M0)" : "global partition (from E)",
	                "partition");
	const struct bound *prev = NULL;
	for (size_t i = 0; i < nb; i++) {
		if (!bs[i].have)
			continue;
		if (prev) {
			char label[16];
			snprintf(label, sizeof(label), "%s-%s", bs[i].name, prev->name);
			rp_span_add(l, prev->v - origin, bs[i].v - origin, label);
		}
		prev = &bs[i];
	}
}

static void l2_lanes(struct tensor_ctx *c, int64_t origin, const char *group)
{
	const struct rp_l2 *l2 = c->o->l2;
	for (size_t i = 0; i < l2->ntasks; i++) {
		char name[48];
		snprintf(name, sizeof(name), "L2 core %lld", (long long)l2->core[i]);
		struct rp_lane *l = NULL;
		for (size_t k = 0; k < c->d->nlanes; k++)
			if (!strcmp(c->d->lanes[k]->group, group) && !strcmp(c->d->lanes[k]->name, name))
				l = c->d->lanes[k];
		if (!l)
			l = rp_lane_new(c->d, group, name);
		rp_span_add(l, l2->start[i] - origin, l2->end[i] - origin, "L2 task");
	}
}

/* Without --same-epoch the two sources are compared by durations only. */
static void sources_table(struct tensor_ctx *c, const struct bound *e, const struct bound *f, int ordering_failed)
{
	const struct rp_l2 *l2 = c->o->l2;
	struct rp_table *t = rp_table_new(c->d, "sources", "durations per source (cycles)", "source", "interval",
	                                  "cycles", c->d->freq_hz > 0 ? "us" : NULL, NULL);
	size_t r = rp_row(t);
	rp_set_str(t, r, 0, "L2 tasks");
	rp_set_str(t, r, 1, "M1-M0");
	rp_set_int(t, r, 2, l2->m1 - l2->m0);
	rp_set_us(c->d, t, r, 3, (double)(l2->m1 - l2->m0));
	if (e->have && f->have) {
		r = rp_row(t);
		rp_set_str(t, r, 0, "in-core");
		rp_set_str(t, r, 1, "F-E");
		rp_set_int(t, r, 2, f->v - e->v);
		rp_set_us(c->d, t, r, 3, (double)(f->v - e->v));
	}
	if (ordering_failed)
		rp_note(c->d, "the combined ordering fails, so the sources do not share an epoch after all: compare "
		              "the durations per source");
	else
		rp_note(c->d, "L2 and in-core boundaries not combined: --same-epoch was not given (a matching "
		              "frequency does not prove a common epoch); durations are compared per source");
}

static void tensor_table(struct tensor_ctx *c)
{
	size_t nact = 0, nprod = 0, nvalid = 0;
	for (size_t s = 0; s < c->m->rows; s++) {
		nact += c->active[s];
		nprod += c->producer[s] && c->em->column[RP_EV_PRODUCER_DONE] >= 0;
		nvalid += c->valid[s];
	}
	struct rp_table *t = rp_table_new(c->d, "tensor", "timing tensor", "file", "dtype", "slots", "columns",
	                                  "active", "producers", "valid", NULL);
	size_t r = rp_row(t);
	rp_set_str(t, r, 0, c->o->path);
	rp_set_str(t, r, 1, c->m->dtype);
	rp_set_int(t, r, 2, (int64_t)c->m->rows);
	rp_set_int(t, r, 3, (int64_t)c->m->cols);
	rp_set_int(t, r, 4, (int64_t)nact);
	rp_set_int(t, r, 5, (int64_t)nprod);
	rp_set_int(t, r, 6, (int64_t)nvalid);
	size_t written = 0;
	for (size_t s = 0; s < c->m->rows && !nvalid; s++)
		written += !zero_row(c, s);
	if (!nvalid && c->em->conditional && !c->o->active && !written)
		rp_note(c->d,
		        "%s: no row written: the event map says a branch or a predicate chooses whether tasks run, "
		        "and none ran the kernel in this run",
		        c->o->path);
	else if (!nvalid)
		rp_warn(c->d, "%s: no valid active slot: no partition", c->o->path);
}

static void analyse(struct tensor_ctx *c)
{
	spare_rows(c, c->o->path);
	for (size_t s = 0; s < c->m->rows; s++) {
		if (!c->active[s])
			continue;
		if (!zero_row(c, s)) {
			validate_slot(c, s, c->o->path);
			continue;
		}
		size_t e = s;
		while (e + 1 < c->m->rows && c->active[e + 1] && zero_row(c, e + 1))
			e++;
		if (c->em->conditional && !c->o->active) { /* a task chosen not to run writes none */
			memset(c->active + s, 0, e - s + 1);
			char rows[48];
			snprintf(rows, sizeof(rows), s == e ? "slot %zu" : "slots %zu-%zu", s, e);
			rp_note(
			    c->d,
			    "%s: not written: the event map says a branch or a predicate chooses whether some tasks "
			    "run (excluded)",
			    rows);
		} else {
			warn_unwritten(c, s, e, c->o->path);
		}
		s = e;
	}
	warn_wrapped(c, c->o->path);
	tensor_table(c);
	slots_table(c);
	struct bound bs[7] = {
	    {"M0", -1, 0, 0, 0},           {"E", RP_EV_ENTRY, 0, 0, 0},   {"R", RP_EV_PRODUCER_DONE, 1, 0, 0},
	    {"B", RP_EV_ARRIVAL, 1, 0, 0}, {"A", RP_EV_RELEASE, 0, 0, 0}, {"F", RP_EV_BODY_DONE, 1, 0, 0},
	    {"M1", -1, 1, 0, 0},
	};
	for (int i = 1; i <= 5; i++)
		reduce(c, &bs[i]);
	int combine = c->o->l2 && c->o->same_epoch;
	if (combine) {
		bs[0].v = c->o->l2->m0;
		bs[6].v = c->o->l2->m1;
		bs[0].have = bs[6].have = 1;
	}
	int64_t origin = combine ? bs[0].v : bs[1].have ? bs[1].v : 0;
	/* With logs in the same report, each lane group names its own origin. */
	const char *origin_name = combine ? "M0 (earliest L2 task start)" : "E (earliest entry)";
	int mixed = c->d->origin != NULL;
	free(c->d->origin);
	c->d->origin = pk_xstrdup(mixed ? "each lane group's own origin (see its name)" : origin_name);
	bounds_table(c, bs, 7, origin);
	int ordered = partition(c, bs, 7, combine ? "task partition" : "body partition");
	collective(c);
	if (c->o->l2 && (!combine || !ordered))
		sources_table(c, &bs[1], &bs[5], combine);
	partition_lane(c, bs, 7, origin);
	struct rp_rows rows = {c->m, c->em, c->valid, c->producer, NULL, NULL};
	rp_phase_analyse(&rows, c->o, c->d, origin);
	if (c->o->l2)
		l2_lanes(c, combine ? origin : c->o->l2->m0,
		         combine ? "L2 tasks (from M0)" : "L2 tasks (from their own M0, not combined)");
}

int rp_tensor_analyse(const struct rp_matrix *m, const struct rp_event_map *em, const struct rp_tensor_opts *o,
                      struct rp_doc *d)
{
	struct tensor_ctx c = {m, em, o, d, NULL, NULL, NULL, 0, 0};
	int rc = prepare(&c);
	if (rc == 0)
		analyse(&c);
	free(c.active);
	free(c.producer);
	free(c.valid);
	return rc;
}

/* ---- merged vs split ---- */

static const char *const pair_cols[] = {"M0", "B", "A", "M1", "P0", "P1", "C0", "C1"};

static int pair_columns(const struct rp_matrix *m, const char *path, int idx[8], int *label)
{
	*label = -1;
	if (!m->colnames)
		return pk_error("%s: needs a header row naming M0,B,A,M1,P0,P1,C0,C1", path);
	for (int k = 0; k < 8; k++) {
		idx[k] = -1;
		for (size_t i = 0; i < m->cols; i++)
			if (!strcmp(m->colnames[i], pair_cols[k]))
				idx[k] = (int)i;
		if (idx[k] < 0)
			return pk_error("%s: no column '%s' (needs M0,B,A,M1,P0,P1,C0,C1)", path, pair_cols[k]);
	}
	for (size_t i = 0; i < m->cols; i++)
		if (!strcmp(m->colnames[i], "pair"))
			*label = (int)i;
	return 0;
}

static void pair_row(struct rp_doc *d, struct rp_table *t, const int64_t *v, int64_t label, int64_t *delta)
{
	int64_t M0 = v[0], B = v[1], A = v[2], M1 = v[3], P0 = v[4], P1 = v[5], C0 = v[6], C1 = v[7];
	/* The chain total covers the envelope only when P0 <= C0 and P1 <= C1. */
	int chain = P0 <= C0 && P1 <= C1;
	int64_t split = chain ? C1 - P0 : (P1 > C1 ? P1 : C1) - (P0 < C0 ? P0 : C0);
	size_t r = rp_row(t);
	rp_set_int(t, r, 0, label);
	rp_set_int(t, r, 1, B - M0);
	rp_set_int(t, r, 2, A - B);
	rp_set_int(t, r, 3, M1 - A);
	rp_set_int(t, r, 4, M1 - M0);
	rp_set_int(t, r, 5, P1 - P0);
	rp_set_int(t, r, 6, C0 - P1); /* negative: overlap, kept */
	rp_set_int(t, r, 7, C1 - C0);
	rp_set_int(t, r, 8, split);
	rp_set_str(t, r, 9, chain ? "chain" : "envelope");
	rp_set_int(t, r, 10, split - (M1 - M0));
	*delta = split - (M1 - M0);
	if (!(M0 <= B && B <= A && A <= M1))
		rp_warn(d, "pair %lld: merged boundaries not ordered M0 <= B <= A <= M1", (long long)label);
}

int rp_pairs_analyse(const struct rp_matrix *m, const char *path, struct rp_doc *d)
{
	int idx[8], label;
	if (pair_columns(m, path, idx, &label) < 0)
		return -1;
	struct rp_table *t =
	    rp_table_new(d, "pairs", "merged vs split, each paired run (cycles)", "pair", "merged_producer",
	                 "merged_gap", "merged_consumer", "merged_total", "split_producer", "split_gap",
	                 "split_consumer", "split_total", "split_total_kind", "delta", NULL);
	int64_t *deltas = pk_xmalloc(m->rows * sizeof(int64_t));
	for (size_t r = 0; r < m->rows; r++) {
		int64_t v[8];
		for (int k = 0; k < 8; k++)
			v[k] = m->v[r * m->cols + (size_t)idx[k]];
		pair_row(d, t, v, label >= 0 ? m->v[r * m->cols + (size_t)label] : (int64_t)r + 1, &deltas[r]);
	}
	struct rp_stats s;
	rp_stats_compute(deltas, m->rows, &s);
	free(deltas);
	struct rp_table *st = rp_table_new(d, "pair_deltas", "delta = split total - merged total, per pair (cycles)",
	                                   "pairs", "min", "median", "mean", "max", "stddev", NULL);
	size_t r = rp_row(st);
	rp_set_int(st, r, 0, (int64_t)s.n);
	rp_set_int(st, r, 1, s.min);
	rp_set_half(st, r, 2, s.median_x2);
	rp_set_mean(st, r, 3, &s);
	rp_set_int(st, r, 4, s.max);
	rp_set_real(st, r, 5, s.stddev, 1);
	rp_note(d,
	        "statistics are over each pair's own delta; phase medians aggregated independently are never summed");
	return 0;
}
