/* check_sarif.c - probe-check --format=sarif: SARIF 2.1.0 as GitHub code
 * scanning takes it (rule help with the fixing command, fingerprints that
 * follow a finding across commits, file:// URIs outside the repository). */
#include "check.h"
#include "pk.h"

#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PK_INFO_URI /* set the project's home page when building for publishing */
#define PK_INFO_URI "https://example.invalid/probekit"
#endif

static char *pct_encode(const char *s)
{
	char *out = pk_xmalloc(strlen(s) * 3 + 1), *w = out;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p))
			*w++ = (char)*p;
		else
			w += sprintf(w, "%%%02X", *p);
	}
	*w = '\0';
	return out;
}

/* A relative URI under BASE (*inside = 1), else a file:// absolute one. */
static char *uri_of(const char *path, const char *base, int *inside)
{
	char abs[PATH_MAX];
	const char *rel = path;
	*inside = 1;
	if (base && realpath(path, abs)) {
		size_t bl = strlen(base);
		if (!strncmp(abs, base, bl) && abs[bl] == '/')
			rel = abs + bl + 1;
		else
			*inside = 0;
	}
	while (rel[0] == '.' && rel[1] == '/')
		rel += 2;
	char *enc = pct_encode(*inside ? rel : abs);
	if (*inside)
		return enc;
	char *out = pk_xmalloc(strlen(enc) + 8);
	sprintf(out, "file://%s", enc);
	free(enc);
	return out;
}

/* FNV-1a over the rule, the file and the line's text without blanks: the
 * finding keeps its fingerprint when lines above it move. */
static uint64_t fingerprint(const char *rule, const char *uri, const char *text)
{
	uint64_t h = 1469598103934665603ULL;
	const char *parts[3] = {rule, uri, text};
	for (int i = 0; i < 3; i++) {
		for (const unsigned char *p = (const unsigned char *)parts[i]; *p; p++)
			if (*p != ' ' && *p != '\t') {
				h ^= *p;
				h *= 1099511628211ULL;
			}
		h ^= 0xff; /* a separator no text holds */
		h *= 1099511628211ULL;
	}
	return h;
}

static json_t *rule_json(const struct pk_rule *r)
{
	char fallback[300];
	snprintf(fallback, sizeof(fallback), "remove it, or mark a deliberate one with // probe-check: allow(%s)",
	         r->id);
	const char *fix = r->fix ? r->fix : fallback;
	size_t n = strlen(r->description) + strlen(fix) + 64;
	char *text = pk_xmalloc(n), *md = pk_xmalloc(n + strlen(r->description));
	snprintf(text, n, "%s. Fix: %s", r->description, fix);
	snprintf(md, n + strlen(r->description), "**%s**\n\nFix: `%s`", r->description, fix);
	json_t *j =
	    json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:s, s:s}, s:{s:s}}", "id", r->id, "name", r->id,
	              "shortDescription", "text", r->message, "fullDescription", "text", r->description, "help", "text",
	              text, "markdown", md, "defaultConfiguration", "level", pk_check_sev_name(r->severity));
	free(text);
	free(md);
	return j;
}

static json_t *result_json(const struct finding *f, int rule_index, const char *uri, int inside, unsigned occurrence)
{
	json_t *loc = json_pack("{s:s}", "uri", uri);
	if (inside)
		json_object_set_new(loc, "uriBaseId", json_string("%SRCROOT%"));
	char fp[40];
	snprintf(fp, sizeof(fp), "%016llx:%u", (unsigned long long)fingerprint(f->rule->id, uri, f->text), occurrence);
	return json_pack("{s:s, s:i, s:s, s:{s:s}, s:[{s:{s:o, s:{s:i, s:i}}}], s:{s:s}}", "ruleId", f->rule->id,
	                 "ruleIndex", (json_int_t)rule_index, "level", pk_check_sev_name(f->sev), "message", "text",
	                 f->msg, "locations", "physicalLocation", "artifactLocation", loc, "region", "startLine",
	                 (json_int_t)f->line, "startColumn", (json_int_t)f->col, "partialFingerprints",
	                 "probekitFindingHash/v1", fp);
}

/* how many earlier findings of the file share F's rule and text */
static unsigned occurrence_of(const struct item *it, size_t k)
{
	unsigned n = 1;
	for (size_t i = 0; i < k; i++)
		n += it->f[i].rule == it->f[k].rule && !strcmp(it->f[i].text, it->f[k].text);
	return n;
}

void pk_check_print_sarif(const struct check *c)
{
	int change = c->staged || c->diff_base; /* paths are repository-relative already */
	char *base = change ? NULL : pk_check_git_toplevel();
	char cwd[PATH_MAX];
	if (!base && !change && getcwd(cwd, sizeof(cwd)))
		base = pk_xstrdup(cwd);
	json_t *rules = json_array(), *results = json_array();
	int *index = pk_xcalloc(c->rules.n + 1, sizeof(int));
	for (size_t i = 0, n = 0; i < c->rules.n; i++)
		if (c->rules.r[i].enabled) {
			index[i] = (int)n++;
			json_array_append_new(rules, rule_json(&c->rules.r[i]));
		}
	for (size_t i = 0; i < c->nitems; i++) {
		const struct item *it = &c->items[i];
		int inside;
		char *uri = uri_of(it->path, base, &inside);
		for (size_t k = 0; k < it->n; k++)
			json_array_append_new(results, result_json(&it->f[k], index[it->f[k].rule - c->rules.r], uri,
			                                           inside, occurrence_of(it, k)));
		free(uri);
	}
	json_t *root = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s, s:o}}, s:o}]}", "$schema",
	                         "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0", "runs", "tool",
	                         "driver", "name", "probekit", "version", PK_VERSION, "informationUri", PK_INFO_URI,
	                         "rules", rules, "results", results);
	char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	puts(s);
	free(s);
	json_decref(root);
	free(index);
	free(base);
}
