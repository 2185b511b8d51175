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

struct probe_walk {
	struct pk_ast *pt;
	struct tt_idexpr **order;
	size_t *at; /* where each probe starts in the copy */
	size_t n;
};

static enum CXChildVisitResult probe_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct probe_walk *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	if (k != CXCursor_VarDecl) {
		if (clang_isDeclaration(k) || clang_isStatement(k))
			clang_visitChildren(c, probe_visit, w);
		return CXChildVisit_Continue;
	}
	size_t s, e;
	if (pk_ast_extent(w->pt, c, &s, &e) < 0)
		return CXChildVisit_Continue;
	for (size_t i = 0; i < w->n; i++) {
		if (w->at[i] != s || w->order[i]->value >= 0)
			continue;
		CXEvalResult r = clang_Cursor_Evaluate(c);
		if (r && clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) >= 0)
			w->order[i]->value = (long)clang_EvalResult_getAsLongLong(r);
		if (r)
			clang_EvalResult_dispose(r);
	}
	return CXChildVisit_Continue;
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

#ifndef PROBEKIT_CLANG_RESOURCE_DIR
#define PROBEKIT_CLANG_RESOURCE_DIR ""
#endif

/* The copy parsed where the file is, its includes followed when found (the
 * standard integer types of a constexpr come from <stdint.h>; the runtime's
 * headers are usually missing, which leaves the constants of the file). */
static int probe_parse(const struct pk_ast *t, const char *copy, struct pk_ast *pt)
{
	const char *name = t->b->from_stdin ? "stdin.cpp" : t->b->path;
	const char *args[6] = {"-x", "c++", "-std=c++17", "-ferror-limit=0"};
	int n = 4;
	if (PROBEKIT_CLANG_RESOURCE_DIR[0]) {
		args[n++] = "-resource-dir";
		args[n++] = PROBEKIT_CLANG_RESOURCE_DIR;
	}
	struct CXUnsavedFile u = {name, copy, (unsigned long)strlen(copy)};
	pt->b = pk_xcalloc(1, sizeof(*pt->b));
	pt->b->data = (char *)copy;
	pt->b->len = strlen(copy);
	pt->b->lock_fd = -1;
	pt->index = clang_createIndex(0, 0);
	enum CXErrorCode ec =
	    clang_parseTranslationUnit2(pt->index, name, args, n, &u, 1, CXTranslationUnit_KeepGoing, &pt->tu);
	if (ec != CXError_Success || !pt->tu)
		return pk_error("%s: libclang could not read the file (error %d)", t->b->path, (int)ec);
	pt->file = clang_getFile(pt->tu, name);
	return 0;
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
	struct pk_ast pt;
	memset(&pt, 0, sizeof(pt));
	int rc = probe_parse(t, copy, &pt);
	if (rc == 0) {
		struct probe_walk w = {&pt, order, at, m};
		clang_visitChildren(clang_getTranslationUnitCursor(pt.tu), probe_visit, &w);
	}
	struct pk_buf *pb = pt.b;
	pk_ast_free(&pt);
	free(pb);
	free(copy);
	free(order);
	free(at);
	return rc;
}

/* ---- the functions of the file ---- */

struct fn_walk {
	const struct pk_ast *t;
	struct tt_fn *v;
	size_t n, cap;
};

static void fn_params(const struct pk_ast *t, CXCursor c, struct tt_fn *f)
{
	int np = clang_Cursor_getNumArguments(c);
	for (int i = 0; i < np && f->nparams < TT_FN_PARAMS; i++) {
		CXCursor p = clang_Cursor_getArgument(c, (unsigned)i);
		long off = pk_ast_offset(t, clang_getCursorLocation(p));
		size_t s, e;
		if (off < 0 || pk_ast_extent(t, p, &s, &e) < 0)
			break;
		struct tt_param_at *pa = &f->params[f->nparams++];
		pa->name = pk_tok_at(t, (size_t)off);
		pa->first = pk_tok_at(t, s);
		for (size_t k = pa->first; k < t->ntok && t->tok[k].start < e; k++)
			if (pk_tok_is(t, k, "ChipTaskArgs"))
				f->orch_param = (int)f->nparams - 1;
	}
}

static enum CXChildVisitResult fn_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct fn_walk *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl ||
	    k == CXCursor_StructDecl || k == CXCursor_ClassDecl) {
		clang_visitChildren(c, fn_visit, w);
		return CXChildVisit_Continue;
	}
	if ((k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod) || !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	size_t s, e;
	long name = pk_ast_offset(w->t, clang_getCursorLocation(c));
	if (name < 0 || pk_ast_extent(w->t, c, &s, &e) < 0 || e == 0)
		return CXChildVisit_Continue;
	struct tt_fn f;
	memset(&f, 0, sizeof(f));
	f.orch_param = -1;
	f.name = pk_tok_at(w->t, (size_t)name);
	f.close = pk_tok_at(w->t, e - 1);
	f.lparen = f.name + 1;
	if (!pk_tok_is(w->t, f.close, "}") || !pk_tok_is(w->t, f.lparen, "("))
		return CXChildVisit_Continue;
	int d = 0;
	for (f.rparen = f.lparen; f.rparen < f.close; f.rparen++)
		if (pk_tok_is(w->t, f.rparen, "("))
			d++;
		else if (pk_tok_is(w->t, f.rparen, ")") && --d == 0)
			break;
	f.open = f.rparen;
	while (f.open < f.close && !pk_tok_is(w->t, f.open, "{"))
		f.open++;
	fn_params(w->t, c, &f);
	PK_GROW(w->v, w->cap, w->n + 1);
	w->v[w->n++] = f;
	return CXChildVisit_Continue;
}

size_t tt_fns_find(const struct pk_ast *t, struct tt_fn **out)
{
	struct fn_walk w = {t, NULL, 0, 0};
	clang_visitChildren(clang_getTranslationUnitCursor(t->tu), fn_visit, &w);
	*out = w.v;
	return w.n;
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

/* Token ranges of the top-level arguments of the call whose '(' is OPEN. */
size_t tt_call_args(const struct pk_ast *t, size_t open, size_t *s, size_t *e, size_t cap)
{
	size_t n = 0, from = open + 1;
	int d = 0;
	for (size_t i = open; i < t->ntok; i++) {
		int o = pk_tok_is(t, i, "(") || pk_tok_is(t, i, "{") || pk_tok_is(t, i, "[");
		int c = pk_tok_is(t, i, ")") || pk_tok_is(t, i, "}") || pk_tok_is(t, i, "]");
		if (o) {
			d++;
		} else if ((c && --d == 0) || (d == 1 && pk_tok_is(t, i, ","))) {
			if (n < cap && i > from) {
				s[n] = from;
				e[n++] = i;
			}
			from = i + 1;
			if (c)
				break;
		}
	}
	return n;
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
