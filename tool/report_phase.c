/* report_phase.c - the phases of a timing tensor as the method reduces
 * them: the global boundary of every event of the map (the earliest entry
 * and release, the latest of every other stamp), the phases between
 * consecutive boundaries, each phase per row and per task, the slowest
 * phase; rows labelled by the task, lane and core that wrote them; and the
 * merge with the runtime's chip swimlane, where each row is joined to its
 * task and its phases are drawn inside the task's bar on its core. Phases
 * are differences of global boundaries, never sums of per-row maxima. */
#include "embed.h"
#include "report.h"
#include "scan.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NO_TASK ((size_t)-1)

struct phase_ctx {
	const struct rp_rows *r;
	const struct rp_tensor_opts *o;
	struct rp_doc *d;
	size_t nev;
	int64_t *bound; /* global boundary of each event */
	int *have;
	size_t *join; /* per row: its swimlane task, NO_TASK when none */
};

static int64_t cell(const struct rp_rows *r, size_t row, int col)
{
	return r->m->v[row * r->m->cols + (size_t)col];
}

/* Does event I apply to ROW? producer_done only on producers. */
static int applies(const struct rp_rows *r, size_t row, size_t i)
{
	return strcmp(r->em->names[i], "producer_done") || r->producer[row];
}

/* The first event and every release are reduced by their earliest stamp
 * (a phase starts when the first core starts it, a collective releases when
 * the first core leaves it), every other event by its latest (a phase ends
 * when its last worker completes). */
static int reduced_by_min(const struct rp_event_map *em, size_t i)
{
	return i == 0 || !strcmp(em->kinds[i], "release") ||
	       (!em->kinds[i][0] && !strcmp(em->names[i], "collective_release"));
}

/* simpler's display of a task id, (ring << 32) | local: "r1t3". */
static void task_name(int64_t task, char *buf, size_t cap)
{
	uint64_t t = (uint64_t)task;
	snprintf(buf, cap, "r%llut%llu", (unsigned long long)(t >> 32), (unsigned long long)(t & 0xFFFFFFFFu));
}

int rp_row_task(const struct rp_rows *r, size_t row, int64_t *task)
{
	const struct rp_event_map *em = r->em;
	if (em->id_task >= 0) {
		*task = cell(r, row, em->id_task);
		return 1;
	}
	if (em->task_rows && em->aiv_per_aic >= 1 && em->aic_rows >= 1) {
		size_t aic = em->aic_idle ? 0 : (size_t)em->aic_rows;
		*task = (int64_t)(row / (aic + (size_t)em->aic_rows * (size_t)em->aiv_per_aic));
		return 1;
	}
	if (r->joined_task && r->joined_task[row] != RP_NO_TASK) {
		*task = r->joined_task[row];
		return 1;
	}
	return 0;
}

void rp_row_label(const struct rp_rows *r, size_t row, char *buf, size_t cap)
{
	const struct rp_event_map *em = r->em;
	if (em->id_task < 0 && em->id_core < 0 && em->id_block < 0 && em->id_lane < 0) {
		rp_events_lane(em, row, buf, cap);
		if (!buf[0] && r->joined_task && r->joined_task[row] != RP_NO_TASK) {
			char t[48];
			task_name(r->joined_task[row], t, sizeof(t));
			snprintf(buf, cap, "task %s core %lld", t, (long long)r->joined_core[row]);
		}
		return;
	}
	struct pk_sb sb = {0};
	char t[48];
	if (em->id_task >= 0) {
		task_name(cell(r, row, em->id_task), t, sizeof(t));
		pk_sb_addf(&sb, "task %s", t);
	}
	int64_t lane = em->id_lane >= 0 ? cell(r, row, em->id_lane) : -1;
	int64_t block = em->id_block >= 0 ? cell(r, row, em->id_block) : -1;
	if (lane == 0)
		pk_sb_addf(&sb, "%sAIC", sb.n ? " " : "");
	else if (lane > 0)
		pk_sb_addf(&sb, "%sAIV", sb.n ? " " : "");
	if (block >= 0 && lane > 0)
		pk_sb_addf(&sb, " %lld.%lld", (long long)block, (long long)(lane - 1));
	else if (block >= 0)
		pk_sb_addf(&sb, "%s%lld", lane >= 0 ? " " : sb.n ? " block " : "block ", (long long)block);
	else if (lane > 0)
		pk_sb_addf(&sb, " %lld", (long long)(lane - 1));
	if (em->id_core >= 0)
		pk_sb_addf(&sb, "%score %lld", sb.n ? " " : "", (long long)cell(r, row, em->id_core));
	else if (r->joined_core && r->joined_core[row] >= 0)
		pk_sb_addf(&sb, "%score %lld", sb.n ? " " : "", (long long)r->joined_core[row]);
	snprintf(buf, cap, "%s", sb.s ? sb.s : "");
	pk_sb_free(&sb);
}

/* "slot 3" or "slot 3 (task r0t1 AIV 0.1 core 12)". */
static void row_name(const struct rp_rows *r, size_t row, char *buf, size_t cap)
{
	char label[160];
	rp_row_label(r, row, label, sizeof(label));
	if (label[0])
		snprintf(buf, cap, "slot %zu (%s)", row, label);
	else
		snprintf(buf, cap, "slot %zu", row);
}

/* The boundary of event I over the valid rows of TASK (all when ALL). */
static int reduce(const struct phase_ctx *c, size_t i, int all, int64_t task, int64_t *v)
{
	const struct rp_rows *r = c->r;
	int have = 0, by_min = reduced_by_min(r->em, i);
	for (size_t s = 0; s < r->m->rows; s++) {
		int64_t t;
		if (!r->valid[s] || !applies(r, s, i) || (!all && (!rp_row_task(r, s, &t) || t != task)))
			continue;
		int64_t x = cell(r, s, r->em->cols[i]);
		if (!have || (by_min ? x < *v : x > *v))
			*v = x;
		have = 1;
	}
	return have;
}

/* Row S's duration of the phase ending at event J (both stamps apply). */
static int row_phase(const struct rp_rows *r, size_t s, size_t j, int64_t *dur)
{
	if (!applies(r, s, j) || !applies(r, s, j - 1))
		return 0;
	*dur = cell(r, s, r->em->cols[j]) - cell(r, s, r->em->cols[j - 1]);
	return 1;
}

static int is_standard(const char *name)
{
	for (int e = 0; e < RP_EV_N; e++)
		if (!strcmp(name, rp_event_names[e]))
			return 1;
	return 0;
}

/* The phases table: each phase's global duration, its per-row spread and
 * the row that sets the maximum; the slowest phase in one line. */
/* Does some valid row have a label (task, lane, core)? */
static int labelled(const struct rp_rows *r)
{
	char label[160];
	for (size_t s = 0; s < r->m->rows; s++)
		if (r->valid[s] && (rp_row_label(r, s, label, sizeof(label)), label[0]))
			return 1;
	return 0;
}

static size_t tasks_of(const struct rp_rows *r, int64_t **out);

/* Task T's (ALL: every row's) boundary difference of the phase ending at
 * event J, and its first-to-last span. */
static int task_phase(const struct phase_ctx *c, size_t j, int all, int64_t t, int64_t *g, int64_t *total)
{
	int64_t a = 0, b = 0, e0 = 0, e1 = 0;
	if (!reduce(c, j - 1, all, t, &a) || !reduce(c, j, all, t, &b) || !reduce(c, 0, all, t, &e0) ||
	    !reduce(c, c->nev - 1, all, t, &e1))
		return 0;
	*g = b - a;
	*total = e1 - e0;
	return 1;
}

/* The phase ending at event J between consecutive global boundaries; with
 * rows of several tasks (separate instances, whose stamps do not mix) in
 * the task where it is longest (*TASK, and *IN_TASK set). */
static int phase_span(const struct phase_ctx *c, size_t j, const int64_t *tasks, size_t nt, int64_t *g, int64_t *total,
                      int64_t *task)
{
	if (nt < 2)
		return task_phase(c, j, 1, 0, g, total);
	int have = 0;
	for (size_t k = 0; k < nt; k++) {
		int64_t x, tot;
		if (task_phase(c, j, 0, tasks[k], &x, &tot) && (!have || x > *g)) {
			*g = x;
			*total = tot;
			*task = tasks[k];
			have = 1;
		}
	}
	return have;
}

static void task_label(const struct rp_rows *r, int64_t task, char *buf, size_t cap)
{
	if (r->em->id_task >= 0 || (r->joined_task && !r->em->task_rows))
		task_name(task, buf, cap);
	else
		snprintf(buf, cap, "%lld", (long long)task);
}

/* The earliest and latest first stamp of the valid rows (of TASK unless
 * ALL), the latest one's row. */
static void start_skew(const struct phase_ctx *c, int all, int64_t task, int64_t *skew, size_t *last)
{
	const struct rp_rows *r = c->r;
	int64_t lo = 0, hi = 0, t;
	size_t n = 0;
	for (size_t s = 0; s < r->m->rows; s++) {
		if (!r->valid[s] || (!all && (!rp_row_task(r, s, &t) || t != task)))
			continue;
		int64_t x = cell(r, s, r->em->cols[0]);
		if (!n || x < lo)
			lo = x;
		if (!n || x > hi) {
			hi = x;
			*last = s;
		}
		n++;
	}
	*skew = hi - lo;
}

/* The slowest phase: event J, its cycles G of its task's TOTAL, its task,
 * and the longest row of it (in that task when there are several). */
struct slowest {
	size_t j, row;
	int64_t g, total, task, row_v;
};

/* The per-row spread of the phase ending at event J into row ROW of T
 * (columns from COL[7] on); *MAXROW, *MAX: the row that sets the maximum. */
static void phase_spread(const struct phase_ctx *c, struct rp_table *t, size_t row, const size_t *col, int lab,
                         size_t j, size_t *maxrow, int64_t *max)
{
	const struct rp_rows *r = c->r;
	int64_t *v = pk_xmalloc((r->m->rows + 1) * sizeof(int64_t));
	size_t n = 0;
	*maxrow = 0;
	*max = 0;
	for (size_t s = 0; s < r->m->rows; s++) {
		int64_t x;
		if (!r->valid[s] || !row_phase(r, s, j, &x))
			continue;
		if (!n || x > *max) {
			*max = x;
			*maxrow = s;
		}
		v[n++] = x;
	}
	rp_set_int(t, row, col[7], (int64_t)n);
	if (n) {
		struct rp_stats st;
		char name[200];
		rp_stats_compute(v, n, &st);
		rp_set_int(t, row, col[8], st.min);
		rp_set_half(t, row, col[9], st.median_x2);
		rp_set_int(t, row, col[10], st.max);
		rp_set_int(t, row, col[11], (int64_t)*maxrow);
		rp_row_label(r, *maxrow, name, sizeof(name));
		if (lab)
			rp_set_str(t, row, col[12], name[0] ? name : "-");
	}
	free(v);
}

/* The longest row of the phase ending at event J among TASK's rows. */
static void longest_in_task(const struct phase_ctx *c, size_t j, int64_t task, struct slowest *w)
{
	const struct rp_rows *r = c->r;
	for (size_t s = 0, first = 1; s < r->m->rows; s++) {
		int64_t x, tk;
		if (r->valid[s] && rp_row_task(r, s, &tk) && tk == task && row_phase(r, s, j, &x) &&
		    (first || x > w->row_v)) {
			w->row = s;
			w->row_v = x;
			first = 0;
		}
	}
}

/* A negative phase of events other than the standard five is a finding. */
static void negative_phases(const struct phase_ctx *c, const int64_t *tasks, size_t nt)
{
	const struct rp_event_map *em = c->r->em;
	for (size_t j = 1; j < c->nev; j++) {
		int64_t g = 0, total = 0, task = 0;
		if (phase_span(c, j, tasks, nt, &g, &total, &task) && g < 0 &&
		    (!is_standard(em->names[j]) || !is_standard(em->names[j - 1])))
			rp_warn(c->d,
			        "phase '%s' is negative (%lld cycles): the %s %s comes after the %s %s; are the events "
			        "listed in the order they happen?",
			        em->names[j], (long long)g, reduced_by_min(em, j - 1) ? "earliest" : "latest",
			        em->names[j - 1], reduced_by_min(em, j) ? "earliest" : "latest", em->names[j]);
	}
}

/* The slowest phase in one line; when it is far beyond every row's own
 * duration of it, a second line: the rows did not start together. */
static void slowest_notes(const struct phase_ctx *c, const struct slowest *w, int multi)
{
	const struct rp_rows *r = c->r;
	const struct rp_event_map *em = r->em;
	char name[200], share[64] = "", in_task[80] = "";
	row_name(r, w->row, name, sizeof(name));
	if (w->total > 0 && c->d->freq_hz > 0)
		snprintf(share, sizeof(share), " (%.1f%%, %.3f us)", 100.0 * (double)w->g / (double)w->total,
		         (double)w->g * 1e6 / c->d->freq_hz);
	else if (w->total > 0)
		snprintf(share, sizeof(share), " (%.1f%%)", 100.0 * (double)w->g / (double)w->total);
	if (multi) {
		char tn[48];
		task_label(r, w->task, tn, sizeof(tn));
		snprintf(in_task, sizeof(in_task), " of task %s", tn);
	}
	rp_note(c->d,
	        "slowest phase: %s (%s -> %s): %lld of %lld cycles%s between the first and last boundary%s; its "
	        "longest row is %s with %lld cycles",
	        em->names[w->j], em->names[w->j - 1], em->names[w->j], (long long)w->g, (long long)w->total, share,
	        in_task, name, (long long)w->row_v);
	if (w->g / 2 > w->row_v) {
		int64_t skew = 0;
		size_t last = 0;
		start_skew(c, !multi, w->task, &skew, &last);
		row_name(r, last, name, sizeof(name));
		rp_note(
		    c->d,
		    "no row spends more than %lld cycles in %s: the global phase is mostly the rows' start skew (the "
		    "latest %s is %lld cycles after the earliest, on %s), not work inside the phase",
		    (long long)w->row_v, em->names[w->j], em->names[0], (long long)skew, name);
	}
}

static void phases_table(struct phase_ctx *c)
{
	const struct rp_rows *r = c->r;
	const struct rp_event_map *em = r->em;
	int64_t *tasks;
	size_t nt = tasks_of(r, &tasks), multi = nt >= 2;
	int lab = labelled(r);
	size_t us = c->d->freq_hz > 0 ? 1 : 0;
	const char *cols[] = {"phase", "from", "boundary", "task", "cycles",       "us",         "share_pct",
	                      "rows",  "min",  "median",   "max",  "slowest_slot", "slowest_row"};
	const char *pick[13];
	size_t nc = 0, col[13];
	for (size_t i = 0; i < 13; i++) {
		col[i] = nc;
		if ((i != 5 || us) && (i != 12 || lab) && (i != 3 || multi))
			pick[nc++] = cols[i];
	}
	struct rp_table *t = rp_table_newv(c->d, "phases",
	                                   multi ? "phases between consecutive boundaries of each task, in the task "
	                                           "where each is longest (cycles)"
	                                         : "phases between consecutive global boundaries (cycles)",
	                                   nc, pick);
	if (multi)
		rp_note(c->d,
		        "rows of %zu tasks (separate instances): the global boundaries span them all; each phase is "
		        "reduced inside each task",
		        nt);
	struct slowest w = {0, 0, 0, 0, 0, 0};
	for (size_t j = 1; j < c->nev; j++) {
		int64_t g = 0, total = 0, task = 0, mx;
		if (!phase_span(c, j, tasks, nt, &g, &total, &task))
			continue;
		size_t row = rp_row(t), maxrow;
		char red[96], name[200];
		snprintf(red, sizeof(red), "%s %s", reduced_by_min(em, j) ? "min" : "max", em->names[j]);
		rp_set_str(t, row, col[0], em->names[j]);
		rp_set_str(t, row, col[1], em->names[j - 1]);
		rp_set_str(t, row, col[2], red);
		if (multi) {
			task_label(r, task, name, sizeof(name));
			rp_set_str(t, row, col[3], name);
		}
		rp_set_int(t, row, col[4], g);
		if (us)
			rp_set_us(c->d, t, row, col[5], (double)g);
		if (total > 0)
			rp_set_real(t, row, col[6], 100.0 * (double)g / (double)total, 1);
		phase_spread(c, t, row, col, lab, j, &maxrow, &mx);
		if (!w.j || g > w.g) {
			struct slowest now = {j, maxrow, g, total, task, mx};
			w = now;
			if (multi)
				longest_in_task(c, j, task, &w);
		}
	}
	if (w.j) {
		negative_phases(c, tasks, nt);
		slowest_notes(c, &w, (int)multi);
	}
	free(tasks);
}

/* Each valid row's phases, labelled by task, lane and core. */
static void row_phases_table(struct phase_ctx *c)
{
	const struct rp_rows *r = c->r;
	size_t lab = (size_t)labelled(r), ncols = 1 + lab + c->nev - 1;
	const char **cols = pk_xcalloc(ncols, sizeof(char *));
	cols[0] = "slot";
	if (lab)
		cols[1] = "row";
	for (size_t j = 1; j < c->nev; j++)
		cols[lab + j] = r->em->names[j];
	struct rp_table *t = rp_table_newv(c->d, "row_phases", "phases per row (cycles)", ncols, cols);
	free(cols);
	for (size_t s = 0; s < r->m->rows; s++) {
		if (!r->valid[s])
			continue;
		char label[160];
		size_t row = rp_row(t);
		rp_set_int(t, row, 0, (int64_t)s);
		rp_row_label(r, s, label, sizeof(label));
		if (lab)
			rp_set_str(t, row, 1, label[0] ? label : "-");
		for (size_t j = 1; j < c->nev; j++) {
			int64_t x;
			if (row_phase(r, s, j, &x))
				rp_set_int(t, row, lab + j, x);
		}
	}
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The distinct tasks of the valid rows, sorted; 0 when rows say none. */
static size_t tasks_of(const struct rp_rows *r, int64_t **out)
{
	int64_t *v = pk_xmalloc((r->m->rows + 1) * sizeof(int64_t));
	size_t n = 0;
	for (size_t s = 0; s < r->m->rows; s++)
		if (r->valid[s] && rp_row_task(r, s, &v[n]))
			n++;
	qsort(v, n, sizeof(*v), cmp_i64);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	*out = v;
	return u;
}

/* Per task: its rows' own boundaries and phases (the method inside one
 * task), its cores, and with the swimlane its window. */
static void task_table(struct phase_ctx *c)
{
	const struct rp_rows *r = c->r;
	int64_t *tasks;
	size_t nt = tasks_of(r, &tasks);
	if (!nt) {
		free(tasks);
		return;
	}
	const struct rp_l2 *sw = c->o->swim;
	size_t cc = r->em->id_core >= 0, extra = (sw ? 3 : 0) + cc, ncols = 2 + extra + (c->nev - 1) + 1;
	const char **cols = pk_xcalloc(ncols, sizeof(char *));
	cols[0] = "task";
	cols[1] = "rows";
	if (cc)
		cols[2] = "cores";
	if (sw) {
		cols[2 + cc] = "task_cycles";
		cols[3 + cc] = "start_to_entry";
		cols[4 + cc] = "exit_to_end";
	}
	for (size_t j = 1; j < c->nev; j++)
		cols[1 + extra + j] = r->em->names[j];
	cols[ncols - 1] = "total";
	struct rp_table *t =
	    rp_table_newv(c->d, "task_phases", "phases per task, from the task's own rows (cycles)", ncols, cols);
	free(cols);
	int64_t *b = pk_xmalloc(c->nev * sizeof(int64_t));
	int *h = pk_xmalloc(c->nev * sizeof(int));
	for (size_t k = 0; k < nt; k++) {
		size_t row = rp_row(t), n = 0;
		char name[48];
		struct pk_sb cores = {0};
		int64_t wstart = 0, wend = 0;
		int wjoined = 0;
		task_label(r, tasks[k], name, sizeof(name));
		rp_set_str(t, row, 0, name);
		for (size_t s = 0; s < r->m->rows; s++) {
			int64_t tk;
			if (!r->valid[s] || !rp_row_task(r, s, &tk) || tk != tasks[k])
				continue;
			n++;
			if (r->em->id_core >= 0 && cores.n < 48)
				pk_sb_addf(&cores, "%s%lld", cores.n ? "," : "", (long long)cell(r, s, r->em->id_core));
			if (sw && c->join[s] != NO_TASK) {
				size_t w = c->join[s];
				if (!wjoined || sw->start[w] < wstart)
					wstart = sw->start[w];
				if (!wjoined || sw->end[w] > wend)
					wend = sw->end[w];
				wjoined = 1;
			}
		}
		rp_set_int(t, row, 1, (int64_t)n);
		if (cc)
			rp_set_str(t, row, 2, cores.n ? cores.s : "-");
		pk_sb_free(&cores);
		for (size_t i = 0; i < c->nev; i++)
			h[i] = reduce(c, i, 0, tasks[k], &b[i]);
		if (sw && wjoined) {
			rp_set_int(t, row, 2 + cc, wend - wstart);
			if (h[0])
				rp_set_int(t, row, 3 + cc, b[0] - wstart);
			if (h[c->nev - 1])
				rp_set_int(t, row, 4 + cc, wend - b[c->nev - 1]);
		}
		for (size_t j = 1; j < c->nev; j++)
			if (h[j] && h[j - 1])
				rp_set_int(t, row, 1 + extra + j, b[j] - b[j - 1]);
		if (h[0] && h[c->nev - 1])
			rp_set_int(t, row, ncols - 1, b[c->nev - 1] - b[0]);
	}
	free(b);
	free(h);
	free(tasks);
}

/* ---- arrival and release: figures when stamped, hints where they belong ---- */

struct hint_rules {
	char **names;
	unsigned char *collective; /* names[i] is a collective, not a wait */
	size_t n, cap, kcap;
};

static int on_async(void *user, const char *section, const char *key, const char *value, unsigned line)
{
	(void)line;
	struct hint_rules *h = user;
	if (strcmp(section, "wait") || (strcmp(key, "cross_core") && strcmp(key, "collective")))
		return 0;
	for (const char *p = value; *p;) {
		p += strspn(p, " \t,");
		size_t len = strcspn(p, ",");
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len) {
			PK_GROW(h->names, h->cap, h->n + 1);
			PK_GROW(h->collective, h->kcap, h->n + 1);
			h->collective[h->n] = !strcmp(key, "collective");
			h->names[h->n++] = pk_xstrndup(p, len);
		}
		p += strcspn(p, ",");
	}
	return 0;
}

/* The calls of SRC to a cross-core wait or a collective (rules/async.ini
 * [wait] cross_core and collective), outside comments and strings: a note
 * each (five at most). */
static void hint_waits(struct phase_ctx *c, const char *kernel, const char *src, size_t len, const struct hint_rules *h)
{
	size_t found = 0, line = 1;
	const char *first = NULL;
	for (size_t i = 0; i < len; i++) {
		char ch = src[i];
		if (ch == '\n')
			line++;
		else if (ch == '/' && i + 1 < len && src[i + 1] == '/')
			while (i + 1 < len && src[i + 1] != '\n')
				i++;
		else if (ch == '/' && i + 1 < len && src[i + 1] == '*') {
			for (i += 2; i + 1 < len && !(src[i] == '*' && src[i + 1] == '/'); i++)
				line += src[i] == '\n';
			i++;
		} else if (ch == '"' || (ch == '\'' && !pk_digit_separator(src, i))) {
			for (i++; i < len && src[i] != ch && src[i] != '\n'; i++)
				i += src[i] == '\\';
		} else if (pk_is_ident((unsigned char)ch) && (i == 0 || !pk_is_ident((unsigned char)src[i - 1]))) {
			size_t e = i;
			while (e < len && pk_is_ident((unsigned char)src[e]))
				e++;
			size_t k = e;
			while (k < len && (src[k] == ' ' || src[k] == '\t'))
				k++;
			for (size_t n = 0; n < h->n && k < len && (src[k] == '(' || src[k] == '<'); n++)
				if (strlen(h->names[n]) == e - i && !memcmp(src + i, h->names[n], e - i)) {
					if (++found <= 5)
						rp_note(c->d,
						        "%s:%zu: %s is a %s: stamp its arrival and release to "
						        "measure it (probe-inject --timing-tensor --event "
						        "%s_arrival:arrival=before:%s "
						        "--event %s_release:release=after:%s)",
						        kernel, line, h->names[n],
						        h->collective[n] ? "collective" : "cross-core wait",
						        h->collective[n] ? "collective" : "wait", h->names[n],
						        h->collective[n] ? "collective" : "wait", h->names[n]);
					if (!first)
						first = h->names[n];
				}
			i = e - 1;
		}
	}
	if (found > 5)
		rp_note(c->d, "%s: %zu more cross-core waits or collectives (the first was %s)", kernel, found - 5,
		        first);
}

/* When the map stamps no arrival nor release and the kernel (the map's
 * name without .timing.json, beside it) waits for other cores, say where
 * the stamps belong. */
static void wait_hints(struct phase_ctx *c)
{
	const struct rp_event_map *em = c->r->em;
	for (size_t i = 0; i < em->n; i++)
		if (!strcmp(em->kinds[i], "arrival") || !strcmp(em->kinds[i], "release"))
			return;
	const char *map = c->o->map_path;
	size_t n = map ? strlen(map) : 0, tail = strlen(".timing.json");
	if (n <= tail || strcmp(map + n - tail, ".timing.json"))
		return;
	char *kernel = pk_xstrndup(map, n - tail), *src;
	size_t len;
	struct hint_rules h = {0};
	if (access(kernel, R_OK) == 0 && pk_ini_parse_rules("async.ini", on_async, &h) == 0 &&
	    rp_slurp(kernel, &src, &len) == 0) {
		hint_waits(c, kernel, src, len, &h);
		free(src);
	}
	for (size_t i = 0; i < h.n; i++)
		free(h.names[i]);
	free(h.names);
	free(h.collective);
	free(kernel);
}

/* ---- the swimlane merge ---- */

/* Does window W hold row S's stamps? */
static int inside(const struct phase_ctx *c, size_t s, size_t w, int64_t lo, int64_t hi)
{
	(void)s;
	return c->o->swim->start[w] <= lo && hi <= c->o->swim->end[w];
}

static void row_extent(const struct rp_rows *r, size_t s, int64_t *lo, int64_t *hi)
{
	int have = 0;
	for (size_t i = 0; i < r->em->n; i++) {
		if (!applies(r, s, i))
			continue;
		int64_t x = cell(r, s, r->em->cols[i]);
		if (!have || x < *lo)
			*lo = x;
		if (!have || x > *hi)
			*hi = x;
		have = 1;
	}
}

/* Can window W be row S's dispatch by the row's identity columns: its core,
 * its task (the token, or the core's reg_task_id), its lane's core type? */
static int may_be(const struct phase_ctx *c, size_t s, size_t w)
{
	const struct rp_rows *r = c->r;
	const struct rp_event_map *em = r->em;
	const struct rp_l2 *sw = c->o->swim;
	if (em->id_core >= 0 && sw->core[w] != cell(r, s, em->id_core))
		return 0;
	if (em->id_task >= 0 && sw->token[w] != cell(r, s, em->id_task) && sw->reg[w] != cell(r, s, em->id_task))
		return 0;
	if (em->id_lane >= 0 && sw->core[w] >= 0 && (size_t)sw->core[w] < sw->ncore_types) {
		int type = sw->core_type[sw->core[w]], lane = cell(r, s, em->id_lane) == 0 ? 1 : 2;
		if (type && type != lane)
			return 0;
	}
	return 1;
}

/* What the join decided, and how. */
struct join_count {
	size_t by_id, by_time, ambiguous, none, outside, first_out, nvalid;
};

/* Each valid row's candidate windows (its identity allows them and they
 * hold its stamps) into CAND; a row whose core and task name one dispatch
 * is joined to it at once. */
static void join_candidates(struct phase_ctx *c, size_t **cand, size_t *ncand, unsigned char *taken,
                            struct join_count *k)
{
	const struct rp_rows *r = c->r;
	const struct rp_l2 *sw = c->o->swim;
	const struct rp_event_map *em = r->em;
	for (size_t s = 0; s < r->m->rows; s++) {
		c->join[s] = NO_TASK;
		if (!r->valid[s])
			continue;
		k->nvalid++;
		int64_t lo = 0, hi = 0;
		row_extent(r, s, &lo, &hi);
		size_t nid = 0, only = NO_TASK, cap = 0;
		for (size_t w = 0; w < sw->ntasks; w++) {
			if (!may_be(c, s, w))
				continue;
			nid++;
			only = w;
			if (inside(c, s, w, lo, hi)) {
				PK_GROW(cand[s], cap, ncand[s] + 1);
				cand[s][ncand[s]++] = w;
			}
		}
		if (em->id_core >= 0 && em->id_task >= 0 && nid == 1) {
			c->join[s] = only;
			taken[only] = 1;
			k->by_id++;
			if (!inside(c, s, only, lo, hi) && k->outside++ == 0)
				k->first_out = s;
		}
	}
}

/* A dispatch runs one block and so writes one row: a row left with one
 * window takes it and the others drop it, until no row is decided so. */
static void join_eliminate(struct phase_ctx *c, size_t **cand, const size_t *ncand, unsigned char *taken,
                           struct join_count *k)
{
	const struct rp_rows *r = c->r;
	int ids = r->em->id_core >= 0 || r->em->id_task >= 0;
	for (int changed = 1; changed;) {
		changed = 0;
		for (size_t s = 0; s < r->m->rows; s++) {
			if (!r->valid[s] || c->join[s] != NO_TASK)
				continue;
			size_t left = 0, pick = NO_TASK;
			for (size_t i = 0; i < ncand[s]; i++)
				if (!taken[cand[s][i]]) {
					left++;
					pick = cand[s][i];
				}
			if (left == 1) {
				c->join[s] = pick;
				taken[pick] = 1;
				changed = 1;
				*(ids ? &k->by_id : &k->by_time) += 1;
			}
		}
	}
	for (size_t s = 0; s < r->m->rows; s++) {
		if (!r->valid[s] || c->join[s] != NO_TASK)
			continue;
		size_t left = 0;
		for (size_t i = 0; i < ncand[s]; i++)
			left += !taken[cand[s][i]];
		*(left ? &k->ambiguous : &k->none) += 1;
	}
}

static void join_report(struct phase_ctx *c, const struct join_count *k)
{
	const struct rp_rows *r = c->r;
	const struct rp_l2 *sw = c->o->swim;
	int ids = r->em->id_core >= 0 || r->em->id_task >= 0;
	struct rp_table *t = rp_table_new(c->d, "swimlane_join", "rows joined to swimlane dispatches", "swimlane",
	                                  "dispatches", "rows", "by_identity", "by_time", "ambiguous", "in_none", NULL);
	size_t row = rp_row(t);
	rp_set_str(t, row, 0, c->o->swim_path);
	rp_set_int(t, row, 1, (int64_t)sw->ntasks);
	rp_set_int(t, row, 2, (int64_t)k->nvalid);
	rp_set_int(t, row, 3, (int64_t)k->by_id);
	rp_set_int(t, row, 4, (int64_t)k->by_time);
	rp_set_int(t, row, 5, (int64_t)k->ambiguous);
	rp_set_int(t, row, 6, (int64_t)k->none);
	if (!ids)
		rp_note(
		    c->d,
		    "rows joined to dispatches by time alone (the event map names no identity columns): %zu of %zu, "
		    "each in the one window left once every dispatch holds one row; %zu ambiguous (in several, "
		    "not drawn in a task)",
		    k->by_time, k->nvalid, k->ambiguous);
	else if (k->ambiguous)
		rp_note(c->d,
		        "%zu rows lie in several windows of dispatches their task, core and lane allow: not drawn "
		        "in a task",
		        k->ambiguous);
	if (k->none)
		rp_warn(c->d,
		        "%s: %zu of %zu rows lie in no dispatch window of %s%s: another run's swimlane, or another "
		        "counter?",
		        c->o->path, k->none, k->nvalid, c->o->swim_path, ids ? " their identity allows" : "");
	if (k->outside) {
		char name[200];
		row_name(r, k->first_out, name, sizeof(name));
		rp_warn(
		    c->d,
		    "%s: %zu rows lie outside the window of their own dispatch (first: %s): the tensor and %s do not "
		    "share a counter",
		    c->o->path, k->outside, name, c->o->swim_path);
	}
}

/* Join each valid row to its dispatch. By the row's own core and task when
 * the map names both columns and one dispatch has them; else among the
 * dispatches its identity allows (all, without identity columns), the ones
 * whose window holds its stamps, one row a dispatch. */
static void join_rows(struct phase_ctx *c)
{
	size_t n = c->r->m->rows;
	struct join_count k = {0, 0, 0, 0, 0, NO_TASK, 0};
	size_t **cand = pk_xcalloc(n + 1, sizeof(*cand)), *ncand = pk_xcalloc(n + 1, sizeof(*ncand));
	unsigned char *taken = pk_xcalloc(c->o->swim->ntasks + 1, 1);
	join_candidates(c, cand, ncand, taken, &k);
	join_eliminate(c, cand, ncand, taken, &k);
	for (size_t s = 0; s < n; s++)
		free(cand[s]);
	free(cand);
	free(ncand);
	free(taken);
	join_report(c, &k);
}

static struct rp_lane *core_lane(struct phase_ctx *c, const char *group, int64_t core)
{
	char name[48];
	snprintf(name, sizeof(name), "core %lld", (long long)core);
	for (size_t k = 0; k < c->d->nlanes; k++)
		if (!strcmp(c->d->lanes[k]->group, group) && !strcmp(c->d->lanes[k]->name, name))
			return c->d->lanes[k];
	return rp_lane_new(c->d, group, name);
}

/* ROW's phases as spans of L, each labelled with its row. */
static void phase_spans(struct phase_ctx *c, struct rp_lane *l, size_t s, int64_t origin, const char *who)
{
	const struct rp_rows *r = c->r;
	for (size_t j = 1; j < c->nev; j++) {
		if (!applies(r, s, j))
			continue;
		size_t p = j;
		while (p > 0 && !applies(r, s, p - 1))
			p--;
		if (p == 0)
			continue;
		int64_t a = cell(r, s, r->em->cols[p - 1]), b = cell(r, s, r->em->cols[j]);
		char *label = who ? pk_xasprintf("%s, %s", r->em->names[j], who) : pk_xstrdup(r->em->names[j]);
		rp_span_add_kind(l, a - origin, b - origin, label, r->em->names[j]);
		free(label);
	}
}

/* One timeline: every swimlane task that overlaps the joined tasks, one lane
 * per core, and in each joined task's bar the phases of its row. */
static int64_t swim_lanes(struct phase_ctx *c)
{
	const struct rp_rows *r = c->r;
	const struct rp_l2 *sw = c->o->swim;
	int64_t lo = 0, hi = 0;
	int any = 0;
	for (size_t s = 0; s < r->m->rows; s++) {
		size_t w = c->join[s];
		if (w == NO_TASK)
			continue;
		if (!any || sw->start[w] < lo)
			lo = sw->start[w];
		if (!any || sw->end[w] > hi)
			hi = sw->end[w];
		any = 1;
	}
	if (!any)
		return 0;
	unsigned char *joined = pk_xcalloc(sw->ntasks + 1, 1);
	for (size_t s = 0; s < r->m->rows; s++)
		if (c->join[s] != NO_TASK)
			joined[c->join[s]] = 1;
	int64_t origin = lo;
	for (size_t w = 0; w < sw->ntasks; w++)
		if (sw->end[w] >= lo && sw->start[w] <= hi && sw->start[w] < origin)
			origin = sw->start[w];
	const char *group = "chip swimlane: tasks and their phases (from the first task's start)";
	/* lanes in core order */
	int64_t *cores = pk_xmalloc((sw->ntasks + 1) * sizeof(int64_t));
	size_t nc = 0, drawn = 0;
	for (size_t w = 0; w < sw->ntasks; w++)
		if (sw->end[w] >= lo && sw->start[w] <= hi)
			cores[nc++] = sw->core[w];
	qsort(cores, nc, sizeof(*cores), cmp_i64);
	for (size_t i = 0; i < nc; i++)
		if (!i || cores[i] != cores[i - 1])
			core_lane(c, group, cores[i]);
	free(cores);
	for (size_t w = 0; w < sw->ntasks; w++) {
		if (sw->end[w] < lo || sw->start[w] > hi)
			continue;
		char name[48], label[96];
		task_name(sw->token[w], name, sizeof(name));
		snprintf(label, sizeof(label), "task %s%s", name, joined[w] ? "" : " (no row of this tensor)");
		rp_span_add_kind(core_lane(c, group, sw->core[w]), sw->start[w] - origin, sw->end[w] - origin, label,
		                 joined[w] ? "task" : "other task");
		drawn++;
		for (size_t s = 0; s < r->m->rows; s++)
			if (c->join[s] == w) {
				char who[200];
				row_name(r, s, who, sizeof(who));
				phase_spans(c, core_lane(c, group, sw->core[w]), s, origin, who);
			}
	}
	free(joined);
	/* valid rows in no task: on the same axis, a lane each */
	for (size_t s = 0; s < r->m->rows; s++) {
		if (!r->valid[s] || c->join[s] != NO_TASK)
			continue;
		char name[200];
		row_name(r, s, name, sizeof(name));
		phase_spans(c, rp_lane_new(c->d, "rows in no task (from the first task's start)", name), s, origin,
		            NULL);
	}
	(void)drawn;
	return origin;
}

/* Without a swimlane: a lane per valid row, a span per phase. */
static void row_lanes(struct phase_ctx *c, int64_t origin)
{
	const struct rp_rows *r = c->r;
	const char *group = c->o->l2 && c->o->same_epoch ? "in-core slots (from M0)" : "in-core slots (from E)";
	for (size_t s = 0; s < r->m->rows; s++) {
		if (!r->valid[s])
			continue;
		char name[200];
		row_name(r, s, name, sizeof(name));
		phase_spans(c, rp_lane_new(c->d, group, name), s, origin, NULL);
	}
}

void rp_phase_analyse(const struct rp_rows *r, const struct rp_tensor_opts *o, struct rp_doc *d, int64_t origin)
{
	struct phase_ctx c = {r, o, d, r->em->n, NULL, NULL, NULL};
	size_t nvalid = 0;
	for (size_t s = 0; s < r->m->rows; s++)
		nvalid += r->valid[s];
	c.bound = pk_xcalloc(c.nev + 1, sizeof(int64_t));
	c.have = pk_xcalloc(c.nev + 1, sizeof(int));
	c.join = pk_xcalloc(r->m->rows + 1, sizeof(size_t));
	for (size_t i = 0; i < c.nev; i++)
		c.have[i] = reduce(&c, i, 1, 0, &c.bound[i]);
	struct rp_rows joined = *r;
	int64_t *jtask = NULL;
	if (nvalid && o->swim) {
		join_rows(&c);
		/* without a task column, a row's task is its dispatch's; without a
		 * core column (a kernel cannot read its core), its core is */
		int no_task = r->em->id_task < 0 && !r->em->task_rows;
		if (no_task || r->em->id_core < 0) {
			jtask = pk_xmalloc(2 * (r->m->rows + 1) * sizeof(int64_t));
			for (size_t s = 0; s < r->m->rows; s++) {
				jtask[s] = c.join[s] == NO_TASK ? RP_NO_TASK : o->swim->token[c.join[s]];
				jtask[r->m->rows + 1 + s] = c.join[s] == NO_TASK ? -1 : o->swim->core[c.join[s]];
			}
			joined.joined_task = no_task ? jtask : NULL;
			joined.joined_core = jtask + r->m->rows + 1;
			c.r = &joined;
		}
	}
	if (nvalid && c.nev >= 2) {
		phases_table(&c);
		row_phases_table(&c);
	}
	wait_hints(&c);
	if (nvalid && c.nev >= 2)
		task_table(&c);
	int64_t swim_origin = nvalid && o->swim ? swim_lanes(&c) : 0;
	int merged = 0;
	for (size_t s = 0; nvalid && o->swim && s < r->m->rows; s++)
		merged |= c.join[s] != NO_TASK;
	if (merged) {
		/* one axis: the partition moves from E to the first task's start */
		for (size_t k = 0; k < d->nlanes; k++) {
			struct rp_lane *l = d->lanes[k];
			if (strcmp(l->group, "global partition (from E)"))
				continue;
			for (size_t i = 0; i < l->nspans; i++) {
				l->spans[i].start += origin - swim_origin;
				l->spans[i].end += origin - swim_origin;
			}
			free(l->group);
			l->group = pk_xstrdup("global partition (from the first task's start)");
		}
		int mixed = d->origin && strcmp(d->origin, "E (earliest entry)");
		free(d->origin);
		d->origin = mixed
		                ? pk_xstrdup("each lane group's own origin (see its name)")
		                : pk_xasprintf("the first swimlane task's start (%lld cycles)", (long long)swim_origin);
	} else {
		row_lanes(&c, origin);
	}
	free(c.bound);
	free(c.have);
	free(c.join);
	free(jtask);
}
