/* tt_pytok.c - Python's tokens, enough to edit a test script or a pypto
 * model by its structure: names, numbers, strings (any prefix, triple
 * quotes, f-string replacement fields), operators with their matching
 * brackets, NEWLINE at the end of each logical line, INDENT/DEDENT from
 * Python's indentation rules (a tab to the next multiple of 8, and the
 * tab-size-1 reading must order lines the same way), backslash
 * continuations. What the tokenizer cannot read is refused with its line:
 * the file is then not edited. */
#include "tt.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

struct scan {
	struct pyt *p;
	const char *d;
	size_t n, pos, line;
	size_t *open; /* the stack of open brackets (token indexes) */
	size_t nopen, capopen;
	long *ind, *alt; /* the indentation stack: columns, tab-size-1 columns */
	size_t nind, capind, capalt;
};

static int fail(struct scan *s, size_t line, const char *what, const char *todo)
{
	return pk_error("%s:%zu: %s: %s; nothing was written", s->p->b->path, line + 1, what, todo);
}

static void new_line(struct scan *s, size_t at)
{
	struct pyt *p = s->p;
	size_t cap = p->nl;
	PK_GROW(p->ls, cap, p->nl + 1);
	p->lf = realloc(p->lf, cap);
	p->ls[p->nl] = at;
	p->lf[p->nl] = 0;
	p->nl++;
}

/* Past a newline at s->pos ("\n" or "\r\n"), counting the line. */
static void eat_newline(struct scan *s)
{
	if (s->d[s->pos] == '\r' && s->pos + 1 < s->n && s->d[s->pos + 1] == '\n')
		s->pos++;
	s->pos++;
	s->line++;
	new_line(s, s->pos);
}

static size_t add_tok(struct scan *s, int kind, size_t a, size_t e)
{
	struct pyt *p = s->p;
	PK_GROW(p->t, p->cap, p->n + 1);
	struct pyt_tok *t = &p->t[p->n];
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->s = a;
	t->e = e;
	t->line = s->line;
	t->depth = (int)s->nopen;
	t->level = (int)s->nind - 1;
	t->match = (size_t)-1;
	return p->n++;
}

static int is_name(unsigned char c, int first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80 ||
	       (!first && c >= '0' && c <= '9');
}

static int skip_fexpr(struct scan *s, char q, int triple, size_t start);

/* The string whose prefix starts at s->pos and whose quote is at Q: past its end. */
static int skip_string(struct scan *s, size_t q)
{
	int f = 0;
	for (size_t i = s->pos; i < q; i++)
		f |= s->d[i] == 'f' || s->d[i] == 'F' || s->d[i] == 't' || s->d[i] == 'T';
	size_t start = s->line;
	char c = s->d[q];
	int triple = q + 2 < s->n && s->d[q + 1] == c && s->d[q + 2] == c;
	s->pos = q + (triple ? 3 : 1);
	while (s->pos < s->n) {
		char x = s->d[s->pos];
		if (x == '\\' && f && s->pos + 1 < s->n && (s->d[s->pos + 1] == '{' || s->d[s->pos + 1] == '}')) {
			s->pos++; /* no escape: the brace still opens or closes a field */
		} else if (x == '\\' && s->pos + 1 < s->n) {
			s->pos++;
			if (s->d[s->pos] == '\n' || s->d[s->pos] == '\r') {
				s->p->lf[s->p->nl - 1] |= PYT_LINE_STR;
				eat_newline(s);
			} else
				s->pos++;
		} else if (x == '\n' || x == '\r') {
			if (!triple)
				break;
			s->p->lf[s->p->nl - 1] |= PYT_LINE_STR;
			eat_newline(s);
		} else if (x == c &&
		           (!triple || (s->pos + 2 < s->n && s->d[s->pos + 1] == c && s->d[s->pos + 2] == c))) {
			s->pos += triple ? 3 : 1;
			return 0;
		} else if (f && x == '{' && s->pos + 1 < s->n && s->d[s->pos + 1] == '{') {
			s->pos += 2;
		} else if (f && x == '{') {
			s->pos++;
			if (skip_fexpr(s, c, triple, start) < 0)
				return -1;
		} else {
			s->pos++;
		}
	}
	return fail(s, start, "unterminated string (it opens on this line)",
	            "close it, or restore the end of the file if it was cut short");
}

/* An f-string's replacement field, after its '{': past its '}'. A format
 * spec (after a top-level ':') is text with nested fields. */
static int skip_fexpr(struct scan *s, char q, int triple, size_t start)
{
	int depth = 0, spec = 0;
	while (s->pos < s->n) {
		char x = s->d[s->pos];
		if (x == '\n' || x == '\r') {
			if (!triple)
				break;
			s->p->lf[s->p->nl - 1] |= PYT_LINE_STR;
			eat_newline(s);
			continue;
		}
		if (spec && x == q && !triple)
			break;
		if (!spec && (x == '"' || x == '\'')) { /* a nested string (its prefix read as text) */
			if (skip_string(s, s->pos) < 0)
				return -1;
			continue;
		}
		if (x == '}' && depth == 0) {
			s->pos++;
			return 0;
		}
		if (x == '{' && spec) {
			s->pos++;
			if (skip_fexpr(s, q, triple, start) < 0)
				return -1;
			continue;
		}
		if (!spec && (x == '(' || x == '[' || x == '{'))
			depth++;
		else if (!spec && (x == ')' || x == ']' || x == '}'))
			depth--;
		else if (!spec && x == ':' && depth == 0)
			spec = 1;
		s->pos++;
	}
	return fail(s, start, "unterminated f-string field (the string opens on this line)",
	            "close the field's '{' and the string");
}

/* Indentation of a logical line's first token: INDENT / DEDENT tokens. */
static int indentation(struct scan *s, size_t ls, long col, long alt)
{
	if (col > s->ind[s->nind - 1]) {
		if (alt <= s->alt[s->nind - 1])
			return fail(s, s->line,
			            "tabs and spaces mixed in the indentation, so that its depth depends on "
			            "the tab size",
			            "indent with one of them");
		PK_GROW(s->ind, s->capind, s->nind + 1);
		PK_GROW(s->alt, s->capalt, s->nind + 1);
		s->ind[s->nind] = col;
		s->alt[s->nind] = alt;
		s->nind++;
		add_tok(s, PYT_INDENT, ls, s->pos);
		return 0;
	}
	while (col < s->ind[s->nind - 1]) {
		s->nind--;
		add_tok(s, PYT_DEDENT, ls, ls);
	}
	if (col != s->ind[s->nind - 1])
		return fail(s, s->line, "the indentation matches no enclosing block", "align it with its block");
	if (alt != s->alt[s->nind - 1])
		return fail(s, s->line,
		            "tabs and spaces mixed in the indentation, so that its depth depends on the tab size",
		            "indent with one of them");
	return 0;
}

/* At the start of a physical line outside brackets: its indentation, or
 * nothing when the line is blank or a comment. *logical: a token follows. */
static int line_start(struct scan *s, int *logical)
{
	size_t ls = s->pos;
	long col = 0, alt = 0;
	for (; s->pos < s->n; s->pos++) {
		char c = s->d[s->pos];
		if (c == ' ')
			col++, alt++;
		else if (c == '\t')
			col = (col / 8 + 1) * 8, alt++;
		else if (c == '\f')
			col = alt = 0;
		else
			break;
	}
	char c = s->pos < s->n ? s->d[s->pos] : '\n';
	*logical = !(c == '#' || c == '\n' || c == '\r');
	if (s->pos >= s->n)
		*logical = 0;
	return *logical ? indentation(s, ls, col, alt) : 0;
}

static int bracket(struct scan *s, char c)
{
	struct pyt *p = s->p;
	if (c == '(' || c == '[' || c == '{') {
		size_t i = add_tok(s, PYT_OP, s->pos, s->pos + 1);
		PK_GROW(s->open, s->capopen, s->nopen + 1);
		s->open[s->nopen++] = i;
		return 0;
	}
	char want = c == ')' ? '(' : c == ']' ? '[' : '{';
	if (!s->nopen || s->d[p->t[s->open[s->nopen - 1]].s] != want)
		return fail(s, s->line,
		            s->nopen ? "closing bracket does not match the open one"
		                     : "closing bracket "
		                       "with none open",
		            "balance the brackets");
	size_t o = s->open[--s->nopen];
	size_t i = add_tok(s, PYT_OP, s->pos, s->pos + 1);
	p->t[i].match = o;
	p->t[o].match = i;
	return 0;
}

/* One token (or a comment, a continuation, a newline) at s->pos. */
static int one(struct scan *s, int *at_start)
{
	const char *d = s->d;
	char c = d[s->pos];
	if (c == ' ' || c == '\t' || c == '\f') {
		s->pos++;
	} else if (c == '#') {
		while (s->pos < s->n && d[s->pos] != '\n' && d[s->pos] != '\r')
			s->pos++;
	} else if (c == '\n' || c == '\r') {
		struct pyt *p = s->p;
		if (s->nopen)
			p->lf[p->nl - 1] |= PYT_LINE_BRK;
		else if (p->n && p->t[p->n - 1].kind != PYT_NEWLINE)
			add_tok(s, PYT_NEWLINE, s->pos, s->pos);
		eat_newline(s);
		*at_start = !s->nopen;
	} else if (c == '\\') {
		size_t nl = s->pos + 1 + (s->pos + 2 < s->n && d[s->pos + 1] == '\r' && d[s->pos + 2] == '\n');
		if (nl >= s->n)
			return fail(s, s->line, "the file ends after a line continuation",
			            "restore the end of the file");
		if (d[nl] != '\n' && d[nl] != '\r')
			return fail(s, s->line, "a backslash outside a string that does not end the line",
			            "remove what follows it");
		s->p->lf[s->p->nl - 1] |= PYT_LINE_CONT;
		s->pos = nl;
		eat_newline(s);
	} else if (c == '"' || c == '\'') {
		size_t a = s->pos, line = s->line;
		if (skip_string(s, s->pos) < 0)
			return -1;
		size_t i = add_tok(s, PYT_STRING, a, s->pos);
		s->p->t[i].line = line; /* the line it starts on */
	} else if (is_name((unsigned char)c, 1)) {
		size_t a = s->pos;
		while (s->pos < s->n && is_name((unsigned char)d[s->pos], 0))
			s->pos++;
		size_t len = s->pos - a;
		if (s->pos < s->n && (d[s->pos] == '"' || d[s->pos] == '\'') && len <= 2 &&
		    strspn(d + a, "rRbBuUfFtT") >= len) {
			size_t line = s->line;
			s->pos = a;
			if (skip_string(s, a + len) < 0)
				return -1;
			size_t i = add_tok(s, PYT_STRING, a, s->pos);
			s->p->t[i].line = line;
		} else {
			add_tok(s, PYT_NAME, a, s->pos);
		}
	} else if (c >= '0' && c <= '9') {
		size_t a = s->pos;
		while (s->pos < s->n && (is_name((unsigned char)d[s->pos], 0) || d[s->pos] == '.'))
			s->pos++;
		add_tok(s, PYT_NUMBER, a, s->pos);
	} else if (strchr("()[]{}", c)) {
		if (bracket(s, c) < 0)
			return -1;
		s->pos++;
	} else { /* one character, but the ellipsis is one token */
		size_t len = c == '.' && s->pos + 2 < s->n && d[s->pos + 1] == '.' && d[s->pos + 2] == '.' ? 3 : 1;
		add_tok(s, PYT_OP, s->pos, s->pos + len);
		s->pos += len;
	}
	return 0;
}

/* A block's first line needs its body; the file must not end inside a statement. */
static int blocks_closed(struct scan *s)
{
	struct pyt *p = s->p;
	size_t k = p->n;
	while (k > 0 && (p->t[k - 1].kind == PYT_NEWLINE || p->t[k - 1].kind == PYT_DEDENT))
		k--;
	if (k > 0 && pyt_is(p, k - 1, PYT_OP, ":"))
		return fail(s, p->t[k - 1].line, "the file ends with a block's first line and no body",
		            "restore the end of the file");
	if (k > 0 && pyt_is(p, k - 1, PYT_OP, NULL) && p->t[k - 1].e - p->t[k - 1].s == 1 &&
	    !strchr(")]};,", s->d[p->t[k - 1].s]) && !pyt_is(p, k - 1, PYT_OP, "*"))
		return fail(s, p->t[k - 1].line, "the file ends inside a statement (after an operator)",
		            "restore the end of the file");
	for (size_t i = 1; i + 1 < p->n; i++)
		if (p->t[i].kind == PYT_NEWLINE && pyt_is(p, i - 1, PYT_OP, ":") && p->t[i + 1].kind != PYT_INDENT)
			return fail(s, p->t[i - 1].line, "a block's first line without an indented body",
			            "indent its body (or restore the end of the file if it was cut short)");
	return 0;
}

static int finish(struct scan *s)
{
	struct pyt *p = s->p;
	if (s->nopen)
		return fail(s, p->t[s->open[s->nopen - 1]].line, "bracket not closed before the end of the file",
		            "close it, or restore the end of the file if it was cut short");
	if (p->n && p->t[p->n - 1].kind != PYT_NEWLINE)
		add_tok(s, PYT_NEWLINE, s->n, s->n);
	while (s->nind > 1) {
		s->nind--;
		add_tok(s, PYT_DEDENT, s->n, s->n);
	}
	return blocks_closed(s);
}

int pyt_scan(struct pyt *p, const struct pk_buf *b)
{
	memset(p, 0, sizeof(*p));
	p->b = b;
	struct scan s = {p, b->data, b->len, 0, 0, NULL, 0, 0, NULL, NULL, 0, 0, 0};
	if (b->len >= 3 && !memcmp(b->data, "\xEF\xBB\xBF", 3)) /* a UTF-8 byte order mark */
		s.pos = 3;
	PK_GROW(s.ind, s.capind, 1);
	PK_GROW(s.alt, s.capalt, 1);
	s.ind[0] = s.alt[0] = 0;
	s.nind = 1;
	new_line(&s, 0);
	int rc = 0, at_start = 1;
	if (memchr(b->data, '\0', b->len))
		rc = fail(&s, 0, "the file holds a NUL byte", "it is not a Python source");
	while (rc == 0 && s.pos < s.n) {
		if (at_start) {
			int logical;
			at_start = 0;
			rc = line_start(&s, &logical);
			if (rc < 0 || s.pos >= s.n)
				break;
		}
		rc = one(&s, &at_start);
	}
	if (rc == 0)
		rc = finish(&s);
	if (rc == 0) {
		p->stmt = pk_xcalloc(p->n + 1, sizeof(*p->stmt));
		for (size_t i = 0, cur = 0; i < p->n; i++) {
			int k = i ? p->t[i - 1].kind : 0;
			if (k == PYT_NEWLINE || k == PYT_INDENT || k == PYT_DEDENT)
				cur = i;
			p->stmt[i] = cur;
		}
	}
	free(s.open);
	free(s.ind);
	free(s.alt);
	if (rc < 0)
		pyt_free(p);
	return rc;
}

void pyt_free(struct pyt *p)
{
	free(p->t);
	free(p->ls);
	free(p->lf);
	free(p->stmt);
	memset(p, 0, sizeof(*p));
}

int pyt_is(const struct pyt *p, size_t i, int kind, const char *text)
{
	if (i >= p->n || p->t[i].kind != kind)
		return 0;
	size_t n = p->t[i].e - p->t[i].s;
	return !text || (strlen(text) == n && !memcmp(p->b->data + p->t[i].s, text, n));
}

int pyt_string_is(const struct pyt *p, size_t i, const char *text)
{
	if (i >= p->n || p->t[i].kind != PYT_STRING)
		return 0;
	const char *a = p->b->data + p->t[i].s, *e = p->b->data + p->t[i].e;
	size_t n = strlen(text);
	return e - a == (long)n + 2 && (*a == '"' || *a == '\'') && !memcmp(a + 1, text, n);
}

size_t pyt_line_end(const struct pyt *p, size_t line)
{
	size_t e = line + 1 < p->nl ? p->ls[line + 1] : p->b->len;
	while (e > p->ls[line] && (p->b->data[e - 1] == '\n' || p->b->data[e - 1] == '\r'))
		e--;
	return e;
}

size_t pyt_stmt(const struct pyt *p, size_t i)
{
	return i < p->n ? p->stmt[i] : p->n;
}

size_t pyt_line_of(const struct pyt *p, size_t pos)
{
	size_t lo = 0, hi = p->nl;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (p->ls[mid] <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}
