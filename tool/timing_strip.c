/* timing_strip.c - write and read the timing-tensor marks (see timing_strip.h).
 * Removal works on text alone, so probe-strip never loads libclang. */
#include "timing_strip.h"
#include "pk.h"
#include "scan.h"
#include "source.h"

#include <stdlib.h>
#include <string.h>

char *pk_timing_wrap(const char *orig, size_t orig_len, const char *new_text, size_t *len)
{
	size_t nl = strlen(new_text);
	size_t cap = sizeof(PK_TT_WAS_OPEN) + 2 * orig_len + sizeof(PK_TT_WAS_CLOSE) + nl + sizeof(PK_TT_END) + 1;
	char *out = pk_xmalloc(cap), *q = out;
	q = stpcpy(q, PK_TT_WAS_OPEN);
	for (size_t i = 0; i < orig_len; i++) {
		const char *esc = NULL;
		switch (orig[i]) {
		case '\\':
			esc = "\\\\";
			break;
		case '"':
			esc = "\\\"";
			break;
		case '\n':
			esc = "\\n";
			break;
		case '\r':
			esc = "\\r";
			break;
		case '\t':
			esc = "\\t";
			break;
		case '/':
			esc = "\\/";
			break; /* so the comment can never close early */
		}
		if (esc)
			q = stpcpy(q, esc);
		else
			*q++ = orig[i];
	}
	q = stpcpy(q, PK_TT_WAS_CLOSE);
	q = stpcpy(q, new_text);
	q = stpcpy(q, PK_TT_END);
	if (len)
		*len = (size_t)(q - out);
	return out;
}

/* Decode the escaped ORIG starting at P; *end gets the closing quote.
 * Returns malloc'd bytes (length in *n) or NULL when the text is damaged. */
static char *unescape(const char *p, const char *limit, const char **end, size_t *n)
{
	char *out = pk_xmalloc((size_t)(limit - p) + 1), *q = out;
	for (; p < limit && *p != '"'; p++) {
		if (*p == '\n' || *p == '\r')
			break;
		if (*p != '\\') {
			*q++ = *p;
			continue;
		}
		if (++p >= limit)
			break;
		switch (*p) {
		case '\\':
			*q++ = '\\';
			break;
		case '"':
			*q++ = '"';
			break;
		case 'n':
			*q++ = '\n';
			break;
		case 'r':
			*q++ = '\r';
			break;
		case 't':
			*q++ = '\t';
			break;
		case '/':
			*q++ = '/';
			break;
		default:
			free(out);
			return NULL;
		}
	}
	if (p >= limit || *p != '"') {
		free(out);
		return NULL;
	}
	*end = p;
	*n = (size_t)(q - out);
	return out;
}

/* What a damaged mark at OFF breaks, as "PATH:LINE: damaged timing mark: WHAT"
 * in *damage; returns -1. */
static int damaged(const struct pk_buf *b, size_t off, const char *what, char **damage)
{
	pk_buf_lines((struct pk_buf *)b);
	*damage =
	    pk_xasprintf("%s:%u: damaged timing mark: %s", b->path, pk_buf_line_of((struct pk_buf *)b, off), what);
	return -1;
}

struct find_state {
	const struct pk_buf *b;
	const struct pk_scan *s;
	struct pk_tmark *t;
	size_t n, cap;
	char *used; /* per byte: consumed by a recognised mark */
	char **damage;
};

static void add_mark(struct find_state *st, size_t s, size_t e, const char *text, size_t len)
{
	if (st->used)
		memset(st->used + s, 1, e - s);
	PK_GROW(st->t, st->cap, st->n + 1);
	st->t[st->n++] = (struct pk_tmark){s, e, pk_xstrndup(text, len), len};
}

/* One in-line change at OFF (the "/" of PK_TT_WAS_OPEN). */
static int find_inline(struct find_state *st, size_t off)
{
	const char *d = st->b->data, *lim = d + st->b->len;
	const char *p = d + off + strlen(PK_TT_WAS_OPEN), *q;
	size_t n;
	char *orig = unescape(p, lim, &q, &n);
	if (!orig)
		return damaged(st->b, off, "unreadable original text", st->damage);
	if ((size_t)(lim - q) < strlen(PK_TT_WAS_CLOSE) || memcmp(q, PK_TT_WAS_CLOSE, strlen(PK_TT_WAS_CLOSE))) {
		free(orig);
		return damaged(st->b, off, "'@timing-was' comment not closed", st->damage);
	}
	const char *body = q + strlen(PK_TT_WAS_CLOSE);
	const char *end = strstr(body, PK_TT_END);
	const char *next = strstr(body, PK_TT_WAS_OPEN);
	const char *eol = memchr(body, '\n', (size_t)(lim - body));
	if (!end || (next && next < end) || (eol && eol < end)) {
		free(orig);
		return damaged(st->b, off, "'@timing-was' without its '@timing-end' on the same line", st->damage);
	}
	size_t stop = (size_t)(end - d) + strlen(PK_TT_END);
	add_mark(st, off, stop, orig, n);
	free(orig);
	return 0;
}

static int at_line_mark(const char *d, size_t len, size_t i)
{
	size_t m = strlen(PK_TT_LINE_MARK);
	if (len - i < m || memcmp(d + i, PK_TT_LINE_MARK, m))
		return 0;
	return i + m == len || d[i + m] == ' ' || d[i + m] == '\r' || d[i + m] == '\n';
}

/* Does the line holding I carry a whole-line mark (in a comment) at or after I? */
static int line_has_mark(const struct find_state *st, size_t i, size_t *ls, size_t *le)
{
	pk_buf_line_bounds(st->b, i, ls, le);
	for (size_t j = i; j < *le; j++)
		if (st->b->data[j] == '/' && at_line_mark(st->b->data, st->b->len, j) && pk_scan_in_comment(st->s, j))
			return 1;
	return 0;
}

/* Every mark must sit in a comment: the same words in a string are not ours. */
static int find_marks(struct find_state *st)
{
	const char *d = st->b->data;
	size_t len = st->b->len, ls, le;
	for (size_t i = 0; i < len; i++) {
		if (d[i] != '/' || !pk_scan_in_comment(st->s, i))
			continue;
		if (line_has_mark(st, i, &ls, &le)) {
			/* the whole line goes, in-line marks on it included */
			add_mark(st, ls, le, "", 0);
			i = le - 1;
		} else if (!strncmp(d + i, PK_TT_WAS_OPEN, strlen(PK_TT_WAS_OPEN)) && !st->used[i]) {
			if (find_inline(st, i) < 0)
				return -1;
		}
	}
	return 0;
}

/* A tag no recognised mark consumed is a mark someone damaged. */
static int check_leftovers(struct find_state *st)
{
	const char *d = st->b->data, *p = d;
	while ((p = strstr(p, PK_TT_TAG)) != NULL) {
		size_t off = (size_t)(p - d);
		if (pk_scan_in_comment(st->s, off) && !st->used[off])
			return damaged(st->b, off, "a timing mark outside any recognised form", st->damage);
		p += strlen(PK_TT_TAG);
	}
	return 0;
}

static int is_python(const struct pk_buf *b)
{
	size_t n = b->path ? strlen(b->path) : 0;
	return n > 3 && !strcmp(b->path + n - 3, ".py");
}

/* Python: lines ending with the added-line mark go; a changed line gets its
 * original text back. Line by line: Python has no in-line comment. */
static int find_python(struct find_state *st)
{
	const struct pk_buf *b = st->b;
	const char *d = b->data;
	for (size_t ls = 0; ls < b->len;) {
		const char *nl = memchr(d + ls, '\n', b->len - ls);
		size_t le = nl ? (size_t)(nl - d) + 1 : b->len, ce = le;
		while (ce > ls && (d[ce - 1] == '\n' || d[ce - 1] == '\r'))
			ce--;
		const char *chg = memmem(d + ls, ce - ls, PK_TT_PY_LINE_OPEN, strlen(PK_TT_PY_LINE_OPEN));
		const char *tag = memmem(d + ls, ce - ls, PK_TT_TAG, strlen(PK_TT_TAG));
		if (chg) {
			const char *q;
			size_t n;
			char *orig = unescape(chg + strlen(PK_TT_PY_LINE_OPEN), d + ce, &q, &n);
			if (!orig || q + 1 != d + ce || *q != '"') {
				free(orig);
				return damaged(b, ls,
				               "'@timing-line' without its original text closed at the end of the line",
				               st->damage);
			}
			add_mark(st, ls, ce, orig, n);
			free(orig);
		} else if (tag) {
			const char *m = memmem(d + ls, ce - ls, PK_TT_PY_MARK, strlen(PK_TT_PY_MARK));
			size_t after = m ? (size_t)(m - d) + strlen(PK_TT_PY_MARK) : 0;
			if (!m || (after < ce && d[after] != ' '))
				return damaged(b, ls, "a timing mark outside any recognised form", st->damage);
			add_mark(st, ls, le, "", 0);
		}
		ls = le;
	}
	return 0;
}

int pk_timing_find(const struct pk_buf *b, const struct pk_scan *s, struct pk_tmark **marks, size_t *n, char **damage)
{
	struct find_state st = {b, s, NULL, 0, 0, NULL, damage};
	int rc = 0;
	*damage = NULL;
	if (!memmem(b->data, b->len, PK_TT_TAG, strlen(PK_TT_TAG)))
		; /* nothing of ours */
	else if (is_python(b))
		rc = find_python(&st);
	else {
		st.used = pk_xcalloc(b->len + 1, 1);
		rc = find_marks(&st);
		if (rc == 0)
			rc = check_leftovers(&st);
		free(st.used);
	}
	if (rc < 0) {
		pk_timing_free(st.t, st.n);
		st.t = NULL;
		st.n = 0;
	}
	*marks = st.t;
	*n = st.n;
	return rc;
}

void pk_timing_free(struct pk_tmark *marks, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(marks[i].text);
	free(marks);
}

int pk_timing_plan_strip(const struct pk_source *src, struct pk_plan *plan)
{
	if (src->timing_damage)
		return pk_error("%s", src->timing_damage);
	for (size_t i = 0; i < src->ntmarks; i++) {
		const struct pk_tmark *t = &src->tmarks[i];
		pk_plan_add(plan, t->start, t->end, t->text, t->len);
	}
	return (int)src->ntmarks;
}

int pk_timing_marked(const struct pk_buf *b)
{
	const char *p = b->data;
	if (!strstr(p, PK_TT_TAG))
		return 0;
	if (is_python(b))
		return 1;
	struct pk_scan s;
	memset(&s, 0, sizeof(s));
	pk_scan_buf(b, &s, PK_SCAN_COMMENTS);
	int found = 0;
	while (!found && (p = strstr(p, PK_TT_TAG)) != NULL) {
		found = pk_scan_in_comment(&s, (size_t)(p - b->data));
		p += strlen(PK_TT_TAG);
	}
	pk_scan_free(&s);
	return found;
}
