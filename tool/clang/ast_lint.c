/* ast_lint.c - the async-boundary lint and the rules it reads
 * (rules/async.ini): an end sample right after an asynchronous issue
 * measures the issue, not the work; a start sample before a wait measures
 * the wait as part of the stage. */
#include "ast.h"
#include "embed.h"
#include "pk.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static void list_free(struct pk_namelist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* A later setting of the same key replaces the list. */
static void list_add_csv(struct pk_namelist *l, const char *csv)
{
	list_free(l);
	const char *p = csv;
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		const char *s = p;
		while (*p && *p != ',' && *p != ' ' && *p != '\t')
			p++;
		if (p > s) {
			PK_GROW(l->v, l->cap, l->n + 1);
			l->v[l->n++] = pk_xstrndup(s, (size_t)(p - s));
		}
	}
}

int pk_namelist_has(const struct pk_namelist *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], name))
			return 1;
	return 0;
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = pk_xstrdup(v);
}

static int on_ini(void *user, const char *section, const char *key, const char *value, unsigned line)
{
	struct pk_ast_rules *r = user;
	static const struct {
		const char *section, *key;
		size_t list_off; /* offsetof a pk_namelist, or -1 */
		size_t str_off;
	} keys[] = {
#define L(s, k, f) {s, k, offsetof(struct pk_ast_rules, f), (size_t)-1}
#define S(s, k, f)                                                                                                     \
	{                                                                                                              \
		s, k, (size_t)-1, offsetof(struct pk_ast_rules, f)                                                     \
	}
	    L("async", "issue", issue),
	    L("async", "wait", wait),
	    L("async", "barrier", barrier),
	    L("async", "notify", notify),
	    L("print", "mixed", mixed),
	    S("print", "guard", guard),
	    S("print", "aiv_core", aiv_core),
	    S("print", "aiv_guard", aiv_guard),
	    S("print", "aic_core", aic_core),
	    S("print", "aic_guard", aic_guard),
	    L("wait", "same_core", wait_same),
	    L("wait", "cross_core", wait_cross),
	    L("wait", "collective", collective),
	    S("wait", "same_core_comment", wait_same_note),
	    S("wait", "cross_core_comment", wait_cross_note),
#undef L
#undef S
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcmp(section, keys[i].section) || strcmp(key, keys[i].key))
			continue;
		if (keys[i].list_off != (size_t)-1)
			list_add_csv((struct pk_namelist *)((char *)r + keys[i].list_off), value);
		else
			set_str((char **)((char *)r + keys[i].str_off), value);
		return 0;
	}
	return pk_error("rules/async.ini:%u: unknown key '%s' in [%s]", line, key, section);
}

int pk_ast_rules_load(struct pk_ast_rules *r)
{
	memset(r, 0, sizeof(*r));
	if (pk_ini_parse_rules("async.ini", on_ini, r) < 0) {
		pk_ast_rules_free(r);
		return -1;
	}
	const struct {
		const char *v, *section, *key;
	} need[] = {{r->guard, "print", "guard"},
	            {r->aiv_core, "print", "aiv_core"},
	            {r->aiv_guard, "print", "aiv_guard"},
	            {r->aic_core, "print", "aic_core"},
	            {r->aic_guard, "print", "aic_guard"},
	            {r->wait_same_note, "wait", "same_core_comment"},
	            {r->wait_cross_note, "wait", "cross_core_comment"}};
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!need[i].v) {
			pk_ast_rules_free(r);
			return pk_error("rules/async.ini: [%s] needs '%s' (docs/rules.md lists the keys of every rule "
			                "file)",
			                need[i].section, need[i].key);
		}
	return 0;
}

void pk_ast_rules_free(struct pk_ast_rules *r)
{
	list_free(&r->issue);
	list_free(&r->wait);
	list_free(&r->barrier);
	list_free(&r->notify);
	list_free(&r->mixed);
	list_free(&r->wait_same);
	list_free(&r->wait_cross);
	list_free(&r->collective);
	free(r->wait_same_note);
	free(r->wait_cross_note);
	free(r->guard);
	free(r->aiv_core);
	free(r->aiv_guard);
	free(r->aic_core);
	free(r->aic_guard);
	memset(r, 0, sizeof(*r));
}

static int completes(const struct pk_ast_rules *r, const char *name)
{
	return pk_namelist_has(&r->wait, name) || pk_namelist_has(&r->barrier, name);
}

/* Calls between two insertion offsets in one function, in source order. */
static int call_in(const struct pk_ast *a, size_t i, size_t from, size_t to, int func)
{
	const struct pk_call *c = &a->calls[i];
	return !c->inactive && c->off >= from && c->off < to && a->nodes[c->node].func == func;
}

static void lint_end(struct pk_ast *a, const struct pk_ast_rules *r, const char *name, const struct pk_anchor *s,
                     const struct pk_anchor *e)
{
	int func = a->nodes[s->scope].func;
	long last_issue = -1;
	for (size_t i = 0; i < a->ncalls; i++) {
		if (!call_in(a, i, s->off, e->off, func))
			continue;
		if (pk_namelist_has(&r->issue, a->calls[i].name))
			last_issue = (long)i;
		else if (completes(r, a->calls[i].name))
			last_issue = -1;
	}
	if (last_issue >= 0)
		pk_warning("%s:%u: the end sample of '%s' follows asynchronous '%s' (line %u) with no wait or "
		           "barrier of the kernel's own between: only the probe's own barrier completes it; "
		           "end after the wait_flag or barrier that completes it in the kernel",
		           a->b->path, e->line, name, a->calls[last_issue].name,
		           pk_ast_line(a, a->calls[last_issue].off));
}

static void lint_start(struct pk_ast *a, const struct pk_ast_rules *r, const char *name, const struct pk_anchor *s,
                       const struct pk_anchor *e)
{
	int func = a->nodes[s->scope].func;
	for (size_t i = 0; i < a->ncalls; i++) {
		if (!call_in(a, i, s->off, e->off, func))
			continue;
		if (pk_namelist_has(&r->wait, a->calls[i].name))
			pk_warning("%s:%u: the start sample of '%s' precedes '%s' (line %u): a consumer stage "
			           "starts after its wait returns; start after it (--begin after:%s) or "
			           "time the wait on its own (--wait %s)",
			           a->b->path, s->line, name, a->calls[i].name, pk_ast_line(a, a->calls[i].off),
			           a->calls[i].name, a->calls[i].name);
		return; /* only the first call after the start matters */
	}
}

/* A wait probe times a wait: say so when the call between is none. */
static void lint_wait(struct pk_ast *a, const struct pk_ast_rules *r, const char *name, const struct pk_anchor *s,
                      const struct pk_anchor *e)
{
	int func = a->nodes[s->scope].func;
	for (size_t i = 0; i < a->ncalls; i++)
		if (call_in(a, i, s->off, e->off, func) && !pk_namelist_has(&r->wait, a->calls[i].name) &&
		    !pk_namelist_has(&r->barrier, a->calls[i].name)) {
			pk_warning("%s:%u: wait probe '%s' times '%s', which is not a wait or barrier in "
			           "rules/async.ini",
			           a->b->path, pk_ast_line(a, a->calls[i].off), name, a->calls[i].name);
			return;
		}
}

void pk_ast_lint(struct pk_ast *a, const struct pk_ast_rules *r, const char *name, const struct pk_anchor *start,
                 const struct pk_anchor *ends, size_t nends, int wait_probe)
{
	if (!wait_probe)
		lint_start(a, r, name, start, &ends[nends - 1]);
	else
		lint_wait(a, r, name, start, &ends[nends - 1]);
	for (size_t i = 0; i < nends; i++)
		lint_end(a, r, name, start, &ends[i]);
}
