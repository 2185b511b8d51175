/* rules.c - load probe-check rules (INI, via libinih) and compile them (PCRE2 JIT). */
#include "rules.h"
#include "embed.h"
#include "litset.h"
#include "pk.h"

#include <errno.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>

/* libinih reads line by line through our reader, so we know each key's line. */
struct ini_src {
	const char *p, *end;
	unsigned line;
	int too_long;
	unsigned too_long_line;
};

struct ini_ctx {
	const char *origin;
	struct ini_src *src;
	pk_ini_key_fn fn;
	void *user;
	int failed;
};

struct rule_ctx {
	struct pk_ruleset *rs;
	const char *origin;
	unsigned line;
};

static char *mem_reader(char *str, int num, void *stream)
{
	struct ini_src *s = stream;
	if (s->p >= s->end)
		return NULL;
	const char *nl = memchr(s->p, '\n', (size_t)(s->end - s->p));
	size_t len = nl ? (size_t)(nl - s->p) + 1 : (size_t)(s->end - s->p);
	s->line++;
	if (len >= (size_t)num) {
		if (!s->too_long) {
			s->too_long = 1;
			s->too_long_line = s->line;
		}
		len = (size_t)num - 1;
		nl = NULL;
	}
	memcpy(str, s->p, len);
	str[len] = '\0';
	s->p = nl ? nl + 1 : s->p + len;
	if (!nl) { /* skip the rest of an over-long line */
		const char *rest = memchr(s->p, '\n', (size_t)(s->end - s->p));
		s->p = rest ? rest + 1 : s->end;
	}
	return str;
}

static struct pk_rule *find_rule(struct pk_ruleset *rs, const char *id)
{
	for (size_t i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].id, id))
			return &rs->r[i];
	return NULL;
}

static struct pk_rule *get_rule(struct pk_ruleset *rs, const char *id)
{
	struct pk_rule *r = find_rule(rs, id);
	if (r)
		return r;
	PK_GROW(rs->r, rs->cap, rs->n + 1);
	r = &rs->r[rs->n++];
	memset(r, 0, sizeof(*r));
	r->id = pk_xstrdup(id);
	r->enabled = 1;
	return r;
}

static int parse_bool(const char *v, int *out)
{
	if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "on"))
		*out = 1;
	else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "off"))
		*out = 0;
	else
		return -1;
	return 0;
}

static void free_literals(struct pk_rule *r)
{
	for (size_t i = 0; i < r->nlits; i++)
		free(r->lits[i]);
	free(r->lits);
	r->lits = NULL;
	r->nlits = 0;
}

/* `literals = A|B|C`: every match holds one of them; empty: no prefilter */
static void set_literals(struct pk_rule *r, const char *value)
{
	free_literals(r);
	char *copy = pk_xstrdup(value), *save = NULL;
	size_t cap = 0;
	for (char *t = strtok_r(copy, "|", &save); t; t = strtok_r(NULL, "|", &save)) {
		PK_GROW(r->lits, cap, r->nlits + 1);
		r->lits[r->nlits++] = pk_xstrdup(t);
	}
	free(copy);
}

/* A value may name a setting of another rule file, `{FILE.ini:SECTION.KEY}`
 * (probe-check's timing rules take the generated-name prefix from
 * rules/timing.ini, the generator's own setting, so the two never differ).
 * A missing file or key is an error. */
struct ref_ctx {
	const char *section, *key;
	char *value;
};

static int on_ref_key(void *user, const char *section, const char *key, const char *value, unsigned line)
{
	struct ref_ctx *r = user;
	(void)line;
	if (!strcmp(section, r->section) && !strcmp(key, r->key)) {
		free(r->value);
		r->value = pk_xstrdup(value);
	}
	return 0;
}

static char *expand_refs(const struct rule_ctx *c, unsigned line, const char *value)
{
	struct pk_sb sb = {0};
	const char *p = value;
	for (const char *o; (o = strstr(p, "{")) != NULL;) {
		const char *colon = strchr(o, ':'), *close = strchr(o, '}');
		if (!colon || !close || colon > close || colon - o < 5 || memcmp(colon - 4, ".ini", 4)) {
			pk_sb_addn(&sb, p, (size_t)(o - p + 1));
			p = o + 1;
			continue;
		}
		char *file = pk_xstrndup(o + 1, (size_t)(colon - o - 1)),
		     *ref = pk_xstrndup(colon + 1, (size_t)(close - colon - 1));
		char *dot = strchr(ref, '.');
		struct ref_ctx r = {ref, dot ? dot + 1 : "", NULL};
		if (dot)
			*dot = '\0';
		int rc = dot ? pk_ini_parse_rules(file, on_ref_key, &r) : -1;
		if (rc == 0 && !r.value)
			pk_error("%s:%u: rules/%s has no '%s' in [%s]", c->origin, line, file, r.key, r.section);
		else if (!dot)
			pk_error("%s:%u: '{%s:%s}': name SECTION.KEY", c->origin, line, file, ref);
		free(file);
		free(ref);
		if (!r.value) {
			pk_sb_free(&sb);
			return NULL;
		}
		pk_sb_addn(&sb, p, (size_t)(o - p));
		pk_sb_add(&sb, r.value);
		free(r.value);
		p = close + 1;
	}
	pk_sb_add(&sb, p);
	return sb.s;
}

/* A pattern may name the identifiers the tool generates (rules/names.ini):
 * `{name:SECTION.KEY}` is a pattern of one, `{names:SECTION}` of every one
 * of a section (its prefix aside): {prefix} becomes the prefix, maybe
 * numbered, and '_'; {name} and {event} a word. So the check rules find
 * every name the tool writes, and a name added there is found at once. */
struct names_ctx {
	const char *section, *key; /* KEY NULL: every key of SECTION */
	char *prefix;
	struct pk_sb out;
};

static void name_pattern(struct pk_sb *sb, const char *prefix, const char *v)
{
	while (*v) {
		if (!strncmp(v, "{prefix}", 8)) {
			pk_sb_addf(sb, "%s\\d*_", prefix);
			v += 8;
		} else if (!strncmp(v, "{name}", 6) || !strncmp(v, "{event}", 7)) {
			pk_sb_add(sb, "\\w+");
			v += v[1] == 'n' ? 6 : 7;
		} else {
			if (!pk_is_ident((unsigned char)*v))
				pk_sb_add(sb, "\\");
			pk_sb_addn(sb, v++, 1);
		}
	}
}

static int on_name_key(void *user, const char *section, const char *key, const char *value, unsigned line)
{
	struct names_ctx *c = user;
	(void)line;
	if (!strcmp(section, "timing") && !strcmp(key, "prefix")) {
		free(c->prefix);
		c->prefix = pk_xstrdup(value);
	}
	return 0;
}

static int on_name_value(void *user, const char *section, const char *key, const char *value, unsigned line)
{
	struct names_ctx *c = user;
	(void)line;
	if (strcmp(section, c->section) || !strcmp(key, "prefix") || (c->key && strcmp(key, c->key)))
		return 0;
	pk_sb_add(&c->out, c->out.n ? "|" : "(?:");
	name_pattern(&c->out, c->prefix ? c->prefix : "", value);
	return 0;
}

/* The pattern of `{name:S.K}` or `{names:S}` (REF is what is between the
 * braces); NULL after an error that names the rule file's line. */
static char *names_pattern(const struct rule_ctx *c, unsigned line, const char *ref)
{
	int all = !strncmp(ref, "names:", 6);
	char *sec = pk_xstrdup(ref + (all ? 6 : 5)), *dot = strchr(sec, '.');
	if (dot)
		*dot = '\0';
	struct names_ctx n = {sec, dot ? dot + 1 : NULL, NULL, {0}};
	if ((all ? dot != NULL : dot == NULL) || pk_ini_parse_rules("names.ini", on_name_key, &n) < 0 ||
	    pk_ini_parse_rules("names.ini", on_name_value, &n) < 0) {
		if (all ? dot != NULL : dot == NULL)
			pk_error("%s:%u: '{%s}': write {name:SECTION.KEY} or {names:SECTION}", c->origin, line, ref);
		free(n.prefix);
		free(sec);
		pk_sb_free(&n.out);
		return NULL;
	}
	if (!n.out.n)
		pk_error("%s:%u: '{%s}': rules/names.ini has no such %s", c->origin, line, ref,
		         all ? "section" : "key");
	else
		pk_sb_add(&n.out, ")");
	free(n.prefix);
	free(sec);
	if (!n.out.n)
		return NULL;
	return n.out.s;
}

static char *expand_names(const struct rule_ctx *c, unsigned line, const char *value)
{
	struct pk_sb sb = {0};
	pk_sb_add(&sb, "");
	for (const char *p = value; *p;) {
		const char *close = NULL;
		if (*p == '{' && (!strncmp(p + 1, "name:", 5) || !strncmp(p + 1, "names:", 6)))
			close = strchr(p, '}');
		if (!close) {
			pk_sb_addn(&sb, p++, 1);
			continue;
		}
		char *ref = pk_xstrndup(p + 1, (size_t)(close - p - 1)), *pat = names_pattern(c, line, ref);
		free(ref);
		if (!pat) {
			pk_sb_free(&sb);
			return NULL;
		}
		pk_sb_add(&sb, pat);
		free(pat);
		p = close + 1;
	}
	return sb.s;
}

static int set_field(struct rule_ctx *c, struct pk_rule *r, const char *key, const char *value)
{
	unsigned line = c->line;
	if (!strcmp(key, "pattern")) {
		if (r->origin && strcmp(r->origin, c->origin))
			free_literals(r); /* another file's literals need not hold for this pattern */
		free(r->pattern);
		free(r->origin);
		r->pattern = pk_xstrdup(value);
		r->origin = pk_xstrdup(c->origin);
		r->pattern_line = line;
		r->match = PK_MATCH_PATTERN;
	} else if (!strcmp(key, "match")) {
		if (!strcmp(value, "enabled-probe"))
			r->match = PK_MATCH_ENABLED_PROBE;
		else if (!strcmp(value, "disabled-probe"))
			r->match = PK_MATCH_DISABLED_PROBE;
		else if (!strcmp(value, "malformed-probe"))
			r->match = PK_MATCH_MALFORMED_PROBE;
		else
			return pk_error(
			    "%s:%u: rule '%s': unknown matcher '%s' (enabled-probe, disabled-probe, malformed-probe)",
			    c->origin, line, r->id, value);
	} else if (!strcmp(key, "severity")) {
		if (!strcmp(value, "error"))
			r->severity = PK_SEV_ERROR;
		else if (!strcmp(value, "warning"))
			r->severity = PK_SEV_WARNING;
		else
			return pk_error("%s:%u: rule '%s': severity must be 'error' or 'warning', not '%s'", c->origin,
			                line, r->id, value);
	} else if (!strcmp(key, "message")) {
		free(r->message);
		r->message = pk_xstrdup(value);
	} else if (!strcmp(key, "fix")) {
		free(r->fix);
		r->fix = pk_xstrdup(value);
	} else if (!strcmp(key, "sign")) {
		free(r->sign);
		r->sign = pk_xstrdup(value);
	} else if (!strcmp(key, "literals")) {
		set_literals(r, value);
	} else if (!strcmp(key, "description")) {
		free(r->description);
		r->description = pk_xstrdup(value);
	} else if (!strcmp(key, "strict") || !strcmp(key, "comments") || !strcmp(key, "enabled") ||
	           !strcmp(key, "added-only") || !strcmp(key, "needs-sign") || !strcmp(key, "python") ||
	           !strcmp(key, "fallback") || !strcmp(key, "alone")) {
		int v;
		if (parse_bool(value, &v) < 0)
			return pk_error("%s:%u: rule '%s': '%s' must be yes or no, not '%s'", c->origin, line, r->id,
			                key, value);
		if (!strcmp(key, "alone"))
			r->alone = v;
		else if (key[0] == 'a')
			r->added_only = v;
		else if (key[0] == 'f')
			r->fallback = v;
		else if (key[0] == 'n')
			r->needs_sign = v;
		else if (key[0] == 'p')
			r->python = v;
		else if (key[0] == 's')
			r->strict_only = v;
		else if (key[0] == 'c')
			r->in_comments = v;
		else
			r->enabled = v;
	} else {
		return pk_error("%s:%u: rule '%s': unknown key '%s'", c->origin, line, r->id, key);
	}
	return 0;
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
	struct ini_ctx *c = user;
	if (c->fn(c->user, section, name, value, c->src->line) < 0) {
		c->failed = 1;
		return 0;
	}
	return 1;
}

int pk_ini_parse(const char *origin, const char *expect, const char *text, size_t len, pk_ini_key_fn fn, void *user)
{
	struct ini_src src = {text, text + len, 0, 0, 0};
	struct ini_ctx c = {origin, &src, fn, user, 0};
	int rc = ini_parse_stream(mem_reader, &src, on_key, &c);
	if (src.too_long)
		return pk_error("%s:%u: line too long for a rule file (at most %d characters)", origin,
		                src.too_long_line, INI_MAX_LINE - 2);
	if (c.failed)
		return -1;
	if (rc > 0)
		return pk_error("%s:%d: not a valid INI line (expected %s)", origin, rc, expect);
	if (rc < 0)
		return pk_error("%s: cannot parse rule file", origin);
	return 0;
}

int pk_ini_parse_rules(const char *name, pk_ini_key_fn fn, void *user)
{
	const char *data;
	size_t len;
	char origin[300];
	snprintf(origin, sizeof(origin), "rules/%s", name);
	if (pk_rules_file(name, &data, &len) < 0)
		return pk_error("%s: cannot read built-in rules", origin);
	return pk_ini_parse(origin, "'[section]' or 'key = value'", data, len, fn, user);
}

static int on_rule_key(void *user, const char *section, const char *name, const char *value, unsigned line)
{
	struct rule_ctx *c = user;
	c->line = line;
	if (!*section)
		return pk_error("%s:%u: '%s' outside a [rule-id] section", c->origin, line, name);
	int refs = strstr(value, ".ini:") != NULL, names = strstr(value, "{name:") || strstr(value, "{names:");
	if (!refs && !names)
		return set_field(c, get_rule(c->rs, section), name, value);
	char *v = names ? expand_names(c, line, value) : pk_xstrdup(value);
	if (v && refs) {
		char *e = expand_refs(c, line, v);
		free(v);
		v = e;
	}
	int rc = v ? set_field(c, get_rule(c->rs, section), name, v) : -1;
	free(v);
	return rc;
}

int pk_rules_load_text(struct pk_ruleset *rs, const char *origin, const char *text, size_t len)
{
	struct rule_ctx c = {rs, origin, 0};
	return pk_ini_parse(origin, "'[rule-id]' or 'key = value'", text, len, on_rule_key, &c);
}

int pk_rules_load_file(struct pk_ruleset *rs, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return pk_error("%s: %s", path, strerror(errno));
	pk_note_read(path, NULL);
	char *buf = NULL;
	size_t n = 0, cap = 0, r;
	do {
		PK_GROW(buf, cap, n + 4096);
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	int err = ferror(f);
	fclose(f);
	if (err) {
		free(buf);
		return pk_error("%s: read error", path);
	}
	int rc = pk_rules_load_text(rs, path, buf, n);
	free(buf);
	return rc;
}

/* The function a cycle-read expression calls ("static_cast<uint64_t>(get_sys_cnt())"
 * -> get_sys_cnt), added to the '|'-separated set in SB unless present. */
static void add_callee(struct pk_sb *sb, const char *expr)
{
	const char *best = NULL;
	size_t bl = 0;
	for (const char *p = expr; *p; p++)
		if (*p == '(' && p > expr && pk_is_ident(p[-1])) {
			const char *b = p;
			while (b > expr && pk_is_ident(b[-1]))
				b--;
			if (strncmp(b, "static_cast", 11) && strncmp(b, "reinterpret_cast", 16)) {
				best = b;
				bl = (size_t)(p - b);
			}
		}
	if (!best)
		return;
	for (const char *q = sb->s; q && *q;) { /* already there? */
		size_t l = strcspn(q, "|");
		if (l == bl && !memcmp(q, best, bl))
			return;
		q += l + (q[l] == '|');
	}
	pk_sb_addf(sb, "%s%.*s", sb->n ? "|" : "", (int)bl, best);
}

static int on_api_cycle(void *user, const char *section, const char *key, const char *value, unsigned line)
{
	(void)line;
	if (strcmp(section, "kinds") && (!strcmp(key, "cycle") || !strcmp(key, "sim_cycle")))
		add_callee(user, value);
	return 0;
}

/* TEXT with every {api_cycle} replaced by the functions the probe API's
 * cycle reads call (rules/api.ini, every kind): the check rules flag what
 * the tool generates. Returns malloc'd text, or NULL on a rules error. */
static char *with_api_cycles(const char *text, size_t len, size_t *out_len)
{
	static const char mark[] = "{api_cycle}";
	struct pk_sb names = {0}, out = {0};
	pk_sb_add(&names, "");
	if (memmem(text, len, mark, sizeof(mark) - 1) && pk_ini_parse_rules("api.ini", on_api_cycle, &names) < 0) {
		pk_sb_free(&names);
		return NULL;
	}
	pk_sb_add(&out, "");
	for (const char *p = text, *end = text + len; p < end;) {
		const char *m = memmem(p, (size_t)(end - p), mark, sizeof(mark) - 1);
		size_t l = m ? (size_t)(m - p) : (size_t)(end - p);
		pk_sb_addn(&out, p, l);
		if (m)
			pk_sb_add(&out, names.s);
		p += l + (m ? sizeof(mark) - 1 : 0);
	}
	pk_sb_free(&names);
	*out_len = out.n;
	return out.s;
}

int pk_rules_load_defaults(struct pk_ruleset *rs)
{
	char **names = pk_rules_list("check", ".ini");
	int rc = 0;
	/* check.ini first, then check-*.ini in name order */
	for (char **p = names; *p; p++)
		if (!strcmp(*p, "check.ini") && p != names) {
			char *t = *p;
			memmove(names + 1, names, (size_t)(p - names) * sizeof(*names));
			names[0] = t;
			break;
		}
	for (char **p = names; *p; p++) {
		const char *data;
		size_t len;
		char origin[300];
		snprintf(origin, sizeof(origin), "rules/%s", *p);
		if (pk_rules_file(*p, &data, &len) < 0)
			rc = pk_error("%s: cannot read built-in rules", origin);
		else {
			size_t tl = 0;
			char *text = with_api_cycles(data, len, &tl);
			if (!text || pk_rules_load_text(rs, origin, text, tl) < 0)
				rc = -1;
			free(text);
		}
		free(*p);
	}
	free(names);
	if (rc == 0 && rs->n == 0)
		return pk_error("no probe-check rules found (rules/check.ini)");
	return rc;
}

static pcre2_code *compile_one(const struct pk_rule *r, const char *what, const char *pattern)
{
	int errcode;
	PCRE2_SIZE erroff;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_MATCH_INVALID_UTF,
	                               &errcode, &erroff, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(errcode, msg, sizeof(msg));
		pk_error("%s:%u: rule '%s': bad %s at offset %zu: %s", r->origin ? r->origin : "rules", r->pattern_line,
		         r->id, what, (size_t)erroff, (char *)msg);
		return NULL;
	}
	/* JIT is an optimisation: where it is unavailable, interpret */
	(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	return re;
}

int pk_rules_compile(struct pk_ruleset *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct pk_rule *r = &rs->r[i];
		if (!r->message)
			r->message = pk_xstrdup(r->id);
		if (!r->description) /* the message, with a placeholder for the probe */
			r->description = pk_rule_message(r, "NAME");
		if (!r->enabled || r->match != PK_MATCH_PATTERN)
			continue;
		if (!r->pattern)
			return pk_error("rule '%s': neither 'pattern' nor 'match' is set", r->id);
		if (!r->re && !(r->re = compile_one(r, "pattern", r->pattern)))
			return -1;
		if (!r->nlits) /* none given: those the pattern shows it needs, if any */
			r->nlits = pk_pattern_literals(r->pattern, &r->lits);
		if (r->sign && !r->sign_re && !(r->sign_re = compile_one(r, "sign", r->sign)))
			return -1;
	}
	return 0;
}

void pk_rules_free(struct pk_ruleset *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		free(rs->r[i].id);
		free(rs->r[i].pattern);
		free(rs->r[i].origin);
		free(rs->r[i].message);
		free(rs->r[i].description);
		free(rs->r[i].fix);
		free(rs->r[i].sign);
		free_literals(&rs->r[i]);
		pcre2_code_free(rs->r[i].sign_re);
		pcre2_code_free(rs->r[i].re);
	}
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}

char *pk_rule_message_in(const struct pk_rule *r, const char *name, const char *file)
{
	const char *m = r->message ? r->message : r->id;
	struct pk_sb sb = {0};
	for (const char *p = m; *p;) {
		const char *v = name && !strncmp(p, "{name}", 6)   ? name
		                : file && !strncmp(p, "{file}", 6) ? file
		                                                   : NULL;
		if (v) {
			pk_sb_add(&sb, v);
			p += 6;
		} else
			pk_sb_addn(&sb, p++, 1);
	}
	return sb.s ? sb.s : pk_xstrdup("");
}

char *pk_rule_message(const struct pk_rule *r, const char *name)
{
	return pk_rule_message_in(r, name, NULL);
}
