/* ast_scope.c - facts about the place a probe lands in: is the start
 * variable visible at every end, which loop counter goes into iter=, which
 * core prints in a mixed kernel, and which names the TU already uses. */
#include "ast.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int is_ancestor_or_self(const struct pk_ast *a, int anc, int node)
{
	for (; node >= 0; node = a->nodes[node].parent)
		if (node == anc)
			return 1;
	return 0;
}

int pk_ast_check_scopes(struct pk_ast *a, const struct pk_anchor *start, const struct pk_anchor *ends, size_t nends)
{
	for (size_t i = 0; i < nends; i++) {
		const struct pk_anchor *e = &ends[i];
		if (a->nodes[start->scope].func != a->nodes[e->scope].func)
			return pk_error("%s: the start (line %u) and the end (line %u) are in different functions",
			                a->b->path, start->line, e->line);
		if (e->off < start->off && e->node == start->node)
			return pk_error("%s: the start goes after the statement at line %u and the end before it: the "
			                "range is empty (start and end around one statement: --begin before:CALLEE "
			                "--end after:CALLEE, or --around CALLEE)",
			                a->b->path, start->line);
		if (e->off < start->off)
			return pk_error("%s: the end (line %u) comes before the start (line %u)", a->b->path, e->line,
			                start->line);
		if (!is_ancestor_or_self(a, start->scope, e->scope))
			return pk_error("%s: the start (line %u) and the end (line %u) are in different scopes: "
			                "the start variable would not be visible at the end; choose places in "
			                "the same block",
			                a->b->path, start->line, e->line);
	}
	return 0;
}

/* Can `(unsigned)(v)` be written for C? Integers, enums, and types that
 * depend on a template parameter (a counter of type T) can. */
static int countable(CXCursor c)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(c));
	if (t.kind == CXType_Unexposed || t.kind == CXType_Enum || t.kind == CXType_Bool)
		return 1;
	return t.kind >= CXType_Char_U && t.kind <= CXType_Int128 && t.kind != CXType_Char16 && t.kind != CXType_Char32;
}

static char *spelling(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = pk_xstrdup(clang_getCString(s));
	clang_disposeString(s);
	return r;
}

/* The variable a for-loop's init declares or assigns. */
static char *for_var(struct pk_ast *a, int loop)
{
	const struct pk_node *l = &a->nodes[loop];
	const char *open = memchr(a->b->data + l->start, '(', l->end - l->start);
	if (!open)
		return NULL;
	const char *semi = memchr(open, ';', (size_t)(a->b->data + l->end - open));
	int init = -1;
	for (size_t j = (size_t)loop + 1; j < a->nnodes && pk_ast_in_subtree(a, (int)j, loop); j++)
		if (a->nodes[j].parent == loop) {
			init = (int)j;
			break;
		}
	if (init < 0 || !semi || a->b->data + a->nodes[init].start > semi)
		return NULL;
	for (size_t j = (size_t)init; j < a->nnodes && pk_ast_in_subtree(a, (int)j, init); j++) {
		enum CXCursorKind k = a->nodes[j].kind;
		if (k == CXCursor_VarDecl || k == CXCursor_DeclRefExpr)
			return countable(a->nodes[j].c) ? spelling(a->nodes[j].c) : NULL;
	}
	return NULL;
}

static int text_is(const struct pk_ast *a, size_t off, const char *t)
{
	size_t l = strlen(t);
	return off + l <= a->b->len && !memcmp(a->b->data + off, t, l);
}

/* The variable operator node OP writes to: its first operand, through
 * implicit casts, when it is a plain name. */
static int operand_ref(const struct pk_ast *a, int op)
{
	for (size_t j = (size_t)op + 1; j < a->nnodes && pk_ast_in_subtree(a, (int)j, op); j++) {
		if (a->nodes[j].kind == CXCursor_DeclRefExpr)
			return a->nodes[j].start == a->nodes[op].start || a->nodes[j].end == a->nodes[op].end ? (int)j
			                                                                                      : -1;
		if (a->nodes[j].kind != CXCursor_UnexposedExpr)
			return -1;
	}
	return -1;
}

/* Is operator node OP a write to its operand: ++v, v--, v += x, v = x? The
 * AST gives the operator's kind only coarsely in libclang 14; its text
 * settles it. */
static int writes(const struct pk_ast *a, int op, int ref)
{
	const struct pk_node *n = &a->nodes[op], *r = &a->nodes[ref];
	switch (n->kind) {
	case CXCursor_CompoundAssignOperator:
		return 1;
	case CXCursor_UnaryOperator:
		return text_is(a, n->start, "++") || text_is(a, n->start, "--") || text_is(a, n->end - 2, "++") ||
		       text_is(a, n->end - 2, "--");
	case CXCursor_BinaryOperator: {
		size_t o = r->end;
		while (o < a->b->len && is_blank(a->b->data[o]))
			o++;
		return text_is(a, o, "=") && !text_is(a, o, "==");
	}
	default:
		return 0;
	}
}

/* Does the subtree of BODY write to a variable spelled NAME? */
static int body_writes(const struct pk_ast *a, int body, const char *name)
{
	for (size_t j = (size_t)body; j < a->nnodes && pk_ast_in_subtree(a, (int)j, body); j++) {
		int ref = operand_ref(a, (int)j);
		if (ref < 0 || !writes(a, (int)j, ref))
			continue;
		char *v = spelling(a->nodes[ref].c);
		int same = !strcmp(v, name);
		free(v);
		if (same)
			return 1;
	}
	return 0;
}

/* A while / do-while counter: a variable of the condition the body changes. */
static char *cond_var(struct pk_ast *a, int loop)
{
	int first = -1, last = -1;
	for (size_t j = (size_t)loop + 1; j < a->nnodes && pk_ast_in_subtree(a, (int)j, loop); j++)
		if (a->nodes[j].parent == loop) {
			if (first < 0)
				first = (int)j;
			last = (int)j;
		}
	if (first < 0 || first == last)
		return NULL;
	int cond = a->nodes[loop].kind == CXCursor_DoStmt ? last : first;
	int body = a->nodes[loop].kind == CXCursor_DoStmt ? first : last;
	for (size_t j = (size_t)cond; j < a->nnodes && pk_ast_in_subtree(a, (int)j, cond); j++) {
		if (a->nodes[j].kind != CXCursor_DeclRefExpr)
			continue;
		char *v = spelling(a->nodes[j].c);
		if (*v && countable(a->nodes[j].c) && body_writes(a, body, v))
			return v;
		free(v);
	}
	return NULL;
}

char *pk_ast_loop_var(struct pk_ast *a, int scope, int *loop, unsigned *loop_line)
{
	*loop = -1;
	for (int p = scope; p >= 0; p = a->nodes[p].parent) {
		if (!pk_ast_is_loop(a->nodes[p].kind))
			continue;
		*loop = p;
		*loop_line = pk_ast_line(a, a->nodes[p].start);
		enum CXCursorKind k = a->nodes[p].kind;
		return k == CXCursor_ForStmt ? for_var(a, p) : k == CXCursor_CXXForRangeStmt ? NULL : cond_var(a, p);
	}
	return NULL;
}

static int word_in(const char *text, size_t len, const char *w, const struct pk_scan *skip_comments)
{
	size_t wl = strlen(w);
	for (const char *p = text; (p = memmem(p, len - (size_t)(p - text), w, wl)); p++) {
		size_t o = (size_t)(p - text);
		if ((o > 0 && pk_is_ident(text[o - 1])) || (o + wl < len && pk_is_ident(text[o + wl])))
			continue;
		if (skip_comments && pk_scan_in_comment(skip_comments, o))
			continue;
		return 1;
	}
	return 0;
}

static int text_in(const char *text, size_t len, const char *w, const struct pk_scan *skip_comments)
{
	size_t wl = strlen(w);
	for (const char *p = text; (p = memmem(p, len - (size_t)(p - text), w, wl)); p++)
		if (!skip_comments || !pk_scan_in_comment(skip_comments, (size_t)(p - text)))
			return 1;
	return 0;
}

int pk_ast_core_kind(struct pk_ast *a, const struct pk_ast_rules *r, int scope)
{
	int mixed = 0;
	for (size_t i = 0; i < r->mixed.n && !mixed; i++)
		mixed = text_in(a->b->data, a->b->len, r->mixed.v[i], &a->scan);
	if (!mixed)
		mixed = word_in(a->b->data, a->b->len, r->aic_core, &a->scan) &&
		        word_in(a->b->data, a->b->len, r->aiv_core, &a->scan);
	if (!mixed)
		return 0;
	/* under `if ASCEND_IS_AIC { ... }`: the print belongs to the cube core */
	for (int p = scope; p >= 0; p = a->nodes[p].parent) {
		int q = a->nodes[p].parent;
		if (q < 0 || a->nodes[q].kind != CXCursor_IfStmt)
			continue;
		const struct pk_node *ifs = &a->nodes[q];
		if (word_in(a->b->data + ifs->start, a->nodes[p].start - ifs->start, r->aic_core, NULL) &&
		    !(ifs->has_else && pk_ast_last_child(a, q) == p))
			return 2;
	}
	return 1;
}

struct incl {
	struct pk_ast *a;
	const char *word;
	int found;
};

static void visit_incl(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
	(void)stack;
	(void)depth;
	struct incl *in = data;
	if (in->found || pk_cx_same_file(f, in->a->file))
		return;
	size_t size = 0;
	const char *text = clang_getFileContents(in->a->tu, f, &size);
	if (text && word_in(text, size, in->word, NULL))
		in->found = 1;
}

int pk_ast_word_used(struct pk_ast *a, const char *word)
{
	if (word_in(a->b->data, a->b->len, word, NULL))
		return 1;
	struct incl in = {a, word, 0};
	clang_getInclusions(a->tu, visit_incl, &in);
	return in.found;
}

static void visit_ns(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
	(void)stack;
	(void)depth;
	struct incl *in = data;
	if (in->found || pk_cx_same_file(f, in->a->file))
		return;
	CXString fn = clang_getFileName(f);
	const char *name = clang_getCString(fn);
	int stub = name && !strncmp(name, PK_STUB_DIR "/", strlen(PK_STUB_DIR) + 1);
	clang_disposeString(fn);
	if (stub)
		return;
	size_t size = 0;
	const char *text = clang_getFileContents(in->a->tu, f, &size);
	if (text && (word_in(text, size, in->word, NULL) || text_in(text, size, "kernel_operator.h", NULL)))
		in->found = 1;
}

int pk_ast_ns_visible(struct pk_ast *a, const char *ns, size_t off)
{
	if (off > a->b->len)
		off = a->b->len;
	if (word_in(a->b->data, off, ns, &a->scan) || text_in(a->b->data, off, "kernel_operator.h", &a->scan))
		return 1;
	struct incl in = {a, ns, 0};
	clang_getInclusions(a->tu, visit_ns, &in);
	return in.found;
}
