/* ast_api.c - the probe API of a kernel kind (rules/api.ini): which kind a
 * file is, and the spellings of its cycle read, barrier, block index, print
 * and row writeback, for printf probes and the timing tensor alike. */
#include "ast.h"
#include "embed.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

#define API_INI "rules/api.ini"

struct api_ctx {
	const char *kind; /* the section wanted, or NULL for [kinds] only */
	struct pk_api *api;
	char *order, *fallback, *dflt;
	int seen; /* the section exists */
};

static char **api_field(struct pk_api *a, const char *key)
{
	struct {
		const char *key;
		char **field;
	} map[] = {{"includes", &a->includes},
	           {"entry", &a->entry},
	           {"namespace", &a->ns},
	           {"cycle", &a->cycle},
	           {"sim_macro", &a->sim_macro},
	           {"sim_cycle", &a->sim_cycle},
	           {"sim_include", &a->sim_include},
	           {"barrier", &a->barrier},
	           {"block", &a->block},
	           {"subblock", &a->subblock},
	           {"block_include", &a->block_include},
	           {"print", &a->print},
	           {"writeback", &a->writeback},
	           {"fence", &a->fence},
	           {"pointer_types", &a->pointer_types},
	           {"sim_if", &a->sim_if},
	           {"sim_else", &a->sim_else},
	           {"sim_endif", &a->sim_endif},
	           {"include", &a->include},
	           {"sample", &a->sample},
	           {"barrier_line", &a->barrier_line},
	           {"print_line", &a->print_line},
	           {"guard_open", &a->guard_open},
	           {"core_open", &a->core_open},
	           {"close", &a->close},
	           {"cycles", &a->cycles},
	           {"index", &a->index},
	           {"block_arg", &a->block_arg},
	           {"iter_arg", &a->iter_arg},
	           {"dur_arg", &a->dur_arg},
	           {"kind_note", &a->kind_note}};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i].key, key))
			return map[i].field;
	return NULL;
}

static const char *const api_keys[] = {"includes",      "entry",       "namespace", "cycle", "sim_macro",
                                       "sim_cycle",     "sim_include", "barrier",   "block", "subblock",
                                       "block_include", "print",       "writeback", "fence", "pointer_types"};
static const char *const code_keys[] = {"sim_if",     "sim_else",   "sim_endif", "include",  "sample", "barrier_line",
                                        "print_line", "guard_open", "core_open", "close",    "cycles", "index",
                                        "block_arg",  "iter_arg",   "dur_arg",   "kind_note"};

static int on_api(void *user, const char *section, const char *key, const char *value, unsigned line)
{
	struct api_ctx *c = user;
	if (!strcmp(section, "kinds")) {
		char **f = !strcmp(key, "order")      ? &c->order
		           : !strcmp(key, "fallback") ? &c->fallback
		           : !strcmp(key, "default")  ? &c->dflt
		                                      : NULL;
		if (!f)
			return pk_error(API_INI ":%u: [kinds] takes order, fallback and default, not '%s'", line, key);
		free(*f);
		*f = pk_xstrdup(value);
		return 0;
	}
	if (!strcmp(section, "code")) {
		size_t i = 0;
		while (i < sizeof(code_keys) / sizeof(code_keys[0]) && strcmp(code_keys[i], key))
			i++;
		if (i == sizeof(code_keys) / sizeof(code_keys[0]))
			return pk_error(API_INI ":%u: [code]: unknown key '%s'", line, key);
		if (c->api) {
			char **f = api_field(c->api, key);
			free(*f);
			*f = pk_xstrdup(value);
		}
		return 0;
	}
	if (!c->kind || strcmp(section, c->kind))
		return 0;
	c->seen = 1;
	char **f = api_field(c->api, key);
	if (!f)
		return pk_error(API_INI ":%u: [%s]: unknown key '%s'", line, section, key);
	free(*f);
	*f = pk_xstrdup(value);
	return 0;
}

void pk_api_free(struct pk_api *a)
{
	for (size_t i = 0; i < sizeof(api_keys) / sizeof(api_keys[0]); i++) {
		char **f = api_field(a, api_keys[i]);
		free(*f);
		*f = NULL;
	}
	for (size_t i = 0; i < sizeof(code_keys) / sizeof(code_keys[0]); i++) {
		char **f = api_field(a, code_keys[i]);
		free(*f);
		*f = NULL;
	}
}

/* Read [kinds] (and the section KIND when given). */
static int api_read(struct api_ctx *c)
{
	if (pk_ini_parse_rules("api.ini", on_api, c) < 0)
		return -1;
	const char *missing = !c->order ? "order" : !c->fallback ? "fallback" : !c->dflt ? "default" : NULL;
	if (missing)
		return pk_error(API_INI ": [kinds] needs '%s'", missing);
	return 0;
}

int pk_api_load(const char *kind, struct pk_api *a)
{
	memset(a, 0, sizeof(*a));
	struct api_ctx c = {kind, a, NULL, NULL, NULL, 0};
	int rc = api_read(&c);
	if (rc == 0 && !c.seen)
		rc = pk_error("--api '%s': " API_INI " has no [%s] (kinds: %s %s)", kind, kind, c.order, c.fallback);
	for (size_t i = 0; rc == 0 && i < sizeof(api_keys) / sizeof(api_keys[0]); i++)
		if (!*api_field(a, api_keys[i]))
			rc = pk_error(API_INI ": [%s] needs '%s' (an empty value says none)", kind, api_keys[i]);
	for (size_t i = 0; rc == 0 && i < sizeof(code_keys) / sizeof(code_keys[0]); i++)
		if (!*api_field(a, code_keys[i]))
			rc = pk_error(API_INI ": [code] needs '%s'", code_keys[i]);
	if (rc == 0) {
		snprintf(a->kind, sizeof(a->kind), "%s", kind);
		snprintf(a->dflt, sizeof(a->dflt), "%s", c.dflt);
	}
	free(c.order);
	free(c.fallback);
	free(c.dflt);
	if (rc < 0)
		pk_api_free(a);
	return rc;
}

int pk_api_load_default(struct pk_api *a)
{
	struct api_ctx c = {NULL, NULL, NULL, NULL, NULL, 0}; /* [kinds] only */
	int rc = api_read(&c);
	if (rc == 0)
		rc = pk_api_load(c.dflt, a);
	free(c.order);
	free(c.fallback);
	free(c.dflt);
	return rc;
}

/* The path of the #include directive on the line at P (before EOL), or NULL. */
static const char *include_path(const char *p, const char *eol, size_t *len)
{
	while (p < eol && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= eol || *p++ != '#')
		return NULL;
	while (p < eol && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(eol - p) <= 7 || strncmp(p, "include", 7))
		return NULL;
	const char *o = p + 7 + strcspn(p + 7, "\"<\n");
	if (o >= eol)
		return NULL;
	const char *e = o + 1 + strcspn(o + 1, "\">\n");
	if (e >= eol)
		return NULL;
	*len = (size_t)(e - o - 1);
	return o + 1;
}

int pk_api_includes(const struct pk_buf *b, const struct pk_scan *s, const char *list)
{
	const char *d = b->data, *end = d + b->len;
	for (const char *p = d; p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		size_t len;
		const char *path = include_path(p, eol, &len);
		if (path && !(s && pk_scan_block_at(s, (size_t)(p - d)) >= 0)) {
			const char *base = path + len;
			while (base > path && base[-1] != '/')
				base--;
			if (pk_word_in(list, path, len) || pk_word_in(list, base, (size_t)(path + len - base)))
				return 1;
		}
		p = eol + 1;
	}
	return 0;
}

/* The code of B holds TEXT outside comments. */
static int has_code_text(const struct pk_buf *b, const struct pk_scan *s, const char *text)
{
	if (!*text)
		return 0;
	const char *p = b->data, *end = b->data + b->len;
	size_t tl = strlen(text);
	while ((p = memmem(p, (size_t)(end - p), text, tl)) != NULL) {
		if (!s || !pk_scan_in_comment(s, (size_t)(p - b->data)))
			return 1;
		p++;
	}
	return 0;
}

int pk_api_detect(const struct pk_buf *b, const struct pk_scan *s, char *kind, size_t cap)
{
	struct api_ctx c = {NULL, NULL, NULL, NULL, NULL, 0};
	if (api_read(&c) < 0) {
		free(c.order);
		free(c.fallback);
		free(c.dflt);
		return -1;
	}
	int found = 0;
	char *save = NULL, *words = pk_xstrdup(c.order);
	for (char *w = strtok_r(words, " \t", &save); w && !found; w = strtok_r(NULL, " \t", &save)) {
		struct pk_api a;
		if (pk_api_load(w, &a) < 0) {
			found = -1;
			break;
		}
		if (pk_api_includes(b, NULL, a.includes) || has_code_text(b, s, a.entry)) {
			snprintf(kind, cap, "%s", w);
			found = 1;
		}
		pk_api_free(&a);
	}
	if (found == 0)
		snprintf(kind, cap, "%s", c.fallback);
	free(words);
	free(c.order);
	free(c.fallback);
	free(c.dflt);
	return found;
}

char *pk_api_fill(const char *tmpl, const char *const *names, const char *const *vals, size_t n)
{
	struct pk_sb sb = {0};
	pk_sb_add(&sb, "");
	for (const char *p = tmpl; *p;) {
		size_t k = n;
		if (*p == '{')
			for (k = 0; k < n; k++) {
				size_t l = strlen(names[k]);
				if (!strncmp(p + 1, names[k], l) && p[1 + l] == '}')
					break;
			}
		if (k < n) {
			pk_sb_add(&sb, vals[k]);
			p += strlen(names[k]) + 2;
		} else {
			pk_sb_addn(&sb, p++, 1);
		}
	}
	return sb.s;
}

char *pk_api_call(const struct pk_api *a, const char *name, int qualify, const char *args)
{
	const char *names[] = {"args"}, *vals[] = {args ? args : "args"};
	char *body = pk_api_fill(name, names, vals, 1);
	if (!qualify || !*a->ns)
		return body;
	char *q = pk_xasprintf("%s::%s", a->ns, body);
	free(body);
	return q;
}

char *pk_api_read_lines(const struct pk_api *a, const char *sim_line, const char *dev_line, const char *eol)
{
	if (!*a->sim_macro)
		return pk_xstrdup(dev_line);
	const char *names[] = {"sim_macro"}, *vals[] = {a->sim_macro};
	char *open = pk_api_fill(a->sim_if, names, vals, 1);
	char *t =
	    pk_xasprintf("%s%s%s%s%s%s%s%s%s", open, eol, sim_line, eol, a->sim_else, eol, dev_line, eol, a->sim_endif);
	free(open);
	return t;
}

char *pk_api_include_lines(const struct pk_api *a, const char *header, int sim, const char *eol)
{
	const char *names[] = {"header", "sim_macro"}, *vals[] = {header, a->sim_macro};
	char *inc = pk_api_fill(a->include, names, vals, 2);
	if (!sim)
		return inc;
	char *open = pk_api_fill(a->sim_if, names, vals, 2);
	char *t = pk_xasprintf("%s%s%s%s%s", open, eol, inc, eol, a->sim_endif);
	free(open);
	free(inc);
	return t;
}
