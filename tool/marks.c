/* marks.c - find and remove the brace markers of marks.h, on text alone. */
#include "marks.h"
#include "pk.h"
#include "scan.h"

#include <stdlib.h>
#include <string.h>

int pk_marks_text(char *dst, size_t cap, int open, const char *name)
{
	int n = snprintf(dst, cap, "%c  // %s %s", open ? '{' : '}', PK_BRACE_MARKER, name);
	return n < 0 || (size_t)n >= cap ? -1 : n;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int is_ident(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Parse one line [p, e) (EOL excluded) as a marker. Returns 1 and fills
 * *open / name, 0 if the line does not mention the marker, -1 if damaged. */
static int parse_line(const char *p, const char *e, int *open, char **name)
{
	const char *hit = NULL;
	size_t ml = strlen(PK_BRACE_MARKER);
	for (const char *q = p; q + ml <= e; q++)
		if (!memcmp(q, PK_BRACE_MARKER, ml)) {
			hit = q;
			break;
		}
	if (!hit)
		return 0;
	while (p < e && is_blank(*p))
		p++;
	if (p == e || (*p != '{' && *p != '}'))
		return -1;
	*open = *p++ == '{';
	while (p < e && is_blank(*p))
		p++;
	if (e - p < 2 || p[0] != '/' || p[1] != '/')
		return -1;
	p += 2;
	while (p < e && is_blank(*p))
		p++;
	if (p != hit)
		return -1;
	p += ml;
	while (p < e && is_blank(*p))
		p++;
	const char *ns = p;
	while (p < e && is_ident(*p))
		p++;
	const char *ne = p;
	while (p < e && is_blank(*p))
		p++;
	if (ns == ne || p != e)
		return -1;
	*name = pk_xstrndup(ns, (size_t)(ne - ns));
	if (!pk_probe_name_ok(*name)) {
		free(*name);
		return -1;
	}
	return 1;
}

/* Braces must pair per name, '{' first, like the code they wrap. */
static int check_pairs(const struct pk_buf *b, const struct pk_mark *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!m[i].open)
			continue;
		int depth = 0;
		size_t j;
		for (j = i; j < n; j++) {
			if (strcmp(m[j].name, m[i].name))
				continue;
			depth += m[j].open ? 1 : -1;
			if (depth == 0)
				break;
		}
		if (j == n)
			return pk_error("%s:%u: brace marker of '%s' has no closing '}' marker",
					b->path, m[i].line, m[i].name);
	}
	for (size_t i = 0; i < n; i++) {
		if (m[i].open)
			continue;
		int depth = 0;
		size_t j = i + 1;
		while (j-- > 0) {
			if (strcmp(m[j].name, m[i].name))
				continue;
			depth += m[j].open ? -1 : 1;
			if (depth == 0)
				break;
		}
		if (depth != 0)
			return pk_error("%s:%u: brace marker of '%s' has no opening '{' marker",
					b->path, m[i].line, m[i].name);
	}
	return 0;
}

int pk_marks_scan(const struct pk_buf *b, struct pk_mark **marks, size_t *n)
{
	struct pk_scan s = { 0 };
	pk_scan_buf(b, &s, PK_SCAN_COMMENTS);
	struct pk_mark *m = NULL;
	size_t cnt = 0, cap = 0;
	unsigned line = 1;
	int rc = 0;
	for (size_t ls = 0; ls < b->len && rc == 0; line++) {
		const char *nl = memchr(b->data + ls, '\n', b->len - ls);
		size_t le = nl ? (size_t)(nl - b->data) + 1 : b->len;
		size_t ce = nl ? le - 1 : le;
		if (ce > ls && b->data[ce - 1] == '\r')
			ce--;
		int open;
		char *name = NULL;
		int r = parse_line(b->data + ls, b->data + ce, &open, &name);
		size_t first = ls;
		while (first < ce && is_blank(b->data[first]))
			first++;
		/* a mention inside a block comment is prose, not a marker */
		if (r != 0 && pk_scan_in_comment(&s, first)) {
			free(name);
			r = 0;
		}
		if (r < 0) {
			rc = pk_error("%s:%u: damaged brace marker (expected '{  // %s NAME' "
				      "or '}  // %s NAME' alone on its line)",
				      b->path, line, PK_BRACE_MARKER, PK_BRACE_MARKER);
		} else if (r > 0) {
			PK_GROW(m, cap, cnt + 1);
			m[cnt++] = (struct pk_mark){ name, open, line, ls, le };
		}
		ls = le;
	}
	pk_scan_free(&s);
	if (rc == 0)
		rc = check_pairs(b, m, cnt);
	if (rc < 0) {
		pk_marks_free(m, cnt);
		return -1;
	}
	*marks = m;
	*n = cnt;
	return 0;
}

void pk_marks_free(struct pk_mark *marks, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(marks[i].name);
	free(marks);
}

int pk_marks_plan_strip(const struct pk_buf *b, const char *only_name, struct pk_plan *plan)
{
	struct pk_mark *m;
	size_t n;
	if (pk_marks_scan(b, &m, &n) < 0)
		return -1;
	struct pk_scan s = { 0 };
	pk_scan_buf(b, &s, 0);
	int planned = 0;
	for (size_t i = 0; i < n; i++) {
		if (only_name && strcmp(m[i].name, only_name))
			continue;
		long bi = pk_scan_block_at(&s, m[i].start);
		if (bi >= 0 && (!only_name || !strcmp(s.blocks[bi].name, only_name)))
			continue; /* inside a block this strip removes whole */
		pk_plan_add(plan, m[i].start, m[i].end, "", 0);
		planned++;
	}
	pk_scan_free(&s);
	pk_marks_free(m, n);
	return planned;
}
