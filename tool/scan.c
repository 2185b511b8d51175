/* scan.c - find TIMING_PROBE blocks without a compiler.
 *
 * A small C/C++ lexer: it knows comments, string, character and raw-string
 * literals, pp-numbers (1'000 is not a character literal), backslash line
 * splicing and preprocessor directives, and tracks #if nesting and brace
 * scopes. Everything else is opaque bytes. One pass, no allocation per byte. */
#include "scan.h"
#include "pk.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum lex_state { CODE, LINE_COMMENT, BLOCK_COMMENT, STRING, RAW };

struct cond {       /* one open #if... */
	long block; /* index into blocks when a probe block, else -1 */
	size_t off; /* directive offset, for messages */
};

struct lexer {
	const char *d;
	size_t n;
	struct pk_scan *s;
	int flags;
	enum lex_state st;
	char quote;            /* STRING: '"' or '\'' */
	const char *raw_delim; /* RAW: delimiter (points into d) */
	size_t raw_len;
	size_t comment_start;
	size_t *scopes; /* open brace scopes */
	size_t nopen, cap_open;
	size_t func_depth; /* open function-body scopes */
	struct cond *conds;
	size_t nconds, cap_conds;
	long probe_open;      /* innermost open probe block, or -1 */
	size_t first_comment; /* first comment opened since reset, or (size_t)-1 */
	unsigned line;        /* 1-based line at the current position */
};

/* Lex one physical line and count it. */
static size_t lex_line(struct lexer *L, size_t i, int *spliced);
static size_t next_line(struct lexer *L, size_t i, int *spliced)
{
	size_t e = lex_line(L, i, spliced);
	if (e > 0 && L->d[e - 1] == '\n')
		L->line++;
	return e;
}

static void add_error(struct pk_scan *s, size_t off, const char *fmt, ...) PK_PRINTF(3, 4);
static void add_error(struct pk_scan *s, size_t off, const char *fmt, ...)
{
	PK_GROW(s->errors, s->cap_errors, s->nerrors + 1);
	va_list ap;
	va_start(ap, fmt);
	s->errors[s->nerrors].msg = pk_xvasprintf(fmt, ap);
	va_end(ap);
	s->errors[s->nerrors++].off = off;
}

int pk_probe_name_ok(const char *name)
{
	if (!(isalpha((unsigned char)*name) || *name == '_'))
		return 0;
	for (const char *p = name + 1; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_'))
			return 0;
	return 1;
}

int pk_canonical_directive(char *dst, size_t cap, int enabled, const char *name)
{
	return snprintf(dst, cap, "#if %d  // " PK_MARKER " %s", enabled ? 1 : 0, name);
}

char *pk_base_mark_text(enum pk_base_mark m, const char *name)
{
	if (m == PK_BASE_MARK_ADDED)
		return pk_xasprintf(" (%s)", PK_NAME_PROBE_BASE_ADDED);
	return pk_xasprintf(" (%s%s)", PK_NAME_PROBE_BASE_ON, name);
}

/* The base probe's mark right after its name at P, up to LE: one space,
 * '(', the words (and a probe name), ')', then the line's or the comment's
 * end or a blank. Fills B's mark fields. */
static void base_mark(struct pk_block *b, const char *d, size_t p, size_t le)
{
	static const char *const words[] = {PK_NAME_PROBE_BASE_ADDED, PK_NAME_PROBE_BASE_ON};
	for (int m = 0; m < 2; m++) {
		size_t wl = strlen(words[m]), e = p + 2 + wl, n0 = e;
		if (e > le || memcmp(d + p, " (", 2) || memcmp(d + p + 2, words[m], wl))
			continue;
		while (m == 1 && e < le && pk_is_ident((unsigned char)d[e]))
			e++;
		if ((m == 1 && e == n0) || e >= le || d[e] != ')')
			continue;
		e++;
		if (e == le || d[e] == ' ' || d[e] == '\t' || d[e] == '*') {
			b->mark = m ? PK_BASE_MARK_ON : PK_BASE_MARK_ADDED;
			b->mark_end = e;
			b->mark_probe = n0;
			b->mark_probe_len = e - 1 - n0;
			return;
		}
	}
}

/* A backslash-newline at I? Returns its length (2 or 3 with \r), else 0. */
static size_t splice_at(const char *d, size_t n, size_t i)
{
	if (i < n && d[i] == '\\') {
		if (i + 1 < n && d[i + 1] == '\n')
			return 2;
		if (i + 2 < n && d[i + 1] == '\r' && d[i + 2] == '\n')
			return 3;
	}
	return 0;
}

/* Bytes that can change the lexer state in code; everything else is skipped. */
static const unsigned char code_special[256] = {
    ['\n'] = 1, ['\\'] = 1, ['/'] = 1, ['"'] = 1, ['\''] = 1, ['{'] = 1, ['}'] = 1,
};

/* Is the '"' at Q the quote of a raw string (R, u8R, uR, UR, LR prefix)? */
static int raw_prefix(const char *d, size_t q)
{
	size_t j = q;
	while (j > 0 && q - j < 4 && pk_is_ident((unsigned char)d[j - 1]))
		j--;
	if (j > 0 && pk_is_ident((unsigned char)d[j - 1]))
		return 0;
	size_t len = q - j;
	const char *w = d + j;
	return (len == 1 && w[0] == 'R') || (len == 2 && strchr("uUL", w[0]) && w[1] == 'R') ||
	       (len == 3 && !memcmp(w, "u8R", 3));
}

/* Is the '\'' at Q a C++14 digit separator (inside a pp-number like 1'000)? */
int pk_digit_separator(const char *d, size_t q)
{
	size_t j = q;
	while (j > 0 && q - j < 256 && (pk_is_ident((unsigned char)d[j - 1]) || d[j - 1] == '.' || d[j - 1] == '\''))
		j--;
	if (j == q)
		return 0;
	return isdigit((unsigned char)d[j]) || (d[j] == '.' && isdigit((unsigned char)d[j + 1]));
}

/* Does the '{' at B follow a ')' (white space between)? A function body or a
 * control statement's block; open_scope tells them apart. */
static int follows_paren(const char *d, size_t b)
{
	size_t j = b;
	while (j > 0 && b - j < 256 && d[j - 1] && strchr(" \t\r\n", d[j - 1]))
		j--;
	return j > 0 && d[j - 1] == ')';
}

static void open_comment(struct lexer *L, size_t i)
{
	L->comment_start = i;
	if (L->first_comment == (size_t)-1)
		L->first_comment = i;
}

static void close_comment(struct lexer *L, size_t end)
{
	if (!(L->flags & PK_SCAN_COMMENTS))
		return;
	struct pk_scan *s = L->s;
	PK_GROW(s->comments, s->cap_comments, s->ncomments + 1);
	s->comments[s->ncomments++] = (struct pk_range){L->comment_start, end};
}

static void open_scope(struct lexer *L, int after_paren)
{
	struct pk_scan *s = L->s;
	size_t parent = L->nopen ? L->scopes[L->nopen - 1] : 0;
	size_t id = s->nscopes++;
	PK_GROW(s->scope_parent, s->cap_scopes, s->nscopes);
	PK_GROW(s->scope_is_func, s->cap_scope_func, s->nscopes);
	s->scope_parent[id] = parent;
	s->scope_is_func[id] = after_paren && L->func_depth == 0;
	L->func_depth += s->scope_is_func[id];
	PK_GROW(L->scopes, L->cap_open, L->nopen + 1);
	L->scopes[L->nopen++] = id;
}

static void close_scope(struct lexer *L)
{
	if (L->nopen == 0)
		return; /* unbalanced braces are the compiler's business */
	size_t id = L->scopes[--L->nopen];
	L->func_depth -= L->s->scope_is_func[id];
}

/* Raw string R"delim( ... )delim" starting with the quote at I. */
static size_t start_raw(struct lexer *L, size_t i)
{
	size_t j = i + 1;
	while (j < L->n && j - i - 1 < 16 && L->d[j] != '(' && L->d[j] != '\n')
		j++;
	if (j >= L->n || L->d[j] != '(') {
		L->st = STRING; /* not a valid raw string: lex as a plain one */
		L->quote = '"';
		return i + 1;
	}
	L->st = RAW;
	L->raw_delim = L->d + i + 1;
	L->raw_len = j - i - 1;
	return j + 1;
}

/* From *PI to the first C on the line: 0 with *PI just past it, or 1 when
 * the line (or the text) ends first, *PI then past its '\n' (or at n). */
static int find_on_line(const struct lexer *L, size_t *pi, char c)
{
	const char *d = L->d;
	size_t n = L->n, i = *pi;
	const char *hit = memchr(d + i, c, n - i);
	const char *nl = memchr(d + i, '\n', n - i);
	if (nl && (!hit || nl < hit)) {
		*pi = (size_t)(nl - d) + 1;
		return 1;
	}
	*pi = hit ? (size_t)(hit - d) + 1 : n;
	return !hit;
}

/* The lexer steps: each goes on from *I in its state and returns 1 when the
 * line ended, *I then past its '\n' (or at n); *spliced tells whether it
 * ended in backslash-newline. */
static int step_raw(struct lexer *L, size_t *pi)
{
	if (find_on_line(L, pi, ')'))
		return 1;
	size_t i = *pi;
	if (L->n - i >= L->raw_len + 1 && !memcmp(L->d + i, L->raw_delim, L->raw_len) && L->d[i + L->raw_len] == '"') {
		*pi = i + L->raw_len + 1;
		L->st = CODE;
	}
	return 0;
}

static int step_block_comment(struct lexer *L, size_t *pi)
{
	if (find_on_line(L, pi, '*'))
		return 1;
	if (*pi < L->n && L->d[*pi] == '/') {
		++*pi;
		L->st = CODE;
		close_comment(L, *pi);
	}
	return 0;
}

static int step_line_comment(struct lexer *L, size_t *pi, int *spliced)
{
	const char *d = L->d;
	size_t n = L->n, i = *pi;
	const char *nl = memchr(d + i, '\n', n - i);
	if (!nl) {
		close_comment(L, n);
		L->st = CODE;
		*pi = n;
		return 1;
	}
	size_t e = (size_t)(nl - d);
	size_t bs = e > i && d[e - 1] == '\r' ? e - 1 : e;
	*pi = e + 1;
	if (bs > i && d[bs - 1] == '\\') {
		*spliced = 1;
		return 1;
	}
	close_comment(L, bs);
	L->st = CODE;
	return 1;
}

static int step_string(struct lexer *L, size_t *pi, int *spliced)
{
	const char *d = L->d;
	size_t n = L->n, i = *pi;
	char c = d[i];
	if (c == '\\') {
		size_t sp = splice_at(d, n, i);
		if (sp) {
			*spliced = 1;
			*pi = i + sp;
			return 1;
		}
		*pi = i + 2;
		return 0;
	}
	*pi = i + 1;
	if (c == '\n') { /* unterminated literal: recover at end of line */
		L->st = CODE;
		return 1;
	}
	if (c == L->quote)
		L->st = CODE;
	return 0;
}

/* Code: skip to the next byte that can change the state, and take it. */
static int step_code(struct lexer *L, size_t *pi, int *spliced)
{
	const char *d = L->d;
	size_t n = L->n, i = *pi;
	while (i < n && !code_special[(unsigned char)d[i]])
		i++;
	*pi = i + 1;
	if (i >= n) {
		*pi = n;
		return 1;
	}
	char c = d[i];
	switch (c) {
	case '\n':
		return 1;
	case '\\': {
		size_t sp = splice_at(d, n, i);
		if (sp) {
			*spliced = 1;
			*pi = i + sp;
			return 1;
		}
		return 0;
	}
	case '/':
		if (i + 1 < n && (d[i + 1] == '/' || d[i + 1] == '*')) {
			open_comment(L, i);
			L->st = d[i + 1] == '/' ? LINE_COMMENT : BLOCK_COMMENT;
			*pi = i + 2;
		}
		return 0;
	case '"':
		if (raw_prefix(d, i)) {
			*pi = start_raw(L, i);
			return 0;
		}
		L->st = STRING;
		L->quote = c;
		return 0;
	case '\'':
		if (!pk_digit_separator(d, i)) {
			L->st = STRING;
			L->quote = c;
		}
		return 0;
	case '{':
		open_scope(L, follows_paren(d, i));
		return 0;
	case '}':
		close_scope(L);
		return 0;
	}
	return 0;
}

/* Lex one physical line from I in the current state. Returns the offset just
 * past its '\n' (or n). *spliced tells whether it ended in backslash-newline. */
static size_t lex_line(struct lexer *L, size_t i, int *spliced)
{
	*spliced = 0;
	while (i < L->n) {
		int end = 0;
		switch (L->st) {
		case RAW:
			end = step_raw(L, &i);
			break;
		case BLOCK_COMMENT:
			end = step_block_comment(L, &i);
			break;
		case LINE_COMMENT:
			end = step_line_comment(L, &i, spliced);
			break;
		case STRING:
			end = step_string(L, &i, spliced);
			break;
		case CODE:
			end = step_code(L, &i, spliced);
			break;
		}
		if (end)
			return i;
	}
	return L->n;
}

/* ---- directives ------------------------------------------------------ */

static size_t skip_hspace(const char *d, size_t i, size_t end)
{
	for (;;) {
		while (i < end && (d[i] == ' ' || d[i] == '\t'))
			i++;
		size_t sp = splice_at(d, end, i);
		if (!sp)
			return i;
		i += sp;
	}
}

static int starts_marker(const char *p, size_t avail)
{
	static const char word[] = "TIMING_PROBE";
	size_t wl = sizeof(word) - 1;
	return avail >= wl && !memcmp(p, word, wl) && (avail == wl || !pk_is_ident((unsigned char)p[wl]));
}

/* Does [from, to) hold the marker word "TIMING_PROBE" (not a longer name)? */
static const char *find_marker(const char *d, size_t from, size_t to)
{
	for (size_t i = from; i + 12 <= to; i++) {
		const char *p = memchr(d + i, 'T', to - i);
		if (!p)
			return NULL;
		i = (size_t)(p - d);
		if ((i == from || !pk_is_ident((unsigned char)d[i - 1])) && starts_marker(p, to - i))
			return p;
	}
	return NULL;
}

/* Parse the probe header of `#if EXPR /​/ TIMING_PROBE: NAME`. Line is
 * [ls, le) without EOL; kw_end is just past "if"; marker is the marker's
 * offset, inside a comment that starts at cstart. */
static void probe_header(struct lexer *L, size_t ls, size_t le, size_t kw_end, size_t cstart, const char *marker,
                         size_t eol_end, unsigned line)
{
	const char *d = L->d;
	struct pk_scan *s = L->s;
	/* expression: exactly 0 or 1 between the keyword and the comment */
	size_t e0 = skip_hspace(d, kw_end, cstart), e1 = cstart;
	/* trailing blanks and line splices are not part of the expression */
	while (e1 > e0 && d[e1 - 1] && strchr(" \t\r\n\\", d[e1 - 1]))
		e1--;
	int value = -1;
	if (e1 - e0 == 1 && (d[e0] == '0' || d[e0] == '1'))
		value = d[e0] - '0';
	/* comment: optional spaces, the marker, ':', spaces, NAME */
	int block_c = d[cstart + 1] == '*';
	size_t m = skip_hspace(d, cstart + 2, le);
	if (d + m != marker) {
		add_error(s, ls, "malformed probe directive: the comment must start with '" PK_MARKER " NAME'");
		return;
	}
	size_t p = m + 12;
	if (p >= le || d[p] != ':') {
		add_error(s, ls, "malformed probe directive: expected ':' after 'TIMING_PROBE'");
		return;
	}
	p = skip_hspace(d, p + 1, le);
	size_t n0 = p;
	while (p < le && pk_is_ident((unsigned char)d[p]))
		p++;
	char *name = pk_xstrndup(d + n0, p - n0);
	if (p == n0 || !pk_probe_name_ok(name)) {
		if (p == n0)
			add_error(s, ls, "malformed probe directive: missing probe name after '" PK_MARKER "'");
		else
			add_error(s, ls, "malformed probe directive: invalid probe name '%s'", name);
		free(name);
		return;
	}
	/* after the name: end of line, or white space then free text; a block
	 * comment must close on this line with nothing but spaces after it */
	if (p < le && d[p] != ' ' && d[p] != '\t' && !(block_c && d[p] == '*')) {
		add_error(s, ls, "malformed probe directive: invalid probe name '%.*s'",
		          (int)(le - n0 > 64 ? 64 : le - n0), d + n0);
		free(name);
		return;
	}
	if (block_c) {
		const char *close = memmem(d + p, le - p, "*/", 2);
		size_t after = close ? skip_hspace(d, (size_t)(close - d) + 2, le) : le;
		if (!close || after != le) {
			add_error(s, ls, "malformed probe directive: the comment must end the line");
			free(name);
			return;
		}
	}
	if (value < 0) {
		add_error(s, ls, "malformed probe directive for '%s': the condition must be exactly 0 or 1", name);
		free(name);
		return;
	}
	PK_GROW(s->blocks, s->cap_blocks, s->nblocks + 1);
	struct pk_block *b = &s->blocks[s->nblocks];
	memset(b, 0, sizeof(*b));
	b->name = name;
	b->enabled = value;
	b->dir_start = ls;
	b->dir_end = eol_end;
	b->value_off = e0;
	b->line = line;
	b->scope = L->nopen ? L->scopes[L->nopen - 1] : 0;
	b->name_end = p;
	if (!strcmp(name, PK_BASE_PROBE))
		base_mark(b, d, p, le);
	s->nblocks++;
}

enum dkind { D_OTHER, D_IF, D_ELSE, D_ENDIF };

static enum dkind directive_kind(const char *w, size_t len)
{
#define IS(lit) (len == sizeof(lit) - 1 && !memcmp(w, lit, len))
	if (IS("if") || IS("ifdef") || IS("ifndef"))
		return D_IF;
	if (IS("elif") || IS("else") || IS("elifdef") || IS("elifndef"))
		return D_ELSE;
	if (IS("endif"))
		return D_ENDIF;
	return D_OTHER;
#undef IS
}

/* The directive's keyword from K, read through line splices (#end\<newline>if
 * is #endif) into KW; returns the offset past it. */
static size_t directive_word(const struct lexer *L, size_t k, char kw[16])
{
	const char *d = L->d;
	size_t kl = 0;
	for (;;) {
		size_t sp = splice_at(d, L->n, k);
		if (sp)
			k += sp;
		else if (k < L->n && pk_is_ident((unsigned char)d[k])) {
			if (kl < 15)
				kw[kl++] = d[k];
			k++;
		} else
			break;
	}
	kw[kl] = '\0';
	return k;
}

/* Is the marker at M (before LE) a timing-tensor mark ("TIMING_PROBE: @timing
 * ...")? Its preprocessor lines (#if/#else/#endif of a cycle read) are code
 * the timing strip removes, not probe blocks. */
static int timing_mark(const char *d, const char *m, size_t le)
{
	size_t p = (size_t)(m - d) + 12;
	if (p >= le || d[p] != ':')
		return 0;
	p = skip_hspace(d, p + 1, le);
	return le - p >= 7 && !memcmp(d + p, "@timing", 7);
}

/* '#if...' at LS: a probe block's header when it carries the marker. */
static void directive_if(struct lexer *L, const char *kw, size_t ls, size_t le, size_t k1, size_t cstart,
                         const char *marker, size_t end, unsigned line)
{
	struct pk_scan *s = L->s;
	size_t before = s->nblocks;
	if (marker && timing_mark(L->d, marker, le))
		marker = NULL; /* a line of the timing instrumentation, not a probe block */
	if (marker) {
		if (strcmp(kw, "if"))
			add_error(s, ls,
			          "malformed probe directive: a probe block starts with '#if 0' or '#if 1', not '#%s'",
			          kw);
		else
			probe_header(L, ls, le, k1, cstart, marker, end, line);
	}
	long block = s->nblocks > before ? (long)before : -1;
	if (block >= 0 && L->probe_open >= 0) {
		add_error(s, ls, "probe block '%s' inside probe block '%s'", s->blocks[block].name,
		          s->blocks[L->probe_open].name);
		/* keep it out of the block list: the outer block owns it */
		free(s->blocks[block].name);
		s->nblocks--;
		block = -1;
	}
	PK_GROW(L->conds, L->cap_conds, L->nconds + 1);
	L->conds[L->nconds++] = (struct cond){block, ls};
	if (block >= 0)
		L->probe_open = block;
}

/* '#endif' at LS, ending at END: closes a probe block if it opened one. */
static void directive_endif(struct lexer *L, size_t ls, size_t end, unsigned line)
{
	struct pk_scan *s = L->s;
	if (L->nconds == 0) {
		add_error(s, ls, "'#endif' without '#if'");
		return;
	}
	struct cond c = L->conds[--L->nconds];
	if (c.block >= 0) {
		struct pk_block *b = &s->blocks[c.block];
		b->endif_start = ls;
		b->endif_end = end;
		b->endif_line = line;
		L->probe_open = -1;
	}
}

/* A directive line starts at LS with '#' at H. Lex it to its logical end and
 * act on it. Returns the offset of the next line. */
static size_t directive(struct lexer *L, size_t ls, size_t h)
{
	const char *d = L->d;
	size_t n = L->n;
	char kw[16];
	size_t k1 = directive_word(L, skip_hspace(d, h + 1, n), kw);
	enum dkind kind = directive_kind(kw, strlen(kw));

	/* lex the rest of the logical line; remember its first comment */
	L->first_comment = (size_t)-1;
	size_t i = k1, le;
	int spliced;
	unsigned line = L->line;
	/* a directive ends at a newline that is neither spliced nor inside a
	 * block comment opened on it (the comment is part of the directive) */
	do
		i = lex_line(L, i, &spliced);
	while ((spliced || L->st == BLOCK_COMMENT || L->st == RAW) && i < n);
	for (const char *p = d + ls; (p = memchr(p, '\n', (size_t)(d + i - p))) != NULL; p++)
		L->line++;
	size_t cstart = L->first_comment;
	/* physical end of the directive's last line, without EOL */
	le = i;
	if (le > ls && d[le - 1] == '\n')
		le--;
	if (le > ls && d[le - 1] == '\r')
		le--;

	struct pk_scan *s = L->s;
	const char *marker = cstart != (size_t)-1 ? find_marker(d, cstart, le) : NULL;
	switch (kind) {
	case D_IF:
		directive_if(L, kw, ls, le, k1, cstart, marker, i, line);
		break;
	case D_ELSE:
		if (L->nconds == 0)
			add_error(s, ls, "'#%s' without '#if'", kw);
		else if (L->conds[L->nconds - 1].block >= 0)
			add_error(s, ls, "'#%s' inside probe block '%s': a probe block has no else branch", kw,
			          s->blocks[L->conds[L->nconds - 1].block].name);
		break;
	case D_ENDIF:
		directive_endif(L, ls, i, line);
		break;
	case D_OTHER:
		break;
	}
	return i;
}

/* ---- driver ---------------------------------------------------------- */

/* Errors [0, MID) and [MID, n) are each in file order: merge them. */
static void merge_errors(struct pk_scan *s, size_t mid)
{
	size_t n = s->nerrors, i = 0, j = mid, w = 0;
	if (mid == 0 || mid == n)
		return;
	struct pk_diag *t = pk_xmalloc(n * sizeof(*t));
	while (i < mid || j < n)
		t[w++] = j >= n || (i < mid && s->errors[i].off <= s->errors[j].off) ? s->errors[i++] : s->errors[j++];
	memcpy(s->errors, t, n * sizeof(*t));
	free(t);
}

/* The blocks and #ifs still open at the end of the file. Their errors go in
 * file order, so a cause (a block with no #endif) comes before the errors
 * it caused; the rest of the file lies in the first open probe block. */
static void report_open(struct lexer *L, struct pk_scan *s)
{
	size_t mid = s->nerrors;
	for (size_t k = 0; k < L->nconds; k++) {
		if (L->conds[k].block >= 0) {
			add_error(s, L->conds[k].off, "unterminated probe block '%s': no matching '#endif'",
			          s->blocks[L->conds[k].block].name);
			if (!s->unterminated)
				s->unterminated = L->conds[k].off + 1;
		} else
			add_error(s, L->conds[k].off, "unterminated '#if': no matching '#endif'");
	}
	merge_errors(s, mid);
}

void pk_scan_buf(const struct pk_buf *b, struct pk_scan *s, int flags)
{
	memset(s, 0, sizeof(*s));
	struct lexer L = {.d = b->data,
	                  .n = b->len,
	                  .s = s,
	                  .flags = flags,
	                  .st = CODE,
	                  .probe_open = -1,
	                  .first_comment = (size_t)-1,
	                  .line = 1};
	/* scope 0 is the file */
	PK_GROW(s->scope_parent, s->cap_scopes, 1);
	PK_GROW(s->scope_is_func, s->cap_scope_func, 1);
	s->scope_parent[0] = 0;
	s->scope_is_func[0] = 0;
	s->nscopes = 1;

	const char *d = b->data;
	size_t n = b->len, i = 0;
	int continued = 0;
	/* a UTF-8 byte order mark stays where it is, before line 1's text */
	if (n >= 3 && !memcmp(d, "\xEF\xBB\xBF", 3))
		i = 3;
	while (i < n) {
		if (L.st == CODE && !continued) {
			size_t h = skip_hspace(d, i, n);
			if (h < n && d[h] == '#') {
				i = directive(&L, i, h);
				continued = 0;
				continue;
			}
		}
		int spliced;
		i = next_line(&L, i, &spliced);
		continued = spliced;
	}
	if (L.st == BLOCK_COMMENT || L.st == LINE_COMMENT)
		close_comment(&L, n);
	report_open(&L, s);
	/* blocks left without an #endif are unusable: drop them */
	size_t w = 0;
	for (size_t k = 0; k < s->nblocks; k++) {
		if (s->blocks[k].endif_end == 0) {
			free(s->blocks[k].name);
			continue;
		}
		s->blocks[w++] = s->blocks[k];
	}
	s->nblocks = w;
	free(L.conds);
	free(L.scopes);
}

void pk_scan_free(struct pk_scan *s)
{
	for (size_t i = 0; i < s->nblocks; i++)
		free(s->blocks[i].name);
	for (size_t i = 0; i < s->nerrors; i++)
		free(s->errors[i].msg);
	free(s->blocks);
	free(s->errors);
	free(s->comments);
	free(s->scope_parent);
	free(s->scope_is_func);
	memset(s, 0, sizeof(*s));
}

int pk_scan_in_comment(const struct pk_scan *s, size_t off)
{
	/* the first comment ending after OFF */
	size_t i =
	    pk_first_at(s->comments, s->ncomments, sizeof(*s->comments), offsetof(struct pk_range, end), off + 1);
	return i < s->ncomments && s->comments[i].start <= off;
}

long pk_scan_block_at(const struct pk_scan *s, size_t off)
{
	size_t i =
	    pk_first_at(s->blocks, s->nblocks, sizeof(*s->blocks), offsetof(struct pk_block, endif_end), off + 1);
	return i < s->nblocks && s->blocks[i].dir_start <= off ? (long)i : -1;
}

int pk_scope_within(const struct pk_scan *s, size_t inner, size_t outer)
{
	for (;;) {
		if (inner == outer)
			return 1;
		if (inner == 0)
			return 0;
		inner = s->scope_parent[inner];
	}
}

size_t pk_scope_top(const struct pk_scan *s, size_t scope)
{
	size_t top = scope, func = 0;
	while (scope != 0) {
		if (s->scope_is_func[scope])
			func = scope;
		top = scope;
		scope = s->scope_parent[scope];
	}
	return func ? func : top;
}

size_t pk_scan_report_errors(struct pk_buf *b, const struct pk_scan *s)
{
	for (size_t i = 0; i < s->nerrors; i++)
		pk_error("%s:%u: %s", b->path, pk_buf_line_of(b, s->errors[i].off), s->errors[i].msg);
	return s->nerrors;
}
