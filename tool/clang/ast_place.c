/* ast_place.c - from a placement SPEC to insertion anchors: whole-line
 * offsets next to a statement found on the AST, with the scope the probe
 * code lands in and whether a braceless body needs braces around it. */
#include "ast.h"
#include "embed.h"
#include "pk.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

int pk_spec_parse(struct pk_spec *s, const char *text)
{
	static const struct {
		const char *prefix;
		enum pk_spec_kind kind;
	} kinds[] = {{"after:", PK_SPEC_AFTER},
	             {"before:", PK_SPEC_BEFORE},
	             {"line:", PK_SPEC_LINE},
	             {"entry:", PK_SPEC_ENTRY},
	             {"exit:", PK_SPEC_EXIT}};
	memset(s, 0, sizeof(*s));
	s->text = text;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t l = strlen(kinds[i].prefix);
		if (strncmp(text, kinds[i].prefix, l))
			continue;
		s->kind = kinds[i].kind;
		const char *v = text + l;
		if (s->kind == PK_SPEC_LINE) {
			char *end;
			errno = 0;
			unsigned long n = strtoul(v, &end, 10);
			if (!*v || *end || errno || n == 0 || n > 0xffffffffUL)
				return pk_error("'%s': a line number must follow 'line:'", text);
			s->n = (unsigned)n;
			return 0;
		}
		const char *hash = strchr(v, '#');
		size_t nl = hash ? (size_t)(hash - v) : strlen(v);
		if (hash) {
			char *end;
			unsigned long n = strtoul(hash + 1, &end, 10);
			if (s->kind == PK_SPEC_ENTRY || s->kind == PK_SPEC_EXIT || !hash[1] || *end || n == 0 ||
			    n > 100000)
				return pk_error("'%s': '#n' takes a call number from 1 (after:CALLEE#2)", text);
			s->n = (unsigned)n;
		}
		for (size_t k = 0; k < nl; k++)
			if (!pk_is_ident(v[k]) && !(v[k] == ':' && k + 1 < nl && v[k + 1] == ':') &&
			    !(v[k] == ':' && k > 0 && v[k - 1] == ':'))
				return pk_error("'%s': '%.*s' is not a name", text, (int)nl, v);
		if (nl == 0)
			return pk_error("'%s': a name must follow '%s'", text, kinds[i].prefix);
		/* A::B::name: callees are matched by their last component */
		const char *last = v;
		for (size_t k = 0; k < nl; k++)
			if (v[k] == ':')
				last = v + k + 1;
		s->name = pk_xstrndup(last, nl - (size_t)(last - v));
		return 0;
	}
	return pk_error("'%s': a place is after:CALLEE, before:CALLEE, line:N, entry:FUNC or exit:FUNC", text);
}

void pk_spec_free(struct pk_spec *s)
{
	free(s->name);
	s->name = NULL;
}

void pk_anchor_free(struct pk_anchor *an)
{
	free(an->indent);
	free(an->brace_indent);
	free(an->body_indent);
	an->indent = an->brace_indent = an->body_indent = NULL;
}

void pk_anchors_free(struct pk_anchor *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pk_anchor_free(&v[i]);
	free(v);
}

const char *pk_indent_unit(const char *ind)
{
	if (strchr(ind, '\t'))
		return "\t";
	size_t l = strlen(ind);
	return l % 4 != 0 && l % 2 == 0 ? "  " : "    ";
}

static size_t line_start(const struct pk_buf *b, size_t off)
{
	while (off > 0 && b->data[off - 1] != '\n')
		off--;
	return off;
}

static char *indent_of(const struct pk_buf *b, size_t off)
{
	size_t ls = line_start(b, off), e = ls;
	while (e < b->len && is_blank(b->data[e]))
		e++;
	return pk_xstrndup(b->data + ls, e - ls);
}

static int starts_line(const struct pk_buf *b, size_t off)
{
	for (size_t o = line_start(b, off); o < off; o++)
		if (!is_blank(b->data[o]))
			return 0;
	return 1;
}

/* The offset just past the line that statement NODE ends on, when nothing
 * but a comment follows it there; else (size_t)-1. */
static size_t after_offset(const struct pk_ast *a, const struct pk_node *n)
{
	const struct pk_buf *b = a->b;
	size_t e = n->end;
	while (e < b->len && is_blank(b->data[e]))
		e++;
	if (e < b->len && b->data[e] == ';')
		e++;
	for (;;) {
		while (e < b->len && is_blank(b->data[e]))
			e++;
		if (e + 1 < b->len && b->data[e] == '/' && b->data[e + 1] == '*') {
			const char *c = strstr(b->data + e + 2, "*/");
			const char *nl = memchr(b->data + e, '\n', b->len - e);
			if (!c || (nl && nl < c))
				return (size_t)-1; /* a comment running past the line */
			e = (size_t)(c - b->data) + 2;
			continue;
		}
		break;
	}
	if (e + 1 < b->len && b->data[e] == '/' && b->data[e + 1] == '/') {
		while (e < b->len && b->data[e] != '\n')
			e++;
	}
	if (e < b->len && b->data[e] == '\r')
		e++;
	if (e >= b->len || b->data[e] != '\n')
		return (size_t)-1;
	return e + 1;
}

/* A statement comes from a macro expansion when it starts with one: a name
 * it references is not written where libclang puts it, and that place is
 * the statement's start (the macro's use site). A macro used inside the
 * statement (`if ASCEND_IS_AIV {`) leaves its boundaries in the text. */
static int from_macro(const struct pk_ast *a, int node)
{
	for (int j = node; j < (int)a->nnodes && pk_ast_in_subtree(a, j, node); j++) {
		enum CXCursorKind k = a->nodes[j].kind;
		if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
			continue;
		CXString s = clang_getCursorSpelling(a->nodes[j].c);
		const char *name = clang_getCString(s);
		CXFile f;
		unsigned l, c, off;
		clang_getExpansionLocation(clang_getCursorLocation(a->nodes[j].c), &f, &l, &c, &off);
		size_t nl = strlen(name);
		int bad = nl && off == a->nodes[node].start && strncmp(name, "operator", 8) && name[0] != '~' &&
		          (off + nl > a->b->len || memcmp(a->b->data + off, name, nl) ||
		           (off + nl < a->b->len && pk_is_ident(a->b->data[off + nl])));
		clang_disposeString(s);
		if (bad)
			return 1;
	}
	/* two sibling statements at one offset: one macro made both */
	const struct pk_node *n = &a->nodes[node];
	for (size_t j = 0; j < a->nnodes; j++)
		if ((int)j != node && a->nodes[j].parent == n->parent && a->nodes[j].stmt &&
		    a->nodes[j].start == n->start)
			return 1;
	return 0;
}

int pk_ast_last_child(const struct pk_ast *a, int p)
{
	int last = -1;
	for (size_t j = (size_t)p + 1; j < a->nnodes && pk_ast_in_subtree(a, (int)j, p); j++)
		if (a->nodes[j].parent == p)
			last = (int)j;
	return last;
}

static int fail_at(struct pk_ast *a, size_t off, const char *fmt, const char *what)
{
	return pk_error(fmt, a->b->path, pk_ast_line(a, off), what);
}

/* Refusals shared by every statement anchor. */
static int check_stmt(struct pk_ast *a, int node, const char *what)
{
	const struct pk_node *n = &a->nodes[node];
	const struct pk_func *f = &a->funcs[n->func];
	if (from_macro(a, node) && !pk_ast_whole_macro_use(a, n->start, n->end))
		return fail_at(a, n->start,
		               "%s:%u: %s: the statement comes from a macro expansion; probekit does not "
		               "edit inside macros (place the probe around the macro's use)",
		               what);
	if (pk_scan_block_at(&a->scan, n->start) >= 0)
		return fail_at(a, n->start, "%s:%u: %s: the statement is inside a probe block", what);
	if (f->is_constexpr)
		return fail_at(a, n->start,
		               "%s:%u: %s: the function is constexpr; the probe's cycle read and "
		               "print cannot go there",
		               what);
	/* a syntax error inside, or right at the end of a statement that lacks
	 * its ';' (clang reports it just after the last token): its boundaries
	 * are a guess */
	int open_end = n->end > n->start && a->b->data[n->end - 1] != ';' && a->b->data[n->end - 1] != '}';
	for (size_t i = 0; i < a->nerrs; i++)
		if (a->errs[i].line && a->errs[i].off >= n->start &&
		    (a->errs[i].off < n->end || (open_end && a->errs[i].off == n->end)) &&
		    !strncmp(a->errs[i].msg, "expected ", 9)) {
			pk_error("%s:%u: %s: clang could not parse this statement (line %u: %s); nothing written",
			         a->b->path, pk_ast_line(a, n->start), what, a->errs[i].line, a->errs[i].msg);
			return -1;
		}
	int p = n->parent;
	if (p >= 0 && a->nodes[p].parent >= 0 && a->nodes[a->nodes[p].parent].kind == CXCursor_SwitchStmt &&
	    !n->braceless)
		return fail_at(a, n->start,
		               "%s:%u: %s: the statement is directly in a switch body, where a new "
		               "variable would cross case labels; put the case's code in braces",
		               what);
	return 0;
}

/* Braces for a braceless body: the '{' line before it (or ending its
 * owner's line), the '}' line after it, at the owner's indentation. */
static int braces_ok(struct pk_ast *a, int body, const char *what)
{
	const struct pk_node *n = &a->nodes[body];
	if (after_offset(a, n) == (size_t)-1)
		return fail_at(a, n->start,
		               "%s:%u: %s: more code follows the braceless body on its line; "
		               "put the body on its own line",
		               what);
	return 0;
}

/* Indentation of the if/for/while/else line that owns braceless BODY. */
static char *owner_indent(struct pk_ast *a, int body)
{
	int p = a->nodes[body].parent;
	const struct pk_node *ifs = &a->nodes[p];
	if (ifs->kind == CXCursor_IfStmt && ifs->has_else && pk_ast_last_child(a, p) == body) {
		/* the else body: indentation of the line holding 'else' */
		size_t o = line_start(a->b, a->nodes[body].start);
		while (o > 0) {
			size_t ls = line_start(a->b, o - 1);
			size_t q = ls;
			while (q < o && (is_blank(a->b->data[q]) || a->b->data[q] == '\r' || a->b->data[q] == '\n'))
				q++;
			if (q < o)
				return indent_of(a->b, ls);
			o = ls;
		}
	}
	return indent_of(a->b, ifs->start);
}

/* The line before the closing brace of block NODE. */
static int before_close(struct pk_ast *a, int node, const char *what, struct pk_anchor *out)
{
	size_t brace = a->nodes[node].end - 1;
	if (a->b->data[brace] != '}' || !starts_line(a->b, brace))
		return fail_at(a, brace,
		               "%s:%u: %s: the closing brace shares its line with code; "
		               "put it on its own line",
		               what);
	out->off = line_start(a->b, brace);
	out->scope = node;
	out->line = pk_ast_line(a, brace);
	int last = pk_ast_last_child(a, node);
	if (last >= 0) {
		out->indent = indent_of(a->b, a->nodes[last].start);
	} else {
		char *bi = indent_of(a->b, brace);
		size_t l = strlen(bi);
		out->indent = pk_xmalloc(l + 5);
		snprintf(out->indent, l + 5, "%s%s", bi, strchr(bi, '\t') ? "\t" : "    ");
		free(bi);
	}
	return 0;
}

static int fill_anchor(struct pk_ast *a, int node, enum pk_where where, int flags, const char *what,
                       struct pk_anchor *out)
{
	const struct pk_node *n = &a->nodes[node];
	memset(out, 0, sizeof(*out));
	out->where = where;
	out->node = node;
	out->brace = -1;
	if (where == PK_BEFORE_CLOSE)
		return before_close(a, node, what, out);
	if (check_stmt(a, node, what) < 0)
		return -1;
	if (n->braceless) {
		if (braces_ok(a, node, what) < 0)
			return -1;
		out->brace = node;
		out->scope = node;
		out->brace_split = !starts_line(a->b, n->start);
		out->brace_open = out->brace_split ? n->start : line_start(a->b, n->start);
		out->brace_close = after_offset(a, n);
		out->brace_indent = owner_indent(a, node);
		if (out->brace_split) {
			const char *unit = pk_indent_unit(out->brace_indent);
			size_t l = strlen(out->brace_indent) + strlen(unit) + 1;
			out->body_indent = pk_xmalloc(l);
			snprintf(out->body_indent, l, "%s%s", out->brace_indent, unit);
		}
	} else {
		out->scope = n->parent;
	}
	if (where == PK_BEFORE && out->brace_split) {
		out->off = n->start; /* after the split '{' line, before the body */
		out->line = pk_ast_line(a, n->start);
	} else if (where == PK_BEFORE) {
		out->in_line = !starts_line(a->b, n->start);
		if (out->in_line && !(flags & PK_PLACE_IN_LINE))
			return fail_at(a, n->start,
			               "%s:%u: %s: other code comes before the statement on its "
			               "line; put it on its own line",
			               what);
		out->off = out->in_line ? n->start : line_start(a->b, n->start);
		out->line = pk_ast_line(a, n->start);
	} else {
		enum CXCursorKind k = n->kind;
		if (k == CXCursor_ReturnStmt || k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt ||
		    k == CXCursor_GotoStmt)
			return fail_at(a, n->start,
			               "%s:%u: %s: the statement leaves the block; nothing after "
			               "it runs",
			               what);
		out->off = after_offset(a, n);
		out->in_line = out->off == (size_t)-1;
		if (out->in_line && (flags & PK_PLACE_IN_LINE))
			out->off = n->end;
		else if (out->in_line)
			return fail_at(a, n->end ? n->end - 1 : 0,
			               "%s:%u: %s: more code follows the statement on its line; put it on "
			               "its own line",
			               what);
		out->line = pk_ast_line(a, n->end ? n->end - 1 : 0);
	}
	if (pk_scan_block_at(&a->scan, out->off) >= 0 &&
	    a->scan.blocks[pk_scan_block_at(&a->scan, out->off)].dir_start != out->off)
		return fail_at(a, n->start, "%s:%u: %s: the place is inside a probe block", what);
	out->indent = out->brace_split ? pk_xstrdup(out->body_indent) : indent_of(a->b, n->start);
	return 0;
}

/* Fill *OUT; on failure nothing is left allocated in it. */
static int make_anchor(struct pk_ast *a, int node, enum pk_where where, int flags, const char *what,
                       struct pk_anchor *out)
{
	if (fill_anchor(a, node, where, flags, what, out) == 0)
		return 0;
	pk_anchor_free(out);
	return -1;
}

static void push_anchor(struct pk_anchor **v, size_t *n, size_t *cap, const struct pk_anchor *x)
{
	PK_GROW(*v, *cap, *n + 1);
	(*v)[(*n)++] = *x;
}

/* Is line N part of a preprocessor directive (a #define and its continuations)? */
static int line_in_directive(struct pk_ast *a, unsigned n)
{
	struct pk_buf *b = a->b;
	if (n == 0 || n > b->nlines)
		return 0;
	unsigned l = n;
	/* walk up over continued lines to the logical line's start */
	while (l > 1) {
		size_t prev_end = b->line_start[l - 1];
		size_t e = prev_end;
		if (e > 0 && b->data[e - 1] == '\n')
			e--;
		if (e > 0 && b->data[e - 1] == '\r')
			e--;
		if (e == 0 || b->data[e - 1] != '\\')
			break;
		l--;
	}
	size_t o = b->line_start[l - 1];
	while (o < b->len && is_blank(b->data[o]))
		o++;
	return o < b->len && b->data[o] == '#';
}

/* One term of a directive's condition: `defined(X)`, `!defined(X)`, `X op V`
 * (op ==, >=, >, !=), `X`, `!X`. */
enum term_op { T_DEF, T_NDEF, T_EQ, T_GE, T_GT, T_TRUE, T_FALSE, T_NE };

struct term {
	const char *name, *val;
	size_t nlen, vlen;
	enum term_op op;
};

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '(')
		p++;
	return p;
}

static int read_term(const char **pp, struct term *t)
{
	const char *p = skip_blanks(*pp);
	int neg = *p == '!';
	if (neg)
		p = skip_blanks(p + 1);
	int def = !strncmp(p, "defined", 7) && !pk_is_ident(p[7]);
	if (def)
		p = skip_blanks(p + 7);
	t->name = p;
	while (pk_is_ident(*p))
		p++;
	t->nlen = (size_t)(p - t->name);
	if (!t->nlen || (*t->name >= '0' && *t->name <= '9'))
		return 0;
	while (*p == ' ' || *p == '\t' || (def && *p == ')'))
		p++;
	t->val = NULL;
	t->vlen = 0;
	if (def) {
		t->op = neg ? T_NDEF : T_DEF;
	} else if (!neg && (!strncmp(p, "==", 2) || !strncmp(p, ">=", 2) || !strncmp(p, "!=", 2) ||
	                    (*p == '>' && p[1] != '>'))) {
		t->op = p[1] == '=' ? (*p == '=' ? T_EQ : *p == '!' ? T_NE : T_GE) : T_GT;
		p = skip_blanks(p + (t->op == T_GT ? 1 : 2));
		t->val = p;
		while (pk_is_ident(*p))
			p++;
		t->vlen = (size_t)(p - t->val);
		if (!t->vlen)
			return 0;
	} else if (*p == '&' || *p == '|' || *p == ')' || !*p || !strncmp(p, "//", 2) || !strncmp(p, "/*", 2)) {
		t->op = neg ? T_FALSE : T_TRUE;
	} else {
		return 0;
	}
	while (*p == ' ' || *p == '\t' || *p == ')')
		p++;
	*pp = p;
	return 1;
}

#define MAX_TERMS 8

/* A condition: terms joined by '&' (&&), '|' (||) or neither (one term). */
struct cond {
	struct term t[MAX_TERMS];
	int n;
	char join;
	int first_only; /* only the terms before the first `||` were read */
};

static int at_end(const char *p)
{
	return !*p || !strncmp(p, "//", 2) || !strncmp(p, "/*", 2);
}

static int read_chain(const char *p, struct cond *c)
{
	c->n = 0;
	c->join = 0;
	c->first_only = 0;
	for (;;) {
		if (c->n == MAX_TERMS || !read_term(&p, &c->t[c->n]))
			return 0;
		c->n++;
		if (at_end(p))
			return 1;
		char j = *p;
		if ((j != '&' && j != '|') || p[1] != j || (c->join && c->join != j))
			return 0;
		c->join = j;
		p += 2;
	}
}

/* A whole chain, or else its first alternative: `A && B || (C && D)` is
 * made true by A and B (it cannot be made false from that). */
static int read_cond(const char *p, struct cond *c)
{
	if (read_chain(p, c))
		return 1;
	const char *alt = strstr(p, "||");
	if (!alt)
		return 0;
	char first[1024];
	size_t n = (size_t)(alt - p) < sizeof(first) ? (size_t)(alt - p) : sizeof(first) - 1;
	memcpy(first, p, n);
	first[n] = 0;
	if (!read_chain(first, c) || c->join == '|')
		return 0;
	/* the terms point into FIRST: copy them out of it */
	for (int i = 0; i < c->n; i++) {
		c->t[i].name = p + (c->t[i].name - first);
		if (c->t[i].val)
			c->t[i].val = p + (c->t[i].val - first);
	}
	c->first_only = 1;
	return 1;
}

enum dkind { D_OTHER, D_IF, D_IFDEF, D_IFNDEF, D_ELIF, D_ELSE, D_ENDIF };

/* The directive on a line and the text after its word. */
static enum dkind directive_of(const char *line, const char **rest)
{
	static const struct {
		const char *w;
		enum dkind k;
	} words[] = {{"ifndef", D_IFNDEF}, {"ifdef", D_IFDEF}, {"if", D_IF},   {"elif", D_ELIF},
	             {"else", D_ELSE},     {"endif", D_ENDIF}, {NULL, D_OTHER}};
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '#')
		return D_OTHER;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	for (int i = 0; words[i].w; i++) {
		size_t l = strlen(words[i].w);
		if (!strncmp(p, words[i].w, l) && !pk_is_ident(p[l])) {
			*rest = p + l;
			return words[i].k;
		}
	}
	return D_OTHER;
}

/* A directive's condition, #ifdef / #ifndef as one defined() term. */
static int directive_cond(enum dkind k, const char *rest, struct cond *c)
{
	if (k == D_IFDEF || k == D_IFNDEF) {
		struct term *t = &c->t[0];
		const char *p = rest;
		while (*p == ' ' || *p == '\t')
			p++;
		t->name = p;
		while (pk_is_ident(*p))
			p++;
		t->nlen = (size_t)(p - t->name);
		t->op = k == D_IFDEF ? T_DEF : T_NDEF;
		t->val = NULL; /* no value compared */
		t->vlen = 0;
		c->n = 1;
		c->join = 0;
		c->first_only = 0;
		return t->nlen > 0;
	}
	return read_cond(rest, c);
}

/* The flags text being built: short, bounded by the directive's lines. */
struct flags {
	char text[1024];
	size_t len;
	const struct pk_buf *b; /* the file, where a value's own #define is looked up */
	int nvalues;            /* values numbered here, for the next distinct one */
};

static int flags_name(const struct flags *f, const struct term *t)
{
	for (const char *p = f->text; (p = strstr(p, " -")); p += 2)
		if ((p[2] == 'D' || p[2] == 'U') && !strncmp(p + 3, t->name, t->nlen) && !pk_is_ident(p[3 + t->nlen]))
			return 1;
	return 0;
}

/* The number `#define NAME N` gives NAME in TEXT, or -1. */
static long defined_number(const char *text, size_t len, const char *name, size_t nlen)
{
	static const char def[] = "#define ";
	for (const char *p = text; (p = memmem(p, len - (size_t)(p - text), def, strlen(def))); p++) {
		const char *q = p + strlen(def);
		if ((size_t)(q - text) + nlen >= len || strncmp(q, name, nlen) || pk_is_ident(q[nlen]))
			continue;
		q += nlen;
		while (*q == ' ' || *q == '\t')
			q++;
		char *end;
		long v = strtol(q, &end, 0);
		if (end > q && (*end == '\n' || *end == '\r' || *end == ' ' || *end == '/'))
			return v;
	}
	return -1;
}

/* A value compared against that is a name (`X == DT_INT32`): pasted on a
 * command line where nothing defines it, every such name would be 0 and
 * every comparison equal. It gets the number the file or the parse stubs
 * define it as, else a number no other value here has. */
static void value_flag(struct flags *f, const struct term *t)
{
	if (!t->val || !t->vlen || (*t->val >= '0' && *t->val <= '9'))
		return;
	struct term v = {t->val, NULL, t->vlen, 0, T_EQ};
	if (flags_name(f, &v))
		return;
	long n = defined_number(f->b->data, f->b->len, t->val, t->vlen);
	for (const struct pk_embedded *e = pk_embedded_files; e->name && n < 0; e++) {
		const char *data;
		size_t len;
		if (strncmp(e->name, "stubs/", 6) || pk_rules_file(e->name, &data, &len) < 0)
			continue;
		n = defined_number(data, len, t->val, t->vlen);
	}
	if (n < 0)
		n = 1000 + f->nvalues;
	f->nvalues++;
	char one[200];
	snprintf(one, sizeof(one), "-D%.*s=%ld", (int)t->vlen < 150 ? (int)t->vlen : 150, t->val, n);
	if (f->len + strlen(one) + 2 < sizeof(f->text))
		f->len += (size_t)snprintf(f->text + f->len, sizeof(f->text) - f->len, " %s", one);
}

/* Add the flag making T true (or false with NEG); 0 when its macro is set already. */
static int term_flag(struct flags *f, const struct term *t, int neg)
{
	value_flag(f, t);
	if (flags_name(f, t))
		return 0;
	static const char *const pos[] = {"-D%.*s",        "-U%.*s",   "-D%.*s=%.*s", "-D%.*s=%.*s",
	                                  "-D%.*s=%.*s+1", "-D%.*s=1", "-D%.*s=0",    "-D%.*s=%.*s+1"};
	static const char *const negs[] = {"-U%.*s",      "-D%.*s",   "-D%.*s=%.*s+1", "-D%.*s=%.*s-1",
	                                   "-D%.*s=%.*s", "-D%.*s=0", "-D%.*s=1",      "-D%.*s=%.*s"};
	char one[200];
	snprintf(one, sizeof(one), (neg ? negs : pos)[t->op], (int)t->nlen, t->name, (int)t->vlen,
	         t->val ? t->val : "");
	if (f->len + strlen(one) + 2 < sizeof(f->text))
		f->len += (size_t)snprintf(f->text + f->len, sizeof(f->text) - f->len, " %s", one);
	return 1;
}

/* Make C true: every term of an && chain, the first alternative of ||.
 * Comparisons first: `defined(X) && X == 220` needs -DX=220, not -DX. */
static void select_cond(struct flags *f, const struct cond *c)
{
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < (c->join == '|' ? 1 : c->n); i++) /* first_only: an && chain */
			if ((c->t[i].val != NULL) == (pass == 0))
				term_flag(f, &c->t[i], 0);
}

/* Make C false: one term of an && chain, every alternative of ||. */
static int refute_cond(struct flags *f, const struct cond *c)
{
	if (c->first_only)
		return 0;
	int done = 0;
	for (int i = 0; i < c->n && !(done && c->join == '&'); i++)
		done |= term_flag(f, &c->t[i], 1);
	return done || c->join != '&';
}

/* Line L of the buffer, NUL-terminated in BUF; 0 when it is continued. */
static int line_text(const struct pk_buf *b, unsigned l, char *buf, size_t cap)
{
	size_t s = b->line_start[l - 1], e = s;
	while (e < b->len && b->data[e] != '\n')
		e++;
	size_t n = e - s;
	while (n && (b->data[s + n - 1] == '\r' || b->data[s + n - 1] == ' '))
		n--;
	if (n && b->data[s + n - 1] == '\\')
		return 0;
	if (n >= cap)
		n = cap - 1;
	memcpy(buf, b->data + s, n);
	buf[n] = 0;
	return 1;
}

/* Make the condition of directive E false: as read whole, or else, for an
 * && chain with a term that cannot be read (`defined X == 220 && defined(Y)`),
 * by one term that can. 0 when it cannot be made false. */
static int refute_directive(struct flags *f, enum dkind e, const char *rest)
{
	struct cond c;
	if (directive_cond(e, rest, &c))
		return refute_cond(f, &c);
	if ((e != D_IF && e != D_ELIF) || strstr(rest, "||"))
		return 0;
	for (const char *p = rest; p;) {
		const char *amp = strstr(p, "&&");
		char piece[1024];
		size_t n = amp ? (size_t)(amp - p) : strlen(p);
		if (n >= sizeof(piece))
			return 0;
		memcpy(piece, p, n);
		piece[n] = 0;
		/* the flag is written from the term at once: it may point into PIECE */
		if (read_chain(piece, &c) && c.n == 1 && term_flag(f, &c.t[0], 1))
			return 1;
		p = amp ? amp + 2 : NULL;
	}
	return 0;
}

/* Add to F the -D/-U flags that select the branch whose directive is on
 * line DL: its own condition made true, and those of the branches before it
 * in the same #if chain made false. *chain is the line of the chain's #if.
 * -1 when a condition cannot be read. */
static int branch_flags(const struct pk_buf *b, unsigned dl, struct flags *f, unsigned *chain)
{
	char line[1024];
	const char *rest;
	struct cond c;
	*chain = dl;
	if (!line_text(b, dl, line, sizeof(line)))
		return -1;
	enum dkind k = directive_of(line, &rest);
	if (k == D_OTHER || k == D_ENDIF)
		return -1;
	if (k != D_ELSE) {
		if (!directive_cond(k, rest, &c))
			return -1;
		select_cond(f, &c);
	}
	int depth = 0;
	for (unsigned l = dl - 1; k == D_ELIF || k == D_ELSE; l--) {
		if (l == 0)
			return -1;
		if (!line_text(b, l, line, sizeof(line))) {
			if (depth == 0 && directive_of(line, &rest) != D_OTHER)
				return -1;
			continue;
		}
		enum dkind e = directive_of(line, &rest);
		if (e == D_ENDIF) {
			depth++;
		} else if ((e == D_IF || e == D_IFDEF || e == D_IFNDEF) && depth > 0) {
			depth--;
		} else if (depth == 0 && e != D_OTHER) {
			if (e == D_ELSE || !refute_directive(f, e, rest))
				return -1;
			*chain = l;
			if (e != D_ELIF)
				break;
		}
	}
	return 0;
}

static unsigned branch_line(const struct pk_buf *b, unsigned l);

/* The -D/-U flags that select the branch whose directive is on line DL and
 * every branch around it (the outer #ifs too, innermost first), so that
 * pasted they parse that branch. NULL when a condition cannot be read. */
static char *select_flags(const struct pk_buf *b, unsigned dl)
{
	struct flags f;
	memset(&f, 0, sizeof(f));
	f.b = b;
	for (unsigned l = dl, chain; l; l = branch_line(b, chain))
		if (branch_flags(b, l, &f, &chain) < 0)
			return NULL;
	return f.len ? pk_xstrdup(f.text) : NULL;
}

/* The line of the #if, #elif or #else whose branch holds line L, or 0. */
static unsigned branch_line(const struct pk_buf *b, unsigned l)
{
	char line[1024];
	const char *rest;
	int depth = 0;
	while (--l > 0) {
		line_text(b, l, line, sizeof(line));
		enum dkind e = directive_of(line, &rest);
		if (e == D_ENDIF)
			depth++;
		else if (e != D_OTHER && depth == 0)
			return l;
		else if ((e == D_IF || e == D_IFDEF || e == D_IFNDEF) && depth > 0)
			depth--;
	}
	return 0;
}

/* A target in a region the preprocessor skipped: name the directive and
 * the flags that select it (or the macro to define). */
int pk_ast_refuse_skipped(struct pk_ast *a, size_t off, const char *what)
{
	unsigned dl, bl = branch_line(a->b, pk_ast_line(a, off));
	char *d = pk_ast_skip_reason(a, off, &dl);
	if (bl && bl != dl) { /* clang's range may start at an earlier branch of the chain */
		char line[1024];
		line_text(a->b, bl, line, sizeof(line));
		const char *t = line;
		while (*t == ' ' || *t == '\t')
			t++;
		free(d);
		d = pk_xstrdup(t);
		dl = bl;
	}
	char *flags = select_flags(a->b, dl);
	if (flags) {
		free(a->branch_flags);
		a->branch_flags = pk_xstrdup(flags);
		a->branch_line = pk_ast_line(a, off);
		int rc = pk_error("%s:%u: %s: the call is in code the preprocessor skipped under '%s' (line %u); parse "
		                  "that branch with the flags that select it: --%s",
		                  a->b->path, pk_ast_line(a, off), what, d, dl, flags);
		free(flags);
		free(d);
		return rc;
	}
	const char *m = d + 1;
	while (*m == ' ' || *m == '\t')
		m++;
	while (pk_is_ident(*m)) /* the directive's own word */
		m++;
	for (;;) {
		while (*m && !pk_is_ident(*m))
			m++;
		size_t l = 0;
		while (pk_is_ident(m[l]))
			l++;
		if (l == 7 && !strncmp(m, "defined", 7)) {
			m += l;
			continue;
		}
		int rc = l && !(*m >= '0' && *m <= '9')
		             ? pk_error("%s:%u: %s: the call is in code the preprocessor skipped under '%s' (line "
		                        "%u); parse that branch by giving its macro: -- -D%.*s=...",
		                        a->b->path, pk_ast_line(a, off), what, d, dl, (int)l, m)
		             : pk_error("%s:%u: %s: the call is in code the preprocessor skipped under '%s' (line "
		                        "%u); parse that branch with the flags (-D/-U after --) that select it",
		                        a->b->path, pk_ast_line(a, off), what, d, dl);
		free(d);
		return rc;
	}
}

/* A call written in a #define body: name the macro and where it is used,
 * the place a probe can go around. 0 when no macro body calls it. */
static int refuse_macro_body(struct pk_ast *a, const struct pk_spec *s)
{
	unsigned dl = 0;
	char uses[256];
	char *m = pk_ast_macro_calling(a, s->name, &dl, uses, sizeof(uses));
	if (!m)
		return 0;
	int rc;
	if (*uses)
		rc = pk_error("%s:%u: %s: '%s' is called inside the body of macro '%s' (defined on line %u), "
		              "used on line%s %s; probekit does not edit inside macros: place the probe around "
		              "the macro's use (--around %s, or --begin/--end line:N)",
		              a->b->path, dl, s->text, s->name, m, dl, strchr(uses, ',') ? "s" : "", uses, m);
	else
		rc = pk_error("%s:%u: %s: '%s' is called only inside the body of macro '%s' (defined on line %u), "
		              "which the code probekit parsed never uses; probekit does not edit inside macros: "
		              "place the probe around the macro's use",
		              a->b->path, dl, s->text, s->name, m, dl);
	free(m);
	return rc;
}

/* Is token I a call to NAME in code the preprocessor skipped that the
 * parse holds no call for (a function it never saw)? */
static int unseen_call(const struct pk_ast *a, size_t i, const char *name)
{
	if (!(a->tok[i].flags & PK_TOK_INACTIVE) || (a->tok[i].flags & PK_TOK_DIRECTIVE) || !pk_tok_is(a, i, name) ||
	    !(pk_tok_is(a, i + 1, "(") || pk_tok_is(a, i + 1, "<")))
		return 0;
	for (size_t k = 0; k < a->ncalls; k++)
		if (a->calls[k].off == a->tok[i].start && !strcmp(a->calls[k].name, name))
			return 0;
	return 1;
}

/* CALLEE#N counts the calls as written, those in skipped functions too:
 * the offset of the N-th when it is such an unseen one, else -1. */
static size_t nth_unseen(const struct pk_ast *a, const char *name, size_t n)
{
	size_t c = 0, t = 0, k = 0;
	for (;;) {
		while (c < a->ncalls && strcmp(a->calls[c].name, name))
			c++;
		while (t + 1 < a->ntok && !unseen_call(a, t, name))
			t++;
		int have_t = t + 1 < a->ntok;
		if (c >= a->ncalls && !have_t)
			return (size_t)-1;
		int take_t = have_t && (c >= a->ncalls || a->tok[t].start < a->calls[c].off);
		if (++k == n)
			return take_t ? a->tok[t].start : (size_t)-1;
		if (take_t)
			t++;
		else
			c++;
	}
}

/* A kernel launch NAME<<<...>>>(...) written in the file (C++ parses it as
 * shifts, so it is no call): refuse, saying it is host code. 0 when none. */
static int refuse_launch(struct pk_ast *a, const struct pk_spec *s)
{
	for (size_t i = 0; i + 2 < a->ntok; i++) {
		if ((a->tok[i].flags & (PK_TOK_DIRECTIVE | PK_TOK_INACTIVE)) || !pk_tok_is(a, i, s->name) ||
		    !pk_tok_is(a, i + 1, "<<") || !pk_tok_is(a, i + 2, "<") || a->tok[i + 1].start != a->tok[i].end)
			continue;
		unsigned line = pk_ast_line(a, a->tok[i].start);
		return pk_error(
		    "%s:%u: %s: '%s<<<...>>>' launches the kernel from host code, where the probe's device API "
		    "(cycle counter, block index) does not exist; time the kernel inside it (--base=%s, or --around a "
		    "call in its body)",
		    a->b->path, line, s->text, s->name, s->name);
	}
	return 0;
}

static int place_call(struct pk_ast *a, const struct pk_spec *s, struct pk_anchor *out)
{
	size_t count = 0, pick = (size_t)-1;
	for (size_t i = 0; i < a->ncalls; i++)
		if (!strcmp(a->calls[i].name, s->name) && ++count == (s->n ? s->n : 1))
			pick = i;
	if (count == 0 && pk_ast_inactive_call(a, s->name) != (size_t)-1)
		return pk_ast_refuse_skipped(a, pk_ast_inactive_call(a, s->name), s->text);
	if (count == 0 || (pick != (size_t)-1 && a->calls[pick].macro))
		if (refuse_macro_body(a, s) < 0)
			return -1;
	if (count == 0 && refuse_launch(a, s) < 0)
		return -1;
	if (count == 0) {
		char quoted[256];
		snprintf(quoted, sizeof(quoted), "'%s'", s->name);
		for (size_t i = 0; i < a->nerrs; i++)
			if (a->errs[i].line && strstr(a->errs[i].msg, quoted))
				return pk_error(
				    "%s:%u: %s: probekit could not parse the call (%s); nothing written "
				    "(without the SDK only the built-in stubs are seen: set ASCEND_HOME_PATH "
				    "or give the build's flags with -p BUILD_DIR)",
				    a->b->path, a->errs[i].line, s->text, a->errs[i].msg);
		if (a->nerrs)
			return pk_error("%s: no call to '%s' found (%zu parse errors hid part of the file; "
			                "see the warnings above)",
			                a->b->path, s->name, a->nerrs);
		return pk_error("%s: no call to '%s' found", a->b->path, s->name);
	}
	if (s->n > count && nth_unseen(a, s->name, s->n) != (size_t)-1)
		return pk_ast_refuse_skipped(a, nth_unseen(a, s->name, s->n), s->text);
	if (s->n > count)
		return pk_error("%s: '%s': there are only %zu calls to '%s'", a->b->path, s->text, count, s->name);
	if (!s->n && count > 1) {
		char lines[256] = "";
		size_t len = 0;
		for (size_t i = 0, k = 0; i < a->ncalls && len < sizeof(lines) - 16; i++)
			if (!strcmp(a->calls[i].name, s->name))
				len += (size_t)snprintf(lines + len, sizeof(lines) - len, "%s%u", k++ ? ", " : "",
				                        pk_ast_line(a, a->calls[i].off));
		return pk_error("%s: '%s' is called %zu times (lines %s); say which with '%s#n'", a->b->path, s->name,
		                count, lines, s->name);
	}
	const struct pk_call *c = &a->calls[pick];
	if (c->inactive)
		return pk_ast_refuse_skipped(a, c->off, s->text);
	if (c->macro)
		return pk_error("%s:%u: %s: the call to '%s' comes from a macro expansion; probekit does "
		                "not edit inside macros",
		                a->b->path, pk_ast_line(a, c->off), s->text, s->name);
	return pk_ast_place_call(a, (size_t)pick, s->kind == PK_SPEC_AFTER ? PK_AFTER : PK_BEFORE, 0, s->text, out);
}

int pk_ast_place_call(struct pk_ast *a, size_t call, enum pk_where where, int flags, const char *what,
                      struct pk_anchor *out)
{
	const struct pk_call *c = &a->calls[call];
	int stmt = c->node >= 0 ? pk_ast_stmt_of(a, c->node) : -1;
	if (stmt < 0)
		return pk_error("%s:%u: %s: the call is not inside a statement", a->b->path, pk_ast_line(a, c->off),
		                what);
	return make_anchor(a, stmt, where, flags, what, out);
}

int pk_ast_place_line_in(struct pk_ast *a, const struct pk_spec *s, enum pk_where where, int flags, size_t from,
                         size_t to, struct pk_anchor *out)
{
	for (size_t i = 0; i < a->nnodes; i++) {
		const struct pk_node *n = &a->nodes[i];
		if (!n->stmt || n->func < 0 || n->start < from || n->start >= to || pk_ast_line(a, n->start) != s->n)
			continue;
		/* a '{' of a function or control body is not a statement to time */
		if (n->kind == CXCursor_CompoundStmt &&
		    (n->parent < 0 || a->nodes[n->parent].kind != CXCursor_CompoundStmt))
			continue;
		return make_anchor(a, (int)i, where, flags, s->text, out);
	}
	if (s->n < pk_ast_line(a, from) || (to < a->b->len && s->n > pk_ast_line(a, to)))
		return 1; /* outside the range: nothing there to explain */
	if (line_in_directive(a, s->n))
		return pk_error("%s:%u: %s: the line lies inside a macro definition or directive; "
		                "place the probe around the macro's use",
		                a->b->path, s->n, s->text);
	for (size_t i = 0; i < a->nerrs; i++)
		if (a->errs[i].line == s->n)
			return pk_error("%s:%u: %s: probekit could not parse this line (%s); nothing written",
			                a->b->path, s->n, s->text, a->errs[i].msg);
	return 1;
}

static int place_line(struct pk_ast *a, const struct pk_spec *s, int is_end, struct pk_anchor *out)
{
	int rc = pk_ast_place_line_in(a, s, is_end ? PK_AFTER : PK_BEFORE, 0, 0, a->b->len + 1, out);
	if (rc <= 0)
		return rc;
	return pk_error("%s:%u: %s: no statement starts on this line", a->b->path, s->n, s->text);
}

static int find_func(struct pk_ast *a, const struct pk_spec *s)
{
	int f = pk_ast_find_func(a, s->name);
	if (f == -2)
		return pk_error("%s: %s: several functions are named '%s'", a->b->path, s->text, s->name);
	if (f < 0)
		return pk_error("%s: %s: no function '%s' with a body in this file", a->b->path, s->text, s->name);
	return f;
}

/* entry:FUNC goes on the line after the body's '{', whatever the
 * preprocessor configuration: the first lines of a body are in every one. */
int pk_ast_place_brace(struct pk_ast *a, size_t open, size_t close, int body, const char *what, struct pk_anchor *out)
{
	memset(out, 0, sizeof(*out));
	out->where = PK_BEFORE;
	out->node = body;
	out->scope = body;
	out->brace = -1;
	size_t e = open + 1;
	while (e < close && is_blank(a->b->data[e]))
		e++;
	if (e + 1 < close && a->b->data[e] == '/' && a->b->data[e + 1] == '/')
		while (e < close && a->b->data[e] != '\n')
			e++;
	if (e < close && a->b->data[e] == '\r')
		e++;
	if (a->b->data[open] != '{' || e >= close || a->b->data[e] != '\n')
		return fail_at(a, open,
		               "%s:%u: %s: code follows the function's '{' on its line; put the first "
		               "statement on its own line",
		               what);
	out->off = e + 1;
	out->line = pk_ast_line(a, out->off);
	if (pk_scan_block_at(&a->scan, out->off) >= 0 &&
	    a->scan.blocks[pk_scan_block_at(&a->scan, out->off)].dir_start != out->off)
		return fail_at(a, out->off, "%s:%u: %s: the place is inside a probe block", what);
	/* the indentation of the body's first code line, else one step in */
	for (size_t o = out->off; o < close;) {
		size_t q = o;
		while (q < close && is_blank(a->b->data[q]))
			q++;
		if (q < close && a->b->data[q] != '\n' && a->b->data[q] != '\r' && a->b->data[q] != '#') {
			out->indent = indent_of(a->b, q);
			return 0;
		}
		const char *nl = memchr(a->b->data + o, '\n', close - o);
		if (!nl)
			break;
		o = (size_t)(nl - a->b->data) + 1;
	}
	char *bi = indent_of(a->b, open);
	size_t l = strlen(bi) + 5;
	out->indent = pk_xmalloc(l);
	snprintf(out->indent, l, "%s%s", bi, pk_indent_unit(bi));
	free(bi);
	return 0;
}

static int place_entry(struct pk_ast *a, int f, const char *what, struct pk_anchor *out)
{
	int body = a->funcs[f].body;
	const struct pk_node *n = &a->nodes[body];
	if (a->funcs[f].is_constexpr) {
		memset(out, 0, sizeof(*out));
		size_t nl = n->start;
		while (nl < n->end && a->b->data[nl] != '\n')
			nl++;
		return fail_at(a, nl + 1 < n->end ? nl + 1 : n->start,
		               "%s:%u: %s: the function is constexpr; the probe's cycle read and "
		               "print cannot go there",
		               what);
	}
	return pk_ast_place_brace(a, n->start, n->end - 1, body, what, out);
}

int pk_ast_in_lambda(const struct pk_ast *a, int node, int body)
{
	for (int p = a->nodes[node].parent; p >= 0 && p != body; p = a->nodes[p].parent)
		if (a->nodes[p].kind == CXCursor_LambdaExpr)
			return 1;
	return 0;
}

static int place_exit(struct pk_ast *a, const struct pk_spec *s, int f, struct pk_anchor **v, size_t *n)
{
	size_t cap = 0;
	int body = a->funcs[f].body;
	struct pk_anchor an;
	for (size_t i = (size_t)body + 1; i < a->nnodes && pk_ast_in_subtree(a, (int)i, body); i++) {
		if (a->nodes[i].kind != CXCursor_ReturnStmt || pk_ast_in_lambda(a, (int)i, body))
			continue;
		if (make_anchor(a, (int)i, PK_BEFORE, 0, s->text, &an) < 0)
			return -1;
		push_anchor(v, n, &cap, &an);
	}
	int last = pk_ast_last_child(a, body);
	if (last < 0 || a->nodes[last].kind != CXCursor_ReturnStmt) {
		if (make_anchor(a, body, PK_BEFORE_CLOSE, 0, s->text, &an) < 0)
			return -1;
		push_anchor(v, n, &cap, &an);
	}
	return 0;
}

int pk_ast_place(struct pk_ast *a, const struct pk_spec *s, int is_end, struct pk_anchor **out, size_t *nout)
{
	struct pk_anchor an;
	size_t cap = 0;
	int rc = 0;
	memset(&an, 0, sizeof(an));
	*out = NULL;
	*nout = 0;
	switch (s->kind) {
	case PK_SPEC_AFTER:
	case PK_SPEC_BEFORE:
		rc = place_call(a, s, &an);
		break;
	case PK_SPEC_LINE:
		rc = place_line(a, s, is_end, &an);
		break;
	case PK_SPEC_ENTRY: {
		int f = find_func(a, s);
		if (f < 0)
			return -1;
		rc = place_entry(a, f, s->text, &an);
		break;
	}
	case PK_SPEC_EXIT: {
		int f = find_func(a, s);
		if (f < 0)
			return -1;
		if (!is_end)
			return pk_error("%s: '%s' names several places; use it with --end", a->b->path, s->text);
		if (place_exit(a, s, f, out, nout) < 0) {
			pk_anchors_free(*out, *nout);
			*out = NULL;
			*nout = 0;
			return -1;
		}
		return 0;
	}
	}
	if (rc < 0) {
		pk_anchor_free(&an);
		return -1;
	}
	push_anchor(out, nout, &cap, &an);
	return 0;
}
