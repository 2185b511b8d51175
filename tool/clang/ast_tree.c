/* ast_tree.c - the index of a parse, from one walk of its translation unit:
 * every function declared or defined in any file of the unit (pk_ast.decls),
 * then the definitions of the model's own file (the main file, a header
 * parsed in the unit of a source file that includes it, or the included
 * file a view shows) with their bodies: every cursor with its parent and
 * byte range, which ones are statements (and which are braceless bodies of
 * if/for/while), and every call with its callee name. A view indexes its
 * file from its unit's walk without walking the unit again. */
#include "ast.h"
#include "embed.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

struct walk {
	struct pk_ast *a;
	int parent;
	int func;
	int *depth; /* per node, to find subtrees */
	size_t cap_depth;
	int level;
};

int pk_cx_same_file(CXFile a, CXFile b)
{
	if (!a || !b)
		return a == b;
	if (!clang_File_isEqual(a, b))
		return 0;
	CXString na = clang_getFileName(a), nb = clang_getFileName(b);
	const char *sa = clang_getCString(na), *sb = clang_getCString(nb);
	int same = sa && sb && !strcmp(sa, sb);
	clang_disposeString(na);
	clang_disposeString(nb);
	return same;
}

char *pk_cursor_name(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = pk_xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
	clang_disposeString(s);
	return r;
}

static size_t offset_of(const struct pk_ast *a, CXSourceLocation loc, int *in_main)
{
	CXFile f;
	unsigned line, col, off;
	clang_getExpansionLocation(loc, &f, &line, &col, &off);
	*in_main = pk_cx_same_file(f, a->file) && off <= a->b->len;
	return off;
}

long pk_ast_offset(const struct pk_ast *a, CXSourceLocation loc)
{
	CXFile f;
	unsigned line, col, off;
	clang_getExpansionLocation(loc, &f, &line, &col, &off);
	if (!f || !pk_cx_same_file(f, a->file) || off > a->b->len)
		return -1;
	return (long)off;
}

int pk_ast_extent(const struct pk_ast *a, CXCursor c, size_t *start, size_t *end)
{
	CXSourceRange r = clang_getCursorExtent(c);
	long s = pk_ast_offset(a, clang_getRangeStart(r)), e = pk_ast_offset(a, clang_getRangeEnd(r));
	if (s < 0 || e < s)
		return -1;
	*start = (size_t)s;
	*end = (size_t)e;
	return 0;
}

int pk_ast_from_macro(CXCursor c)
{
	CXSourceLocation loc = clang_getCursorLocation(c);
	CXFile f1, f2;
	unsigned l1, c1, o1, l2, c2, o2;
	clang_getExpansionLocation(loc, &f1, &l1, &c1, &o1);
	clang_getSpellingLocation(loc, &f2, &l2, &c2, &o2);
	return o1 != o2 || !pk_cx_same_file(f1, f2);
}

unsigned pk_ast_line(struct pk_ast *a, size_t off)
{
	return pk_buf_line_of(a->b, off);
}

static enum CXChildVisitResult visit_stmt(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct walk *w = data;
	struct pk_ast *a = w->a;
	CXSourceRange r = clang_getCursorExtent(c);
	int in1, in2;
	size_t s = offset_of(a, clang_getRangeStart(r), &in1);
	size_t e = offset_of(a, clang_getRangeEnd(r), &in2);
	if (!in1 || !in2 || e < s)
		return CXChildVisit_Continue;
	PK_GROW(a->nodes, a->cap_nodes, a->nnodes + 1);
	PK_GROW(w->depth, w->cap_depth, a->nnodes + 1);
	int me = (int)a->nnodes++;
	a->nodes[me] = (struct pk_node){c, clang_getCursorKind(c), w->parent, w->func, s, e, 0, 0, 0};
	w->depth[me] = w->level;
	int saved = w->parent;
	w->parent = me;
	w->level++;
	clang_visitChildren(c, visit_stmt, w);
	w->level--;
	w->parent = saved;
	return CXChildVisit_Continue;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* Skip blanks, comments and semicolons from OFF. */
static size_t skip_filler(const struct pk_buf *b, size_t off)
{
	const char *d = b->data;
	while (off < b->len) {
		if (is_blank(d[off]) || d[off] == ';') {
			off++;
		} else if (off + 1 < b->len && d[off] == '/' && d[off + 1] == '/') {
			while (off < b->len && d[off] != '\n')
				off++;
		} else if (off + 1 < b->len && d[off] == '/' && d[off + 1] == '*') {
			const char *e = strstr(d + off + 2, "*/");
			off = e ? (size_t)(e - d) + 2 : b->len;
		} else {
			break;
		}
	}
	return off;
}

static int word_in(const char *d, size_t len, size_t off, const char *w)
{
	size_t l = strlen(w);
	return off + l <= len && !memcmp(d + off, w, l) && (off + l == len || !pk_is_ident(d[off + l])) &&
	       (off == 0 || !pk_is_ident(d[off - 1]));
}

static int word_at(const struct pk_buf *b, size_t off, const char *w)
{
	return word_in(b->data, b->len, off, w);
}

int pk_ast_is_loop(enum CXCursorKind k)
{
	return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
	       k == CXCursor_CXXForRangeStmt;
}

static void mark_body(struct pk_node *n)
{
	n->stmt = 1;
	n->braceless = n->kind != CXCursor_CompoundStmt;
}

/* Which children are statements: those of a { } block, and the bodies of
 * control statements (found by position; libclang has no accessor). */
static void classify(struct pk_ast *a, size_t from)
{
	size_t n = a->nnodes - from;
	int *first = pk_xmalloc(n * sizeof(int)), *last = pk_xmalloc(n * sizeof(int));
	int *prev = pk_xmalloc(n * sizeof(int)), *count = pk_xcalloc(n, sizeof(int));
	for (size_t i = 0; i < n; i++)
		first[i] = last[i] = prev[i] = -1;
	for (size_t i = from; i < a->nnodes; i++) {
		int p = a->nodes[i].parent;
		if (p < (int)from)
			continue;
		size_t k = (size_t)p - from;
		if (first[k] < 0)
			first[k] = (int)i;
		prev[k] = last[k];
		last[k] = (int)i;
		count[k]++;
	}
	for (size_t i = from; i < a->nnodes; i++) {
		struct pk_node *nd = &a->nodes[i];
		size_t k = i - from;
		switch (nd->kind) {
		case CXCursor_CompoundStmt:
			for (size_t j = i + 1; j < a->nnodes; j++)
				if (a->nodes[j].parent == (int)i)
					a->nodes[j].stmt = 1;
			break;
		case CXCursor_ForStmt:
		case CXCursor_WhileStmt:
		case CXCursor_CXXForRangeStmt:
		case CXCursor_SwitchStmt:
			if (last[k] >= 0)
				mark_body(&a->nodes[last[k]]);
			break;
		case CXCursor_DoStmt:
			if (first[k] >= 0)
				mark_body(&a->nodes[first[k]]);
			break;
		case CXCursor_IfStmt:
			if (count[k] >= 3 && word_at(a->b, skip_filler(a->b, a->nodes[prev[k]].end), "else")) {
				nd->has_else = 1;
				mark_body(&a->nodes[prev[k]]);
			}
			if (last[k] >= 0)
				mark_body(&a->nodes[last[k]]);
			break;
		default:
			break;
		}
	}
	free(first);
	free(last);
	free(prev);
	free(count);
}

/* Does the call reach a method, a constructor or a class rather than a free
 * function? */
static int member_callee(CXCursor call)
{
	enum CXCursorKind rk = clang_getCursorKind(clang_getCursorReferenced(call));
	return rk == CXCursor_CXXMethod || rk == CXCursor_Constructor || rk == CXCursor_Destructor ||
	       rk == CXCursor_ConversionFunction || rk == CXCursor_ClassDecl || rk == CXCursor_StructDecl;
}

static void add_call(struct pk_ast *a, int node, const int *depth)
{
	char *name = pk_cursor_name(a->nodes[node].c);
	size_t off = a->nodes[node].start;
	int macro = 0, member = member_callee(a->nodes[node].c);
	/* the callee reference: where its name is written */
	for (size_t j = (size_t)node + 1; j < a->nnodes && depth[j] > depth[node]; j++) {
		enum CXCursorKind k = a->nodes[j].kind;
		if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr && k != CXCursor_OverloadedDeclRef)
			continue;
		CXString rs = clang_getCursorSpelling(a->nodes[j].c);
		const char *rn = clang_getCString(rs);
		if (*rn && (!*name || !strcmp(rn, name))) {
			if (!*name) { /* a dependent call: the name under it */
				free(name);
				name = pk_xstrdup(rn);
				member |= k == CXCursor_MemberRefExpr;
			}
			int in;
			size_t o = offset_of(a, clang_getCursorLocation(a->nodes[j].c), &in);
			if (in) {
				off = o;
				macro = !word_at(a->b, o, name);
			}
			clang_disposeString(rs);
			break;
		}
		clang_disposeString(rs);
	}
	if (!*name || pk_scan_block_at(&a->scan, off) >= 0) {
		free(name); /* unnamed, or the code of an enabled probe */
		return;
	}
	PK_GROW(a->calls, a->cap_calls, a->ncalls + 1);
	a->calls[a->ncalls++] = (struct pk_call){name, off, node, macro, 0, member};
}

static int cmp_call(const void *x, const void *y)
{
	const struct pk_call *p = x, *q = y;
	if (p->off != q->off)
		return p->off < q->off ? -1 : 1;
	return p->node < q->node ? -1 : p->node > q->node;
}

void pk_ast_sort_calls(struct pk_ast *a)
{
	if (a->ncalls)
		qsort(a->calls, a->ncalls, sizeof(*a->calls), cmp_call);
}

static int word_before(struct pk_ast *a, size_t start, size_t name_off, const char *w)
{
	for (size_t o = start; o < name_off && o < a->b->len; o++)
		if (word_at(a->b, o, w))
			return 1;
	return 0;
}

/* Qualifiers that expand to nothing (`__global__ __aicore__` in a
 * simulation) are not in the declaration's extent: take the words before it. */
static size_t words_before(const struct pk_ast *a, size_t start)
{
	const char *d = a->b->data;
	for (;;) {
		size_t o = start;
		while (o > 0 && (is_blank(d[o - 1]) || d[o - 1] == '\n' || d[o - 1] == '\r'))
			o--;
		if (o == 0 || !pk_is_ident(d[o - 1]))
			return start;
		while (o > 0 && pk_is_ident(d[o - 1]))
			o--;
		start = o;
	}
}

static int has_word(const char *text, size_t len, const char *w)
{
	size_t l = strlen(w);
	for (size_t o = 0; o + l <= len; o++)
		if (!memcmp(text + o, w, l) && (o + l == len || !pk_is_ident(text[o + l])) &&
		    (o == 0 || !pk_is_ident(text[o - 1])))
			return 1;
	return 0;
}

/* The words of rules/api.ini [entry], read once a run. */
static struct {
	char *qualifiers, *extern_c, *names;
	int state; /* 0 unread, 1 read, -1 refused (said once) */
} entry_words;

static int on_entry(void *user, const char *section, const char *key, const char *value, unsigned line)
{
	(void)user;
	(void)line;
	if (strcmp(section, "entry"))
		return 0;
	char **f = !strcmp(key, "qualifiers")            ? &entry_words.qualifiers
	           : !strcmp(key, "extern_c_qualifiers") ? &entry_words.extern_c
	           : !strcmp(key, "names")               ? &entry_words.names
	                                                 : NULL;
	if (!f)
		return pk_error("rules/api.ini:%u: [entry] takes qualifiers, extern_c_qualifiers and names, not '%s'",
		                line, key);
	free(*f);
	*f = pk_xstrdup(value);
	return 0;
}

static int entry_words_load(void)
{
	if (entry_words.state)
		return entry_words.state;
	entry_words.state = -1;
	if (pk_ini_parse_rules("api.ini", on_entry, NULL) < 0)
		return -1;
	const char *missing = !entry_words.qualifiers ? "qualifiers"
	                      : !entry_words.extern_c ? "extern_c_qualifiers"
	                      : !entry_words.names    ? "names"
	                                              : NULL;
	if (missing)
		return pk_error("rules/api.ini: [entry] needs '%s'; no function counts as a kernel entry", missing);
	entry_words.state = 1;
	return 1;
}

/* Does TEXT hold a word of the blank-separated LIST? */
static int has_any_word(const char *text, size_t len, const char *list)
{
	char w[64];
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, " \t,");
		if (n && n < sizeof(w)) {
			memcpy(w, p, n);
			w[n] = '\0';
			if (has_word(text, len, w))
				return 1;
		}
		p += n;
		p += strspn(p, " \t,");
	}
	return 0;
}

int pk_entry_rule(const char *text, size_t len, int extern_c, const char *name)
{
	if (entry_words_load() < 0)
		return 0;
	if (name && pk_word_in(entry_words.names, name, strlen(name)))
		return 1;
	return has_any_word(text, len, entry_words.qualifiers) ||
	       (extern_c && has_any_word(text, len, entry_words.extern_c));
}

/* Index the definition D of a->decls, in A's own file: its body's nodes
 * and calls, and its entry in a->funcs. */
static void add_func(struct pk_ast *a, int d)
{
	const struct pk_decl *dc = &a->decls->v[d];
	CXCursor c = dc->c;
	struct walk w = {a, -1, (int)a->nfuncs, NULL, 0, 0};
	size_t from = a->nnodes;
	int in;
	size_t start = offset_of(a, clang_getRangeStart(clang_getCursorExtent(c)), &in);
	size_t name_off = dc->off;
	clang_visitChildren(c, visit_stmt, &w);
	/* the body is the function's last CompoundStmt child */
	int body = -1;
	for (size_t i = from; i < a->nnodes; i++)
		if (a->nodes[i].parent == -1 && a->nodes[i].kind == CXCursor_CompoundStmt)
			body = (int)i;
	if (body < 0) {
		a->nnodes = from;
		free(w.depth);
		return;
	}
	/* drop parameters and initialisers before the body: only statements matter */
	for (size_t i = from; i < a->nnodes; i++)
		if (a->nodes[i].parent == -1 && (int)i != body)
			a->nodes[i].func = -1;
	classify(a, from);
	for (size_t i = from; i < a->nnodes; i++)
		if (a->nodes[i].kind == CXCursor_CallExpr && a->nodes[i].start >= a->nodes[body].start)
			add_call(a, (int)i, w.depth);
	free(w.depth);
	size_t words = words_before(a, start);
	PK_GROW(a->funcs, a->cap_funcs, a->nfuncs + 1);
	struct pk_func *f = &a->funcs[a->nfuncs++];
	*f = (struct pk_func){
	    c,
	    dc->parent,
	    pk_xstrdup(dc->name),
	    d,
	    body,
	    start,
	    pk_ast_line(a, name_off),
	    pk_entry_rule(a->b->data + words, name_off > words ? name_off - words : 0, dc->extern_c, dc->name),
	    0,
	    word_before(a, start, name_off, "constexpr"),
	    dc->kind,
	    dc->in_template};
	for (size_t i = 0; i < a->nerrs; i++)
		if (a->errs[i].line && a->errs[i].off >= start && a->errs[i].off < a->nodes[body].end) {
			f->bad_line = (int)a->errs[i].line;
			break;
		}
}

static int is_function(enum CXCursorKind k)
{
	return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
	       k == CXCursor_Constructor || k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
}

static int is_class(enum CXCursorKind k)
{
	return k == CXCursor_ClassDecl || k == CXCursor_StructDecl || k == CXCursor_ClassTemplate ||
	       k == CXCursor_ClassTemplatePartialSpecialization || k == CXCursor_UnionDecl;
}

/* libclang 14 shows `extern "C"` as an unexposed declaration: read its text
 * in the file it is written in. */
static int is_extern_c(CXTranslationUnit tu, CXCursor c)
{
	CXFile f;
	unsigned line, col, o;
	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, &line, &col, &o);
	size_t len = 0;
	const char *d = f ? clang_getFileContents(tu, f, &len) : NULL;
	if (!d || !word_in(d, len, o, "extern"))
		return 0;
	o += (unsigned)strlen("extern");
	while (o < len && is_blank(d[o]))
		o++;
	return o + 3 <= len && !memcmp(d + o, "\"C\"", 3);
}

struct walk_unit {
	struct pk_ast *a;
	struct pk_unit *u;
	CXFile file; /* the scopes entered now: those of this file, NULL all */
	int extern_c, in_class, in_template;
};

static enum CXChildVisitResult visit_unit(CXCursor c, CXCursor parent, CXClientData data);

static void enter(const struct walk_unit *w, CXCursor c, enum CXCursorKind k)
{
	struct walk_unit inner = *w;
	inner.extern_c |= k == CXCursor_LinkageSpec || (k == CXCursor_UnexposedDecl && is_extern_c(w->a->tu, c));
	inner.in_class |= is_class(k);
	inner.in_template |=
	    k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization || k == CXCursor_UnionDecl;
	clang_visitChildren(c, visit_unit, &inner);
}

/* The one walk of the unit: the functions of its namespaces, linkage
 * specifications and classes; a scope of a file other than those asked for
 * is left for later. */
static enum CXChildVisitResult visit_unit(CXCursor c, CXCursor parent, CXClientData data)
{
	struct walk_unit *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	int fn = is_function(k);
	if (!fn && k != CXCursor_Namespace && k != CXCursor_LinkageSpec && k != CXCursor_UnexposedDecl && !is_class(k))
		return CXChildVisit_Continue;
	CXFile f;
	unsigned line, col, off;
	clang_getExpansionLocation(clang_getCursorLocation(c), &f, &line, &col, &off);
	if (fn) {
		struct pk_decl d = {
		    pk_cursor_name(c), c,           parent,        f, off, line, k, clang_isCursorDefinition(c) != 0,
		    w->extern_c,       w->in_class, w->in_template};
		PK_GROW(w->u->v, w->u->cap, w->u->n + 1);
		w->u->v[w->u->n++] = d;
	} else if (!w->file || pk_cx_same_file(f, w->file)) {
		enter(w, c, k);
	} else {
		PK_GROW(w->u->later, w->u->cap_later, w->u->nlater + 1);
		w->u->later[w->u->nlater++] = (struct pk_scope){c, f, w->extern_c, w->in_class, w->in_template};
	}
	return CXChildVisit_Continue;
}

const struct pk_unit *pk_ast_unit(struct pk_ast *a, CXFile file)
{
	struct pk_unit *u = a->decls;
	size_t keep = 0;
	for (size_t i = 0; i < u->nlater; i++) {
		struct pk_scope sc = u->later[i];
		if (file && !pk_cx_same_file(sc.file, file)) {
			u->later[keep++] = sc;
			continue;
		}
		struct walk_unit w = {a, u, NULL, sc.extern_c, sc.in_class, sc.in_template};
		enter(&w, sc.c, clang_getCursorKind(sc.c));
	}
	u->nlater = keep;
	return u;
}

void pk_unit_free(struct pk_unit *u)
{
	for (size_t i = 0; i < u->n; i++)
		free(u->v[i].name);
	free(u->v);
	free(u->later);
	memset(u, 0, sizeof(*u));
}

int pk_ast_index(struct pk_ast *a)
{
	if (!a->borrowed) {
		a->decls = pk_xcalloc(1, sizeof(*a->decls));
		struct walk_unit w = {a, a->decls, a->file, 0, 0, 0};
		clang_visitChildren(clang_getTranslationUnitCursor(a->tu), visit_unit, &w);
	}
	const struct pk_unit *u = pk_ast_unit(a, a->file);
	/* the definitions of this file, in the order they are written (a
	 * view's scopes were entered after the rest of the unit) */
	int *mine = pk_xcalloc(u->n + 1, sizeof(int));
	size_t n = 0;
	CXFile last = NULL;
	int here = 0;
	for (size_t i = 0; i < u->n; i++) {
		const struct pk_decl *d = &u->v[i];
		if (d->file != last) { /* runs of one file: its test once */
			last = d->file;
			here = pk_cx_same_file(last, a->file);
		}
		if (here && d->def && d->off <= a->b->len)
			mine[n++] = (int)i;
	}
	for (size_t i = 1; i < n; i++) /* nearly sorted: an insertion sort, stable */
		for (size_t j = i; j > 0 && u->v[mine[j - 1]].off > u->v[mine[j]].off; j--) {
			int x = mine[j];
			mine[j] = mine[j - 1];
			mine[j - 1] = x;
		}
	for (size_t i = 0; i < n; i++)
		add_func(a, mine[i]);
	free(mine);
	pk_ast_sort_calls(a);
	return 0;
}

int pk_ast_funcs_named(const struct pk_ast *a, const char *name, int free_only, int *n, int *second)
{
	int found = -1;
	*n = 0;
	*second = -1;
	for (size_t i = 0; i < a->nfuncs; i++) {
		const struct pk_func *f = &a->funcs[i];
		if (name ? strcmp(f->name, name) != 0 : !f->entry)
			continue;
		if (free_only && f->kind != CXCursor_FunctionDecl && f->kind != CXCursor_FunctionTemplate)
			continue;
		if (found < 0)
			found = (int)i;
		else if (*second < 0)
			*second = (int)i;
		++*n;
	}
	return found;
}

int pk_ast_find_func(const struct pk_ast *a, const char *name)
{
	int n, second, found = pk_ast_funcs_named(a, name, 0, &n, &second);
	return n > 1 ? -2 : found;
}

int pk_ast_one_entry(const struct pk_ast *a, int *n, int *second)
{
	return pk_ast_funcs_named(a, NULL, 1, n, second);
}

int pk_ast_stmt_of(const struct pk_ast *a, int node)
{
	while (node >= 0 && !a->nodes[node].stmt)
		node = a->nodes[node].parent;
	return node;
}

int pk_ast_in_subtree(const struct pk_ast *a, int j, int i)
{
	while (j >= 0 && j != i)
		j = a->nodes[j].parent;
	return j == i;
}
