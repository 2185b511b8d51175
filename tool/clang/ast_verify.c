/* ast_verify.c - nothing is written that does not parse: the planned text
 * is parsed again (same flags, stubs and unit as the first parse) and its
 * errors are compared with the first parse's, line by line through the
 * plan. An error on an inserted line, or one more on an original line,
 * refuses the edit, naming the error and the inserted line.
 *
 * What the check parses is the planned text with the bodies no edit
 * touches left blank (lines kept, so every line keeps its number): an
 * insertion into one body cannot change whether another body compiles, and
 * a body is where the parse spends its time (the templates it
 * instantiates). Two things could reach across bodies, and each makes the
 * check parse everything instead: an edit outside every body, or one that
 * adds a directive other than a conditional (an #include, a #define),
 * and inserted code whose meaning waits for a template's instantiation (a
 * blank caller would no longer instantiate it). */
#include "ast.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

/* Where byte X of the edited text came from: the original offset (*orig,
 * returns -1) or the index of the plan's edit whose text holds it. */
static long origin(const struct pk_plan *p, size_t x, size_t *orig)
{
	size_t no = 0, oo = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct pk_edit *e = &p->e[i];
		size_t keep = e->start - oo;
		if (x < no + keep) {
			*orig = oo + (x - no);
			return -1;
		}
		no += keep;
		oo = e->start;
		if (x < no + e->text_len) {
			*orig = e->start;
			return (long)i;
		}
		no += e->text_len;
		oo = e->end;
	}
	*orig = oo + (x - no);
	return -1;
}

/* The line of TEXT holding offset X, trimmed (malloc'd). */
static char *line_at(const char *text, size_t len, size_t x)
{
	size_t s = x < len ? x : len, e = s;
	while (s > 0 && text[s - 1] != '\n')
		s--;
	while (e < len && text[e] != '\n' && text[e] != '\r')
		e++;
	while (s < e && (text[s] == ' ' || text[s] == '\t'))
		s++;
	return pk_xstrndup(text + s, e - s);
}

/* Is there an error of the first parse, not yet matched, on LINE (0: a
 * header's) with message MSG? It is matched then. */
static int match_old(const struct pk_ast *a, unsigned char *used, unsigned line, const char *msg)
{
	for (size_t i = 0; i < a->nerrs; i++)
		if (!used[i] && a->errs[i].line == line && !strcmp(a->errs[i].msg, msg)) {
			used[i] = 1;
			return 1;
		}
	return 0;
}

/* The first inserted line at or after original offset OFF, else the last
 * one before it (the probe's line nearest an error it caused on an
 * original line), or NULL. */
static char *next_inserted(const struct pk_plan *p, size_t off, unsigned *line, struct pk_ast *a)
{
	const struct pk_edit *before = NULL;
	for (size_t i = 0; i < p->n; i++) {
		if (!p->e[i].text_len)
			continue;
		if (p->e[i].end >= off) {
			before = &p->e[i];
			break;
		}
		before = &p->e[i];
	}
	if (!before)
		return NULL;
	*line = pk_ast_line(a, before->start);
	return line_at(before->text, before->text_len, 0);
}

static int refuse(struct pk_ast *a, const struct pk_plan *plan, const char *text, size_t len,
                  const struct pk_parse_error *e, const char *name)
{
	size_t orig;
	long ins = e->line ? origin(plan, e->off, &orig) : -1;
	if (ins >= 0) {
		char *l = line_at(text, len, e->off);
		int rc = pk_error("%s:%u: probe '%s': the inserted line '%s' does not parse here: %s; nothing "
		                  "written (its API must be declared where the probe goes: give the build's "
		                  "flags with -p BUILD_DIR or after --)",
		                  a->b->path, pk_ast_line(a, orig), name, l, e->msg);
		free(l);
		return rc;
	}
	if (!e->line)
		return pk_error("%s: probe '%s': the result does not parse: %s; nothing written", a->b->path, name,
		                e->msg);
	unsigned il = 0;
	char *l = next_inserted(plan, orig, &il, a);
	int rc = pk_error("%s:%u: probe '%s': with the probe inserted (line %u: '%s') clang reports a new error "
	                  "here: %s; nothing written",
	                  a->b->path, pk_ast_line(a, orig), name, il, l ? l : "", e->msg);
	free(l);
	return rc;
}

/* Does the text of edit E hold a directive other than a conditional? */
static int edit_has_directive(const struct pk_edit *e)
{
	static const char *const ok[] = {"if", "ifdef", "ifndef", "elif", "else", "endif", NULL};
	const char *t = e->text, *end = e->text + e->text_len;
	for (const char *l = t; l < end;) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		const char *le = nl ? nl : end, *c = l;
		while (c < le && (*c == ' ' || *c == '\t'))
			c++;
		if (c < le && *c == '#') {
			c++;
			while (c < le && (*c == ' ' || *c == '\t'))
				c++;
			size_t w = 0;
			while (c + w < le && ((c[w] >= 'a' && c[w] <= 'z') || (c[w] >= 'A' && c[w] <= 'Z')))
				w++;
			int known = 0;
			for (const char *const *k = ok; *k; k++)
				known |= strlen(*k) == w && !memcmp(c, *k, w);
			if (!known)
				return 1;
		}
		l = le + 1;
	}
	return 0;
}

/* The body [S, E) of function F, or 0 when F has none the AST places. */
static int body_of(const struct pk_ast *a, const struct pk_func *f, size_t *s, size_t *e)
{
	if (f->body < 0 || (size_t)f->body >= a->nnodes)
		return 0;
	*s = a->nodes[f->body].start;
	*e = a->nodes[f->body].end;
	return *s + 2 <= *e && *e <= a->b->len && a->b->data[*s] == '{' && a->b->data[*e - 1] == '}';
}

/* May the body [S, E) of F be left blank? Not when an edit touches it, not
 * for a constexpr or consteval function or a deduced return type (their
 * bodies are part of what callers see), nor when its text holds a string
 * over several lines (a '#' there would look like a directive). */
static int blankable(const struct pk_ast *a, const struct pk_func *f, const struct pk_plan *p, size_t s, size_t e)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->e[i].end >= s && p->e[i].start <= e)
			return 0;
	if (f->is_constexpr)
		return 0;
	for (size_t t = pk_tok_at(a, f->start); t < a->ntok && a->tok[t].start < s; t++)
		if (pk_tok_is(a, t, "auto") || pk_tok_is(a, t, "decltype") || pk_tok_is(a, t, "consteval") ||
		    pk_tok_is(a, t, "constexpr"))
			return 0;
	for (size_t t = pk_tok_at(a, s); t < a->ntok && a->tok[t].start < e; t++)
		if (a->tok[t].kind == CXToken_Literal &&
		    memchr(a->b->data + a->tok[t].start, '\n', a->tok[t].end - a->tok[t].start))
			return 0;
	return 1;
}

/* Is the #pragma whose name is token T one that acts on what follows it in
 * the body (a loop hint such as `#pragma unroll`, which wants a statement
 * after it)? Pragmas that act on macros, packing or diagnostics are kept. */
static int statement_pragma(const struct pk_ast *a, size_t t)
{
	static const char *const keep[] = {"push_macro", "pop_macro", "pack", "diagnostic", NULL};
	for (size_t k = t; k < t + 2 && k < a->ntok && (a->tok[k].flags & PK_TOK_DIRECTIVE); k++)
		for (const char *const *w = keep; *w; w++)
			if (pk_tok_is(a, k, *w))
				return 0;
	return 1;
}

/* Lines of the body [S, E) that stay: directives, from the '#' that starts
 * one to its last continuation line, but for a pragma that acts on the
 * statement after it (left alone in a blank body it is an error). */
static void keep_directives(struct pk_ast *a, size_t s, size_t e, unsigned char *keep)
{
	struct pk_buf *b = a->b;
	for (size_t t = pk_tok_at(a, s); t < a->ntok && a->tok[t].start < e; t++) {
		if (!(a->tok[t].flags & PK_TOK_DIRECTIVE) || !pk_tok_is(a, t, "#"))
			continue;
		if (pk_tok_is(a, t + 1, "pragma") && statement_pragma(a, t + 2))
			continue;
		size_t l = pk_buf_line_of(b, a->tok[t].start) - 1;
		size_t ls = b->line_start[l];
		while (ls < a->tok[t].start && (b->data[ls] == ' ' || b->data[ls] == '\t'))
			ls++;
		if (ls != a->tok[t].start) /* not the line's first token */
			continue;
		for (; l < b->nlines; l++) {
			keep[l] = 1;
			size_t le = l + 1 < b->nlines ? b->line_start[l + 1] : b->len;
			while (le > b->line_start[l] && (b->data[le - 1] == '\n' || b->data[le - 1] == '\r'))
				le--;
			if (le == b->line_start[l] || b->data[le - 1] != '\\')
				break;
		}
	}
}

/* Blank the body [S, E) of F in T (a copy of the original): every byte but
 * line ends and the kept directive lines. A function that returns a value
 * gets __builtin_unreachable() on a line long enough, so the blank body
 * draws no warning an -Werror could turn into an error. 0 when it cannot. */
static int blank_body(struct pk_ast *a, const struct pk_func *f, char *t, size_t s, size_t e, unsigned char *keep)
{
	static const char unreachable[] = "__builtin_unreachable();";
	struct pk_buf *b = a->b;
	memset(keep + pk_buf_line_of(b, s) - 1, 0, pk_buf_line_of(b, e) - pk_buf_line_of(b, s) + 1);
	keep_directives(a, s, e, keep);
	int value = f->kind != CXCursor_Constructor && f->kind != CXCursor_Destructor &&
	            clang_getCursorResultType(f->cursor).kind != CXType_Void;
	size_t run = 0, first_dir = e;
	for (size_t o = s + 1; o + 1 < e; o++) {
		size_t l = pk_buf_line_of(b, o) - 1;
		if (keep[l]) {
			if (first_dir == e)
				first_dir = o;
			continue;
		}
		if (t[o] == '\n' || t[o] == '\r') {
			run = 0;
			continue;
		}
		t[o] = ' ';
		if (value && o < first_dir && ++run == sizeof(unreachable) - 1) {
			memcpy(t + o + 1 - run, unreachable, run);
			value = 0;
		}
	}
	return !value;
}

void pk_ast_check_text(struct pk_ast *a, const struct pk_plan *p, char **text, size_t *len, int *blanked)
{
	*blanked = 0;
	int across = 0;
	for (size_t i = 0; i < p->n && !across; i++) {
		const struct pk_edit *e = &p->e[i];
		across = e->text_len && edit_has_directive(e);
		int inside = 0;
		for (size_t k = 0; k < a->nfuncs && !inside && !across; k++) {
			size_t s, en;
			inside = body_of(a, &a->funcs[k], &s, &en) && e->start > s && e->end < en;
		}
		across |= !inside;
	}
	if (across) {
		pk_plan_apply(p, a->b->data, a->b->len, text, len);
		return;
	}
	char *t = pk_xmalloc(a->b->len + 1);
	memcpy(t, a->b->data, a->b->len);
	unsigned char *keep = pk_xcalloc(a->b->nlines + 1, 1);
	size_t done = 0; /* end of the last blank body: nested ones are blank already */
	for (size_t k = 0; k < a->nfuncs; k++) {
		const struct pk_func *f = &a->funcs[k];
		size_t s, e;
		if (!body_of(a, f, &s, &e) || s < done || !blankable(a, f, p, s, e))
			continue;
		if (blank_body(a, f, t, s, e, keep)) {
			done = e;
			*blanked = 1;
		} else {
			memcpy(t + s, a->b->data + s, e - s);
		}
	}
	free(keep);
	pk_plan_apply(p, t, a->b->len, text, len);
	free(t);
}

/* Is F a template, a member of one, or holding code that may be (a lambda
 * with an auto parameter)? Inserted code elsewhere is checked where it
 * stands. */
static int templated(const struct pk_ast *a, const struct pk_func *f, size_t body_end)
{
	if (f->kind == CXCursor_FunctionTemplate || f->in_template)
		return 1;
	for (size_t t = pk_tok_at(a, f->start); t < a->ntok && a->tok[t].start < body_end; t++)
		if (pk_tok_is(a, t, "template") || pk_tok_is(a, t, "auto"))
			return 1;
	return 0;
}

/* The stretches of the planned text to test for dependent inserted code:
 * from the first to the last insertion into each templated body (new
 * offsets, [2k, 2k+1]), counted into *N. Read before the check's reparse,
 * which drops the first parse's nodes. */
static size_t *template_windows(const struct pk_ast *a, const struct pk_plan *p, size_t *n)
{
	size_t *w = pk_xcalloc(2 * p->n + 2, sizeof(*w));
	size_t shift = 0; /* new offset minus original offset */
	long last = -1;   /* the function of the last window */
	*n = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct pk_edit *e = &p->e[i];
		size_t ns = e->start + shift;
		shift += e->text_len;
		shift -= e->end - e->start;
		if (!e->text_len)
			continue;
		for (size_t k = 0; k < a->nfuncs; k++) {
			size_t s, en;
			if (!body_of(a, &a->funcs[k], &s, &en) || e->start <= s || e->end >= en)
				continue;
			if (!templated(a, &a->funcs[k], en))
				break;
			if (last == (long)k) {
				w[2 * *n - 1] = ns + e->text_len;
			} else {
				w[2 * *n] = ns;
				w[2 * *n + 1] = ns + e->text_len;
				++*n;
				last = (long)k;
			}
			break;
		}
	}
	return w;
}

/* Does inserted code in the windows W (template_windows) of the checked
 * unit wait for an instantiation: a name or type that depends on a
 * template parameter? Its errors would show only when a caller
 * instantiates the template, and a blank caller does not. */
static int inserted_dependent(struct pk_ast *a, const struct pk_plan *p, const size_t *w, size_t nw)
{
	CXFile f = clang_getFile(a->tu, a->cpath);
	int dep = 0;
	for (size_t i = 0; i < nw && !dep; i++) {
		CXSourceRange r = clang_getRange(clang_getLocationForOffset(a->tu, f, (unsigned)w[2 * i]),
		                                 clang_getLocationForOffset(a->tu, f, (unsigned)w[2 * i + 1]));
		CXToken *tk = NULL;
		unsigned n = 0;
		clang_tokenize(a->tu, r, &tk, &n);
		if (!n)
			continue;
		CXCursor *c = pk_xcalloc(n, sizeof(*c));
		clang_annotateTokens(a->tu, tk, n, c);
		for (unsigned k = 0; k < n && !dep; k++) {
			unsigned off;
			size_t orig;
			clang_getFileLocation(clang_getTokenLocation(a->tu, tk[k]), NULL, NULL, NULL, &off);
			if (off >= w[2 * i + 1] || origin(p, off, &orig) < 0) /* a token of the original text */
				continue;
			enum CXTypeKind tk_ = clang_getCursorType(c[k]).kind;
			enum CXCursorKind ck = clang_getCursorKind(c[k]);
			enum CXCursorKind rk = clang_getCursorKind(clang_getCursorReferenced(c[k]));
			dep = tk_ == CXType_Dependent || tk_ == CXType_Unexposed || ck == CXCursor_OverloadedDeclRef ||
			      rk == CXCursor_TemplateTypeParameter || rk == CXCursor_NonTypeTemplateParameter ||
			      rk == CXCursor_TemplateTemplateParameter;
		}
		free(c);
		clang_disposeTokens(a->tu, tk, n);
	}
	return dep;
}

int pk_ast_verify(struct pk_ast *a, const struct pk_plan *plan, const char *name)
{
	if (!plan->n)
		return 0;
	char *text;
	size_t len;
	int blanked;
	pk_ast_check_text(a, plan, &text, &len, &blanked);
	size_t nw = 0;
	size_t *w = blanked ? template_windows(a, plan, &nw) : NULL;
	struct pk_parse_error *errs;
	size_t n;
	int rc = pk_ast_reparse(a, text, len, &errs, &n);
	int dep = rc == 0 && nw && inserted_dependent(a, plan, w, nw);
	free(w);
	if (dep) {
		/* parse it all: the instantiations decide */
		pk_parse_errors_free(errs, n);
		free(text);
		pk_plan_apply(plan, a->b->data, a->b->len, &text, &len);
		rc = pk_ast_reparse(a, text, len, &errs, &n);
	}
	unsigned char *used = pk_xcalloc(a->nerrs + 1, 1);
	for (size_t i = 0; i < n && rc == 0; i++) {
		size_t orig = 0;
		unsigned line = 0;
		if (errs[i].line && origin(plan, errs[i].off, &orig) < 0)
			line = pk_ast_line(a, orig);
		else if (errs[i].line)
			line = (unsigned)-1; /* an inserted line: never matched */
		if (!match_old(a, used, line, errs[i].msg))
			rc = refuse(a, plan, text, len, &errs[i], name);
	}
	free(used);
	pk_parse_errors_free(errs, n);
	free(text);
	return rc;
}
