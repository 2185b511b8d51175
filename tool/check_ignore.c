/* check_ignore.c - gitignore-syntax patterns for probe-check's walk:
 * .gitignore outside git, .probekitignore, --exclude. */
#include "check_ignore.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

/* A [...] class at *P against C; advances *P past it. -1: not a class. */
static int class_match(const char **pp, char c)
{
	const char *p = *pp + 1;
	int neg = 0, hit = 0;
	if (*p == '!' || *p == '^') {
		neg = 1;
		p++;
	}
	const char *first = p;
	for (; *p && (*p != ']' || p == first); p++) {
		char lo = *p;
		if (lo == '\\' && p[1])
			lo = *++p;
		char hi = lo;
		if (p[1] == '-' && p[2] && p[2] != ']') {
			hi = p[2] == '\\' && p[3] ? p[3] : p[2];
			p += p[2] == '\\' && p[3] ? 3 : 2;
		}
		if (c >= lo && c <= hi)
			hit = 1;
	}
	if (*p != ']')
		return -1;
	*pp = p + 1;
	return hit != neg;
}

/* One match: the pattern and name it started with, and the states (a
 * pattern offset against a name offset) already found not to match, so that
 * each is tried once: the time is polynomial in the two lengths whatever the
 * stars. */
struct glob_run {
	const char *p0, *s0;
	size_t np, ns;
	unsigned char *failed; /* (np + 1) * (ns + 1) bits, made at the first star */
	size_t steps;
};

static int glob_at(struct glob_run *g, const char *p, const char *s);

static int try_at(struct glob_run *g, const char *p, const char *s)
{
	g->steps++;
	if (!g->failed)
		g->failed = pk_xcalloc(((g->np + 1) * (g->ns + 1) + 7) / 8, 1);
	size_t bit = (size_t)(p - g->p0) * (g->ns + 1) + (size_t)(s - g->s0);
	if (g->failed[bit / 8] & (1u << (bit % 8)))
		return 0;
	if (glob_at(g, p, s))
		return 1;
	g->failed[bit / 8] |= (unsigned char)(1u << (bit % 8));
	return 0;
}

static int star_star(struct glob_run *g, const char *p, const char *s)
{
	const char *q = p + 2;
	if (*q == '/') { /* "**" + "/": zero or more whole directories */
		q++;
		for (const char *t = s;;) {
			if (try_at(g, q, t))
				return 1;
			t = strchr(t, '/');
			if (!t)
				return 0;
			t++;
		}
	}
	for (const char *t = s;; t++) { /* anything, across '/' */
		if (try_at(g, q, t))
			return 1;
		if (!*t)
			return 0;
	}
}

static int star(struct glob_run *g, const char *p, const char *s)
{
	for (const char *t = s;; t++) {
		if (try_at(g, p + 1, t))
			return 1;
		if (!*t || *t == '/')
			return 0;
	}
}

/* One character of the name against one of the pattern (not a star); the
 * pattern's next position, or NULL. */
static const char *one_char(const char *p, char c)
{
	if (*p == '?')
		return c == '/' ? NULL : p + 1;
	if (*p == '[') {
		const char *q = p;
		int r = class_match(&q, c);
		if (r == 0 || (r > 0 && c == '/'))
			return NULL;
		if (r > 0)
			return q;
		return c == '[' ? p + 1 : NULL;
	}
	if (*p == '\\' && p[1])
		p++;
	return *p == c ? p + 1 : NULL;
}

static int glob_at(struct glob_run *g, const char *p, const char *s)
{
	for (;;) {
		g->steps++;
		if (!*p)
			return !*s;
		if (p[0] == '*' && p[1] == '*')
			return star_star(g, p, s);
		if (*p == '*')
			return star(g, p, s);
		if (!*s)
			return 0;
		p = one_char(p, *s);
		if (!p)
			return 0;
		s++;
	}
}

int pk_glob_match_steps(const char *p, const char *s, size_t *steps)
{
	struct glob_run g = {p, s, strlen(p), strlen(s), NULL, 0};
	int r = glob_at(&g, p, s);
	free(g.failed);
	if (steps)
		*steps = g.steps;
	return r;
}

int pk_glob_match(const char *p, const char *s)
{
	return pk_glob_match_steps(p, s, NULL);
}

/* One line of an ignore file; 0 when it holds no pattern. */
static int parse_line(char *line, struct pk_ign_rule *r)
{
	size_t l = strlen(line);
	while (l && (line[l - 1] == '\r' || line[l - 1] == '\n'))
		line[--l] = '\0';
	while (l && line[l - 1] == ' ' && (l < 2 || line[l - 2] != '\\'))
		line[--l] = '\0';
	if (!l || line[0] == '#')
		return 0;
	memset(r, 0, sizeof(*r));
	char *p = line;
	if (*p == '!') {
		r->neg = 1;
		p++;
	}
	l = strlen(p);
	if (l && p[l - 1] == '/') {
		r->dir_only = 1;
		p[--l] = '\0';
	}
	if (!l)
		return 0;
	if (strchr(p, '/')) {
		r->anchored = 1;
		if (*p == '/')
			p++;
	}
	r->pat = pk_xstrdup(p);
	return 1;
}

void pk_ign_add_text(struct pk_ignores *ig, const char *base, const char *up, const char *text)
{
	PK_GROW(ig->f, ig->cap, ig->n + 1);
	struct pk_ign_file *f = &ig->f[ig->n++];
	memset(f, 0, sizeof(*f));
	f->base = pk_xstrdup(base);
	f->up = pk_xstrdup(up);
	char *copy = pk_xstrdup(text), *save = NULL;
	size_t cap = 0;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct pk_ign_rule r;
		if (!parse_line(line, &r))
			continue;
		PK_GROW(f->r, cap, f->nr + 1);
		f->r[f->nr++] = r;
	}
	free(copy);
}

int pk_ign_add_file(struct pk_ignores *ig, const char *base, const char *up, const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return 0;
	pk_note_read(path, NULL);
	char *buf = pk_read_all(fp, NULL);
	fclose(fp);
	pk_ign_add_text(ig, base, up, buf);
	free(buf);
	return 1;
}

void pk_ign_pop(struct pk_ignores *ig, size_t to)
{
	while (ig->n > to) {
		struct pk_ign_file *f = &ig->f[--ig->n];
		for (size_t i = 0; i < f->nr; i++)
			free(f->r[i].pat);
		free(f->r);
		free(f->base);
		free(f->up);
	}
}

static int rule_hits(const struct pk_ign_rule *r, const char *rel, int is_dir)
{
	if (r->dir_only && !is_dir)
		return 0;
	if (r->anchored)
		return pk_glob_match(r->pat, rel);
	const char *slash = strrchr(rel, '/');
	return pk_glob_match(r->pat, slash ? slash + 1 : rel);
}

/* a directory of F->up (the path from F's directory down to the root) is ignored */
static int up_ignored(const struct pk_ign_file *f, char *buf)
{
	size_t ul = strlen(f->up);
	for (size_t i = 0; i < ul; i++) {
		if (f->up[i] != '/')
			continue;
		int hit = 0;
		memcpy(buf, f->up, i);
		buf[i] = '\0';
		for (size_t k = 0; k < f->nr; k++)
			if (rule_hits(&f->r[k], buf, 1))
				hit = !f->r[k].neg;
		if (hit)
			return 1;
	}
	return 0;
}

int pk_ign_match(const struct pk_ignores *ig, const char *rel, int is_dir)
{
	int out = 0;
	char buf[8192];
	for (size_t i = 0; i < ig->n; i++) {
		const struct pk_ign_file *f = &ig->f[i];
		size_t bl = strlen(f->base);
		if (strncmp(rel, f->base, bl))
			continue;
		const char *s = rel + bl;
		if (*f->up) {
			if ((size_t)snprintf(buf, sizeof(buf), "%s%s", f->up, s) >= sizeof(buf))
				continue;
			s = buf;
		}
		for (size_t k = 0; k < f->nr; k++)
			if (rule_hits(&f->r[k], s, is_dir))
				out = !f->r[k].neg;
		if (*f->up && up_ignored(f, buf))
			out = 1; /* the root itself lies in a directory this file ignores */
	}
	return out;
}

int pk_ign_match_path(const struct pk_ignores *ig, const char *rel, int is_dir)
{
	if (!ig->n)
		return 0;
	char buf[8192];
	size_t l = strlen(rel);
	if (l >= sizeof(buf))
		return 0;
	memcpy(buf, rel, l + 1);
	for (char *p = strchr(buf, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0'; /* a file inside an ignored directory is ignored */
		int hit = pk_ign_match(ig, buf, 1);
		*p = '/';
		if (hit)
			return 1;
	}
	return pk_ign_match(ig, buf, is_dir);
}
