/* ast_query.c - what the front end's clients (the timing tensor) ask of a
 * parse, so that they make no libclang call of their own: a cursor's type
 * class and parameters, a call's callee, where a function's declaration
 * starts, whether a node refers to a function, and the integer value of
 * declarations in a variant of the parsed file. The functions and calls of
 * the unit are the index's (ast_tree.c). */
#include "ast.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

enum pk_type_class pk_cursor_type(CXCursor c)
{
	CXType ty = clang_getCursorType(c);
	if (ty.kind == CXType_Invalid)
		return PK_TYPE_UNKNOWN;
	CXType can = clang_getCanonicalType(ty);
	return can.kind == CXType_Pointer ? PK_TYPE_POINTER : can.kind == CXType_Void ? PK_TYPE_VOID : PK_TYPE_OTHER;
}

int pk_cursor_packed_param(CXCursor p)
{
	CXType ty = clang_getCanonicalType(clang_getCursorType(p));
	if (ty.kind != CXType_Pointer)
		return 0;
	CXType pt = clang_getCanonicalType(clang_getPointeeType(ty));
	return pt.kind == CXType_Long || pt.kind == CXType_LongLong || pt.kind == CXType_ULong ||
	       pt.kind == CXType_ULongLong;
}

struct parm_list {
	CXCursor *v;
	int n, cap;
};

static enum CXChildVisitResult parm_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	struct parm_list *l = data;
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_ParmDecl && l->n < l->cap)
		l->v[l->n++] = c;
	return CXChildVisit_Continue;
}

int pk_cursor_params(CXCursor fn, CXCursor *v, int cap)
{
	struct parm_list l = {v, 0, cap};
	int n = clang_Cursor_getNumArguments(fn);
	if (n >= 0) {
		for (int i = 0; i < n && i < cap; i++)
			v[l.n++] = clang_Cursor_getArgument(fn, (unsigned)i);
		return l.n;
	}
	clang_visitChildren(fn, parm_visit, &l);
	return l.n;
}

long pk_ast_name_offset(const struct pk_ast *a, CXCursor c)
{
	return pk_ast_offset(a, clang_getCursorLocation(c));
}

int pk_ast_func_of(const struct pk_ast *a, CXCursor fn)
{
	for (size_t i = 0; i < a->nfuncs; i++)
		if (clang_equalCursors(a->funcs[i].cursor, fn))
			return (int)i;
	return -1;
}

CXFile pk_ast_file_named(const struct pk_ast *a, const char *path)
{
	return clang_getFile(a->tu, path);
}

char *pk_cx_file_name(CXFile f)
{
	CXString s = clang_getFileName(f);
	char *r = pk_xstrdup(clang_getCString(s) ? clang_getCString(s) : "?");
	clang_disposeString(s);
	return r;
}

int pk_ast_in_condition(const struct pk_ast *a, int node)
{
	int j = a->nodes[node].kind == CXCursor_CallExpr ? a->nodes[node].parent : node;
	for (; j >= 0; j = a->nodes[j].parent) {
		enum CXCursorKind k = a->nodes[j].kind;
		if (k == CXCursor_CompoundStmt)
			return 0;
		if (clang_isStatement(k) && k != CXCursor_DeclStmt)
			return 1;
	}
	return 1;
}

/* ---- the callee of a call ---- */

/* The callee's name of a call libclang could not resolve (a dependent call
 * in a template): the first name reference under its first child. */
struct callee_name {
	char *name;
	int member;
	int depth;
};

static enum CXChildVisitResult first_ref(CXCursor c, CXCursor parent, CXClientData data)
{
	struct callee_name *cn = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	(void)parent;
	if (k == CXCursor_MemberRefExpr) {
		cn->member = 1;
		return CXChildVisit_Break;
	}
	if (k == CXCursor_OverloadedDeclRef || k == CXCursor_DeclRefExpr) {
		cn->name = pk_cursor_name(c);
		if (*cn->name || cn->depth >= 4)
			return CXChildVisit_Break;
		free(cn->name); /* an unresolved lookup: the name is below */
		cn->name = NULL;
		cn->depth++;
		clang_visitChildren(c, first_ref, cn);
		return CXChildVisit_Break;
	}
	if (k == CXCursor_UnexposedExpr && cn->depth < 4) {
		cn->depth++;
		clang_visitChildren(c, first_ref, cn);
		return CXChildVisit_Break;
	}
	return CXChildVisit_Break; /* only the first child is the callee */
}

char *pk_ast_callee_name(CXCursor call)
{
	char *name = pk_cursor_name(call);
	if (*name)
		return name;
	free(name);
	struct callee_name cn = {0};
	clang_visitChildren(call, first_ref, &cn);
	if (cn.member || !cn.name || !*cn.name) {
		free(cn.name);
		return NULL;
	}
	return cn.name;
}

/* ---- where a declaration starts ---- */

/* A statement's extent starts at its first token that produced code: a
 * qualifier macro expanding to nothing (`__gm__ float *x = ...`) sits before
 * it. Walk back over identifiers on the same line. */
static size_t snap_start(const struct pk_ast *t, size_t s)
{
	size_t i = pk_tok_at(t, s);
	unsigned line = pk_buf_line_of(t->b, s);
	while (i > 0 && t->tok[i - 1].kind == CXToken_Identifier && pk_buf_line_of(t->b, t->tok[i - 1].start) == line)
		i--;
	return i < t->ntok ? t->tok[i].start : s;
}

size_t pk_ast_decl_start(const struct pk_ast *t, CXCursor fn, const CXCursor *parent)
{
	size_t s, e, ps, pe;
	if (pk_ast_extent(t, fn, &s, &e) < 0)
		return 0;
	CXCursor up = parent ? *parent : clang_getCursorSemanticParent(fn);
	enum CXCursorKind pk = clang_getCursorKind(up);
	if ((pk == CXCursor_LinkageSpec || pk == CXCursor_UnexposedDecl) && pk_ast_extent(t, up, &ps, &pe) == 0 &&
	    pk_tok_is(t, pk_tok_at(t, ps), "extern")) {
		size_t i = pk_tok_at(t, ps);
		int braced = i + 2 < t->ntok && pk_tok_is(t, i + 2, "{");
		if (!braced && ps < s)
			s = ps;
	}
	return snap_start(t, s);
}

/* ---- references to functions ---- */

int pk_ast_func_ref(const struct pk_ast *a, int node)
{
	enum CXCursorKind k = a->nodes[node].kind;
	if (k == CXCursor_OverloadedDeclRef)
		return 1;
	if (k != CXCursor_DeclRefExpr)
		return 0;
	enum CXCursorKind rk = clang_getCursorKind(clang_getCursorReferenced(a->nodes[node].c));
	return rk == CXCursor_FunctionDecl || rk == CXCursor_FunctionTemplate;
}

/* ---- integer values of declarations ---- */

#ifndef PROBEKIT_CLANG_RESOURCE_DIR
#define PROBEKIT_CLANG_RESOURCE_DIR ""
#endif

struct eval_walk {
	const struct pk_ast *pt;
	const size_t *at;
	long *val;
	size_t n;
};

static enum CXChildVisitResult eval_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct eval_walk *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	if (k != CXCursor_VarDecl) {
		if (clang_isDeclaration(k) || clang_isStatement(k))
			clang_visitChildren(c, eval_visit, w);
		return CXChildVisit_Continue;
	}
	size_t s, e;
	if (pk_ast_extent(w->pt, c, &s, &e) < 0)
		return CXChildVisit_Continue;
	for (size_t i = 0; i < w->n; i++) {
		if (w->at[i] != s || w->val[i] >= 0)
			continue;
		CXEvalResult r = clang_Cursor_Evaluate(c);
		if (r && clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) >= 0)
			w->val[i] = (long)clang_EvalResult_getAsLongLong(r);
		if (r)
			clang_EvalResult_dispose(r);
	}
	return CXChildVisit_Continue;
}

/* COPY is parsed where T's file is, its includes followed when found (the
 * standard integer types of a constexpr come from <stdint.h>; a runtime's
 * headers are usually missing, which leaves the constants of the file). */
int pk_ast_eval_decls(const struct pk_ast *t, const char *copy, const size_t *at, long *val, size_t n)
{
	const char *name = t->b->from_stdin ? "stdin.cpp" : t->b->path;
	const char *args[6] = {"-x", "c++", "-std=c++17", "-ferror-limit=0"};
	int na = 4;
	if (PROBEKIT_CLANG_RESOURCE_DIR[0]) {
		args[na++] = "-resource-dir";
		args[na++] = PROBEKIT_CLANG_RESOURCE_DIR;
	}
	struct CXUnsavedFile u = {name, copy, (unsigned long)strlen(copy)};
	struct pk_buf b = {0};
	b.data = (char *)copy;
	b.len = strlen(copy);
	b.lock_fd = -1;
	struct pk_ast pt;
	memset(&pt, 0, sizeof(pt));
	pt.b = &b;
	pt.index = clang_createIndex(0, 0);
	enum CXErrorCode ec =
	    clang_parseTranslationUnit2(pt.index, name, args, na, &u, 1, CXTranslationUnit_KeepGoing, &pt.tu);
	int rc = 0;
	if (ec != CXError_Success || !pt.tu) {
		rc = pk_error("%s: libclang could not read the file (error %d)", t->b->path, (int)ec);
	} else {
		pt.file = clang_getFile(pt.tu, name);
		struct eval_walk w = {&pt, at, val, n};
		clang_visitChildren(clang_getTranslationUnitCursor(pt.tu), eval_visit, &w);
	}
	pk_ast_free(&pt);
	return rc;
}

/* ---- the inclusions of a unit ---- */

struct incl_walk {
	CXTranslationUnit tu;
	CXFile self;
	CXFile *files;
	struct pk_include *v;
	size_t n, cap, cap_f;
};

/* The name an #include spells at LOC (the location clang keeps for an
 * inclusion is its file-name token): *QUOTED for "NAME". */
static char *spelled_at(CXTranslationUnit tu, CXSourceLocation loc, CXFile *in, int *quoted)
{
	unsigned off;
	size_t len;
	clang_getFileLocation(loc, in, NULL, NULL, &off);
	const char *d = *in ? clang_getFileContents(tu, *in, &len) : NULL;
	*quoted = 0;
	if (!d || off >= len || (d[off] != '"' && d[off] != '<'))
		return NULL;
	char close = d[off] == '"' ? '"' : '>';
	const char *e = memchr(d + off + 1, close, len - off - 1), *nl = memchr(d + off + 1, '\n', len - off - 1);
	if (!e || (nl && nl < e) || e == d + off + 1)
		return NULL;
	*quoted = close == '"';
	return pk_xstrndup(d + off + 1, (size_t)(e - d - off - 1));
}

static void incl_visit(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
	struct incl_walk *w = data;
	struct pk_include r = {(size_t)-1, NULL, 0, 0, 0, 0, 0};
	if (depth > 0) {
		CXFile in = NULL;
		r.spelled = spelled_at(w->tu, stack[0], &in, &r.quoted);
		for (size_t i = w->n; in && i-- > 0;)
			if (clang_File_isEqual(w->files[i], in)) {
				r.from = i;
				break;
			}
	}
	r.self = w->self && clang_File_isEqual(f, w->self);
	CXFileUniqueID id;
	if (clang_getFileUniqueID(f, &id) == 0 && (id.data[0] || id.data[1])) {
		r.have_id = 1;
		r.dev = id.data[0];
		r.ino = id.data[1];
	}
	PK_GROW(w->v, w->cap, w->n + 1);
	PK_GROW(w->files, w->cap_f, w->n + 1);
	w->files[w->n] = f;
	w->v[w->n++] = r;
}

size_t pk_ast_includes(const struct pk_ast *t, struct pk_include **out)
{
	*out = NULL;
	if (!t->tu)
		return 0;
	struct incl_walk w = {t->tu, t->file ? t->file : clang_getFile(t->tu, t->cpath), NULL, NULL, 0, 0, 0};
	clang_getInclusions(t->tu, incl_visit, &w);
	free(w.files);
	*out = w.v;
	return w.n;
}

void pk_ast_includes_free(struct pk_include *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].spelled);
	free(v);
}

int pk_ast_parsed_bytes(const struct pk_ast *t, const struct pk_buf *b)
{
	CXFile f = t->tu && !b->from_stdin ? pk_ast_file_named(t, b->path) : NULL;
	size_t len;
	const char *d = f ? clang_getFileContents(t->tu, f, &len) : NULL;
	return !d || (len == b->len && !memcmp(d, b->data, len));
}
