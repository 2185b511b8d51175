/* tt_kernel.c - what the kernel looks like on the AST: its style (pypto
 * extern entry unpacking args[k], or a direct signature), every packed
 * argument read and whether it is a tensor (converted to a pointer) or a
 * scalar (used as a value), its exits and the statements events may follow. */
#include "tt.h"
#include "pk.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static unsigned line_of(const struct pk_ast *t, size_t off)
{
	return pk_buf_line_of(t->b, off);
}

/* ---- finding the kernel ---- */

/* ---- walking the body with a parent stack ---- */

struct walk {
	const struct pk_ast *t;
	struct tt_kernel *k;
	int stack[256]; /* node indices of the ancestors */
	int depth;
	int err;
	const struct tt_words *words; /* the run's words: the device's marks */
	const char *accessors;        /* the profile's tensor accessors, or NULL */
	int descriptors;              /* the profile's tensors are descriptors: a tensor is a cast to one */
};

static int is_cast(enum CXCursorKind k)
{
	return k == CXCursor_CStyleCastExpr || k == CXCursor_CXXStaticCastExpr ||
	       k == CXCursor_CXXReinterpretCastExpr || k == CXCursor_CXXConstCastExpr ||
	       k == CXCursor_CXXFunctionalCastExpr;
}

static int is_transparent(enum CXCursorKind k)
{
	return k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr;
}

static enum CXCursorKind kind_at(const struct walk *w, int i)
{
	return w->t->nodes[w->stack[i]].kind;
}

static CXCursor cursor_at(const struct walk *w, int i)
{
	return w->t->nodes[w->stack[i]].c;
}

/* Does the cursor's written text hold a '*' or a pointer type macro of W?
 * (types a bare parse could not resolve) */
static int text_has_star(const struct pk_ast *t, const struct tt_words *w, CXCursor c, size_t limit)
{
	size_t a, b;
	if (pk_ast_extent(t, c, &a, &b) < 0)
		return 0;
	if (limit && limit < b)
		b = limit;
	for (size_t i = pk_tok_at(t, a); i < t->ntok && t->tok[i].start < b; i++)
		if (pk_tok_is(t, i, "*") || tt_tok_in(t, i, w->pointer_types))
			return 1;
	return 0;
}

/* A tensor is converted to a pointer; anything else is a scalar's value. */
static void classify(struct walk *w, size_t lit_start, struct tt_use *u)
{
	int i = w->depth - 1;
	while (i >= 0 && is_transparent(kind_at(w, i)))
		i--;
	u->is_tensor = 0;
	if (i >= 0) {
		CXCursor p = cursor_at(w, i);
		enum CXCursorKind k = kind_at(w, i);
		enum pk_type_class ty = pk_cursor_type(p);
		if (is_cast(k))
			u->is_tensor = ty == PK_TYPE_POINTER ||
			               (ty == PK_TYPE_UNKNOWN && text_has_star(w->t, w->words, p, lit_start));
		else if (k == CXCursor_VarDecl)
			u->is_tensor = ty == PK_TYPE_POINTER;
	}
	for (int j = w->depth - 1; j >= 0; j--)
		if (kind_at(w, j) == CXCursor_VarDecl) {
			u->name = pk_cursor_name(cursor_at(w, j));
			break;
		}
}

static int read_index(const struct pk_ast *t, size_t open, size_t close, long *val, size_t *ls, size_t *le)
{
	if (close != open + 2 || t->tok[open + 1].kind != CXToken_Literal)
		return t->tok[open + 1].kind == CXToken_Identifier && close == open + 2 ? -2 : -1;
	const char *p = t->b->data + t->tok[open + 1].start;
	char *end;
	long v = strtol(p, &end, 10);
	while (end < t->b->data + t->tok[open + 1].end && strchr("uUlL", *end))
		end++;
	if (!isdigit((unsigned char)*p) || end != t->b->data + t->tok[open + 1].end || (v != 0 && *p == '0'))
		return -1;
	*val = v;
	*ls = t->tok[open + 1].start;
	*le = t->tok[open + 1].end;
	return 0;
}

/* `reinterpret_cast<T *>(args[k])` written with T a ...Tensor (the words'
 * tensor_suffix): a descriptor
 * (read on the tokens, so a type the parse could not resolve still counts).
 * I is the token of `args`. The first such T is kept for the timing tensor. */
static int written_descriptor(struct walk *w, size_t i)
{
	const struct pk_ast *t = w->t;
	if (i < 5 || !pk_tok_is(t, i - 1, "(") || !pk_tok_is(t, i - 2, ">") || !pk_tok_is(t, i - 3, "*"))
		return 0;
	size_t lt = i - 3;
	while (lt > 0 && !pk_tok_is(t, lt, "<") && !pk_tok_is(t, lt, ";"))
		lt--;
	if (!pk_tok_is(t, lt, "<") || lt == 0 ||
	    !(pk_tok_is(t, lt - 1, "reinterpret_cast") || pk_tok_is(t, lt - 1, "static_cast")))
		return 0;
	size_t n = t->tok[i - 4].end - t->tok[i - 4].start, sn = strlen(w->words->tensor_suffix);
	const char *name = t->b->data + t->tok[i - 4].start;
	if (!sn || n < sn || memcmp(name + n - sn, w->words->tensor_suffix, sn))
		return 0;
	if (!w->k->tensor_type)
		w->k->tensor_type =
		    pk_xstrndup(t->b->data + t->tok[lt + 1].start, t->tok[i - 3].end - t->tok[lt + 1].start);
	return 1;
}

/* C's text starts with the packed array's name: its token in *I, C's end in *E. */
static int at_args(const struct walk *w, CXCursor c, size_t *i, size_t *e)
{
	size_t s;
	if (pk_ast_extent(w->t, c, &s, e) < 0)
		return 0;
	*i = pk_tok_at(w->t, s);
	return pk_tok_is(w->t, *i, w->k->args_name);
}

static int subscript(struct walk *w, CXCursor c)
{
	const struct pk_ast *t = w->t;
	size_t i, e;
	if (!at_args(w, c, &i, &e) || !pk_tok_is(t, i + 1, "["))
		return 0; /* not a read of the packed array (or written by a macro: see ref) */
	size_t close = pk_tok_close(t, i + 1, 0);
	struct tt_use u = {0};
	u.line = line_of(t, t->tok[i].start);
	int rc = read_index(t, i + 1, close, &u.index, &u.lit_start, &u.lit_end);
	if (rc == -2) {
		w->err = pk_error("%s:%u: index of '%s[...]' comes from '%.*s' (a macro or a name): "
		                  "only literal indices can be renumbered; write the number",
		                  t->b->path, u.line, w->k->args_name, (int)(t->tok[i + 2].end - t->tok[i + 2].start),
		                  t->b->data + t->tok[i + 2].start);
		return -1;
	}
	if (rc < 0) {
		w->err = pk_error("%s:%u: index of '%s[...]' is computed or not a decimal literal: only "
		                  "literal indices can be renumbered; write the number",
		                  t->b->path, u.line, w->k->args_name);
		return -1;
	}
	classify(w, u.lit_start, &u);
	if (w->descriptors)
		u.is_tensor = written_descriptor(w, i); /* a CommContext * is a scalar */
	PK_GROW(w->k->uses, w->k->cap_uses, w->k->nuses + 1);
	w->k->uses[w->k->nuses++] = u;
	return 1;
}

/* A reference to the packed array outside a literal subscript: macro,
 * pointer arithmetic or a helper receiving it. We cannot renumber those. */
static void escaping_ref(struct walk *w, CXCursor c)
{
	size_t s = 0, e = 0;
	pk_ast_extent(w->t, c, &s, &e);
	unsigned line = line_of(w->t, s);
	if (pk_ast_from_macro(c))
		w->err = pk_error("%s:%u: '%s' is read inside a macro expansion: its indices cannot be "
		                  "renumbered; expand the macro by hand",
		                  w->t->b->path, line, w->k->args_name);
	else
		w->err = pk_error("%s:%u: '%s' is used other than as '%s[N]' (passed on, or pointer "
		                  "arithmetic): its indices cannot be renumbered",
		                  w->t->b->path, line, w->k->args_name, w->k->args_name);
}

size_t tt_past_semicolon(const struct pk_ast *t, size_t end)
{
	if (end > 0 && (t->b->data[end - 1] == ';' || t->b->data[end - 1] == '}'))
		return end;
	size_t i = pk_tok_at(t, end);
	return pk_tok_is(t, i, ";") ? t->tok[i].end : end;
}

static void note_return(struct walk *w, CXCursor c)
{
	size_t s, e;
	if (pk_ast_extent(w->t, c, &s, &e) < 0)
		return;
	struct tt_return r = {s, tt_past_semicolon(w->t, e),
	                      w->depth > 0 && kind_at(w, w->depth - 1) == CXCursor_CompoundStmt};
	PK_GROW(w->k->rets, w->k->cap_rets, w->k->nrets + 1);
	w->k->rets[w->k->nrets++] = r;
}

/* ACC<T>(args, K) with ACC a tensor accessor of the profile: a tensor read
 * at K, renumbered like a subscript. I is the token of `args`. */
static int accessor_read(struct walk *w, size_t i, const char *callee)
{
	const struct pk_ast *t = w->t;
	if (!w->accessors || !pk_word_in(w->accessors, callee, strlen(callee)) || !pk_tok_is(t, i + 1, ",") ||
	    i + 3 >= t->ntok || !pk_tok_is(t, i + 3, ")"))
		return 0;
	struct tt_use u = {0};
	u.line = line_of(t, t->tok[i].start);
	if (read_index(t, i + 1, i + 3, &u.index, &u.lit_start, &u.lit_end) < 0)
		return 0;
	u.is_tensor = 1;
	for (int j = w->depth - 1; j >= 0; j--)
		if (kind_at(w, j) == CXCursor_VarDecl) {
			u.name = pk_cursor_name(cursor_at(w, j));
			break;
		}
	PK_GROW(w->k->uses, w->k->cap_uses, w->k->nuses + 1);
	w->k->uses[w->k->nuses++] = u;
	if (!w->k->tensor_accessor)
		w->k->tensor_accessor = pk_xstrdup(callee);
	return 1;
}

/* `F(args)`, `F(args, ...)` or `F<T>(args, ...)` on the tokens: a call of a
 * function the parse did not know (a runtime header it could not find). */
static int call_argument_tokens(struct walk *w, CXCursor ref)
{
	const struct pk_ast *t = w->t;
	size_t i, e;
	if (!at_args(w, ref, &i, &e) || i < 2 || !pk_tok_is(t, i - 1, "(") ||
	    !(pk_tok_is(t, i + 1, ")") || pk_tok_is(t, i + 1, ",")))
		return 0;
	size_t c = tt_callee_tok(t, i - 1);
	if (t->tok[c].kind != CXToken_Identifier)
		return 0;
	char *callee = pk_xstrndup(t->b->data + t->tok[c].start, t->tok[c].end - t->tok[c].start);
	accessor_read(w, i, callee);
	free(callee);
	w->k->passes_args = 1;
	return 1;
}

/* The packed array handed whole to a function (a runtime accessor such as
 * get_block_idx(args), a tensor accessor, or a helper whose own reads are
 * renumbered in its file), or discarded with (void)args: not a packed read. */
static int passed_whole(struct walk *w, CXCursor ref)
{
	if (pk_ast_from_macro(ref))
		return 0;
	int i = w->depth - 1;
	while (i >= 0 && is_transparent(kind_at(w, i)))
		i--;
	if (i < 0)
		return 0;
	CXCursor p = cursor_at(w, i);
	enum CXCursorKind k = kind_at(w, i);
	if (k == CXCursor_CStyleCastExpr && pk_cursor_type(p) == PK_TYPE_VOID)
		return 1;
	if (k != CXCursor_CallExpr)
		return call_argument_tokens(w, ref);
	char *callee = pk_ast_callee_name(p);
	size_t s, e;
	if (!callee || pk_ast_extent(w->t, ref, &s, &e) < 0) {
		free(callee);
		return 0;
	}
	size_t ti = pk_tok_at(w->t, s);
	if (ti > 0 && pk_tok_is(w->t, ti - 1, "(") && pk_tok_is(w->t, ti, w->k->args_name) &&
	    w->t->tok[ti].start == s && (ti < 2 || !pk_tok_is(w->t, ti - 2, w->k->args_name)))
		accessor_read(w, ti, callee);
	w->k->passes_args = 1;
	free(callee);
	return 1;
}

/* One cursor of the body, its ancestors on the stack: 1 to go into its
 * children, 0 to leave them (or on an error, in w->err). */
static int visit_one(struct walk *w, CXCursor c, enum CXCursorKind k)
{
	if (k == CXCursor_LambdaExpr)
		return 0; /* its returns are not the kernel's exits */
	if (k == CXCursor_ReturnStmt)
		note_return(w, c);
	if (w->k->style == TT_EXTERN) {
		if (k == CXCursor_ArraySubscriptExpr) {
			int r = subscript(w, c);
			if (r != 0)
				return 0; /* an error, or base and literal: nothing more */
		}
		if (k == CXCursor_DeclRefExpr) {
			char *name = pk_cursor_name(c);
			int mine = !strcmp(name, w->k->args_name);
			free(name);
			/* accepted subscripts never get here: this one is passed on,
			 * used in arithmetic, or subscripted inside a macro */
			if (mine && !passed_whole(w, c)) {
				escaping_ref(w, c);
				return 0;
			}
		}
	}
	return 1;
}

/* The body BODY as the front end indexed it: its subtree in visiting order
 * (parents first), each node's ancestors on the walk's stack. */
static void walk_nodes(struct walk *w, int body)
{
	const struct pk_ast *a = w->t;
	int skip = -1;
	w->depth = 0;
	w->stack[w->depth++] = body;
	for (size_t j = (size_t)body + 1; j < a->nnodes && !w->err && pk_ast_in_subtree(a, (int)j, body); j++) {
		const struct pk_node *n = &a->nodes[j];
		if (skip >= 0 && pk_ast_in_subtree(a, (int)j, skip))
			continue;
		skip = -1;
		while (w->depth > 1 && w->stack[w->depth - 1] != n->parent)
			w->depth--;
		if (!visit_one(w, n->c, n->kind)) {
			skip = (int)j;
		} else if (w->depth < (int)(sizeof(w->stack) / sizeof(w->stack[0]))) {
			w->stack[w->depth++] = (int)j;
		} else { /* a read or an exit we did not see would be renumbered wrongly */
			w->err = pk_error("%s:%u: kernel '%s' is nested too deeply to analyse", a->b->path,
			                  line_of(a, n->start), w->k->name);
		}
	}
}

/* ---- signature ---- */

/* `int64_t *NAME` as written: the type the parse could not resolve when a
 * qualifier macro (__gm__) is defined only in a branch it did not take. */
static int packed_param_text(const struct pk_ast *t, const struct tt_kernel *k)
{
	if (k->nparams != 1)
		return 0;
	size_t i = pk_tok_at(t, k->params[0].start), n = 0, last = t->ntok;
	for (; i < t->ntok && t->tok[i].start < k->params[0].end; i++, n++)
		last = i;
	return n >= 3 && pk_tok_packed_name(t, last);
}

static void read_params(const struct pk_ast *t, const struct tt_words *w, CXCursor fn, struct tt_kernel *k)
{
	CXCursor pv[64];
	int n = pk_cursor_params(fn, pv, 64);
	for (int i = 0; i < n; i++) {
		CXCursor p = pv[i];
		struct tt_param tp = {0};
		if (pk_ast_extent(t, p, &tp.start, &tp.end) < 0)
			continue;
		tp.name = pk_cursor_name(p);
		tp.is_tensor = pk_cursor_type(p) == PK_TYPE_POINTER || text_has_star(t, w, p, 0);
		PK_GROW(k->params, k->cap_params, k->nparams + 1);
		k->params[k->nparams++] = tp;
	}
	if (n == 1 && (pk_cursor_packed_param(pv[0]) || packed_param_text(t, k))) {
		k->style = TT_EXTERN;
		k->args_name = pk_xstrdup(k->params[0].name);
	} else {
		k->style = TT_DIRECT;
	}
}

int tt_check_terminated(const struct pk_ast *t)
{
	for (size_t f = 0; f < t->nfuncs; f++) {
		size_t be = t->nodes[t->funcs[f].body].end;
		if (be == 0 || t->b->data[be - 1] == '}')
			continue;
		return pk_error("%s:%u: function '%s' has no closing '}': the file ends inside it (cut short?); "
		                "nothing written: give the whole file",
		                t->b->path, line_of(t, t->funcs[f].start), t->funcs[f].name);
	}
	return 0;
}

/* The cores the kernel runs on, from the device's marks in W: a mixed
 * kernel's macro or attribute, a cube-only one's, or tests of both the
 * cube's and the vector's branch; else the vector's. */
static void core_type(const struct pk_ast *t, const struct tt_words *w, struct tt_kernel *k)
{
	int aic = 0, aiv = 0, mix = 0, aic_only = 0;
	size_t pn = strlen(w->mix_prefix);
	for (size_t i = 0; i < t->ntok; i++) {
		if (t->tok[i].kind != CXToken_Identifier)
			continue;
		const char *s = t->b->data + t->tok[i].start;
		size_t n = t->tok[i].end - t->tok[i].start;
		if ((pn && n > pn && !strncmp(s, w->mix_prefix, pn)) || tt_tok_in(t, i, w->mix_marks))
			mix = 1;
		else if (tt_tok_in(t, i, w->aic_only))
			aic_only = 1;
		else if (tt_tok_in(t, i, w->is_aic))
			aic = 1;
		else if (tt_tok_in(t, i, w->is_aiv))
			aiv = 1;
	}
	k->core = (mix || (aic && aiv)) ? TT_MIX : aic_only ? TT_AIC : TT_AIV;
}

/* Reads the parse dropped (a declaration whose type the parse could not
 * resolve is not on the AST): every literal `args[k]` token of the body is a
 * read, classified by its written cast. Missing one would leave it unshifted. */
static void token_reads(struct walk *w)
{
	const struct pk_ast *t = w->t;
	struct tt_kernel *k = w->k;
	for (size_t i = pk_tok_at(t, k->body_open); i + 3 < t->ntok && t->tok[i].start < k->body_close; i++) {
		if (!pk_tok_is(t, i, k->args_name) || !pk_tok_is(t, i + 1, "[") || !pk_tok_is(t, i + 3, "]"))
			continue;
		if (i > 0 && (pk_tok_is(t, i - 1, ".") || pk_tok_is(t, i - 1, "->")))
			continue;
		struct tt_use u = {0};
		if (read_index(t, i + 1, i + 3, &u.index, &u.lit_start, &u.lit_end) < 0)
			continue;
		int seen = 0;
		for (size_t j = 0; j < k->nuses && !seen; j++)
			seen = k->uses[j].lit_start == u.lit_start;
		if (seen)
			continue;
		u.line = line_of(t, t->tok[i].start);
		u.is_tensor = w->descriptors ? written_descriptor(w, i)
		                             : i >= 3 && pk_tok_is(t, i - 1, "(") && pk_tok_is(t, i - 2, ">") &&
		                                   pk_tok_is(t, i - 3, "*");
		PK_GROW(k->uses, k->cap_uses, k->nuses + 1);
		k->uses[k->nuses++] = u;
	}
}

static int describe(struct pk_ast *t, const struct tt_kctx *cx, CXCursor fn, const CXCursor *parent,
                    struct tt_kernel *k, int helper)
{
	k->cursor = fn;
	k->name = pk_cursor_name(fn);
	k->decl_start = pk_ast_decl_start(t, fn, parent);
	if (!helper)
		read_params(t, cx->w, fn, k);
	else
		k->style = TT_DIRECT;
	core_type(t, cx->w, k);
	int f = pk_ast_func_of(t, fn); /* the function as the front end indexed it */
	size_t bs, be;
	if (f < 0 || pk_ast_extent(t, t->nodes[t->funcs[f].body].c, &bs, &be) < 0 || be == 0)
		return pk_error("%s: kernel '%s' has no body libclang could read", t->b->path, k->name);
	k->body_open = bs;
	k->body_close = be - 1;
	struct walk w = {.t = t,
	                 .k = k,
	                 .words = cx->w,
	                 .accessors = helper ? NULL : cx->accessors,
	                 .descriptors = !helper && cx->descriptors};
	walk_nodes(&w, t->funcs[f].body);
	if (w.err)
		return -1;
	if (k->style == TT_EXTERN)
		token_reads(&w);
	/* the first token of the body, not the first statement libclang saw: a
	 * macro such as KERNEL_TASK_TYPE_DEFAULT(...) may expand to nothing */
	size_t ft = pk_tok_at(t, k->body_open + 1);
	k->first_stmt = ft < t->ntok && t->tok[ft].start < k->body_close ? t->tok[ft].start : k->body_close;
	/* a body ending in return never reaches its closing brace */
	int top = t->funcs[f].body, last = -1;
	for (size_t j = (size_t)top + 1; j < t->nnodes && pk_ast_in_subtree(t, (int)j, top); j++)
		if (t->nodes[j].parent == top && t->nodes[j].kind != CXCursor_LambdaExpr &&
		    (last < 0 || t->nodes[j].start > t->nodes[last].start))
			last = (int)j;
	k->last_is_return = last >= 0 && t->nodes[last].kind == CXCursor_ReturnStmt;
	return 0;
}

/* The kernel: the function named NAME, else the one kernel entry of the
 * front end's rule (pk_entry_rule); a free function or a template. */
int tt_kernel_find(struct pk_ast *t, const struct tt_kctx *cx, const char *name, struct tt_kernel *k)
{
	memset(k, 0, sizeof(*k));
	k->host_tensors = -1;
	k->host_scalars = -2;
	int found[2], n;
	found[0] = pk_ast_funcs_named(t, name, 1, &n, &found[1]);
	if (n == 0)
		return name ? pk_error("%s: no definition of kernel '%s'", t->b->path, name)
		            : pk_error("%s: no kernel found (no __global__ function, extern \"C\" __aicore__ "
		                       "function or kernel_entry); name it with --kernel",
		                       t->b->path);
	if (n > 1)
		return pk_error("%s: several kernels ('%s', '%s'%s); choose one with --kernel", t->b->path,
		                t->funcs[found[0]].name, t->funcs[found[1]].name, n > 2 ? ", ..." : "");
	return describe(t, cx, t->funcs[found[0]].cursor, &t->funcs[found[0]].parent, k, 0);
}

int tt_func_describe(struct pk_ast *t, const struct tt_words *w, CXCursor fn, struct tt_kernel *k)
{
	struct tt_kctx cx = {w, NULL, 0};
	memset(k, 0, sizeof(*k));
	k->host_tensors = -1;
	k->host_scalars = -2;
	return describe(t, &cx, fn, NULL, k, 1);
}

/* ---- the ABI: tensors first, then scalars ---- */

static const char *use_name(const struct tt_use *u)
{
	return u->name ? u->name : "?";
}

static int abi_extern(const struct pk_ast *t, struct tt_kernel *k)
{
	long max = -1;
	for (size_t i = 0; i < k->nuses; i++)
		if (k->uses[i].index > max)
			max = k->uses[i].index;
	signed char *kind = pk_xcalloc((size_t)max + 2, 1); /* 0 unseen, 1 tensor, 2 scalar */
	const struct tt_use **first = pk_xcalloc((size_t)max + 2, sizeof(*first));
	int rc = 0;
	for (size_t i = 0; i < k->nuses && rc == 0; i++) {
		const struct tt_use *u = &k->uses[i];
		signed char want = u->is_tensor ? 1 : 2;
		if (kind[u->index] && kind[u->index] != want)
			rc = pk_error("%s:%u: '%s[%ld]' is used both as a tensor and as a scalar", t->b->path, u->line,
			              k->args_name, u->index);
		kind[u->index] = want;
		if (!first[u->index])
			first[u->index] = u;
	}
	long last_tensor = -1;
	if (rc == 0 && k->host_tensors >= 0) {
		/* the host's add_* order (or the extern's signature) says which
		 * slot is a tensor: a pointer-valued scalar is a scalar there */
		for (size_t i = 0; i < k->nuses && rc == 0; i++)
			if (k->uses[i].is_tensor && k->uses[i].index >= k->host_tensors)
				pk_warning("%s:%u: '%s[%ld]' is converted to a pointer but the host passes it as "
				           "a scalar (after its %ld tensors): taken as a scalar",
				           t->b->path, k->uses[i].line, k->args_name, k->uses[i].index,
				           k->host_tensors);
		k->ntensors = k->host_tensors;
		k->nscalars = max + 1 > k->host_tensors ? max + 1 - k->host_tensors : 0;
		/* scalars the host passes and the kernel never reads still come
		 * before any the tool appends */
		if (k->host_scalars > k->nscalars)
			k->nscalars = k->host_scalars;
		free(kind);
		free(first);
		return 0;
	}
	for (long i = 0; i <= max && rc == 0; i++) {
		if (!kind[i])
			rc = pk_error("%s: '%s[%ld]' is never read: cannot tell whether it is a tensor or "
			              "a scalar, so the timing tensor's place is unknown",
			              t->b->path, k->args_name, i);
		else if (kind[i] == 1)
			last_tensor = i;
	}
	for (long i = 0; i < last_tensor && rc == 0; i++)
		if (kind[i] == 2)
			rc = pk_error("%s:%u: tensor '%s' (%s[%ld]) comes after scalar '%s' (%s[%ld]): "
			              "packed arguments must be all tensors, then all scalars",
			              t->b->path, first[last_tensor]->line, use_name(first[last_tensor]), k->args_name,
			              last_tensor, use_name(first[i]), k->args_name, i);
	k->ntensors = last_tensor + 1;
	k->nscalars = max + 1 - k->ntensors;
	free(kind);
	free(first);
	return rc;
}

static int abi_direct(const struct pk_ast *t, struct tt_kernel *k)
{
	long last_tensor = -1;
	for (size_t i = 0; i < k->nparams; i++)
		if (k->params[i].is_tensor)
			last_tensor = (long)i;
	for (long i = 0; i < last_tensor; i++)
		if (!k->params[i].is_tensor)
			return pk_error("%s:%u: tensor parameter '%s' comes after scalar '%s': arguments "
			                "must be all tensors, then all scalars",
			                t->b->path, pk_buf_line_of(t->b, k->params[last_tensor].start),
			                k->params[last_tensor].name, k->params[i].name);
	k->ntensors = last_tensor + 1;
	k->nscalars = (long)k->nparams - k->ntensors;
	return 0;
}

int tt_kernel_abi(const struct pk_ast *t, struct tt_kernel *k)
{
	return k->style == TT_EXTERN ? abi_extern(t, k) : abi_direct(t, k);
}

void tt_kernel_free(struct tt_kernel *k)
{
	for (size_t i = 0; i < k->nuses; i++)
		free(k->uses[i].name);
	for (size_t i = 0; i < k->nparams; i++)
		free(k->params[i].name);
	free(k->uses);
	free(k->params);
	free(k->rets);
	free(k->name);
	free(k->args_name);
	free(k->tensor_type);
	free(k->tensor_accessor);
	memset(k, 0, sizeof(*k));
}
