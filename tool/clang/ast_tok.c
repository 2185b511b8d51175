/* ast_tok.c - what the AST alone does not show: the main file's tokens, the
 * regions the preprocessor skipped, and the statements clang dropped or
 * began late. Statement boundaries come from tokens (braces and ';' at
 * depth) where the AST lacks a statement (a call on an object whose type the
 * stubs do not know) or where its extent starts after an empty macro
 * (`__gm__ uint8_t *p = ...`). */
#include "ast.h"
#include "pk.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static size_t file_offset(CXSourceLocation loc)
{
	CXFile f;
	unsigned line, col, off;
	clang_getFileLocation(loc, &f, &line, &col, &off);
	return off;
}

/* Lines that belong to a preprocessor directive (with continuations). */
static unsigned char *directive_lines(const struct pk_buf *b)
{
	unsigned char *d = pk_xcalloc(b->nlines + 1, 1);
	int cont = 0;
	for (size_t l = 0; l < b->nlines; l++) {
		size_t o = b->line_start[l], e = l + 1 < b->nlines ? b->line_start[l + 1] : b->len;
		while (o < e && (b->data[o] == ' ' || b->data[o] == '\t'))
			o++;
		d[l] = cont || (o < e && b->data[o] == '#');
		while (e > o && (b->data[e - 1] == '\n' || b->data[e - 1] == '\r'))
			e--;
		cont = d[l] && e > o && b->data[e - 1] == '\\';
	}
	return d;
}

static int in_ranges(const struct pk_range *r, size_t n, size_t off)
{
	for (size_t i = 0; i < n; i++)
		if (off >= r[i].start && off < r[i].end)
			return (int)i;
	return -1;
}

/* The main file's tokens, each flagged when it is on a directive line or in
 * a skipped region, and the skipped regions themselves. */
void pk_ast_tokens(struct pk_ast *a)
{
	CXSourceRangeList *sk = clang_getSkippedRanges(a->tu, a->file);
	if (sk) {
		a->skipped = pk_xcalloc(sk->count + 1, sizeof(*a->skipped));
		for (unsigned i = 0; i < sk->count; i++) {
			size_t s = file_offset(clang_getRangeStart(sk->ranges[i]));
			size_t e = file_offset(clang_getRangeEnd(sk->ranges[i]));
			if (s < e && e <= a->b->len)
				a->skipped[a->nskipped++] = (struct pk_range){s, e};
		}
		clang_disposeSourceRangeList(sk);
	}
	CXSourceLocation b = clang_getLocationForOffset(a->tu, a->file, 0);
	CXSourceLocation e = clang_getLocationForOffset(a->tu, a->file, (unsigned)a->b->len);
	CXToken *t = NULL;
	unsigned n = 0;
	clang_tokenize(a->tu, clang_getRange(b, e), &t, &n);
	unsigned char *dir = directive_lines(a->b);
	a->tok = pk_xcalloc(n + 1, sizeof(*a->tok));
	for (unsigned i = 0; i < n; i++) {
		CXSourceRange r = clang_getTokenExtent(a->tu, t[i]);
		size_t s = file_offset(clang_getRangeStart(r)), en = file_offset(clang_getRangeEnd(r));
		if (en < s || en > a->b->len)
			continue;
		enum CXTokenKind k = clang_getTokenKind(t[i]);
		if (k == CXToken_Comment)
			continue;
		unsigned char fl = 0;
		if (dir[pk_buf_line_of(a->b, s) - 1])
			fl |= PK_TOK_DIRECTIVE;
		if (in_ranges(a->skipped, a->nskipped, s) >= 0)
			fl |= PK_TOK_INACTIVE;
		a->tok[a->ntok++] = (struct pk_tok){s, en, (unsigned char)k, fl};
	}
	free(dir);
	if (t)
		clang_disposeTokens(a->tu, t, n);
}

int pk_tok_is(const struct pk_ast *a, size_t i, const char *s)
{
	if (i >= a->ntok)
		return 0;
	const struct pk_tok *t = &a->tok[i];
	size_t l = strlen(s);
	return t->end - t->start == l && !memcmp(a->b->data + t->start, s, l);
}

size_t pk_tok_at(const struct pk_ast *a, size_t off)
{
	return pk_first_at(a->tok, a->ntok, sizeof(*a->tok), offsetof(struct pk_tok, start), off);
}

size_t pk_tok_stmt_first(const struct pk_ast *a, size_t i)
{
	while (i > 0 && !pk_tok_is(a, i - 1, ";") && !pk_tok_is(a, i - 1, "{") && !pk_tok_is(a, i - 1, "}"))
		i--;
	return i;
}

size_t pk_tok_lead(const struct pk_ast *a, size_t i)
{
	if (i >= a->ntok)
		return a->b->len;
	const char *d = a->b->data;
	size_t o = i > 0 ? a->tok[i - 1].end : 0, end = a->tok[i].start, lead = end;
	int prev_line = i > 0; /* a comment ending the previous token's line stays with it */
	while (o < end) {
		if (d[o] == '\n') {
			prev_line = 0;
			o++;
		} else if (d[o] == ' ' || d[o] == '\t' || d[o] == '\r' || d[o] == '\f' || d[o] == '\v') {
			o++;
		} else if (o + 1 < end && d[o] == '/' && (d[o + 1] == '/' || d[o + 1] == '*')) {
			if (!prev_line && lead == end)
				lead = o;
			const char *c = d[o + 1] == '/' ? memchr(d + o, '\n', end - o) : strstr(d + o + 2, "*/");
			o = !c || (size_t)(c - d) >= end ? end : (size_t)(c - d) + (d[o + 1] == '*' ? 2 : 0);
		} else {
			break;
		}
	}
	return lead;
}

int pk_tok_packed_name(const struct pk_ast *a, size_t i)
{
	return i >= 2 && i < a->ntok && a->tok[i].kind == CXToken_Identifier && pk_tok_is(a, i - 1, "*") &&
	       (pk_tok_is(a, i - 2, "int64_t") || pk_tok_is(a, i - 2, "uint64_t"));
}

int pk_tok_prefix_used(const struct pk_ast *a, const char *prefix)
{
	size_t pl = strlen(prefix);
	for (size_t i = 0; i < a->ntok; i++)
		if (a->tok[i].kind == CXToken_Identifier && a->tok[i].end - a->tok[i].start >= pl &&
		    !memcmp(a->b->data + a->tok[i].start, prefix, pl))
			return 1;
	return 0;
}

static int live(const struct pk_ast *a, size_t i)
{
	return !(a->tok[i].flags & (PK_TOK_DIRECTIVE | PK_TOK_INACTIVE));
}

static int is_open(const struct pk_ast *a, size_t i)
{
	return pk_tok_is(a, i, "(") || pk_tok_is(a, i, "[") || pk_tok_is(a, i, "{");
}

static int is_close(const struct pk_ast *a, size_t i)
{
	return pk_tok_is(a, i, ")") || pk_tok_is(a, i, "]") || pk_tok_is(a, i, "}");
}

size_t pk_tok_close(const struct pk_ast *a, size_t open, unsigned skip)
{
	int depth = 0;
	for (size_t i = open; i < a->ntok; i++) {
		if (a->tok[i].flags & skip)
			continue;
		if (is_open(a, i))
			depth++;
		else if (is_close(a, i) && --depth == 0)
			return i;
	}
	return a->ntok;
}

/* Past the bracket that closes the one at token I (or ntok), counting the
 * tokens with none of the flags SKIP (PK_TOK_*). */
static size_t skip_group_over(const struct pk_ast *a, size_t i, unsigned skip)
{
	size_t c = pk_tok_close(a, i, skip);
	return c < a->ntok ? c + 1 : a->ntok;
}

size_t pk_tok_enclosing(const struct pk_ast *a, size_t i, const char *open, const char *close)
{
	int d = 0;
	for (size_t j = i; j-- > 0;) {
		if (pk_tok_is(a, j, close))
			d++;
		else if (pk_tok_is(a, j, open) && d-- == 0)
			return j;
	}
	return a->ntok;
}

size_t pk_tok_args(const struct pk_ast *a, size_t open, size_t *s, size_t *e, size_t cap)
{
	size_t n = 0, from = open + 1;
	for (size_t i = open + 1; i < a->ntok; i++) {
		if (is_open(a, i)) {
			i = pk_tok_close(a, i, 0);
			continue;
		}
		int c = is_close(a, i);
		if (c || pk_tok_is(a, i, ",")) {
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

/* Past the bracket that closes the one at token I, in the code compiled. */
static size_t skip_group(const struct pk_ast *a, size_t i)
{
	return skip_group_over(a, i, PK_TOK_DIRECTIVE | PK_TOK_INACTIVE);
}

/* A statement of a block whose extent begins after words that expand to
 * nothing (`__gm__`, `__aicore__`): its start moves back over them. */
void pk_ast_fix_starts(struct pk_ast *a)
{
	for (size_t i = 0; i < a->nnodes; i++) {
		struct pk_node *n = &a->nodes[i];
		if (!n->stmt || n->parent < 0 || a->nodes[n->parent].kind != CXCursor_CompoundStmt)
			continue;
		size_t k = pk_tok_at(a, n->start);
		while (k > 0 && live(a, k - 1) && a->tok[k - 1].kind == CXToken_Identifier &&
		       a->tok[k - 1].start > a->nodes[n->parent].start)
			k--;
		if (k < a->ntok && a->tok[k].start < n->start)
			n->start = a->tok[k].start;
		/* NAME(...) whose expansion ends inside its own parentheses (a
		 * macro making several statements): it ends at its ')' */
		k = pk_tok_at(a, n->start);
		if (k + 1 < a->ntok && a->tok[k].kind == CXToken_Identifier && pk_tok_is(a, k + 1, "(")) {
			size_t j = skip_group(a, k + 1);
			if (j > 0 && j <= a->ntok && a->tok[j - 1].end > n->end)
				n->end = a->tok[j - 1].end;
		}
	}
}

/* The token statement holding token K, within the block whose '{' is token
 * OPEN: back to the previous ';', '{' or '}' at its depth, on to its ';'
 * (or the '}' of a block statement with no else/while after it). */
static int token_stmt(const struct pk_ast *a, size_t open, size_t k, size_t *s, size_t *e)
{
	size_t i = k;
	int depth = 0;
	while (i > open + 1) {
		size_t p = i - 1;
		if (live(a, p)) {
			if (is_close(a, p))
				depth++;
			else if (is_open(a, p) && depth > 0)
				depth--;
			else if (depth == 0 && (pk_tok_is(a, p, ";") || pk_tok_is(a, p, "{") || pk_tok_is(a, p, "}")))
				break;
		}
		i = p;
	}
	while (i < k && !live(a, i))
		i++;
	*s = i;
	for (i = k; i < a->ntok; i++) {
		if (!live(a, i))
			continue;
		if (pk_tok_is(a, i, ";")) {
			*e = i;
			return 0;
		}
		if (pk_tok_is(a, i, "}"))
			return -1; /* the block ends first: not a statement of its own */
		if (pk_tok_is(a, i, "{") && i > k) {
			size_t j = skip_group(a, i);
			if (j >= a->ntok)
				return -1;
			if (j < a->ntok && (pk_tok_is(a, j, "else") || pk_tok_is(a, j, "while"))) {
				i = j;
				continue;
			}
			*e = j - 1;
			return 0;
		}
		if (is_open(a, i)) {
			i = skip_group(a, i) - 1;
			if (i + 1 >= a->ntok)
				return -1;
		}
	}
	return -1;
}

/* The deepest node of function F holding OFF. */
static int deepest(const struct pk_ast *a, int f, size_t off)
{
	int best = a->funcs[f].body;
	for (size_t i = (size_t)best + 1; i < a->nnodes && pk_ast_in_subtree(a, (int)i, a->funcs[f].body); i++) {
		const struct pk_node *n = &a->nodes[i];
		if (n->start <= off && off < n->end && n->end - n->start <= a->nodes[best].end - a->nodes[best].start)
			best = (int)i;
	}
	return best;
}

static int func_at(const struct pk_ast *a, size_t off)
{
	for (size_t f = 0; f < a->nfuncs; f++) {
		const struct pk_node *b = &a->nodes[a->funcs[f].body];
		if (off > b->start && off < b->end)
			return (int)f;
	}
	return -1;
}

/* A new statement node from token I to token J (inclusive) in block P. */
static int add_token_stmt(struct pk_ast *a, int p, size_t i, size_t j)
{
	PK_GROW(a->nodes, a->cap_nodes, a->nnodes + 1);
	int me = (int)a->nnodes++;
	a->nodes[me] = (struct pk_node){clang_getNullCursor(),
	                                CXCursor_UnexposedStmt,
	                                p,
	                                a->nodes[p].func,
	                                a->tok[i].start,
	                                a->tok[j].end,
	                                1,
	                                0,
	                                0};
	return me;
}

/* The statement for a call at token K that the AST does not have. */
static int stmt_for_token(struct pk_ast *a, int f, size_t k)
{
	int st = deepest(a, f, a->tok[k].start);
	while (st >= 0 && !a->nodes[st].stmt && a->nodes[st].kind != CXCursor_CompoundStmt)
		st = a->nodes[st].parent;
	if (st < 0)
		return -1;
	if (a->nodes[st].kind != CXCursor_CompoundStmt)
		return st;
	size_t open = pk_tok_at(a, a->nodes[st].start), s, e;
	if (token_stmt(a, open, k, &s, &e) < 0)
		return -1;
	for (size_t i = 0; i < a->nnodes; i++) { /* the same statement, seen by the AST after all */
		const struct pk_node *n = &a->nodes[i];
		if (n->parent == st && n->stmt && n->start == a->tok[s].start)
			return (int)i;
	}
	return add_token_stmt(a, st, s, e);
}

static int has_call(const struct pk_ast *a, size_t ncalls, const char *name, size_t off)
{
	for (size_t i = 0; i < ncalls; i++)
		if (a->calls[i].off == off && !strcmp(a->calls[i].name, name))
			return 1;
	return 0;
}

/* A name in the AST where the token is (a type, a variable): not a call. */
static int named_in_ast(const struct pk_ast *a, int f, size_t off, size_t len)
{
	for (size_t i = (size_t)a->funcs[f].body; i < a->nnodes && pk_ast_in_subtree(a, (int)i, a->funcs[f].body);
	     i++) {
		enum CXCursorKind k = a->nodes[i].kind;
		if (a->nodes[i].start != off || !(k == CXCursor_TypeRef || k == CXCursor_TemplateRef ||
		                                  k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr))
			continue;
		/* the name written there (a macro's expansion names something else) */
		CXString s = clang_getCursorSpelling(a->nodes[i].c);
		const char *nm = clang_getCString(s);
		const char *last = strrchr(nm, ' '); /* "class X", "struct X" */
		last = last ? last + 1 : nm;
		size_t l = strlen(last);
		int same = l == len && !memcmp(last, a->b->data + off, l);
		clang_disposeString(s);
		if (same)
			return 1;
	}
	return 0;
}

/* Does the identifier at token I start a call: NAME( or NAME<...>( after
 * something that is not a type (so `T x(1);` is not a call of x)? */
static int token_call(const struct pk_ast *a, size_t i)
{
	if (a->tok[i].kind != CXToken_Identifier || (a->tok[i].flags & PK_TOK_DIRECTIVE) || i + 1 >= a->ntok)
		return 0;
	size_t j = i + 1;
	if (pk_tok_is(a, j, "<")) {
		int depth = 0;
		for (; j < a->ntok; j++) {
			if (pk_tok_is(a, j, "<"))
				depth++;
			else if (pk_tok_is(a, j, ">") && --depth == 0)
				break;
			else if (pk_tok_is(a, j, ">>") && (depth -= 2) <= 0)
				break;
			else if (pk_tok_is(a, j, ";") || pk_tok_is(a, j, "{") || pk_tok_is(a, j, "}"))
				return 0;
		}
		j++;
	}
	if (j >= a->ntok || !pk_tok_is(a, j, "("))
		return 0;
	if (i == 0 || (a->tok[i - 1].flags & PK_TOK_DIRECTIVE)) /* first after a directive line */
		return 1;
	const struct pk_tok *p = &a->tok[i - 1];
	if (p->kind == CXToken_Identifier)
		return 0;
	if (p->kind == CXToken_Keyword)
		return pk_tok_is(a, i - 1, "return") || pk_tok_is(a, i - 1, "else") || pk_tok_is(a, i - 1, "do");
	return !pk_tok_is(a, i - 1, ">") && !pk_tok_is(a, i - 1, "*") && !pk_tok_is(a, i - 1, "&") &&
	       !pk_tok_is(a, i - 1, "~");
}

/* Calls written in a function body that the AST does not hold (its
 * statement was dropped, or the callee is unknown to the parse), each with
 * the statement found from the tokens. */
void pk_ast_token_calls(struct pk_ast *a)
{
	size_t nast = a->ncalls;
	for (size_t i = 0; i < a->ntok; i++) {
		if (!token_call(a, i))
			continue;
		size_t off = a->tok[i].start;
		int f = func_at(a, off);
		char *name = pk_xstrndup(a->b->data + off, a->tok[i].end - off);
		if (f >= 0 && !live(a, i)) { /* counted for CALLEE#n, refused when picked */
			PK_GROW(a->calls, a->cap_calls, a->ncalls + 1);
			a->calls[a->ncalls++] = (struct pk_call){name, off, -1, 0, 1, 0};
			continue;
		}
		if (f < 0 || has_call(a, nast, name, off) || named_in_ast(a, f, off, a->tok[i].end - off) ||
		    pk_scan_block_at(&a->scan, off) >= 0) {
			free(name);
			continue;
		}
		int st = stmt_for_token(a, f, i);
		if (st < 0) {
			free(name);
			continue;
		}
		PK_GROW(a->calls, a->cap_calls, a->ncalls + 1);
		a->calls[a->ncalls++] = (struct pk_call){name, off, st, 0, 0, 0};
	}
	if (a->ncalls > nast)
		pk_ast_sort_calls(a);
}

/* Calls to NAME in regions the preprocessor skipped: the first one's
 * offset, or (size_t)-1. */
size_t pk_ast_inactive_call(const struct pk_ast *a, const char *name)
{
	for (size_t i = 0; i + 1 < a->ntok; i++)
		if ((a->tok[i].flags & PK_TOK_INACTIVE) && !(a->tok[i].flags & PK_TOK_DIRECTIVE) &&
		    pk_tok_is(a, i, name) && (pk_tok_is(a, i + 1, "(") || pk_tok_is(a, i + 1, "<")))
			return a->tok[i].start;
	return (size_t)-1;
}

/* The conditional directive governing skipped offset OFF: its line and
 * text (malloc'd, trimmed). */
char *pk_ast_skip_reason(const struct pk_ast *a, size_t off, unsigned *line)
{
	int r = in_ranges(a->skipped, a->nskipped, off);
	size_t s = r >= 0 ? a->skipped[r].start : off;
	while (s > 0 && a->b->data[s - 1] != '\n')
		s--;
	*line = pk_buf_line_of(a->b, s);
	size_t e = s;
	while (e < a->b->len && a->b->data[e] != '\n' && a->b->data[e] != '\r')
		e++;
	while (s < e && (a->b->data[s] == ' ' || a->b->data[s] == '\t'))
		s++;
	return pk_xstrndup(a->b->data + s, e - s);
}

/* Is the statement from S to E one use of a function-like macro: NAME(...)
 * with nothing after it but ';'? Then probes go around the use whole. */
int pk_ast_whole_macro_use(const struct pk_ast *a, size_t s, size_t e)
{
	size_t i = pk_tok_at(a, s);
	if (i + 1 >= a->ntok || a->tok[i].start != s || a->tok[i].kind != CXToken_Identifier ||
	    !pk_tok_is(a, i + 1, "("))
		return 0;
	size_t j = skip_group(a, i + 1);
	if (j < a->ntok && pk_tok_is(a, j, ";")) /* a declaration's extent holds its ';' */
		return e <= a->tok[j].end;
	return j > 0 && a->tok[j - 1].end >= e;
}

/* The first token of the declaration whose name is token NAME: after the
 * previous ';', '{', '}' or directive line. *EXTERN_C: the declaration, or
 * the block it opens into, is extern "C". */
static size_t decl_words(const struct pk_ast *a, size_t name, int *extern_c)
{
	size_t s = name;
	while (s > 0 && !(a->tok[s - 1].flags & PK_TOK_DIRECTIVE) && !pk_tok_is(a, s - 1, ";") &&
	       !pk_tok_is(a, s - 1, "{") && !pk_tok_is(a, s - 1, "}"))
		s--;
	*extern_c = 0;
	for (size_t i = s >= 3 && pk_tok_is(a, s - 1, "{") ? s - 3 : s; i + 1 < name; i++)
		if (pk_tok_is(a, i, "extern") && pk_tok_is(a, i + 1, "\"C\""))
			*extern_c = 1;
	return s;
}

/* Kernel entries read from the tokens, skipped code included: NAME(...)
 * and a body, an entry by pk_entry_rule. Counts those named WANT (any when
 * NULL or empty); *open and *close are the last one's braces. */
int pk_ast_text_entries(const struct pk_ast *a, const char *want, size_t *open, size_t *close)
{
	int n = 0;
	for (size_t i = 0; i + 1 < a->ntok; i++) {
		if ((a->tok[i].flags & PK_TOK_DIRECTIVE) || a->tok[i].kind != CXToken_Identifier ||
		    !pk_tok_is(a, i + 1, "("))
			continue;
		size_t k = skip_group_over(a, i + 1, PK_TOK_DIRECTIVE);
		while (k < a->ntok && !pk_tok_is(a, k, "{") && !pk_tok_is(a, k, ";") && !pk_tok_is(a, k, "}"))
			k++;
		if (k >= a->ntok || !pk_tok_is(a, k, "{") || (want && *want && !pk_tok_is(a, i, want)))
			continue;
		int extern_c;
		size_t s = decl_words(a, i, &extern_c);
		char *name = pk_xstrndup(a->b->data + a->tok[i].start, a->tok[i].end - a->tok[i].start);
		int entry =
		    pk_entry_rule(a->b->data + a->tok[s].start, a->tok[i].start - a->tok[s].start, extern_c, name);
		free(name);
		size_t c = skip_group_over(a, k, PK_TOK_DIRECTIVE);
		if (!entry || c > a->ntok || c == 0)
			continue;
		*open = a->tok[k].start;
		*close = a->tok[c - 1].start;
		n++;
		i = c - 1;
	}
	return n;
}

/* The macro whose #define body calls NAME (the first one), malloc'd, or
 * NULL; *def_line is its line and USES the lines where the file's code
 * (not a directive) uses it, "" when nowhere. */
char *pk_ast_macro_calling(struct pk_ast *a, const char *name, unsigned *def_line, char *uses, size_t cap)
{
	uses[0] = 0;
	for (size_t i = 0; i + 1 < a->ntok; i++) {
		if (!(a->tok[i].flags & PK_TOK_DIRECTIVE) || !pk_tok_is(a, i, name) ||
		    !(pk_tok_is(a, i + 1, "(") || pk_tok_is(a, i + 1, "<")))
			continue;
		size_t j = i;
		while (j > 0 && (a->tok[j - 1].flags & PK_TOK_DIRECTIVE) &&
		       !(pk_tok_is(a, j - 1, "#") && pk_tok_is(a, j, "define")))
			j--;
		if (j == 0 || !pk_tok_is(a, j - 1, "#") || !pk_tok_is(a, j, "define") || j + 1 >= i)
			continue;
		const struct pk_tok *m = &a->tok[j + 1];
		char *macro = pk_xstrndup(a->b->data + m->start, m->end - m->start);
		*def_line = pk_ast_line(a, m->start);
		size_t len = 0;
		unsigned last = 0;
		for (size_t k = 0; k < a->ntok && len + 16 < cap; k++) {
			if ((a->tok[k].flags & PK_TOK_DIRECTIVE) || !pk_tok_is(a, k, macro))
				continue;
			unsigned l = pk_ast_line(a, a->tok[k].start);
			if (l != last)
				len += (size_t)snprintf(uses + len, cap - len, "%s%u", len ? ", " : "", l);
			last = l;
		}
		return macro;
	}
	return NULL;
}
