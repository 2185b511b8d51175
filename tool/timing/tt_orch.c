/* tt_orch.c - the host side on a simpler orchestration (.cpp): the tasks
 * that submit the kernel (rt_submit_aiv_task(ID, P), rt_submit_aic_task,
 * rt_submit_task(MIXED, P)), chosen by the kernel's func_id; each one's
 * add_input / add_output / add_inout / add_scalar calls grouped by their
 * receiver P; the timing tensor an external tensor of the orchestration
 * (`orch_args.tensor(K).ref()`, expected_arg_count raised by one) added as
 * an output right after the task's last tensor. The kernel ids are
 * evaluated by libclang (tt_ids.c), a submit in a helper is followed to the
 * helper's calls, and tasks passing the kernel different tensor counts are
 * padded to the widest. Otherwise tokens: the file includes runtime headers
 * a bare machine does not have. */
#include "tt.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SUBMITS 4096

/* A helper call passing the kernel id: the id given at the call (whose '('
 * is CALL) reaches the submit S inside the helper. */
struct site {
	size_t submit, call;
	long ids[3];
};

struct submit {
	size_t tok;                  /* the rt_submit_* identifier */
	size_t recv;                 /* token of the receiver (the args object) */
	long ids[3];                 /* kernel ids it submits, -1 unused or not constant */
	size_t close_tok;            /* its ')' */
	size_t expr[3], expr_end[3]; /* each id's expression (tokens; 0: none) */
	struct site *sites;          /* a helper's submit: its calls (owned; submits_free) */
	size_t nsites;
};

/* The helper calls the N submits of S own (S itself is the caller's). */
static void submits_free(struct submit *s, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		free(s[k].sites);
		s[k].sites = NULL;
		s[k].nsites = 0;
	}
}

static int ident(const struct pk_ast *t, size_t i)
{
	return i < t->ntok && t->tok[i].kind == CXToken_Identifier;
}

static int same(const struct pk_ast *t, size_t i, size_t j)
{
	size_t n = t->tok[i].end - t->tok[i].start;
	return n == t->tok[j].end - t->tok[j].start &&
	       !memcmp(t->b->data + t->tok[i].start, t->b->data + t->tok[j].start, n);
}

static long lit(const struct pk_ast *t, size_t i)
{
	if (i >= t->ntok || t->tok[i].kind != CXToken_Literal)
		return -1;
	char *end;
	long v = strtol(t->b->data + t->tok[i].start, &end, 10);
	return end == t->b->data + t->tok[i].start ? -1 : v;
}

/* Which of the words of LANES (AIC, AIV0, AIV1: [simpler] mixed_lanes)
 * token I is, or -1. */
static int lane_of(const struct pk_ast *t, const char *lanes, size_t i)
{
	int l = 0;
	for (const char *p = lanes; *p && l < 3; l++) {
		p += strspn(p, " \t");
		size_t n = strcspn(p, " \t");
		if (n && t->tok[i].end - t->tok[i].start == n && !memcmp(t->b->data + t->tok[i].start, p, n))
			return l;
		p += n;
	}
	return -1;
}

/* A submit's kernel ids: its id argument, or a mixed task's lanes (`MK =
 * {aic, aiv0, aiv1}`, or the last `MK.LANE_kernel_id = X` before it in its
 * function); X[0..2] get the expressions (empty when unused). */
static void lane_exprs(const struct pk_ast *t, const struct tt_words *w, const struct submit *sub,
                       const struct tt_fn *fns, size_t nf, struct tt_idexpr x[3])
{
	const struct tt_fn *fn = tt_fn_holding(fns, nf, sub->tok);
	size_t anchor = tt_ids_stmt_start(t, sub->tok), mk = sub->tok + 2;
	for (int l = 0; l < 3; l++)
		x[l] = (struct tt_idexpr){0, 0, anchor, -1};
	if (!pk_tok_is(t, sub->tok, w->mixed_submit)) {
		size_t as[1], ae[1];
		if (pk_tok_args(t, sub->tok + 1, as, ae, 1) == 1)
			x[0].s = as[0], x[0].e = ae[0];
		return;
	}
	size_t from = fn ? fn->open : 0, to = sub->tok;
	int any_var = 0; /* `SUBMIT(make_mk(), P)`: the lanes that function sets */
	for (size_t i = 0; i < nf && pk_tok_is(t, mk + 1, "(") && pk_tok_is(t, mk + 2, ")"); i++)
		if (same(t, fns[i].name, mk))
			from = fns[i].open, to = fns[i].close, any_var = 1;
	for (size_t j = from; j + 4 < to; j++) {
		if (!any_var && (j == mk || !same(t, j, mk)))
			continue;
		if (!any_var && j > 0 && pk_tok_is(t, j - 1, w->mixed_kernels)) /* a new object: its lanes unset */
			for (int l = 0; l < 3; l++)
				x[l] = (struct tt_idexpr){0, 0, anchor, -1};
		if (!any_var && pk_tok_is(t, j + 1, "{")) { /* MixedKernels mk{aic, aiv0, aiv1} */
			size_t as[3], ae[3], na = pk_tok_args(t, j + 1, as, ae, 3);
			for (size_t l = 0; l < na; l++)
				x[l].s = as[l], x[l].e = ae[l], x[l].anchor = tt_ids_stmt_start(t, j);
		} else if (!any_var && pk_tok_is(t, j + 1, "=") && pk_tok_is(t, j + 2, "{")) {
			size_t as[3], ae[3], na = pk_tok_args(t, j + 2, as, ae, 3);
			for (size_t l = 0; l < na; l++)
				x[l].s = as[l], x[l].e = ae[l], x[l].anchor = tt_ids_stmt_start(t, j);
		} else if (ident(t, j) && pk_tok_is(t, j + 1, ".") && pk_tok_is(t, j + 3, "=")) {
			size_t e = j + 4;
			while (e < to && !pk_tok_is(t, e, ";"))
				e++;
			int l = lane_of(t, w->mixed_lanes, j + 2);
			if (l >= 0)
				x[l].s = j + 4, x[l].e = e, x[l].anchor = tt_ids_stmt_start(t, j);
		}
	}
}

/* The calls of helper FN written `NAME (` in a function's body, from the
 * front end's calls (a method's left out): the token of each one's '('. */
static size_t helper_calls(const struct pk_ast *t, const struct tt_fn *fns, size_t nf, const struct tt_fn *fn,
                           size_t *calls, size_t cap)
{
	size_t n = 0;
	for (size_t c = 0; c < t->ncalls && n < cap; c++) {
		size_t i = pk_tok_at(t, t->calls[c].off);
		if (t->calls[c].member || i + 1 >= t->ntok || i == fn->name || !same(t, i, fn->name) ||
		    !pk_tok_is(t, i + 1, "(") || !tt_fn_holding(fns, nf, i) ||
		    (i > 0 && (pk_tok_is(t, i - 1, ".") || pk_tok_is(t, i - 1, "->"))))
			continue;
		calls[n++] = i + 1;
	}
	return n;
}

/* A submit in a helper (a function not taking the orchestration's
 * arguments, or receiving a lane's id as a parameter): one site per call of
 * the helper, with the ids the call passes or the helper's own. */
static int resolve_sites(const struct pk_ast *t, const struct tt_rules *r, struct submit *s, size_t k,
                         struct tt_idexpr x[3], const struct tt_fn *fns, size_t nf)
{
	const struct tt_fn *fn = tt_fn_holding(fns, nf, s[k].tok);
	int param[3], any = 0;
	for (int l = 0; l < 3; l++) {
		param[l] = x[l].value < 0 ? tt_fn_param_of(t, fn, x[l].s, x[l].e) : -1;
		any |= param[l] >= 0;
	}
	if (!any && (!fn || fn->orch_param >= 0))
		return 0; /* a helper without the orchestration's arguments: its calls, whatever the ids */
	size_t *calls = pk_xcalloc(MAX_SUBMITS, sizeof(*calls));
	size_t nc = helper_calls(t, fns, nf, fn, calls, MAX_SUBMITS);
	struct tt_idexpr *cx = pk_xcalloc(nc * 3 + 1, sizeof(*cx));
	for (size_t c = 0; c < nc; c++) {
		size_t as[TT_FN_PARAMS], ae[TT_FN_PARAMS], na = pk_tok_args(t, calls[c], as, ae, TT_FN_PARAMS);
		for (int l = 0; l < 3; l++) {
			cx[c * 3 + l] = (struct tt_idexpr){0, 0, tt_ids_stmt_start(t, calls[c]), -1};
			if (param[l] >= 0 && (size_t)param[l] < na)
				cx[c * 3 + l].s = as[param[l]], cx[c * 3 + l].e = ae[param[l]];
		}
	}
	int rc = tt_ids_eval(t, r, cx, nc * 3);
	s[k].sites = pk_xcalloc(nc + 1, sizeof(*s[k].sites));
	for (size_t c = 0; c < nc && rc == 0; c++) {
		struct site *st = &s[k].sites[s[k].nsites++];
		*st = (struct site){k, calls[c], {-1, -1, -1}};
		for (int l = 0; l < 3; l++)
			st->ids[l] = param[l] >= 0 ? cx[c * 3 + l].value : x[l].value;
	}
	free(cx);
	free(calls);
	return rc;
}

/* Every submit's ids: evaluated in one probe parse, then followed into the
 * calls of a helper that receives them as a parameter. */
static int resolve_ids(const struct pk_ast *t, const struct tt_rules *r, struct submit *s, size_t n)
{
	struct tt_fn *fns = NULL;
	size_t nf = tt_fns_find(t, r->w.orch_args, &fns);
	struct tt_idexpr *x = pk_xcalloc(n * 3 + 1, sizeof(*x));
	for (size_t k = 0; k < n; k++)
		lane_exprs(t, &r->w, &s[k], fns, nf, &x[k * 3]);
	int rc = tt_ids_eval(t, r, x, n * 3);
	for (size_t k = 0; k < n && rc == 0; k++) {
		for (int l = 0; l < 3; l++) {
			s[k].ids[l] = x[k * 3 + l].value;
			s[k].expr[l] = x[k * 3 + l].e > x[k * 3 + l].s ? x[k * 3 + l].s : 0;
			s[k].expr_end[l] = x[k * 3 + l].e;
		}
		rc = resolve_sites(t, r, s, k, &x[k * 3], fns, nf);
	}
	free(x);
	free(fns);
	return rc;
}

/* Token I spells a submit: [simpler] submit_prefix, a core, submit_suffix,
 * or the mixed task's submit, but the dummy one. */
static int submit_name(const struct pk_ast *t, const struct tt_words *w, size_t i)
{
	size_t len = t->tok[i].end - t->tok[i].start, pl = strlen(w->submit_prefix), sl = strlen(w->submit_suffix);
	const char *p = t->b->data + t->tok[i].start;
	int named =
	    pl && len >= pl + sl && !strncmp(p, w->submit_prefix, pl) && !strncmp(p + len - sl, w->submit_suffix, sl);
	return ident(t, i) && (named || pk_tok_is(t, i, w->mixed_submit)) && !pk_tok_is(t, i, w->dummy_submit);
}

/* Is the block at OPEN a lambda's body (`[...](...) {`, `[...] {`)? */
static int lambda_body(const struct pk_ast *t, size_t open)
{
	size_t j = open;
	while (j > 0 && (pk_tok_is(t, j - 1, "mutable") || pk_tok_is(t, j - 1, "noexcept")))
		j--;
	if (j > 0 && pk_tok_is(t, j - 1, "]"))
		return 1;
	if (j == 0 || !pk_tok_is(t, j - 1, ")"))
		return 0;
	size_t k = pk_tok_enclosing(t, j - 1, "(", ")");
	return k < t->ntok && k > 0 && pk_tok_is(t, k - 1, "]");
}

/* Submits the tokens cannot follow to a task, refused by line: one written
 * by a macro the file uses (its uses pass no timing tensor), one inside a
 * lambda (which task's arguments reach it is the caller's). */
static int unfollowed_submits(struct pk_ast *t, const struct tt_words *w)
{
	for (size_t i = 0; i + 1 < t->ntok; i++) {
		if (!submit_name(t, w, i) || !pk_tok_is(t, i + 1, "(") || (t->tok[i].flags & PK_TOK_INACTIVE))
			continue;
		unsigned line = pk_buf_line_of(t->b, t->tok[i].start);
		if (t->tok[i].flags & PK_TOK_DIRECTIVE) {
			char name[64], uses[128];
			unsigned dl = 0;
			snprintf(name, sizeof(name), "%.*s", (int)(t->tok[i].end - t->tok[i].start),
			         t->b->data + t->tok[i].start);
			char *m = pk_ast_macro_calling(t, name, &dl, uses, sizeof(uses));
			int rc = m && *uses
			             ? pk_error("%s:%u: '%s' is called by macro '%s', used on line%s %s: the tool "
			                        "cannot give those tasks the timing tensor; write the call out "
			                        "where the macro is used, or measure without --host",
			                        t->b->path, dl, name, m, strchr(uses, ',') ? "s" : "", uses)
			             : 0;
			free(m);
			if (rc < 0)
				return rc;
			continue;
		}
		size_t open = pk_tok_enclosing(t, i, "{", "}");
		if (open < t->ntok && lambda_body(t, open))
			return pk_error(
			    "%s:%u: the submit is inside a lambda (its body opens on line %u): which task's "
			    "arguments reach it is its caller's; submit from the function body, or through "
			    "a helper function",
			    t->b->path, line, pk_buf_line_of(t->b, t->tok[open].start));
	}
	return 0;
}

/* Every submit the file runs: one written in a region the preprocessor
 * skipped or in a macro's body is none. */
static size_t find_submits(const struct pk_ast *t, const struct tt_rules *r, struct submit *s)
{
	size_t n = 0;
	for (size_t i = 0; i + 1 < t->ntok && n < MAX_SUBMITS; i++) {
		if (!submit_name(t, &r->w, i) || !pk_tok_is(t, i + 1, "(") ||
		    (t->tok[i].flags & (PK_TOK_INACTIVE | PK_TOK_DIRECTIVE)))
			continue;
		size_t c = pk_tok_close(t, i + 1, 0);
		if (c >= t->ntok || !ident(t, c - 1))
			continue;
		memset(&s[n], 0, sizeof(s[n]));
		s[n].tok = i, s[n].recv = c - 1, s[n].close_tok = c;
		n++;
	}
	if (resolve_ids(t, r, s, n) < 0) {
		submits_free(s, n);
		return (size_t)-1;
	}
	return n;
}

/* The id sets of a submit: its own, or one per call of its helper. */
static size_t nsets(const struct submit *s)
{
	return s->nsites ? s->nsites : 1;
}

static const long *set_ids(const struct submit *s, size_t i)
{
	return s->nsites ? s->sites[i].ids : s->ids;
}

static int submits_id(const struct submit *s, long id)
{
	for (size_t i = 0; i < nsets(s); i++) {
		const long *ids = set_ids(s, i);
		if (ids[0] == id || ids[1] == id || ids[2] == id)
			return 1;
	}
	return 0;
}

/* No task submits ID that the tool can read: name the ids it cannot. */
static int unread_ids(const struct pk_ast *t, const struct tt_words *w, const struct submit *s, size_t n, long id)
{
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < nsets(&s[k]); i++)
			for (int l = 0; l < 3; l++) {
				if (set_ids(&s[k], i)[l] >= 0 || !s[k].expr[l])
					continue;
				size_t at = s[k].nsites ? s[k].sites[i].call : s[k].expr[l];
				size_t a = t->tok[s[k].expr[l]].start, b = t->tok[s[k].expr_end[l] - 1].end;
				return pk_error(
				    "%s:%u: %s: the kernel id '%.*s' of this task is not a constant of the "
				    "file (a literal, #define, constexpr, enum member or constant array element); "
				    "replace it with one",
				    t->b->path, pk_buf_line_of(t->b, t->tok[at].start),
				    id < 0 ? "no kernel id the tool can read"
				           : "no task the tool can read submits "
				             "the kernel",
				    (int)(b - a), t->b->data + a);
			}
	if (id < 0)
		return pk_error("%s: no %s*%s call with a kernel id the tool can read", t->b->path, w->submit_prefix,
		                w->submit_suffix);
	return pk_error("%s: no task submits kernel id %ld", t->b->path, id);
}

/* The add_* calls of the task submitted at S: receiver S->recv, after the
 * previous submit of the same receiver. */
struct adds {
	size_t last_tensor_stmt_end;                   /* just past ';' of the last tensor add */
	size_t last_tensor_stmt;                       /* its first byte */
	size_t last_scalar_stmt_end, last_scalar_stmt; /* the same for the last scalar add */
	long tensors, scalars;
	size_t last_tensor_arg, last_tensor_arg_end; /* tokens of the last tensor add's argument */
	int scalar_branch; /* the last scalar add is in a block the submit is not: the scalars go before it */
};

/* Scalar adds in the two blocks of one `if {...} else {...}` run one or
 * the other: of the adds at tokens AT (N of them, W scalars each) those
 * of the smaller side, to take off the count. */
static long either_side(const struct pk_ast *t, const size_t *at, const long *w, size_t n)
{
	long off = 0;
	for (size_t i = 0; i < n; i++) {
		size_t b = pk_tok_enclosing(t, at[i], "{", "}");
		if (b < 2 || b >= t->ntok || !pk_tok_is(t, b - 1, "else") || !pk_tok_is(t, b - 2, "}"))
			continue;
		int first = 1; /* each else block once */
		for (size_t j = 0; j < i && first; j++)
			first = pk_tok_enclosing(t, at[j], "{", "}") != b;
		if (!first)
			continue;
		size_t then = pk_tok_enclosing(t, b - 2, "{", "}");
		long ne = 0, nt = 0;
		for (size_t j = 0; j < n; j++) {
			ne += pk_tok_enclosing(t, at[j], "{", "}") == b ? w[j] : 0;
			nt += pk_tok_enclosing(t, at[j], "{", "}") == then ? w[j] : 0;
		}
		off += ne < nt ? ne : nt;
	}
	return off;
}

/* The task's arguments start at the latest `TASK_ARGS RECV` declaration
 * ([simpler] task_args) or dummy submit of RECV in [FROM, TO) (the same name
 * reused in blocks). */
static size_t args_decl(const struct pk_ast *t, const struct tt_words *w, size_t recv, size_t from, size_t to)
{
	for (size_t i = to; i-- > from && i > 1;)
		if (same(t, i, recv) && i != recv &&
		    (pk_tok_is(t, i - 1, w->task_args) ||
		     (pk_tok_is(t, i - 1, "(") && pk_tok_is(t, i - 2, w->dummy_submit))))
			return i;
	return from;
}

/* The first token of submit K's task: past the last submit of the same
 * receiver, at its arguments' declaration. */
static size_t task_start(const struct pk_ast *t, const struct tt_words *w, const struct submit *all, size_t k)
{
	size_t from = 0;
	for (size_t j = 0; j < k; j++)
		if (same(t, all[j].recv, all[k].recv))
			from = all[j].close_tok;
	return args_decl(t, w, all[k].recv, from, all[k].tok);
}

static void task_adds(const struct pk_ast *t, const struct tt_rules *r, const struct submit *all, size_t n, size_t k,
                      struct adds *a)
{
	size_t from = task_start(t, &r->w, all, k);
	memset(a, 0, sizeof(*a));
	(void)n;
	size_t at[64], nat = 0;
	long w[64];
	for (size_t i = from; i + 3 < all[k].tok; i++) {
		if (!same(t, i, all[k].recv) || !pk_tok_is(t, i + 1, ".") || !pk_tok_is(t, i + 3, "(") ||
		    (t->tok[i].flags & (PK_TOK_INACTIVE | PK_TOK_DIRECTIVE)))
			continue;
		int tensor = tt_tensor_add(r, t, i + 2);
		int scalar = pk_tok_is(t, i + 2, r->w.add_scalar);
		if (!tensor && !scalar)
			continue;
		size_t c = pk_tok_close(t, i + 3, 0);
		size_t s = pk_tok_stmt_first(t, i);
		size_t end = pk_tok_is(t, c + 1, ";") ? t->tok[c + 1].end : 0;
		size_t as[TT_FN_PARAMS], ae[TT_FN_PARAMS];
		long nargs = (long)pk_tok_args(t, i + 3, as, ae, TT_FN_PARAMS); /* add_input(a, b): two */
		if (nargs < 1)
			nargs = 1;
		if (scalar) {
			a->scalars += nargs;
			if (nat < sizeof(at) / sizeof(at[0]))
				w[nat] = nargs, at[nat++] = i;
			a->scalar_branch =
			    pk_tok_enclosing(t, i, "{", "}") != pk_tok_enclosing(t, all[k].tok, "{", "}");
			a->last_scalar_stmt = pk_tok_lead(t, s);
			a->last_scalar_stmt_end = end;
			continue;
		}
		a->tensors += nargs;
		a->last_tensor_stmt = pk_tok_lead(t, s);
		a->last_tensor_stmt_end = end;
		a->last_tensor_arg = i + 4;
		a->last_tensor_arg_end = c;
	}
	a->scalars -= either_side(t, at, w, nat);
}

int tt_orch_is(const struct pk_ast *t, const struct tt_rules *r)
{
	size_t pl = strlen(r->w.submit_prefix);
	for (size_t i = 0; pl && i < t->ntok; i++)
		if (ident(t, i) && t->tok[i].end - t->tok[i].start > pl &&
		    !strncmp(t->b->data + t->tok[i].start, r->w.submit_prefix, pl))
			return 1;
	return 0;
}

/* Which kernel id the tasks to change submit: --func-id, the test script's,
 * or the only one. */
static int pick_id(const struct pk_ast *t, const struct tt_words *w, const struct submit *s, size_t n, long want,
                   long *id)
{
	if (want >= 0) {
		*id = want;
		return 0;
	}
	long only = -1;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < nsets(&s[i]); k++)
			for (int j = 0; j < 3; j++) {
				long v = set_ids(&s[i], k)[j];
				if (v < 0)
					continue;
				if (only >= 0 && v != only)
					return pk_error(
					    "%s: the orchestration submits several kernels (ids %ld and %ld, ...): "
					    "say which one is instrumented with --func-id N (a --test-script says it "
					    "when one of its incores has the kernel's file as its source)",
					    t->b->path, only, v);
				only = v;
			}
	if (only < 0)
		return unread_ids(t, w, s, n, -1);
	*id = only;
	return 0;
}

/* The tensor count the host passes to the kernel (every task submitting it
 * must agree), -1 on error. */
static long tt_orch_tensors_in(struct submit *s, struct pk_ast *t, const struct tt_rules *r, long func_id,
                               long *scalars)
{
	*scalars = -2;
	if (unfollowed_submits(t, &r->w) < 0)
		return -1;
	size_t n = find_submits(t, r, s);
	long id, tensors = -1;
	if (n == (size_t)-1 || pick_id(t, &r->w, s, n, func_id, &id) < 0)
		return -1;
	for (size_t k = 0; k < n; k++) {
		if (!submits_id(&s[k], id))
			continue;
		struct adds a;
		task_adds(t, r, s, n, k, &a);
		if (a.tensors > tensors)
			tensors = a.tensors; /* the widest: a narrower task is padded to it */
		*scalars = *scalars == -2 || *scalars == a.scalars ? a.scalars : -1;
	}
	if (tensors < 0)
		return unread_ids(t, &r->w, s, n, id);
	return tensors;
}

long tt_orch_tensors(struct pk_ast *t, const struct tt_rules *r, long func_id, long *scalars)
{
	struct submit *s = pk_xcalloc(MAX_SUBMITS, sizeof(*s));
	long rc = tt_orch_tensors_in(s, t, r, func_id, scalars);
	submits_free(s, MAX_SUBMITS);
	free(s);
	return rc;
}

static int runs_kernel(const struct tt_spec *sp, const struct submit *s, long id);
static int is_twin(const struct tt_spec *sp, long id);

/* ---- how many task instances run the kernel ---- */

/* The body of the loop at token F (for, while, do): tokens [*B, *E]. */
static int loop_body(const struct pk_ast *t, size_t f, size_t *b, size_t *e)
{
	size_t open = f + 1;
	if (!pk_tok_is(t, f, "do")) {
		if (!pk_tok_is(t, f + 1, "("))
			return 0;
		open = pk_tok_close(t, f + 1, 0) + 1;
	}
	if (open >= t->ntok)
		return 0;
	*b = open;
	if (pk_tok_is(t, open, "{")) {
		*e = pk_tok_close(t, open, 0);
		return 1;
	}
	int d = 0; /* a braceless body: one statement, up to its ';' */
	for (size_t i = open; i < t->ntok; i++) {
		if (pk_tok_is(t, i, "(") || pk_tok_is(t, i, "[") || pk_tok_is(t, i, "{"))
			d++;
		else if (pk_tok_is(t, i, ")") || pk_tok_is(t, i, "]") || pk_tok_is(t, i, "}"))
			d--;
		else if (d == 0 && pk_tok_is(t, i, ";")) {
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
static long bound_value(const struct pk_ast *t, size_t i)
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
		if (j > 0 && pk_tok_is(t, j - 1, "define"))
			return lit(t, j + 1);
		int set = j > 0 && (pk_tok_is(t, j - 1, "++") || pk_tok_is(t, j - 1, "--") || pk_tok_is(t, j - 1, "&"));
		for (size_t c = 0; c < sizeof(change) / sizeof(change[0]) && !set; c++)
			set = pk_tok_is(t, j + 1, change[c]);
		if (!set)
			continue;
		sets++;
		found = pk_tok_is(t, j + 1, "=") && j + 3 < t->ntok && pk_tok_is(t, j + 3, ";") ? lit(t, j + 2) : -1;
	}
	return sets == 1 ? found : -1;
}

/* The trip count of `for (T V = A; V < B; V++)` (also <=, !=, ++V, V += 1)
 * with A and B constants (literals, #define, NAME = N); -1 otherwise. */
static long for_trips(const struct pk_ast *t, size_t f)
{
	if (!pk_tok_is(t, f, "for") || !pk_tok_is(t, f + 1, "("))
		return -1;
	size_t c = pk_tok_close(t, f + 1, 0), semi[2], ns = 0;
	for (size_t i = f + 2; i < c && ns < 2; i++)
		if (pk_tok_is(t, i, ";"))
			semi[ns++] = i;
	if (ns < 2 || semi[0] < f + 5 || !pk_tok_is(t, semi[0] - 2, "="))
		return -1;
	size_t v = semi[0] - 3, s1 = semi[0], s2 = semi[1];
	long a = bound_value(t, s1 - 1), b = bound_value(t, s1 + 3);
	if (!ident(t, v) || s2 != s1 + 4 || !same(t, s1 + 1, v) || a < 0 || b < 0)
		return -1;
	int le = pk_tok_is(t, s1 + 2, "<=");
	if (!le && !pk_tok_is(t, s1 + 2, "<") && !pk_tok_is(t, s1 + 2, "!="))
		return -1;
	int step = (c == s2 + 3 && ((same(t, s2 + 1, v) && pk_tok_is(t, s2 + 2, "++")) ||
	                            (pk_tok_is(t, s2 + 1, "++") && same(t, s2 + 2, v)))) ||
	           (c == s2 + 4 && same(t, s2 + 1, v) && pk_tok_is(t, s2 + 2, "+=") && lit(t, s2 + 3) == 1);
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

static size_t find_loops(const struct pk_ast *t, struct loop **out)
{
	struct loop *v = NULL;
	size_t n = 0, cap = 0, b, e;
	for (size_t f = 0; f < t->ntok; f++)
		if ((pk_tok_is(t, f, "for") || pk_tok_is(t, f, "while") || pk_tok_is(t, f, "do")) &&
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

/* The last RECV.SPEC.SETTER( (RECV's token) task K calls after the
 * previous submit of its args object, SPEC [simpler] launch_spec, SETTER one
 * of its block_setters; 0 when it sets no block count. */
static size_t site_setter(const struct pk_ast *t, const struct tt_words *w, const struct submit *all, size_t k)
{
	size_t from = 0, set = 0;
	for (size_t j = 0; j < k; j++)
		if (same(t, all[j].recv, all[k].recv))
			from = all[j].close_tok;
	for (size_t i = from; i + 5 < all[k].tok; i++)
		if (same(t, i, all[k].recv) && (pk_tok_is(t, i + 1, ".") || pk_tok_is(t, i + 1, "->")) &&
		    pk_tok_is(t, i + 2, w->launch_spec) && pk_tok_is(t, i + 5, "(") &&
		    tt_tok_in(t, i + 4, w->block_setters))
			set = i;
	return set;
}

/* The task's block count: SETTER(N) before the submit (1 without one; N a
 * literal, #define or NAME = N constant), -1 when not a constant. */
static long site_blocks(const struct pk_ast *t, const struct tt_words *w, const struct submit *all, size_t k)
{
	size_t set = site_setter(t, w, all, k);
	if (!set)
		return 1;
	return pk_tok_is(t, set + 7, ")") ? bound_value(t, set + 6) : -1;
}

/* The rows task K owns ([host] simpler_task_rows): its block count read
 * back through the getter of the setter it calls on its args object (the
 * last one before the submit), times the rows of one block; a task that
 * sets none runs one block. */
static char *site_rows(const struct pk_ast *t, const struct submit *all, size_t k, const struct tt_spec *sp)
{
	const char *tmpl =
	    tt_rule(sp->rules, "host", sp->lay.lane_rows > 1 ? "simpler_task_rows_mixed" : "simpler_task_rows");
	char lanes[24]; /* the [host] keys are required when the rules load */
	snprintf(lanes, sizeof(lanes), "%ld", sp->lay.lane_rows > 0 ? sp->lay.lane_rows : 1);
	size_t set = site_setter(t, &sp->rules->w, all, k);
	if (!set)
		return pk_xstrdup(lanes);
	/* the getter at the setter's place in its list */
	const char *w = sp->rules->w.block_setters, *g = sp->rules->w.block_getters;
	size_t sn = t->tok[set + 4].end - t->tok[set + 4].start;
	for (;;) {
		w += strspn(w, " \t");
		g += strspn(g, " \t");
		size_t wl = strcspn(w, " \t"), gl = strcspn(g, " \t");
		if (!wl || !gl)
			break;
		if (wl == sn && !memcmp(w, t->b->data + t->tok[set + 4].start, sn)) {
			char *recv =
			         pk_xstrndup(t->b->data + t->tok[set].start, t->tok[set + 1].end - t->tok[set].start),
			     *getter = pk_xstrndup(g, gl);
			const char *names[] = {"recv", "getter", "lanes"}, *vals[] = {recv, getter, lanes};
			char *rows = tt_expand(tmpl, names, vals, 3);
			free(recv);
			free(getter);
			return rows;
		}
		w += wl;
		g += gl;
	}
	pk_error("rules/timing.ini: [simpler] block_getters has no getter for '%.*s'", (int)sn,
	         t->b->data + t->tok[set + 4].start);
	return NULL;
}

/* The task's arguments, built at byte BUILT, reach its submit at token SUB
 * through no loop they are outside of, and no loop or if holds the submit
 * as a body without braces: else every task of the loop would pass one
 * first row, or the moving line would change the loop's body. */
static int submit_in_place(const struct pk_ast *t, const struct loop *loops, size_t nl, size_t sub, size_t built)
{
	size_t bad = 0;
	int braceless = 0;
	for (size_t i = 0; i < nl && !bad; i++) {
		if (sub < loops[i].b || sub > loops[i].e)
			continue;
		if (!pk_tok_is(t, loops[i].b, "{"))
			bad = loops[i].tok, braceless = 1;
		else if (built < t->tok[loops[i].b].start)
			bad = loops[i].tok;
	}
	size_t first = pk_tok_stmt_first(t, sub);
	if (!bad && first > 0 &&
	    (pk_tok_is(t, first - 1, ")") || pk_tok_is(t, first - 1, "else") || pk_tok_is(t, first - 1, "do")))
		bad = first - 1, braceless = 1;
	if (!bad)
		return 0;
	if (braceless)
		return pk_error("%s:%u: the submit is the body of the if, else or loop at line %u without braces, "
		                "where the line moving the run's next free row cannot go before it; add the braces",
		                t->b->path, pk_buf_line_of(t->b, t->tok[sub].start),
		                pk_buf_line_of(t->b, t->tok[bad].start));
	return pk_error("%s:%u: the loop at line %u submits the task again and again with arguments built before "
	                "it: every task would pass the same first row; build the task's arguments inside the loop",
	                t->b->path, pk_buf_line_of(t->b, t->tok[sub].start), pk_buf_line_of(t->b, t->tok[bad].start));
}

/* Before task K's submit statement: the next free row moves past its rows. */
static int plan_advance(const struct pk_ast *t, const struct submit *all, size_t k, const struct tt_spec *sp,
                        struct pk_plan *plan)
{
	char *rows = site_rows(t, all, k, sp);
	if (!rows)
		return -1;
	const char *names[] = {"prefix", "rows"}, *vals[] = {sp->lay.prefix, rows};
	char *text = tt_expand(tt_rule(sp->rules, "host", "simpler_task_advance"), names, vals, 2);
	size_t at = pk_tok_lead(t, pk_tok_stmt_first(t, all[k].tok));
	tt_insert_before(t->b, plan, at, text, "the next task's first row");
	free(text);
	free(rows);
	return 0;
}

/* Does an if, switch or ?: choose whether the call at token TOK runs? (A
 * statement the parse dropped is read by its tokens: a ?: before the call.) */
static int in_branch(const struct pk_ast *t, size_t tok)
{
	for (size_t i = pk_tok_stmt_first(t, tok); i < tok; i++)
		if (pk_tok_is(t, i, "?"))
			return 1;
	for (size_t i = 0; i < t->ncalls; i++) {
		if (t->calls[i].off != t->tok[tok].start || t->calls[i].node < 0)
			continue;
		for (int n = t->nodes[t->calls[i].node].parent; n >= 0; n = t->nodes[n].parent)
			if (t->nodes[n].kind == CXCursor_IfStmt || t->nodes[n].kind == CXCursor_SwitchStmt ||
			    t->nodes[n].kind == CXCursor_ConditionalOperator)
				return 1;
		return 0;
	}
	return 0;
}

/* Does a branch choose whether the call at TOK runs: in its own function,
 * or at a call of that function (a helper), a few calls up? */
static int chosen(const struct pk_ast *t, const struct tt_fn *fns, size_t nf, size_t tok, int depth)
{
	if (in_branch(t, tok))
		return 1;
	const struct tt_fn *fn = tt_fn_holding(fns, nf, tok);
	if (!fn || fn->orch_param >= 0 || depth >= 4)
		return 0;
	size_t calls[MAX_SUBMITS], nc = helper_calls(t, fns, nf, fn, calls, MAX_SUBMITS);
	for (size_t i = 0; i < nc; i++)
		if (chosen(t, fns, nf, calls[i] - 1, depth + 1)) /* the name before its ( */
			return 1;
	return 0;
}

/* ---- graph functions (rt_submit_graph) ----
 * A graph function records the tasks it submits once and the runtime
 * replays them at every call with that call's boundary arguments; only a
 * boundary tensor or a scalar read straight from the boundary is the
 * call's own. So the timing tensor becomes the boundary's last tensor, and
 * each task of the graph running the kernel passes, as its first row, one
 * of the boundary's last scalars, which every call sets to the run's next
 * free row plus the rows of the graph's tasks before it. */

/* The parameter of FN whose type is the boundary's ([host]
 * simpler_graph_args), or -1. */
static int graph_param(const struct pk_ast *t, const struct tt_spec *sp, const struct tt_fn *fn)
{
	const char *w = sp->rules->w.graph_args;
	for (size_t p = 0; fn && w && p < fn->nparams; p++)
		for (size_t i = fn->params[p].first; i < fn->params[p].name; i++)
			if (pk_tok_is(t, i, w))
				return (int)p;
	return -1;
}

/* A call handing a graph function its boundary: the call's '(' and the
 * boundary object's token there. */
struct gsite {
	size_t call, recv;
};

/* The calls running graph function G: every rt_submit_graph(..., &G, RECV
 * ...) (the RECV of a wrapper taking the boundary as its parameter followed
 * to the wrapper's calls). Returns the count, or -1 after an error. */
static long graph_sites(const struct pk_ast *t, const struct tt_spec *sp, const struct tt_fn *fns, size_t nf,
                        const struct tt_fn *g, struct gsite *out, size_t cap)
{
	const char *call = sp->rules->w.graph_submit;
	size_t n = 0;
	for (size_t i = 0; call && i + 1 < t->ntok; i++) {
		if (!pk_tok_is(t, i, call) || !pk_tok_is(t, i + 1, "(") ||
		    (t->tok[i].flags & (PK_TOK_INACTIVE | PK_TOK_DIRECTIVE)))
			continue;
		size_t c = pk_tok_close(t, i + 1, 0), j = i + 2;
		while (j + 1 < c && !(pk_tok_is(t, j, "&") && same(t, j + 1, g->name)))
			j++;
		if (j + 1 >= c)
			continue;
		size_t recv = j + 3;
		if (!pk_tok_is(t, j + 2, ",") || !ident(t, recv) || !(pk_tok_is(t, recv + 1, ",") || recv + 1 == c))
			return pk_error(
			    "%s:%u: the graph function's boundary arguments are not one name after '&%.*s'; "
			    "build them in a variable and pass it",
			    t->b->path, pk_buf_line_of(t->b, t->tok[i].start),
			    (int)(t->tok[g->name].end - t->tok[g->name].start), t->b->data + t->tok[g->name].start);
		const struct tt_fn *w = tt_fn_holding(fns, nf, i);
		int p = graph_param(t, sp, w);
		if (p < 0 || !same(t, recv, w->params[p].name)) {
			if (n < cap)
				out[n++] = (struct gsite){i + 1, recv};
			continue;
		}
		size_t calls[MAX_SUBMITS]; /* a wrapper: its callers' boundaries */
		size_t nc = helper_calls(t, fns, nf, w, calls, MAX_SUBMITS);
		for (size_t k = 0; k < nc; k++) {
			size_t as[TT_FN_PARAMS], ae[TT_FN_PARAMS], na = pk_tok_args(t, calls[k], as, ae, TT_FN_PARAMS);
			if ((size_t)p >= na || ae[p] != as[p] + 1 || !ident(t, as[p]))
				return pk_error(
				    "%s:%u: this call of '%.*s' passes the graph's boundary arguments as an "
				    "expression; build them in a variable and pass it",
				    t->b->path, pk_buf_line_of(t->b, t->tok[calls[k]].start),
				    (int)(t->tok[w->name].end - t->tok[w->name].start),
				    t->b->data + t->tok[w->name].start);
			if (n < cap)
				out[n++] = (struct gsite){calls[k], as[p]};
		}
	}
	return (long)n;
}

/* The graph function holding token TOK (a function taking the boundary
 * that some rt_submit_graph names), or NULL. */
static const struct tt_fn *graph_fn(const struct pk_ast *t, const struct tt_spec *sp, const struct tt_fn *fns,
                                    size_t nf, size_t tok)
{
	const struct tt_fn *fn = tt_fn_holding(fns, nf, tok);
	const char *call = sp->rules->w.graph_submit;
	if (!fn || graph_param(t, sp, fn) < 0 || !call)
		return NULL;
	for (size_t i = 0; i + 1 < t->ntok; i++)
		if (pk_tok_is(t, i, call) && pk_tok_is(t, i + 1, "(")) {
			size_t c = pk_tok_close(t, i + 1, 0);
			for (size_t j = i + 2; j + 1 < c; j++)
				if (pk_tok_is(t, j, "&") && same(t, j + 1, fn->name))
					return fn;
		}
	return NULL;
}

/* The replays of graph function G in one run: its calls times the loops
 * around each; -1 when a loop's count is not a constant (*LOOP its token). */
static long graph_runs(const struct pk_ast *t, const struct tt_spec *sp, const struct tt_fn *fns, size_t nf,
                       const struct tt_fn *g, const struct loop *loops, size_t nl, int *in_loop, size_t *loop)
{
	struct gsite *gs = pk_xcalloc(MAX_SUBMITS, sizeof(*gs));
	long ng = graph_sites(t, sp, fns, nf, g, gs, MAX_SUBMITS), runs = 0;
	for (long c = 0; c < ng && runs >= 0; c++) {
		long ct = site_trips(loops, nl, gs[c].call, in_loop, loop);
		runs = ct < 0 ? -1 : runs + ct;
	}
	free(gs);
	return ng < 0 ? -1 : runs;
}

/* Does the task of submit K call its arguments' predicate method ([simpler]
 * predicate) before the submit? The runtime then decides at dispatch
 * whether it runs. */
static int predicated(const struct pk_ast *t, const struct tt_words *w, const struct submit *all, size_t k)
{
	const char *name = w->predicate;
	for (size_t i = task_start(t, w, all, k); i + 3 < all[k].tok; i++)
		if (same(t, i, all[k].recv) && pk_tok_is(t, i + 1, ".") && pk_tok_is(t, i + 2, name) &&
		    pk_tok_is(t, i + 3, "(") && !(t->tok[i].flags & (PK_TOK_INACTIVE | PK_TOK_DIRECTIVE)))
			return 1;
	return 0;
}

static int tt_orch_tasks_in(struct submit *s, struct pk_ast *t, const struct tt_spec *sp, long func_id,
                            struct tt_tasks *out)
{
	size_t n = find_submits(t, sp->rules, s), loop = 0;
	long id;
	memset(out, 0, sizeof(*out));
	if (n == (size_t)-1 || pick_id(t, &sp->rules->w, s, n, func_id, &id) < 0)
		return -1;
	out->id = id;
	out->blocks = 0;
	struct loop *loops;
	struct tt_fn *fns = NULL;
	size_t used = 0, nl = find_loops(t, &loops), nf = tt_fns_find(t, sp->rules->w.orch_args, &fns);
	for (size_t k = 0; k < n; k++) {
		if (!runs_kernel(sp, &s[k], id))
			continue;
		long trips = site_trips(loops, nl, s[k].tok, &out->in_loop, &loop),
		     blocks = site_blocks(t, &sp->rules->w, s, k);
		out->conditional |= chosen(t, fns, nf, s[k].tok, 0) || predicated(t, &sp->rules->w, s, k);
		const struct tt_fn *g = graph_fn(t, sp, fns, nf, s[k].tok);
		if (g) { /* in a graph function: once per replay, the calls times the loops around each */
			out->graph = 1;
			long runs = graph_runs(t, sp, fns, nf, g, loops, nl, &out->in_loop, &loop);
			trips = trips < 0 || runs < 0 ? -1 : trips * runs;
		}
		if (s[k].nsites) { /* through a helper: once per call, times the loops around each call */
			out->via_helper = 1;
			out->sites += (int)s[k].nsites - 1;
			long calls = 0;
			for (size_t c = 0; c < s[k].nsites && calls >= 0; c++) {
				long ct = site_trips(loops, nl, s[k].sites[c].call, &out->in_loop, &loop);
				calls = ct < 0 ? -1 : calls + ct;
			}
			trips = trips < 0 || calls < 0 ? -1 : trips * calls;
		}
		for (size_t i = 0; i < nsets(&s[k]); i++) {
			int lanes = 0;
			for (int l = 0; l < 3; l++)
				lanes += set_ids(&s[k], i)[l] >= 0 &&
				         (set_ids(&s[k], i)[l] == id || is_twin(sp, set_ids(&s[k], i)[l]));
			if (lanes > out->lanes)
				out->lanes = lanes;
			const long *ids = set_ids(&s[k], i);
			if ((ids[0] == id || is_twin(sp, ids[0])) && (ids[1] >= 0 || ids[2] >= 0))
				out->on_aic = 1; /* the AIC lane of a mixed task runs it too */
		}
		if (trips < 0 && !out->loop_line)
			out->loop_line = pk_buf_line_of(t->b, t->tok[loop].start);
		if (!out->lines[0] || out->blocks == blocks) /* the first submit, or one more alike */
			out->blocks = blocks;
		else
			out->blocks = -1;
		out->sites++;
		if (trips < 0 || blocks < 0 || out->tasks < 0)
			out->tasks = out->block_runs = -1;
		else {
			out->tasks += trips;
			out->block_runs += trips * blocks;
		}
		if (used + 16 < sizeof(out->lines))
			used += (size_t)snprintf(out->lines + used, sizeof(out->lines) - used, "%s%u", used ? ", " : "",
			                         pk_buf_line_of(t->b, t->tok[s[k].tok].start));
	}
	free(loops);
	free(fns);
	return 0;
}

int tt_orch_tasks(struct pk_ast *t, const struct tt_spec *sp, long func_id, struct tt_tasks *out)
{
	struct submit *s = pk_xcalloc(MAX_SUBMITS, sizeof(*s));
	int rc = tt_orch_tasks_in(s, t, sp, func_id, out);
	submits_free(s, MAX_SUBMITS);
	free(s);
	return rc;
}

/* The orchestration entry: the function taking `const ORCH_ARGS &NAME`
 * ([simpler] orch_args) whose body holds the submit at token SUB
 * (aicpu_orchestration_entry, or the name the test script gives). NAME's
 * token and the first byte of the body. */
static int find_entry(const struct pk_ast *t, const struct tt_words *w, size_t sub, size_t *orch, size_t *body)
{
	for (size_t i = 0; i + 4 < t->ntok; i++) {
		if (!pk_tok_is(t, i, w->orch_args) || !pk_tok_is(t, i + 1, "&") || !ident(t, i + 2) ||
		    !pk_tok_is(t, i + 3, ")") || !pk_tok_is(t, i + 4, "{"))
			continue;
		size_t c = pk_tok_close(t, i + 4, 0);
		if (sub <= i + 4 || sub >= c)
			continue;
		*orch = i + 2;
		*body = t->tok[i + 5].start;
		return 0;
	}
	struct tt_fn *fns = NULL;
	size_t nf = tt_fns_find(t, w->orch_args, &fns);
	const struct tt_fn *f = tt_fn_holding(fns, nf, sub);
	int graph = 0;
	for (size_t i = f ? f->lparen : 0; f && i < f->rparen; i++)
		graph |= pk_tok_is(t, i, w->graph_args);
	char name[128] = "";
	if (f)
		snprintf(name, sizeof(name), "%.*s", (int)(t->tok[f->name].end - t->tok[f->name].start),
		         t->b->data + t->tok[f->name].start);
	free(fns);
	unsigned line = pk_buf_line_of(t->b, t->tok[sub].start);
	if (graph)
		return pk_error("%s:%u: the kernel is submitted in '%s', a graph function (%s) that no "
		                "%s(&%s, ARGS ...) call of the orchestration's entry runs, so its replays "
		                "cannot get the timing tensor and their rows; call it so from the entry, or measure "
		                "the kernel in a task the entry submits",
		                t->b->path, line, name, w->graph_args, w->graph_submit, name);
	return pk_error("%s:%u: the submit of the kernel is in '%s', which no function taking (const "
	                "%s &) holds or calls; submit it from the orchestration's entry, or through "
	                "a helper the entry calls",
	                t->b->path, line, name[0] ? name : "?", w->orch_args);
}

/* Where the entry is looked for: the submit, or, in a helper not taking the
 * orchestration's arguments, its first call submitting ID. */
static size_t entry_tok(const struct pk_ast *t, const struct tt_words *w, const struct submit *s, long id)
{
	if (!s->nsites)
		return s->tok;
	struct tt_fn *fns = NULL;
	size_t nf = tt_fns_find(t, w->orch_args, &fns), at = s->tok;
	const struct tt_fn *fn = tt_fn_holding(fns, nf, s->tok);
	for (size_t i = 0; fn && fn->orch_param < 0 && i < s->nsites; i++) {
		const long *ids = s->sites[i].ids;
		if (ids[0] == id || ids[1] == id || ids[2] == id) {
			at = s->sites[i].call;
			break;
		}
	}
	free(fns);
	return at;
}

/* The highest index a read `ORCH.ACC(I)` can take, ORCH the [simpler]
 * orch_args parameter of the function holding it (a helper of the file taking them
 * too; a graph's boundary of the same name is not the orchestration's): I
 * a number, or the variable of a loop around it counting from a constant
 * to one (its last value); -1 when there is none; *DYN set when some read's
 * index is neither. */
static long max_read(const struct pk_ast *t, const struct tt_words *w, const char *acc, int *dyn)
{
	struct tt_fn *fns = NULL;
	struct loop *loops = NULL;
	size_t nf = tt_fns_find(t, w->orch_args, &fns), nl = find_loops(t, &loops);
	long max = -1;
	*dyn = 0;
	for (size_t i = 0; acc && i + 4 < t->ntok; i++) {
		const struct tt_fn *fn = tt_fn_holding(fns, nf, i);
		if (!fn || fn->orch_param < 0 || !same(t, i, fn->params[fn->orch_param].name) ||
		    !pk_tok_is(t, i + 1, ".") || !pk_tok_is(t, i + 2, acc) || !pk_tok_is(t, i + 3, "("))
			continue;
		long v = pk_tok_is(t, i + 5, ")") ? lit(t, i + 4) : -1;
		for (size_t l = 0; v < 0 && ident(t, i + 4) && pk_tok_is(t, i + 5, ")") && l < nl; l++) {
			size_t f = loops[l].tok;
			if (loops[l].trips <= 0 || i < loops[l].b || i > loops[l].e || !pk_tok_is(t, f + 1, "(") ||
			    !same(t, f + 3, i + 4) || !pk_tok_is(t, f + 4, "="))
				continue;
			long a = bound_value(t, f + 5);
			v = a < 0 ? -1 : a + loops[l].trips - 1; /* for (T V = A; ...): V's last value */
		}
		if (v < 0)
			*dyn = 1;
		else if (v > max)
			max = v;
	}
	free(fns);
	free(loops);
	return max;
}

/* K: the next external tensor, one past the highest orch.tensor(N); when
 * some read's index is computed at run time, the config's count less the
 * scalars (else the reads', which plan_config's warning then questions). */
static int config_count(const struct pk_ast *t, const struct tt_rules *r, size_t *s, size_t *e, long *v);
static long next_external(const struct pk_ast *t, const struct tt_rules *r)
{
	int dyn = 0, sdyn = 0;
	long max = max_read(t, &r->w, r->w.tensor_accessor, &dyn);
	long smax = max_read(t, &r->w, r->w.scalar_accessor, &sdyn);
	size_t s, e;
	long v = -1;
	if (!dyn)
		return max + 1;
	if (!sdyn && config_count(t, r, &s, &e, &v) == 0 && v > max + smax + 1)
		return v - (smax + 1);
	return max + 1;
}

/* A [host] template (required: tt_schema.c) with {recv} {orch} {index} {prefix}. */
static char *host_text(const struct tt_spec *sp, const char *key, const char *recv, const char *orch, long index)
{
	char idx[32];
	snprintf(idx, sizeof(idx), "%ld", index);
	const char *names[] = {"recv", "orch", "index", "prefix"};
	const char *vals[] = {recv ? recv : "", orch ? orch : "", idx, sp->lay.prefix};
	return tt_expand(tt_rule(sp->rules, "host", key), names, vals, 4);
}

/* The orchestration's config: `expected_arg_count = EXPR` (tokens [*S, *E))
 * and its value (a constant of the file, evaluated as kernel ids are; -1
 * when not constant). -1 when there is none. */
static int config_count(const struct pk_ast *t, const struct tt_rules *r, size_t *s, size_t *e, long *v)
{
	for (size_t i = 0; i + 2 < t->ntok; i++) {
		if (!pk_tok_is(t, i, r->w.arg_count) || !pk_tok_is(t, i + 1, "=") ||
		    (t->tok[i].flags & PK_TOK_INACTIVE))
			continue;
		size_t j = i + 2;
		int d = 0;
		for (; j < t->ntok; j++) {
			if (pk_tok_is(t, j, "(") || pk_tok_is(t, j, "[") || pk_tok_is(t, j, "{"))
				d++;
			else if ((pk_tok_is(t, j, ")") || pk_tok_is(t, j, "]") || pk_tok_is(t, j, "}")) && d-- == 0)
				break;
			else if (d == 0 && (pk_tok_is(t, j, ",") || pk_tok_is(t, j, ";")))
				break;
		}
		*s = i + 2;
		*e = j;
		struct tt_idexpr x = {*s, *e, tt_ids_stmt_start(t, i), -1};
		if (*e > *s && lit(t, *s) >= 0 && *e == *s + 1)
			x.value = lit(t, *s);
		else if (*e > *s && tt_ids_eval(t, r, &x, 1) < 0)
			return -1;
		*v = x.value;
		return 0;
	}
	return -1;
}

/* The scalars the orchestration reads: one past the highest ORCH.ACC(N),
 * ACC the [host] simpler_scalar_accessor (0 without one). */
static long orch_scalars(const struct pk_ast *t, const struct tt_rules *r)
{
	int dyn = 0;
	return max_read(t, &r->w, r->w.scalar_accessor, &dyn) + 1;
}

static int plan_config(const struct pk_ast *t, const struct tt_rules *r, long ext, struct pk_plan *plan)
{
	size_t s, e;
	long v = -1;
	if (config_count(t, r, &s, &e, &v) < 0 || e <= s)
		return pk_error("%s: no '%s = N' in the orchestration config: the runtime would "
		                "refuse the extra external tensor",
		                t->b->path, r->w.arg_count);
	long sc = orch_scalars(t, r);
	unsigned line = pk_buf_line_of(t->b, t->tok[s].start);
	if (v < 0)
		return pk_error("%s:%u: %s is not a constant the tool can evaluate: write it as a "
		                "number (the external tensors and scalars the orchestration reads)",
		                t->b->path, line, r->w.arg_count);
	if (v != ext + sc)
		pk_warning("%s:%u: %s is %ld but the orchestration reads %ld external tensor%s and %ld "
		           "scalar%s: the timing tensor is external tensor %ld; check the count",
		           t->b->path, line, r->w.arg_count, v, ext, ext == 1 ? "" : "s", sc, sc == 1 ? "" : "s", ext);
	char num[32];
	snprintf(num, sizeof(num), "%ld", v + 1);
	tt_replace_inline(t->b, plan, t->tok[s].start, t->tok[e - 1].end, num);
	return 0;
}

/* ID built from the kernel's own source too (the test script says so). */
static int is_twin(const struct tt_spec *sp, long id)
{
	for (size_t i = 0; i < sp->lay.ntwins; i++)
		if (sp->lay.twins[i] == id)
			return 1;
	return 0;
}

/* ID is another lane's kernel whose reads are renumbered with the kernel's. */
static int is_lane(const struct tt_spec *sp, long id)
{
	for (size_t i = 0; i < sp->lay.nlanes; i++)
		if (sp->lay.lanes[i] == id)
			return 1;
	return 0;
}

/* A task that runs the instrumented source: it submits ID or a twin of it. */
static int runs_ids(const struct tt_spec *sp, const long *ids, long id)
{
	for (int i = 0; i < 3; i++)
		if (ids[i] >= 0 && (ids[i] == id || is_twin(sp, ids[i])))
			return 1;
	return 0;
}

static int runs_kernel(const struct tt_spec *sp, const struct submit *s, long id)
{
	for (size_t i = 0; i < nsets(s); i++)
		if (runs_ids(sp, set_ids(s, i), id))
			return 1;
	return 0;
}

/* A mixed task (MixedKernels) hands one argument list to every lane: the
 * timing tensor after its last tensor shifts only the task's scalars, so
 * another kernel of a task passing scalars is refused unless its reads are
 * renumbered too (a lane of SP); lanes running the instrumented source
 * (under its id or a twin's) own rows of their own by the mixed slot rule
 * (AIC and AIV builds told apart by the profile's macro), else share the
 * task's block rows (a warning). */
static int mixed_lanes(const struct pk_ast *t, const struct tt_spec *sp, const long *ids, size_t at, long id,
                       long scalars)
{
	int lanes = 0;
	long other = -1;
	for (int i = 0; i < 3; i++) {
		if (ids[i] < 0)
			continue;
		if (ids[i] == id || is_twin(sp, ids[i]))
			lanes++;
		else
			other = ids[i];
	}
	unsigned line = pk_buf_line_of(t->b, t->tok[at].start);
	/* with no scalars, the timing tensor after the task's last tensor moves
	 * no argument of another lane: the tensors before it stay in place */
	int unrenumbered = 0; /* a lane whose reads nothing renumbers */
	for (int i = 0; i < 3; i++)
		unrenumbered |= ids[i] >= 0 && ids[i] != id && !is_twin(sp, ids[i]) && !is_lane(sp, ids[i]);
	if (!unrenumbered)
		other = -1;
	if (other >= 0 && scalars)
		return pk_error("%s:%u: kernel %ld shares this mixed task with kernel %ld, whose scalar arguments the "
		                "timing tensor would shift; instrument a kernel its task submits alone, or one of a "
		                "task passing no scalars (when kernel %ld is built from the same source, give "
		                "--test-script so probekit can tell)",
		                t->b->path, line, id, other, other);
	if (lanes > 1 && !sp->lay.mix_blocks) /* else each lane owns rows (the mixed slot rule) */
		pk_warning("%s:%u: kernel %ld runs on %d lanes of this mixed task, which write the same timing rows "
		           "(the slot is the task's block index): a row holds the last lane to finish",
		           t->b->path, line, id, lanes);
	return 0;
}

/* --generation / --invocation: the generation id and the first row travel as
 * the last scalars of the task, after its own (or, with none, after the
 * timing output: appended to *ADD). */
static int plan_launch_scalars(const struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp,
                               const struct adds *a, size_t sub, const char *recv, char **add, struct pk_plan *plan)
{
	char *dot = pk_xasprintf("%s.", recv);
	char *g = tt_host_extra_scalar_adds(sp, dot, "simpler_scalar");
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
	} else if (a->scalar_branch) { /* after the if / else choosing them: before the submit */
		tt_insert_before(t->b, plan, pk_tok_lead(t, pk_tok_stmt_first(t, sub)), g, "launch scalars");
	} else {
		char label[64];
		snprintf(label, sizeof(label), "launch scalars (args[%ld])", k->ntensors + 1 + k->nscalars);
		tt_insert_after(t->b, plan, a->last_scalar_stmt_end, a->last_scalar_stmt, g, label);
	}
	free(g);
	return rc;
}

/* The task submitting the kernel that passes the most tensors (its count is
 * the kernel's: the timing tensor's index compiled into the kernel). */
static size_t widest_task(const struct pk_ast *t, const struct tt_spec *sp, const struct submit *s, size_t n, long id)
{
	size_t w = n;
	long most = -1;
	for (size_t j = 0; j < n; j++) {
		struct adds a;
		if (!runs_kernel(sp, &s[j], id))
			continue;
		task_adds(t, sp->rules, s, n, j, &a);
		if (a.tensors > most)
			most = a.tensors, w = j;
	}
	return w;
}

/* A task passing the kernel fewer tensors (A->tensors) than another: the
 * timing tensor goes at the same index in it, after padding tensors
 * ([host] simpler_pad, in *PAD), when the kernel reads nothing at or after
 * the task's own count there. */
static int pad_task(const struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp, const struct submit *s,
                    size_t n, size_t j, long id, const struct adds *a, char **pad)
{
	long max = -1;
	size_t w = widest_task(t, sp, s, n, id);
	for (size_t i = 0; i < k->nuses; i++)
		if (k->uses[i].index > max)
			max = k->uses[i].index;
	unsigned line = pk_buf_line_of(t->b, t->tok[s[j].tok].start);
	unsigned wline = w < n ? pk_buf_line_of(t->b, t->tok[s[w].tok].start) : 0;
	if (!a->tensors || !a->last_tensor_stmt_end)
		return pk_error("%s:%u: the task's last tensor add is not a statement of its own; split it", t->b->path,
		                line);
	if (a->tensors > k->ntensors || max >= a->tensors)
		return pk_error("%s:%u: this task passes kernel '%s' %ld tensors, the task of line %u %ld, and the "
		                "timing tensor's index is compiled into the kernel (args[%ld]); the kernel reads "
		                "args[%ld], so this task cannot be padded to that index: make the tasks pass the "
		                "kernel the same tensors, or instrument a copy of the kernel for one of them",
		                t->b->path, line, k->name, a->tensors, wline, k->ntensors, k->ntensors, max);
	const char *tmpl = tt_rule(sp->rules, "host", "simpler_pad");
	if (!tmpl)
		return pk_error("rules/timing.ini: [host] simpler_pad is missing");
	const char *names[] = {"prefix", "recv"};
	const char *vals[] = {sp->lay.prefix, "{recv}"};
	char *one = tt_expand(tmpl, names, vals, 2);
	struct pk_sb sb = {0};
	for (long i = a->tensors; i < k->ntensors; i++)
		pk_sb_addf(&sb, "%s%s", i > a->tensors ? "\n" : "", one);
	free(one);
	*pad = sb.s;
	return 0;
}

/* Is there an insertion at OFF already (a helper shared by several tasks)? */
static int planned_at(const struct pk_plan *plan, size_t off)
{
	for (size_t i = 0; i < plan->n; i++)
		if (plan->e[i].start == off && plan->e[i].end == off)
			return 1;
	return 0;
}

/* The parameter a helper submitting the kernel gets, and the argument each
 * call passes: the timing tensor, then (several tasks) the run's task
 * counter by reference ([host] simpler_helper_*). */
static int helper_texts(const struct tt_spec *sp, char **param, char **arg)
{
	const char *p = tt_rule(sp->rules, "host", "simpler_helper_param");
	const char *a = tt_rule(sp->rules, "host", "simpler_helper_arg");
	const char *tp = tt_rule(sp->rules, "host", "simpler_helper_task_param");
	const char *ta = tt_rule(sp->rules, "host", "simpler_helper_task_arg");
	if (!p || !a)
		return pk_error("rules/timing.ini: [host] simpler_helper_param / simpler_helper_arg are missing");
	if (sp->lay.task_rows && (!tp || !ta))
		return pk_error("rules/timing.ini: [host] simpler_helper_task_param / simpler_helper_task_arg are "
		                "missing: several tasks submitted through a helper cannot get their first rows");
	const char *names[] = {"prefix"};
	const char *vals[] = {sp->lay.prefix};
	char *pp = tt_expand(p, names, vals, 1), *aa = tt_expand(a, names, vals, 1);
	if (sp->lay.task_rows) {
		char *x = tt_expand(tp, names, vals, 1), *y = tt_expand(ta, names, vals, 1);
		*param = pk_xasprintf("%s%s", pp, x);
		*arg = pk_xasprintf("%s%s", aa, y);
		free(x);
		free(y);
		free(pp);
		free(aa);
	} else {
		*param = pp;
		*arg = aa;
	}
	return 0;
}

/* Every id set of submit S runs the kernel alone (or with its twins) on its
 * lanes; a helper's submit not in the orchestration's entry gets the timing
 * tensor as one more parameter, passed at each call. ORCH: the entry's
 * ChipTaskArgs. */
static int helper_tasks(const struct pk_ast *t, const struct tt_spec *sp, const struct submit *s, long id, size_t orch,
                        long scalars, struct pk_plan *plan)
{
	for (size_t i = 0; i < nsets(s); i++) {
		const long *ids = set_ids(s, i);
		size_t at = s->nsites ? s->sites[i].call : s->tok;
		if (!runs_ids(sp, ids, id))
			return pk_error(
			    "%s:%u: this call of the helper submits kernel %ld where another call submits "
			    "kernel %ld: the timing tensor added to the helper's task would shift the other "
			    "kernel's arguments; give the instrumented kernel a helper of its own",
			    t->b->path, pk_buf_line_of(t->b, t->tok[at].start), ids[0], id);
		if (mixed_lanes(t, sp, ids, at, id, scalars) < 0)
			return -1;
	}
	if (!s->nsites)
		return 0;
	struct tt_fn *fns = NULL;
	size_t nf = tt_fns_find(t, sp->rules->w.orch_args, &fns);
	const struct tt_fn *fn = tt_fn_holding(fns, nf, s->tok), *entry = NULL;
	for (size_t i = 0; i < nf; i++)
		if (fns[i].orch_param >= 0 && fns[i].params[fns[i].orch_param].name == orch)
			entry = &fns[i];
	int rc = 0;
	if (fn && fn->orch_param < 0 && fn != entry) {
		for (size_t i = 0; i < s->nsites && rc == 0; i++)
			if (tt_fn_holding(fns, nf, s->sites[i].call) != entry)
				rc =
				    pk_error("%s:%u: this call of the helper that submits kernel %ld is outside the "
				             "orchestration's entry, which declares the timing tensor; call the helper "
				             "from the entry",
				             t->b->path, pk_buf_line_of(t->b, t->tok[s->sites[i].call].start), id);
		char *p = NULL, *a = NULL;
		if (rc == 0)
			rc = helper_texts(sp, &p, &a);
		if (rc == 0 && !planned_at(plan, t->tok[fn->rparen].start))
			tt_insert_inline(plan, t->tok[fn->rparen].start, p);
		for (size_t i = 0; i < s->nsites && rc == 0; i++) {
			size_t close = pk_tok_close(t, s->sites[i].call, 0);
			if (!planned_at(plan, t->tok[close].start))
				tt_insert_inline(plan, t->tok[close].start, a);
		}
		free(p);
		free(a);
	}
	free(fns);
	return rc;
}

/* The boundary parameter's name of graph function G (allocated). */
static char *graph_args_name(const struct pk_ast *t, const struct tt_spec *sp, const struct tt_fn *g)
{
	size_t nm = g->params[graph_param(t, sp, g)].name;
	return pk_xstrndup(t->b->data + t->tok[nm].start, t->tok[nm].end - t->tok[nm].start);
}

/* Task J of graph function G: its first row is the boundary scalar that
 * its place among G's tasks running the kernel gives, after its own scalars
 * (or right after the timing tensor's add, *ADD, when it passes none). */
static int graph_row(const struct pk_ast *t, const struct tt_spec *sp, const struct submit *s, size_t n, size_t j,
                     long id, const struct tt_fn *fns, size_t nf, const struct tt_fn *g, const struct adds *a,
                     const char *recv, char **add, struct pk_plan *plan)
{
	long nk = 0, at = 0;
	for (size_t i = 0; i < n; i++)
		if (runs_kernel(sp, &s[i], id) && tt_fn_holding(fns, nf, s[i].tok) == g) {
			if (i == j)
				at = nk;
			nk++;
		}
	char back[24], *args = graph_args_name(t, sp, g);
	snprintf(back, sizeof(back), "%ld", nk - at);
	const char *names[] = {"recv", "args", "back"}, *vals[] = {recv, args, back};
	char *text = tt_expand(tt_rule(sp->rules, "host", "simpler_graph_row"), names, vals, 3);
	int rc = 0;
	if (!a->scalars) {
		char *joined = pk_xasprintf("%s\n%s", *add, text);
		free(*add);
		*add = joined;
	} else if (!a->last_scalar_stmt_end) {
		rc = pk_error("%s:%u: the task's last scalar add is not a statement of its own; split it", t->b->path,
		              pk_buf_line_of(t->b, a->last_scalar_stmt));
	} else if (a->scalar_branch) { /* after the if / else choosing them: before the submit */
		tt_insert_before(t->b, plan, pk_tok_lead(t, pk_tok_stmt_first(t, s[j].tok)), text,
		                 "the replay's first row");
	} else {
		tt_insert_after(t->b, plan, a->last_scalar_stmt_end, a->last_scalar_stmt, text,
		                "the replay's first row");
	}
	free(text);
	free(args);
	return rc;
}

/* The boundary RECV handed over at call CALL: its declaration (the latest
 * `GraphTaskArgs RECV` before the call in function FN) and its last tensor
 * add (the statement's first byte and just past its ';'; *ARG its
 * argument's token when it is one). */
static int boundary_adds(const struct pk_ast *t, const struct tt_spec *sp, const struct tt_fn *fn, size_t recv,
                         size_t call, size_t *decl, size_t *stmt, size_t *end, size_t *arg)
{
	const char *w = sp->rules->w.graph_args;
	size_t from = 0;
	*stmt = *end = 0;
	for (size_t i = call; i-- > fn->open + 1;)
		if (same(t, i, recv) && pk_tok_is(t, i - 1, w)) {
			from = i;
			break;
		}
	if (!from)
		return pk_error("%s:%u: the graph's boundary '%.*s' is not declared as %s in the function making "
		                "the call; declare it there",
		                t->b->path, pk_buf_line_of(t->b, t->tok[call].start),
		                (int)(t->tok[recv].end - t->tok[recv].start), t->b->data + t->tok[recv].start, w);
	*decl = t->tok[from].start;
	for (size_t i = from + 1; i + 3 < call; i++) {
		if (!same(t, i, recv) || !pk_tok_is(t, i + 1, ".") || !pk_tok_is(t, i + 3, "(") ||
		    (t->tok[i].flags & (PK_TOK_INACTIVE | PK_TOK_DIRECTIVE)))
			continue;
		if (!tt_tensor_add(sp->rules, t, i + 2))
			continue;
		size_t c = pk_tok_close(t, i + 3, 0);
		*arg = c == i + 5 ? i + 4 : 0; /* its argument when one token */
		*stmt = pk_tok_lead(t, pk_tok_stmt_first(t, i));
		*end = pk_tok_is(t, c + 1, ";") ? t->tok[c + 1].end : 0;
	}
	if (!*stmt || !*end)
		return pk_error("%s:%u: the graph's boundary '%.*s' has no tensor add of its own statement before the "
		                "call; the timing tensor goes after its last one",
		                t->b->path, pk_buf_line_of(t->b, t->tok[call].start),
		                (int)(t->tok[recv].end - t->tok[recv].start), t->b->data + t->tok[recv].start);
	return 0;
}

/* A block count task J of graph function G sets at run time, as text the
 * call can compute too: an expression naming no parameter of G and nothing
 * G declares (calls, casts and constants: `rt_available_cluster_count()`);
 * NULL otherwise. */
static char *graph_blocks(const struct pk_ast *t, const struct tt_words *w, const struct submit *s, size_t j,
                          const struct tt_fn *g)
{
	size_t set = site_setter(t, w, s, j);
	if (!set)
		return NULL;
	size_t open = set + 5, close = pk_tok_close(t, open, 0);
	if (close >= t->ntok || close <= open + 1)
		return NULL;
	for (size_t i = open + 1; i < close; i++) {
		if (!ident(t, i))
			continue;
		for (size_t p = 0; p < g->nparams; p++)
			if (same(t, i, g->params[p].name))
				return NULL;
		for (size_t d = g->open + 1; d + 1 < g->close; d++) /* declared in G: `T NAME =`, `T NAME;`, ... */
			if (same(t, d, i) && d > 0 &&
			    (ident(t, d - 1) || pk_tok_is(t, d - 1, "&") || pk_tok_is(t, d - 1, "*")) &&
			    (pk_tok_is(t, d + 1, "=") || pk_tok_is(t, d + 1, ";") || pk_tok_is(t, d + 1, "{") ||
			     pk_tok_is(t, d + 1, "[") || pk_tok_is(t, d + 1, ",")))
				return NULL;
	}
	return pk_xstrndup(t->b->data + t->tok[open + 1].start, t->tok[close - 1].end - t->tok[open + 1].start);
}

/* The first rows of graph function G's tasks running the kernel, in one
 * replay: OFFS one per task, \x1f-separated (a number, or a sum with the
 * run-time block counts before it), TOTAL the rows of one replay. */
struct glay {
	struct pk_sb offs;
	char *total;
	long nk;
};

static int graph_layout(const struct pk_ast *t, const struct tt_spec *sp, const struct submit *s, size_t n, long id,
                        const struct tt_fn *fns, size_t nf, const struct tt_fn *g, const struct loop *loops, size_t nl,
                        struct glay *L)
{
	const struct tt_words *w = &sp->rules->w;
	const char *gname = t->b->data + t->tok[g->name].start;
	int glen = (int)(t->tok[g->name].end - t->tok[g->name].start), rc = 0;
	long per = sp->lay.lane_rows > 0 ? sp->lay.lane_rows : 1, total = 0;
	struct pk_sb x = {0}; /* the run-time block counts so far */
	for (size_t j = 0; j < n && rc == 0; j++) {
		if (!runs_kernel(sp, &s[j], id) || tt_fn_holding(fns, nf, s[j].tok) != g)
			continue;
		size_t loop = 0;
		for (size_t l = 0; l < nl; l++) /* the innermost loop around it */
			if (s[j].tok >= loops[l].b && s[j].tok <= loops[l].e)
				loop = loops[l].tok;
		long blocks = site_blocks(t, w, s, j);
		unsigned line = pk_buf_line_of(t->b, t->tok[s[j].tok].start);
		char *expr = NULL;
		if (loop)
			rc = pk_error(
			    "%s:%u: the submit is in a loop of graph function '%.*s' (line %u): every pass would "
			    "read one boundary scalar as its first row; submit the kernel's tasks of the graph "
			    "one by one",
			    t->b->path, line, glen, gname, pk_buf_line_of(t->b, t->tok[loop].start));
		else if (blocks < 0 && !(expr = graph_blocks(t, w, s, j, g)))
			rc = pk_error("%s:%u: the block count of this task of graph function '%.*s' is set at run time "
			              "from the graph's own names: each call must pass the graph's first rows and move "
			              "past its rows before it runs; set the block count with a constant (a literal, "
			              "#define or NAME = N) or an expression of calls and constants",
			              t->b->path, line, glen, gname);
		const char *sep = L->nk ? "\x1f" : "";
		if (x.s && total)
			pk_sb_addf(&L->offs, "%s(%s) + %ld", sep, x.s, total);
		else if (x.s)
			pk_sb_addf(&L->offs, "%s(%s)", sep, x.s);
		else
			pk_sb_addf(&L->offs, "%s%ld", sep, total);
		if (expr) {
			pk_sb_addf(&x, "%sstatic_cast<uint64_t>(%s)", x.s ? " + " : "", expr);
			if (per > 1)
				pk_sb_addf(&x, " * %ld", per);
		} else {
			total += blocks * per;
		}
		free(expr);
		L->nk++;
	}
	L->total = x.s && total ? pk_xasprintf("%s + %ld", x.s, total)
	           : x.s        ? pk_xstrdup(x.s)
	                        : pk_xasprintf("%ld", total);
	pk_sb_free(&x);
	return rc;
}

/* One call running graph function G (boundary GS->recv, in ENTRY): the
 * timing tensor after the boundary's last tensor add; before the call each
 * task's first row in this replay, then the next free row past its rows. */
static int graph_call(const struct pk_ast *t, const struct tt_spec *sp, const struct tt_fn *fns, size_t nf,
                      const struct tt_fn *g, const struct tt_fn *entry, const struct loop *loops, size_t nl,
                      const struct gsite *gs, const struct glay *L, struct pk_plan *plan)
{
	size_t call = gs->call, at = pk_tok_lead(t, pk_tok_stmt_first(t, call - 1)), bdecl = 0, stmt, end, arg;
	if (tt_fn_holding(fns, nf, call) != entry)
		return pk_error("%s:%u: this call runs graph function '%.*s' outside the orchestration's entry, "
		                "which declares the timing tensor; make the call from the entry",
		                t->b->path, pk_buf_line_of(t->b, t->tok[call].start),
		                (int)(t->tok[g->name].end - t->tok[g->name].start), t->b->data + t->tok[g->name].start);
	if (boundary_adds(t, sp, entry, gs->recv, call, &bdecl, &stmt, &end, &arg) < 0 ||
	    submit_in_place(t, loops, nl, call - 1, bdecl) < 0)
		return -1;
	char *recv = pk_xstrndup(t->b->data + t->tok[gs->recv].start, t->tok[gs->recv].end - t->tok[gs->recv].start);
	char *add = host_text(sp, "simpler_add", recv, "", 0);
	tt_insert_after(t->b, plan, end, stmt, add, "the graph's timing tensor");
	free(add);
	struct pk_sb lines = {0};
	const char *o = L->offs.s ? L->offs.s : "";
	for (long i = 0; i < L->nk; i++) {
		size_t ol = strcspn(o, "\x1f");
		char *off = pk_xstrndup(o, ol);
		o += ol + (o[ol] == '\x1f');
		const char *names[] = {"recv", "prefix", "offset"}, *vals[] = {recv, sp->lay.prefix, off};
		char *one = tt_expand(tt_rule(sp->rules, "host", "simpler_graph_task_row"), names, vals, 3);
		pk_sb_addf(&lines, "%s\n", one);
		free(one);
		free(off);
	}
	const char *an[] = {"prefix", "rows"}, *av[] = {sp->lay.prefix, L->total};
	char *adv = tt_expand(tt_rule(sp->rules, "host", "simpler_task_advance"), an, av, 2);
	pk_sb_addf(&lines, "%s", adv);
	free(adv);
	tt_insert_before(t->b, plan, at, lines.s, "the replay's first rows");
	pk_sb_free(&lines);
	free(recv);
	return 0;
}

/* Graph function G running the kernel: the timing tensor read from its
 * boundary first in its body, and every call (in ENTRY, which declares the
 * timing tensor and the run's next free row) planned by graph_call. */
static int plan_graph(const struct pk_ast *t, const struct tt_spec *sp, const struct submit *s, size_t n, long id,
                      const struct tt_fn *fns, size_t nf, const struct tt_fn *g, const struct tt_fn *entry,
                      const struct loop *loops, size_t nl, struct pk_plan *plan)
{
	if (sp->opt.generation || sp->opt.invocation)
		return pk_error("%s: kernel %ld is submitted in graph function '%.*s', whose replays would pass the "
		                "recording's --generation / --invocation value; leave the option out",
		                t->b->path, id, (int)(t->tok[g->name].end - t->tok[g->name].start),
		                t->b->data + t->tok[g->name].start);
	struct glay L = {{0}, NULL, 0};
	struct gsite *gs = pk_xcalloc(MAX_SUBMITS, sizeof(*gs));
	int rc = graph_layout(t, sp, s, n, id, fns, nf, g, loops, nl, &L);
	long ng = rc < 0 ? -1 : graph_sites(t, sp, fns, nf, g, gs, MAX_SUBMITS);
	if (ng >= 0) {
		char *args = graph_args_name(t, sp, g);
		const char *dn[] = {"prefix", "args"}, *dv[] = {sp->lay.prefix, args};
		char *decl = tt_expand(tt_rule(sp->rules, "host", "simpler_graph_timing"), dn, dv, 2);
		tt_insert_before(t->b, plan, t->tok[g->open + 1].start, decl, "the boundary's timing tensor");
		free(decl);
		free(args);
	}
	rc = ng < 0 ? -1 : 0;
	for (long c = 0; c < ng && rc == 0; c++)
		rc = graph_call(t, sp, fns, nf, g, entry, loops, nl, &gs[c], &L, plan);
	free(gs);
	pk_sb_free(&L.offs);
	free(L.total);
	return rc;
}

/* Every graph function running the kernel, once each. */
static int plan_graphs(const struct pk_ast *t, const struct tt_spec *sp, const struct submit *s, size_t n, long id,
                       const struct tt_fn *fns, size_t nf, const struct tt_fn *entry, const struct loop *loops,
                       size_t nl, struct pk_plan *plan)
{
	int rc = 0;
	for (size_t j = 0; j < n && rc == 0; j++) {
		const struct tt_fn *g = runs_kernel(sp, &s[j], id) ? graph_fn(t, sp, fns, nf, s[j].tok) : NULL;
		int first = g != NULL;
		for (size_t i = 0; first && i < j; i++)
			first = !(runs_kernel(sp, &s[i], id) && tt_fn_holding(fns, nf, s[i].tok) == g);
		if (first)
			rc = plan_graph(t, sp, s, n, id, fns, nf, g, entry, loops, nl, plan);
	}
	return rc;
}

/* The task's add of the timing tensor ([host] simpler_add), after the
 * padding tensors PAD (a template of {recv}) when it passes fewer. */
static char *task_add(const struct tt_spec *sp, const char *recv, const char *oname, long ext, const char *pad)
{
	char *add = host_text(sp, "simpler_add", recv, oname, ext);
	if (!pad)
		return add;
	char *padded = tt_expand(pad, (const char *[]){"recv"}, (const char *[]){recv}, 1);
	char *joined = pk_xasprintf("%s\n%s", padded, add);
	free(add);
	free(padded);
	return joined;
}

/* The orchestration's entry, from the kernel's first submit S (a graph
 * function's: from its first call): *ORCH its ChipTaskArgs parameter's
 * name token, *BODY its body's first byte, *ENTRY the function. */
static int entry_of(const struct pk_ast *t, const struct tt_spec *sp, const struct submit *s, long id,
                    const struct tt_fn *fns, size_t nf, size_t *orch, size_t *body, const struct tt_fn **entry)
{
	size_t at = entry_tok(t, &sp->rules->w, s, id);
	const struct tt_fn *g = graph_fn(t, sp, fns, nf, s->tok);
	struct gsite gs[1];
	long ng = g ? graph_sites(t, sp, fns, nf, g, gs, 1) : 0;
	if (ng > 0)
		at = gs[0].call;
	if (ng < 0 || find_entry(t, &sp->rules->w, at, orch, body) < 0)
		return -1;
	for (size_t i = 0; i < nf && !*entry; i++)
		if (fns[i].orch_param >= 0 && fns[i].params[fns[i].orch_param].name == *orch)
			*entry = &fns[i];
	return 0;
}

static int tt_orch_plan_in(struct submit *s, struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp,
                           long func_id, long *external, struct pk_plan *plan)
{
	if (unfollowed_submits(t, &sp->rules->w) < 0)
		return -1;
	size_t n = find_submits(t, sp->rules, s), orch = 0, body = 0;
	long id;
	if (n == (size_t)-1 || pick_id(t, &sp->rules->w, s, n, func_id, &id) < 0)
		return -1;
	size_t first = 0;
	while (first < n && !submits_id(&s[first], id))
		first++;
	if (first == n)
		return unread_ids(t, &sp->rules->w, s, n, id);
	struct tt_fn *fns = NULL;
	size_t nf = tt_fns_find(t, sp->rules->w.orch_args, &fns);
	const struct tt_fn *entry = NULL;
	if (entry_of(t, sp, &s[first], id, fns, nf, &orch, &body, &entry) < 0) {
		free(fns);
		return -1;
	}
	char *oname = pk_xstrndup(t->b->data + t->tok[orch].start, t->tok[orch].end - t->tok[orch].start);
	long ext = next_external(t, sp->rules);
	*external = ext;
	char *decl = host_text(sp, "simpler_external", NULL, oname, ext);
	char label[64];
	snprintf(label, sizeof(label), "external tensor %ld", ext);
	tt_insert_before(t->b, plan, body, decl, label);
	free(decl);
	if (sp->lay.task_rows) { /* the first row each task passes: the next free row of the run */
		decl = host_text(sp, "simpler_task_counter", NULL, oname, ext);
		tt_insert_before(t->b, plan, body, decl, "task counter");
		free(decl);
	}
	int rc = plan_config(t, sp->rules, ext, plan);
	struct loop *loops = NULL;
	size_t nl = sp->lay.task_rows ? find_loops(t, &loops) : 0;
	for (size_t j = 0; j < n && rc == 0; j++) {
		if (!runs_kernel(sp, &s[j], id))
			continue;
		struct adds a;
		task_adds(t, sp->rules, s, n, j, &a);
		if ((rc = helper_tasks(t, sp, &s[j], id, orch, a.scalars, plan)) < 0)
			break;
		char *pad = NULL;
		if (a.tensors != k->ntensors)
			rc = pad_task(t, k, sp, s, n, j, id, &a, &pad);
		else if (!a.tensors || !a.last_tensor_stmt_end)
			rc = pk_error("%s:%u: the task's last tensor add is not a statement of its own; split it",
			              t->b->path, pk_buf_line_of(t->b, t->tok[s[j].tok].start));
		if (rc < 0)
			break;
		char *recv =
		    pk_xstrndup(t->b->data + t->tok[s[j].recv].start, t->tok[s[j].recv].end - t->tok[s[j].recv].start);
		char *add = task_add(sp, recv, oname, ext, pad);
		snprintf(label, sizeof(label), "%soutput (args[%ld])", pad ? "padding and " : "", k->ntensors);
		free(pad);
		const struct tt_fn *g = graph_fn(t, sp, fns, nf, s[j].tok);
		if (g) /* a graph's task: its first row from the boundary, which each call sets */
			rc = graph_row(t, sp, s, n, j, id, fns, nf, g, &a, recv, &add, plan);
		else
			rc = plan_launch_scalars(t, k, sp, &a, s[j].tok, recv, &add, plan);
		tt_insert_after(t->b, plan, a.last_tensor_stmt_end, a.last_tensor_stmt, add, label);
		/* after the adds, which may end on the submit's line start: the first row is read first */
		if (rc == 0 && sp->lay.task_rows && !g &&
		    (rc = submit_in_place(t, loops, nl, s[j].tok,
		                          a.scalars ? a.last_scalar_stmt : a.last_tensor_stmt)) == 0)
			rc = plan_advance(t, s, j, sp, plan);
		free(add);
		free(recv);
		if (rc < 0)
			break;
	}
	if (rc == 0)
		rc = plan_graphs(t, sp, s, n, id, fns, nf, entry, loops, nl, plan);
	free(loops);
	free(fns);
	free(oname);
	return rc;
}

int tt_orch_plan(struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp, long func_id, long *external,
                 struct pk_plan *plan)
{
	struct submit *s = pk_xcalloc(MAX_SUBMITS, sizeof(*s));
	int rc = tt_orch_plan_in(s, t, k, sp, func_id, external, plan);
	submits_free(s, MAX_SUBMITS);
	free(s);
	return rc;
}

/* A lane kernel renumbered for the kernel's tasks must get the timing tensor
 * in every task submitting it: none submits it without the kernel. */
static int lane_alone(const struct pk_ast *t, const struct tt_spec *sp, const struct submit *s, size_t n, long id,
                      long lane)
{
	for (size_t j = 0; j < n; j++)
		for (size_t i = 0; i < nsets(&s[j]); i++) {
			const long *ids = set_ids(&s[j], i);
			if ((ids[0] == lane || ids[1] == lane || ids[2] == lane) && !runs_ids(sp, ids, id))
				return pk_error(
				    "%s:%u: kernel %ld shares a mixed task passing scalars with kernel %ld, "
				    "whose reads would be renumbered for the timing tensor, but this task "
				    "submits kernel %ld without it; instrument a kernel whose lanes no other "
				    "task submits",
				    t->b->path, pk_buf_line_of(t->b, t->tok[s[j].tok].start), id, lane, lane);
		}
	return 0;
}

static long tt_orch_lane_ids_in(struct submit *s, struct pk_ast *t, const struct tt_spec *sp, long func_id, long *out,
                                size_t cap)
{
	size_t n = find_submits(t, sp->rules, s), m = 0;
	long id;
	if (n == (size_t)-1 || pick_id(t, &sp->rules->w, s, n, func_id, &id) < 0)
		return -1;
	for (size_t j = 0; j < n; j++) {
		struct adds a;
		if (!runs_kernel(sp, &s[j], id))
			continue;
		task_adds(t, sp->rules, s, n, j, &a);
		for (size_t i = 0; i < nsets(&s[j]) && a.scalars; i++)
			for (int l = 0; l < 3; l++) {
				long v = set_ids(&s[j], i)[l];
				int seen = v < 0 || v == id || is_twin(sp, v);
				for (size_t x = 0; x < m && !seen; x++)
					seen = out[x] == v;
				if (seen || m >= cap)
					continue;
				if (lane_alone(t, sp, s, n, id, v) < 0)
					return -1;
				out[m++] = v;
			}
	}
	return (long)m;
}

long tt_orch_lane_ids(struct pk_ast *t, const struct tt_spec *sp, long func_id, long *out, size_t cap)
{
	struct submit *s = pk_xcalloc(MAX_SUBMITS, sizeof(*s));
	long rc = tt_orch_lane_ids_in(s, t, sp, func_id, out, cap);
	submits_free(s, MAX_SUBMITS);
	free(s);
	return rc;
}

/* ---- the read-back ---- */

/* Read back: every call running a graph function whose tasks run the
 * kernel hands it the timing tensor NAME as the boundary's last tensor. */
static int verify_graphs(const struct pk_ast *q, const struct pk_buf *nb, const struct tt_spec *sp,
                         const struct submit *s, size_t n, long id, const char *name)
{
	struct tt_fn *fns = NULL;
	size_t nf = tt_fns_find(q, sp->rules->w.orch_args, &fns);
	struct gsite *gs = pk_xcalloc(MAX_SUBMITS, sizeof(*gs));
	int rc = 0;
	for (size_t j = 0; j < n && rc == 0; j++) {
		const struct tt_fn *g = runs_kernel(sp, &s[j], id) ? graph_fn(q, sp, fns, nf, s[j].tok) : NULL;
		long ng = g ? graph_sites(q, sp, fns, nf, g, gs, MAX_SUBMITS) : 0;
		rc = ng < 0 ? -1 : 0;
		for (long c = 0; c < ng && rc == 0; c++) {
			const struct tt_fn *fn = tt_fn_holding(fns, nf, gs[c].call);
			size_t d, st, e, arg = 0;
			if (!fn || boundary_adds(q, sp, fn, gs[c].recv, gs[c].call, &d, &st, &e, &arg) < 0 || !arg ||
			    !pk_tok_is(q, arg, name))
				rc = pk_error("%s:%u: internal error: read back, this call of a graph function running "
				              "kernel %ld does not hand it %s as its last tensor; nothing was written",
				              nb->path, pk_buf_line_of(q->b, q->tok[gs[c].call].start), id, name);
		}
	}
	free(gs);
	free(fns);
	return rc;
}

/* The orchestration as PLAN leaves it, parsed again: every task submitting
 * the kernel (or a twin or lane of it) passes the timing tensor as its last
 * tensor, at the kernel's index; expected_arg_count is one more. */
int tt_orch_verify(const struct pk_ast *t, const struct pk_plan *plan, const struct tt_kernel *k,
                   const struct tt_spec *sp, long func_id)
{
	struct pk_buf nb = *t->b;
	pk_plan_apply(plan, t->b->data, t->b->len, &nb.data, &nb.len);
	struct pk_ast q;
	memset(&q, 0, sizeof(q));
	struct submit *s = pk_xcalloc(MAX_SUBMITS, sizeof(*s));
	char *name = pk_xasprintf("%s" PK_NAME_TIMING_TIMING, sp->lay.prefix);
	size_t n = 0, se, ss, os, oe;
	long id, was = -1, now = -1;
	int rc = tt_parse(&q, &nb, 0, NULL, NULL, 0);
	if (rc == 0)
		rc = unfollowed_submits(&q, &sp->rules->w);
	if (rc == 0 &&
	    ((n = find_submits(&q, sp->rules, s)) == (size_t)-1 || pick_id(&q, &sp->rules->w, s, n, func_id, &id) < 0))
		rc = -1;
	if (rc == 0 && (config_count(t, sp->rules, &os, &oe, &was) < 0 ||
	                config_count(&q, sp->rules, &ss, &se, &now) < 0 || was < 0 || now != was + 1))
		rc = pk_error("%s: internal error: read back, %s is %ld, not %ld; nothing was written", t->b->path,
		              sp->rules->w.arg_count, now, was + 1);
	for (size_t j = 0; j < n && rc == 0; j++) {
		if (!runs_kernel(sp, &s[j], id))
			continue;
		struct adds a;
		task_adds(&q, sp->rules, s, n, j, &a);
		size_t at = a.last_tensor_arg;
		int ok = a.tensors == k->ntensors + 1 && a.last_tensor_arg_end == at + 1 && pk_tok_is(&q, at, name);
		if (!ok)
			rc = pk_error("%s:%u: internal error: read back, this task submitting kernel %ld passes %ld "
			              "tensors, not %ld ending with %s (args[%ld]); nothing was written",
			              t->b->path, pk_buf_line_of(&nb, q.tok[s[j].tok].start), id, a.tensors,
			              k->ntensors + 1, name, k->ntensors);
	}
	if (rc == 0)
		rc = verify_graphs(&q, &nb, sp, s, n, id, name);
	free(name);
	submits_free(s, MAX_SUBMITS);
	free(s);
	pk_ast_free(&q);
	free(nb.data);
	return rc;
}
