/* tt_ids.c - kernel ids on a simpler orchestration: the value of an id
 * expression (a literal, a #define, a constexpr, an enum member, an element of
 * a constant array, arithmetic on them) as libclang evaluates it, and the
 * functions of the file (a helper receiving the id as a parameter).
 *
 * The orchestration is parsed alone (its runtime headers are not there), so
 * libclang drops the statements that call the runtime, id arguments included.
 * The expressions are therefore evaluated in a second parse of a copy of the
 * file that holds, before the statement of each expression, one declaration
 * from rules/timing.ini [host] id_probe initialised with it: the declaration
 * keeps the expression's scope (a local constexpr, a parameter) and libclang
 * evaluates its initialiser. The copy is never written. */
#include "tt.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

/* The first byte of the statement holding token I: after the previous ';',
 * '{' or '}'. */
size_t tt_ids_stmt_start(const struct pk_ast *t, size_t i)
{
	return pk_tok_lead(t, pk_tok_stmt_first(t, i));
}

static int by_anchor(const void *a, const void *b)
{
	const struct tt_idexpr *x = *(const struct tt_idexpr *const *)a, *y = *(const struct tt_idexpr *const *)b;
	return x->anchor < y->anchor ? -1 : x->anchor > y->anchor;
}

/* The copy of T's file with one probe declaration per expression (in
 * anchor order; AT gets where each starts). */
static char *probe_copy(const struct pk_ast *t, const char *tmpl, struct tt_idexpr **order, size_t n, size_t *at)
{
	struct pk_sb sb = {0};
	size_t from = 0;
	for (size_t i = 0; i < n; i++) {
		const struct tt_idexpr *x = order[i];
		pk_sb_addn(&sb, t->b->data + from, x->anchor - from);
		from = x->anchor;
		char num[32],
		    *expr = pk_xstrndup(t->b->data + t->tok[x->s].start, t->tok[x->e - 1].end - t->tok[x->s].start);
		snprintf(num, sizeof(num), "%zu", i);
		const char *names[] = {"n", "expr"};
		const char *vals[] = {num, expr};
		char *decl = tt_expand(tmpl, names, vals, 2);
		if (x->anchor == t->b->len)
			pk_sb_add(&sb, "\n");
		at[i] = sb.n;
		pk_sb_add(&sb, decl);
		pk_sb_add(&sb, "\n");
		free(decl);
		free(expr);
	}
	pk_sb_addn(&sb, t->b->data + from, t->b->len - from);
	return sb.s;
}

static int eval_round(const struct pk_ast *t, const struct tt_rules *r, struct tt_idexpr *x, size_t n)
{
	size_t todo = 0;
	for (size_t i = 0; i < n; i++) {
		if (x[i].e == x[i].s + 1 && t->tok[x[i].s].kind == CXToken_Literal) {
			char *end;
			long v = strtol(t->b->data + t->tok[x[i].s].start, &end, 0);
			if (end != t->b->data + t->tok[x[i].s].start)
				x[i].value = v;
		}
		todo += x[i].value < 0 && x[i].e > x[i].s;
	}
	if (!todo)
		return 0;
	const char *tmpl = tt_rule(r, "host", "id_probe");
	if (!tmpl)
		return pk_error(
		    "rules/timing.ini: [host] id_probe is missing (the declaration a kernel id is read with)");
	struct tt_idexpr **order = pk_xcalloc(todo, sizeof(*order));
	size_t *at = pk_xcalloc(todo, sizeof(*at)), m = 0;
	for (size_t i = 0; i < n; i++)
		if (x[i].value < 0 && x[i].e > x[i].s)
			order[m++] = &x[i];
	qsort(order, m, sizeof(*order), by_anchor);
	char *copy = probe_copy(t, tmpl, order, m, at);
	long *val = pk_xcalloc(m + 1, sizeof(*val));
	for (size_t i = 0; i < m; i++)
		val[i] = order[i]->value;
	int rc = pk_ast_eval_decls(t, copy, at, val, m);
	for (size_t i = 0; i < m; i++)
		order[i]->value = val[i];
	free(val);
	free(copy);
	free(order);
	free(at);
	return rc;
}

/* ---- the functions of the file ---- */

static void fn_params(const struct pk_ast *t, const char *orch_args, CXCursor c, struct tt_fn *f)
{
	CXCursor pv[TT_FN_PARAMS];
	int np = pk_cursor_params(c, pv, TT_FN_PARAMS);
	for (int i = 0; i < np && f->nparams < TT_FN_PARAMS; i++) {
		long off = pk_ast_name_offset(t, pv[i]);
		size_t s, e;
		if (off < 0 || pk_ast_extent(t, pv[i], &s, &e) < 0)
			break;
		struct tt_param_at *pa = &f->params[f->nparams++];
		pa->name = pk_tok_at(t, (size_t)off);
		pa->first = pk_tok_at(t, s);
		for (size_t k = pa->first; k < t->ntok && t->tok[k].start < e; k++)
			if (pk_tok_is(t, k, orch_args))
				f->orch_param = (int)f->nparams - 1;
	}
}

/* The free functions and methods the front end indexed (those of a class
 * template left out), each with its name, parentheses, braces and
 * parameters as tokens. */
size_t tt_fns_find(const struct pk_ast *t, const char *orch_args, struct tt_fn **out)
{
	struct tt_fn *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < t->nfuncs; i++) {
		const struct pk_func *pf = &t->funcs[i];
		if ((pf->kind != CXCursor_FunctionDecl && pf->kind != CXCursor_CXXMethod) || pf->in_template)
			continue;
		size_t s, e;
		long name = pk_ast_name_offset(t, pf->cursor);
		if (name < 0 || pk_ast_extent(t, pf->cursor, &s, &e) < 0 || e == 0)
			continue;
		struct tt_fn f;
		memset(&f, 0, sizeof(f));
		f.orch_param = -1;
		f.name = pk_tok_at(t, (size_t)name);
		f.close = pk_tok_at(t, e - 1);
		f.lparen = f.name + 1;
		if (!pk_tok_is(t, f.close, "}") || !pk_tok_is(t, f.lparen, "("))
			continue;
		f.rparen = pk_tok_close(t, f.lparen, 0);
		if (f.rparen > f.close)
			f.rparen = f.close;
		f.open = f.rparen;
		while (f.open < f.close && !pk_tok_is(t, f.open, "{"))
			f.open++;
		fn_params(t, orch_args, pf->cursor, &f);
		PK_GROW(v, cap, n + 1);
		v[n++] = f;
	}
	*out = v;
	return n;
}

const struct tt_fn *tt_fn_holding(const struct tt_fn *f, size_t n, size_t tok)
{
	for (size_t i = 0; i < n; i++)
		if (f[i].open < tok && tok < f[i].close)
			return &f[i];
	return NULL;
}

int tt_fn_param_of(const struct pk_ast *t, const struct tt_fn *f, size_t s, size_t e)
{
	if (!f || e != s + 1 || t->tok[s].kind != CXToken_Identifier)
		return -1;
	for (size_t i = 0; i < f->nparams; i++) {
		size_t p = f->params[i].name;
		if (t->tok[p].end - t->tok[p].start == t->tok[s].end - t->tok[s].start &&
		    !memcmp(t->b->data + t->tok[p].start, t->b->data + t->tok[s].start,
		            t->tok[s].end - t->tok[s].start))
			return (int)i;
	}
	return -1;
}

/* Before its statement first (a local constexpr, a helper's parameter); what
 * that leaves unread (a statement the parse dropped, as the block after an
 * unknown scope macro) once more at the end of the file. */
int tt_ids_eval(const struct pk_ast *t, const struct tt_rules *r, struct tt_idexpr *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i].value = -1;
	if (eval_round(t, r, x, n) < 0)
		return -1;
	size_t *was = pk_xcalloc(n + 1, sizeof(*was)), again = 0;
	for (size_t i = 0; i < n; i++) {
		was[i] = x[i].anchor;
		if (x[i].value < 0 && x[i].e > x[i].s) {
			x[i].anchor = t->b->len;
			again++;
		}
	}
	int rc = again ? eval_round(t, r, x, n) : 0;
	for (size_t i = 0; i < n; i++)
		x[i].anchor = was[i];
	free(was);
	return rc;
}
