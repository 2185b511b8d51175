/* timing_strip.c - write and read the timing-tensor marks (see timing_strip.h).
 * Removal works on text alone, so probe-strip never loads libclang. */
#include "timing_strip.h"
#include "pk.h"
#include "scan.h"

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

static int overlaps(const struct pk_plan *plan, size_t n0, size_t s, size_t e)
{
	for (size_t i = 0; i < n0; i++) {
		size_t S = plan->e[i].start, E = plan->e[i].end;
		if ((s < E && S < e) || (s == e && S < s && s < E))
			return 1;
	}
	return 0;
}

static int damaged(const struct pk_buf *b, size_t off, const char *what)
{
	pk_buf_lines((struct pk_buf *)b);
	return pk_error("%s:%u: damaged timing mark: %s", b->path, pk_buf_line_of((struct pk_buf *)b, off), what);
}

struct strip_state {
	const struct pk_buf *b;
	struct pk_plan *plan;
	size_t n0; /* edits in the plan before us: block removals */
	int added;
	char *used; /* per byte: consumed by a recognised mark */
};

static void add_edit(struct strip_state *st, size_t s, size_t e, const char *text, size_t len)
{
	memset(st->used + s, 1, e - s);
	if (overlaps(st->plan, st->n0, s, e))
		return;
	pk_plan_add(st->plan, s, e, text, len);
	st->added++;
}

/* One in-line change at OFF (the "/" of PK_TT_WAS_OPEN). */
static int strip_inline(struct strip_state *st, size_t off)
{
	const char *d = st->b->data, *lim = d + st->b->len;
	const char *p = d + off + strlen(PK_TT_WAS_OPEN), *q;
	size_t n;
	char *orig = unescape(p, lim, &q, &n);
	if (!orig)
		return damaged(st->b, off, "unreadable original text");
	if ((size_t)(lim - q) < strlen(PK_TT_WAS_CLOSE) || memcmp(q, PK_TT_WAS_CLOSE, strlen(PK_TT_WAS_CLOSE))) {
		free(orig);
		return damaged(st->b, off, "'@timing-was' comment not closed");
	}
	const char *body = q + strlen(PK_TT_WAS_CLOSE);
	const char *end = strstr(body, PK_TT_END);
	const char *next = strstr(body, PK_TT_WAS_OPEN);
	const char *eol = memchr(body, '\n', (size_t)(lim - body));
	if (!end || (next && next < end) || (eol && eol < end)) {
		free(orig);
		return damaged(st->b, off, "'@timing-was' without its '@timing-end' on the same line");
	}
	size_t stop = (size_t)(end - d) + strlen(PK_TT_END);
	add_edit(st, off, stop, orig, n);
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
static int line_has_mark(const char *d, const struct pk_scan *s, size_t i, size_t *ls, size_t *le,
                         const struct pk_buf *b)
{
	pk_buf_line_bounds(b, i, ls, le);
	for (size_t j = i; j < *le; j++)
		if (d[j] == '/' && at_line_mark(d, b->len, j) && pk_scan_in_comment(s, j))
			return 1;
	return 0;
}

/* Every mark must sit in a comment: the same words in a string are not ours. */
static int plan_marks(struct strip_state *st, const struct pk_scan *s)
{
	const char *d = st->b->data;
	size_t len = st->b->len, ls, le;
	for (size_t i = 0; i < len; i++) {
		if (d[i] != '/' || !pk_scan_in_comment(s, i))
			continue;
		if (line_has_mark(d, s, i, &ls, &le, st->b)) {
			/* the whole line goes, in-line marks on it included */
			add_edit(st, ls, le, "", 0);
			i = le - 1;
		} else if (!strncmp(d + i, PK_TT_WAS_OPEN, strlen(PK_TT_WAS_OPEN)) && !st->used[i]) {
			if (strip_inline(st, i) < 0)
				return -1;
		}
	}
	return 0;
}

/* A tag no recognised mark consumed is a mark someone damaged. */
static int check_leftovers(struct strip_state *st, const struct pk_scan *s)
{
	const char *d = st->b->data, *p = d;
	while ((p = strstr(p, PK_TT_TAG)) != NULL) {
		size_t off = (size_t)(p - d);
		if (pk_scan_in_comment(s, off) && !st->used[off])
			return damaged(st->b, off, "a timing mark outside any recognised form");
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
static int python_strip(const struct pk_buf *b, struct pk_plan *plan)
{
	const char *d = b->data;
	int added = 0;
	pk_buf_lines((struct pk_buf *)b);
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
				return damaged(
				    b, ls, "'@timing-line' without its original text closed at the end of the line");
			}
			pk_plan_add(plan, ls, ce, orig, n);
			free(orig);
			added++;
		} else if (tag) {
			const char *m = memmem(d + ls, ce - ls, PK_TT_PY_MARK, strlen(PK_TT_PY_MARK));
			size_t after = m ? (size_t)(m - d) + strlen(PK_TT_PY_MARK) : 0;
			if (!m || (after < ce && d[after] != ' '))
				return damaged(b, ls, "a timing mark outside any recognised form");
			pk_plan_add(plan, ls, le, "", 0);
			added++;
		}
		ls = le;
	}
	return added;
}

int pk_timing_plan_strip(const struct pk_buf *b, struct pk_plan *plan)
{
	if (!memmem(b->data, b->len, PK_TT_TAG, strlen(PK_TT_TAG)))
		return 0; /* nothing of ours: no need to lex the file */
	if (is_python(b))
		return python_strip(b, plan);
	struct pk_scan s;
	memset(&s, 0, sizeof(s));
	pk_scan_buf(b, &s, PK_SCAN_COMMENTS);
	pk_buf_lines((struct pk_buf *)b);
	struct strip_state st = {b, plan, plan->n, 0, pk_xcalloc(b->len + 1, 1)};
	size_t n_before = plan->n;
	int rc = plan_marks(&st, &s);
	if (rc == 0)
		rc = check_leftovers(&st, &s);
	if (rc < 0) {
		for (size_t i = n_before; i < plan->n; i++)
			free(plan->e[i].text);
		plan->n = n_before;
	}
	free(st.used);
	pk_scan_free(&s);
	return rc < 0 ? -1 : st.added;
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
