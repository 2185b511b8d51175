/* tt_orch.c - the host side on a simpler orchestration (.cpp): the tasks
 * that submit the kernel (rt_submit_aiv_task(ID, P), rt_submit_aic_task,
 * rt_submit_task(MIXED, P)), chosen by the kernel's func_id; each one's
 * add_input / add_output / add_inout / add_scalar calls grouped by their
 * receiver P; the timing tensor an external tensor of the orchestration
 * (`orch_args.tensor(K).ref()`, expected_arg_count raised by one) added as
 * an output right after the task's last tensor. Tokens only: the file
 * includes runtime headers a bare machine does not have. */
#include "tt.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SUBMITS 4096

struct submit {
	size_t tok;       /* the rt_submit_* identifier */
	size_t recv;      /* token of the receiver (the args object) */
	long ids[3];      /* kernel ids it submits, -1 unused */
	size_t close_tok; /* its ')' */
};

static int ident(const struct tt_tu *t, size_t i)
{
	return i < t->ntok && t->tok[i].kind == CXToken_Identifier;
}

static int same(const struct tt_tu *t, size_t i, size_t j)
{
	size_t n = t->tok[i].end - t->tok[i].start;
	return n == t->tok[j].end - t->tok[j].start &&
	       !memcmp(t->b->data + t->tok[i].start, t->b->data + t->tok[j].start, n);
}

static long lit(const struct tt_tu *t, size_t i)
{
	if (i >= t->ntok || t->tok[i].kind != CXToken_Literal)
		return -1;
	char *end;
	long v = strtol(t->b->data + t->tok[i].start, &end, 10);
	return end == t->b->data + t->tok[i].start ? -1 : v;
}

static size_t close_of(const struct tt_tu *t, size_t open)
{
	int d = 0;
	for (size_t i = open; i < t->ntok; i++) {
		if (tt_tok_is(t, i, "(") || tt_tok_is(t, i, "{") || tt_tok_is(t, i, "["))
			d++;
		else if ((tt_tok_is(t, i, ")") || tt_tok_is(t, i, "}") || tt_tok_is(t, i, "]")) && --d == 0)
			return i;
	}
	return t->ntok;
}

/* The value of a kernel-id expression: a literal, `#define NAME N`, or a
 * `NAME = N` anywhere in the file. */
static long id_value(const struct tt_tu *t, size_t i)
{
	long v = lit(t, i);
	if (v >= 0 || !ident(t, i))
		return v;
	for (size_t j = 0; j + 2 < t->ntok; j++)
		if (j != i && same(t, j, i) && (tt_tok_is(t, j + 1, "=") || (j > 0 && tt_tok_is(t, j - 1, "define"))))
			return lit(t, tt_tok_is(t, j + 1, "=") ? j + 2 : j + 1);
	return -1;
}

/* rt_submit_task(MK, P): the ids of `MK = {a, b, c}` or `MK.x_kernel_id = N`. */
static void mixed_ids(const struct tt_tu *t, size_t mk, long ids[3])
{
	int n = 0;
	for (size_t j = 0; j + 2 < t->ntok && n < 3; j++) {
		if (j == mk || !same(t, j, mk))
			continue;
		if (tt_tok_is(t, j + 1, "=") && tt_tok_is(t, j + 2, "{")) {
			size_t c = close_of(t, j + 2);
			for (size_t x = j + 3; x < c && n < 3; x++)
				if (lit(t, x) >= 0)
					ids[n++] = lit(t, x);
		} else if (tt_tok_is(t, j + 1, ".") && j + 4 < t->ntok && tt_tok_is(t, j + 3, "=")) {
			ids[n++] = id_value(t, j + 4);
		}
	}
}

static size_t find_submits(const struct tt_tu *t, struct submit *s)
{
	size_t n = 0;
	for (size_t i = 0; i + 1 < t->ntok && n < MAX_SUBMITS; i++) {
		if (!ident(t, i) || !tt_tok_is(t, i + 1, "("))
			continue;
		size_t len = t->tok[i].end - t->tok[i].start;
		const char *p = t->b->data + t->tok[i].start;
		if (len < 14 || strncmp(p, "rt_submit_", 10) || strncmp(p + len - 5, "_task", 5) ||
		    tt_tok_is(t, i, "rt_submit_dummy_task"))
			continue;
		size_t c = close_of(t, i + 1);
		if (c >= t->ntok || !ident(t, c - 1))
			continue;
		struct submit x = {i, c - 1, {-1, -1, -1}, c};
		if (tt_tok_is(t, i, "rt_submit_task"))
			mixed_ids(t, i + 2, x.ids);
		else
			x.ids[0] = id_value(t, i + 2);
		s[n++] = x;
	}
	return n;
}

static int submits_id(const struct submit *s, long id)
{
	return s->ids[0] == id || s->ids[1] == id || s->ids[2] == id;
}

/* The add_* calls of the task submitted at S: receiver S->recv, after the
 * previous submit of the same receiver. */
struct adds {
	size_t last_tensor_stmt_end;                   /* just past ';' of the last tensor add */
	size_t last_tensor_stmt;                       /* its first byte */
	size_t last_scalar_stmt_end, last_scalar_stmt; /* the same for the last scalar add */
	long tensors, scalars;
};

static void task_adds(const struct tt_tu *t, const struct submit *all, size_t n, size_t k, struct adds *a)
{
	size_t from = 0;
	for (size_t j = 0; j < k; j++)
		if (same(t, all[j].recv, all[k].recv))
			from = all[j].close_tok;
	memset(a, 0, sizeof(*a));
	(void)n;
	for (size_t i = from; i + 3 < all[k].tok; i++) {
		if (!same(t, i, all[k].recv) || !tt_tok_is(t, i + 1, ".") || !tt_tok_is(t, i + 3, "("))
			continue;
		int tensor = tt_tok_is(t, i + 2, "add_input") || tt_tok_is(t, i + 2, "add_output") ||
		             tt_tok_is(t, i + 2, "add_inout");
		int scalar = tt_tok_is(t, i + 2, "add_scalar");
		if (!tensor && !scalar)
			continue;
		size_t c = close_of(t, i + 3);
		size_t s = i;
		while (s > 0 && !tt_tok_is(t, s - 1, ";") && !tt_tok_is(t, s - 1, "{") && !tt_tok_is(t, s - 1, "}"))
			s--;
		size_t end = tt_tok_is(t, c + 1, ";") ? t->tok[c + 1].end : 0;
		if (scalar) {
			a->scalars++;
			a->last_scalar_stmt = t->tok[s].start;
			a->last_scalar_stmt_end = end;
			continue;
		}
		a->tensors++;
		a->last_tensor_stmt = t->tok[s].start;
		a->last_tensor_stmt_end = end;
	}
}

int tt_orch_is(const struct tt_tu *t)
{
	for (size_t i = 0; i < t->ntok; i++)
		if (ident(t, i) && t->tok[i].end - t->tok[i].start > 10 &&
		    !strncmp(t->b->data + t->tok[i].start, "rt_submit_", 10))
			return 1;
	return 0;
}

/* Which kernel id the tasks to change submit: --func-id, the test script's,
 * or the only one. */
static int pick_id(const struct tt_tu *t, const struct submit *s, size_t n, long want, long *id)
{
	if (want >= 0) {
		*id = want;
		return 0;
	}
	long only = -1;
	for (size_t i = 0; i < n; i++)
		for (int j = 0; j < 3; j++) {
			if (s[i].ids[j] < 0)
				continue;
			if (only >= 0 && s[i].ids[j] != only)
				return pk_error(
				    "%s: the orchestration submits several kernels (ids %ld and %ld, ...): say "
				    "which one is instrumented with --func-id N (or --test-script FILE naming the "
				    "kernel's "
				    "source)",
				    t->b->path, only, s[i].ids[j]);
			only = s[i].ids[j];
		}
	if (only < 0)
		return pk_error("%s: no rt_submit_*_task call with a kernel id the tool can read", t->b->path);
	*id = only;
	return 0;
}

/* The tensor count the host passes to the kernel (every task submitting it
 * must agree), -1 on error. */
long tt_orch_tensors(struct tt_tu *t, long func_id)
{
	static struct submit s[MAX_SUBMITS];
	size_t n = find_submits(t, s);
	long id, tensors = -1;
	if (pick_id(t, s, n, func_id, &id) < 0)
		return -1;
	for (size_t k = 0; k < n; k++) {
		if (!submits_id(&s[k], id))
			continue;
		struct adds a;
		task_adds(t, s, n, k, &a);
		if (tensors >= 0 && a.tensors != tensors)
			return pk_error("%s:%u: this task passes kernel %ld %ld tensors, an earlier one %ld",
			                t->b->path, pk_buf_line_of(t->b, t->tok[s[k].tok].start), id, a.tensors,
			                tensors);
		tensors = a.tensors;
	}
	if (tensors < 0)
		return pk_error("%s: no task submits kernel id %ld", t->b->path, id);
	return tensors;
}

static int runs_kernel(const struct tt_spec *sp, const struct submit *s, long id);

/* ---- how many task instances run the kernel ---- */

/* The body of the loop at token F (for, while, do): tokens [*B, *E]. */
static int loop_body(const struct tt_tu *t, size_t f, size_t *b, size_t *e)
{
	size_t open = f + 1;
	if (!tt_tok_is(t, f, "do")) {
		if (!tt_tok_is(t, f + 1, "("))
			return 0;
		open = close_of(t, f + 1) + 1;
	}
	if (open >= t->ntok)
		return 0;
	*b = open;
	if (tt_tok_is(t, open, "{")) {
		*e = close_of(t, open);
		return 1;
	}
	int d = 0; /* a braceless body: one statement, up to its ';' */
	for (size_t i = open; i < t->ntok; i++) {
		if (tt_tok_is(t, i, "(") || tt_tok_is(t, i, "[") || tt_tok_is(t, i, "{"))
			d++;
		else if (tt_tok_is(t, i, ")") || tt_tok_is(t, i, "]") || tt_tok_is(t, i, "}"))
			d--;
		else if (d == 0 && tt_tok_is(t, i, ";")) {
			*e = i;
			return 1;
		}
	}
	return 0;
}

/* A loop bound: a literal, a `#define NAME N`, or a NAME the file sets
 * once (`NAME = N`) and never changes (no other assignment, ++, --, or
 * address taken); -1 otherwise: a count read too low would let tasks write
 * past the tensor. */
static long bound_value(const struct tt_tu *t, size_t i)
{
	long v = lit(t, i);
	if (v >= 0 || !ident(t, i))
		return v;
	long found = -1;
	int sets = 0;
	static const char *const change[] = {"=", "+=", "-=", "*=", "/=", "<<=", ">>=", "|=", "&=", "++", "--"};
	for (size_t j = 0; j + 1 < t->ntok; j++) {
		if (j == i || !same(t, j, i))
			continue;
		if (j > 0 && tt_tok_is(t, j - 1, "define"))
			return lit(t, j + 1);
		int set = j > 0 && (tt_tok_is(t, j - 1, "++") || tt_tok_is(t, j - 1, "--") || tt_tok_is(t, j - 1, "&"));
		for (size_t c = 0; c < sizeof(change) / sizeof(change[0]) && !set; c++)
			set = tt_tok_is(t, j + 1, change[c]);
		if (!set)
			continue;
		sets++;
		found = tt_tok_is(t, j + 1, "=") && j + 3 < t->ntok && tt_tok_is(t, j + 3, ";") ? lit(t, j + 2) : -1;
	}
	return sets == 1 ? found : -1;
}

/* The trip count of `for (T V = A; V < B; V++)` (also <=, !=, ++V, V += 1)
 * with A and B constants (literals, #define, NAME = N); -1 otherwise. */
static long for_trips(const struct tt_tu *t, size_t f)
{
	if (!tt_tok_is(t, f, "for") || !tt_tok_is(t, f + 1, "("))
		return -1;
	size_t c = close_of(t, f + 1), semi[2], ns = 0;
	for (size_t i = f + 2; i < c && ns < 2; i++)
		if (tt_tok_is(t, i, ";"))
			semi[ns++] = i;
	if (ns < 2 || semi[0] < f + 5 || !tt_tok_is(t, semi[0] - 2, "="))
		return -1;
	size_t v = semi[0] - 3, s1 = semi[0], s2 = semi[1];
	long a = bound_value(t, s1 - 1), b = bound_value(t, s1 + 3);
	if (!ident(t, v) || s2 != s1 + 4 || !same(t, s1 + 1, v) || a < 0 || b < 0)
		return -1;
	int le = tt_tok_is(t, s1 + 2, "<=");
	if (!le && !tt_tok_is(t, s1 + 2, "<") && !tt_tok_is(t, s1 + 2, "!="))
		return -1;
	int step = (c == s2 + 3 && ((same(t, s2 + 1, v) && tt_tok_is(t, s2 + 2, "++")) ||
	                            (tt_tok_is(t, s2 + 1, "++") && same(t, s2 + 2, v)))) ||
	           (c == s2 + 4 && same(t, s2 + 1, v) && tt_tok_is(t, s2 + 2, "+=") && lit(t, s2 + 3) == 1);
	if (!step)
		return -1;
	long n = b - a + (le ? 1 : 0);
	return n < 0 ? 0 : n;
}

/* Every loop of the file once: its body's tokens and its trip count. */
struct loop {
	size_t tok, b, e;
	long trips;
};

static size_t find_loops(const struct tt_tu *t, struct loop **out)
{
	struct loop *v = NULL;
	size_t n = 0, cap = 0, b, e;
	for (size_t f = 0; f < t->ntok; f++)
		if ((tt_tok_is(t, f, "for") || tt_tok_is(t, f, "while") || tt_tok_is(t, f, "do")) &&
		    loop_body(t, f, &b, &e)) {
			PK_GROW(v, cap, n + 1);
			v[n++] = (struct loop){f, b, e, for_trips(t, f)};
		}
	*out = v;
	return n;
}

/* Instances of the submit at token S: the product of its loops' trip
 * counts; -1 when one is not a constant (*LOOP gets that loop's token). */
static long site_trips(const struct loop *l, size_t nl, size_t s, int *in_loop, size_t *loop)
{
	long n = 1;
	for (size_t i = 0; i < nl && l[i].tok < s; i++) {
		if (s < l[i].b || s > l[i].e)
			continue;
		*in_loop = 1;
		if (l[i].trips < 0) {
			if (n >= 0)
				*loop = l[i].tok;
			n = -1;
		} else if (n >= 0) {
			n *= l[i].trips;
		}
	}
	return n;
}

/* The task's block count: RECV.launch_spec.set_block_num(N) before the
 * submit (1 without one), -1 when not a constant. */
static long site_blocks(const struct tt_tu *t, const struct submit *all, size_t k)
{
	size_t from = 0;
	for (size_t j = 0; j < k; j++)
		if (same(t, all[j].recv, all[k].recv))
			from = all[j].close_tok;
	long blocks = 1;
	for (size_t i = from; i + 5 < all[k].tok; i++)
		if (same(t, i, all[k].recv) && tt_tok_is(t, i + 1, ".") && tt_tok_is(t, i + 2, "launch_spec") &&
		    tt_tok_is(t, i + 4, "set_block_num") && tt_tok_is(t, i + 5, "("))
			blocks = tt_tok_is(t, i + 7, ")") ? id_value(t, i + 6) : -1;
	return blocks;
}

int tt_orch_tasks(struct tt_tu *t, const struct tt_spec *sp, long func_id, struct tt_tasks *out)
{
	static struct submit s[MAX_SUBMITS];
	size_t n = find_submits(t, s), loop = 0;
	long id;
	memset(out, 0, sizeof(*out));
	if (pick_id(t, s, n, func_id, &id) < 0)
		return -1;
	out->id = id;
	out->blocks = 0;
	struct loop *loops;
	size_t used = 0, nl = find_loops(t, &loops);
	for (size_t k = 0; k < n; k++) {
		if (!runs_kernel(sp, &s[k], id))
			continue;
		long trips = site_trips(loops, nl, s[k].tok, &out->in_loop, &loop), blocks = site_blocks(t, s, k);
		if (trips < 0 && !out->loop_line)
			out->loop_line = pk_buf_line_of(t->b, t->tok[loop].start);
		if (out->sites++ == 0 || out->blocks == blocks)
			out->blocks = blocks;
		else
			out->blocks = -1;
		if (trips < 0 || blocks < 0 || out->tasks < 0)
			out->tasks = -1;
		else
			out->tasks += trips;
		if (used + 16 < sizeof(out->lines))
			used += (size_t)snprintf(out->lines + used, sizeof(out->lines) - used, "%s%u", used ? ", " : "",
			                         pk_buf_line_of(t->b, t->tok[s[k].tok].start));
	}
	free(loops);
	return 0;
}

/* The orchestration entry: the function taking `const ChipTaskArgs &NAME`
 * whose body holds the submit at token SUB (aicpu_orchestration_entry, or
 * the name the test script gives). NAME's token and the first byte of the body. */
static int find_entry(const struct tt_tu *t, size_t sub, size_t *orch, size_t *body)
{
	for (size_t i = 0; i + 4 < t->ntok; i++) {
		if (!tt_tok_is(t, i, "ChipTaskArgs") || !tt_tok_is(t, i + 1, "&") || !ident(t, i + 2) ||
		    !tt_tok_is(t, i + 3, ")") || !tt_tok_is(t, i + 4, "{"))
			continue;
		size_t c = close_of(t, i + 4);
		if (sub <= i + 4 || sub >= c)
			continue;
		*orch = i + 2;
		*body = t->tok[i + 5].start;
		return 0;
	}
	return pk_error("%s: no function taking (const ChipTaskArgs &) holds the submit of the kernel", t->b->path);
}

/* K: the next external tensor, one past the highest orch.tensor(N). */
static long next_external(const struct tt_tu *t, size_t orch)
{
	long max = -1;
	for (size_t i = 0; i + 4 < t->ntok; i++)
		if (same(t, i, orch) && i != orch && tt_tok_is(t, i + 1, ".") && tt_tok_is(t, i + 2, "tensor") &&
		    tt_tok_is(t, i + 3, "(") && lit(t, i + 4) > max)
			max = lit(t, i + 4);
	return max + 1;
}

static char *host_text(const struct tt_spec *sp, const char *key, const char *dflt, const char *recv, const char *orch,
                       long index)
{
	char idx[32];
	snprintf(idx, sizeof(idx), "%ld", index);
	const char *names[] = {"recv", "orch", "index", "prefix"};
	const char *vals[] = {recv ? recv : "", orch ? orch : "", idx, sp->prefix};
	const char *tmpl = tt_rule(sp->rules, "host", key);
	if (!tmpl && !dflt)
		return NULL;
	return tt_expand(tmpl ? tmpl : dflt, names, vals, 4);
}

static int plan_config(const struct tt_tu *t, long ext, struct pk_plan *plan)
{
	for (size_t i = 0; i + 2 < t->ntok; i++) {
		if (!tt_tok_is(t, i, "expected_arg_count") || !tt_tok_is(t, i + 1, "=") || lit(t, i + 2) < 0)
			continue;
		long v = lit(t, i + 2);
		if (v != ext)
			pk_warning("%s:%u: expected_arg_count is %ld but the orchestration reads %ld external tensors: "
			           "the timing tensor is external tensor %ld; check the scalars",
			           t->b->path, pk_buf_line_of(t->b, t->tok[i].start), v, ext, ext);
		char num[32];
		snprintf(num, sizeof(num), "%ld", v + 1);
		tt_replace_inline(t->b, plan, t->tok[i + 2].start, t->tok[i + 2].end, num);
		return 0;
	}
	return pk_error("%s: no 'expected_arg_count = N' in the orchestration config: the runtime would "
	                "refuse the extra external tensor",
	                t->b->path);
}

/* ID built from the kernel's own source too (the test script says so). */
static int is_twin(const struct tt_spec *sp, long id)
{
	for (size_t i = 0; i < sp->ntwins; i++)
		if (sp->twins[i] == id)
			return 1;
	return 0;
}

/* A task that runs the instrumented source: it submits ID or a twin of it. */
static int runs_kernel(const struct tt_spec *sp, const struct submit *s, long id)
{
	for (int i = 0; i < 3; i++)
		if (s->ids[i] >= 0 && (s->ids[i] == id || is_twin(sp, s->ids[i])))
			return 1;
	return 0;
}

/* A mixed task (MixedKernels) hands one argument list to every lane: the
 * timing tensor would shift the arguments of another kernel of the task
 * (refused), and lanes running the instrumented source (under its id or a
 * twin's) share its rows (the slot is the task's block index; a warning). */
static int mixed_lanes(const struct tt_tu *t, const struct tt_spec *sp, const struct submit *s, long id)
{
	int lanes = 0;
	long other = -1;
	for (int i = 0; i < 3; i++) {
		if (s->ids[i] < 0)
			continue;
		if (s->ids[i] == id || is_twin(sp, s->ids[i]))
			lanes++;
		else
			other = s->ids[i];
	}
	unsigned line = pk_buf_line_of(t->b, t->tok[s->tok].start);
	if (other >= 0)
		return pk_error("%s:%u: kernel %ld shares this mixed task with kernel %ld, whose arguments the timing "
		                "tensor would shift too; instrument a kernel its task submits alone (when kernel %ld "
		                "is built from the same source, give --test-script so probekit can tell)",
		                t->b->path, line, id, other, other);
	if (lanes > 1)
		pk_warning("%s:%u: kernel %ld runs on %d lanes of this mixed task, which write the same timing rows "
		           "(the slot is the task's block index): a row holds the last lane to finish",
		           t->b->path, line, id, lanes);
	return 0;
}

/* --generation / --invocation: the generation id and the first row travel as
 * the last scalars of the task, after its own (or, with none, after the
 * timing output: appended to *ADD). */
static int plan_launch_scalars(const struct tt_tu *t, const struct tt_kernel *k, const struct tt_spec *sp,
                               const struct adds *a, const char *recv, char **add, struct pk_plan *plan)
{
	char *dot = pk_xasprintf("%s.", recv);
	char *g =
	    tt_host_extra_scalar_adds(sp, dot, "simpler_scalar", "{recv}add_scalar(static_cast<uint64_t>({value}));");
	free(dot);
	if (!g)
		return 0;
	int rc = 0;
	if (!a->scalars) {
		char *joined = pk_xasprintf("%s\n%s", *add, g);
		free(*add);
		*add = joined;
	} else if (!a->last_scalar_stmt_end) {
		rc = pk_error("%s:%u: the task's last scalar add is not a statement of its own; split it", t->b->path,
		              pk_buf_line_of(t->b, a->last_scalar_stmt));
	} else {
		char label[64];
		snprintf(label, sizeof(label), "launch scalars (args[%ld])", k->ntensors + 1 + k->nscalars);
		tt_insert_after(t->b, plan, a->last_scalar_stmt_end, a->last_scalar_stmt, g, label);
	}
	free(g);
	return rc;
}

int tt_orch_plan(struct tt_tu *t, const struct tt_kernel *k, const struct tt_spec *sp, long func_id, long *external,
                 struct pk_plan *plan)
{
	static struct submit s[MAX_SUBMITS];
	size_t n = find_submits(t, s), orch = 0, body = 0;
	long id;
	if (pick_id(t, s, n, func_id, &id) < 0)
		return -1;
	size_t first = 0;
	while (first < n && !submits_id(&s[first], id))
		first++;
	if (first == n)
		return pk_error("%s: no task submits kernel id %ld", t->b->path, id);
	if (find_entry(t, s[first].tok, &orch, &body) < 0)
		return -1;
	char *oname = pk_xstrndup(t->b->data + t->tok[orch].start, t->tok[orch].end - t->tok[orch].start);
	long ext = next_external(t, orch);
	*external = ext;
	char *decl = host_text(sp, "simpler_external", "const auto &{prefix}timing = {orch}.tensor({index}).ref();",
	                       NULL, oname, ext);
	char label[64];
	snprintf(label, sizeof(label), "external tensor %ld", ext);
	tt_insert_before(t->b, plan, body, decl, label);
	free(decl);
	if (sp->task_rows) { /* the task index each submit passes: a counter of the run */
		decl = host_text(sp, "simpler_task_counter", NULL, NULL, oname, ext);
		tt_insert_before(t->b, plan, body, decl, "task counter");
		free(decl);
	}
	int rc = plan_config(t, ext, plan);
	for (size_t j = 0; j < n && rc == 0; j++) {
		if (!runs_kernel(sp, &s[j], id))
			continue;
		if ((rc = mixed_lanes(t, sp, &s[j], id)) < 0)
			break;
		struct adds a;
		task_adds(t, s, n, j, &a);
		if (a.tensors != k->ntensors)
			rc = pk_error("%s:%u: this task passes %ld tensors but kernel '%s' reads %ld", t->b->path,
			              pk_buf_line_of(t->b, t->tok[s[j].tok].start), a.tensors, k->name, k->ntensors);
		else if (!a.tensors || !a.last_tensor_stmt_end)
			rc = pk_error("%s:%u: the task's last tensor add is not a statement of its own; split it",
			              t->b->path, pk_buf_line_of(t->b, t->tok[s[j].tok].start));
		if (rc < 0)
			break;
		char *recv =
		    pk_xstrndup(t->b->data + t->tok[s[j].recv].start, t->tok[s[j].recv].end - t->tok[s[j].recv].start);
		char *add = host_text(sp, "simpler_add", "{recv}.add_output({prefix}timing);", recv, oname, ext);
		snprintf(label, sizeof(label), "output (args[%ld])", k->ntensors);
		rc = plan_launch_scalars(t, k, sp, &a, recv, &add, plan);
		tt_insert_after(t->b, plan, a.last_tensor_stmt_end, a.last_tensor_stmt, add, label);
		free(add);
		free(recv);
		if (rc < 0)
			break;
	}
	free(oname);
	return rc;
}
