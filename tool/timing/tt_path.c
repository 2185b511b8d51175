/* tt_path.c - events inside helper functions: the samples live
 * in the kernel's event array; a pointer to it is threaded down every call
 * path kernel -> ... -> FUNC as an extra trailing parameter
 * (`uint64_t *pk_tt_ev = nullptr`, so callers off the path compile
 * unchanged) and the sample in FUNC writes through it. The functions and
 * calls are the front end's: the unit's free functions (pk_ast_unit()), the
 * calls in the bodies the models of the kernel's file and of the --edit
 * files index; a function whose address is taken, recursion, an ambiguous
 * name, a function defined in a file that was not given with --edit, a call
 * written by a macro or one relying on default arguments are refused. */
#include "tt.h"
#include "pk.h"
#include "timing_strip.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int event_at_call(struct pk_ast *a, const struct tt_kernel *k, struct tt_event *ev, const char *callee, int nth);
static int event_at_line(struct pk_ast *a, const struct tt_kernel *k, struct tt_event *ev, unsigned line);

/* What the path knows of each function of the unit (by its index in
 * the unit). */
struct fn {
	int model;        /* the model of the file defining it: 0 the kernel's, 1.. an --edit file's; -1 none */
	int func;         /* its index in that model's funcs, or -1 */
	int reach, leads; /* reachable from the kernel / reaches a target */
	int state;        /* cycle search: 0 new, 1 on stack, 2 done */
};

struct site {               /* a call of a free function from an editable one */
	int model;          /* whose calls hold it */
	size_t call;        /* its index there */
	int caller, callee; /* decls; callee -1: not a unique definition, -2-d: ambiguous */
	size_t close;       /* offset of its ')' */
	size_t name_off;    /* offset of the callee's name */
	int nargs;          /* arguments as written, -1 unknown */
	int macro;
	unsigned line;
};

struct graph {
	struct pk_ast *t;
	struct tt_spec *sp;
	struct pk_ast **m;   /* m[0] the kernel's model, then the --edit files' views */
	struct tt_file **ed; /* ed[k - 1]: the --edit file of m[k] */
	size_t nm;
	const struct pk_decl *d; /* the unit's functions, every file's */
	size_t nd;
	struct fn *f; /* one per decl */
	struct site *s;
	size_t ns, cap_s;
};

/* A free function or function template (the functions a path runs through). */
static int is_free(const struct graph *g, size_t i)
{
	const struct pk_decl *d = &g->d[i];
	return (d->kind == CXCursor_FunctionDecl || d->kind == CXCursor_FunctionTemplate) && !d->in_class;
}

static const char *name_of(const struct graph *g, int i)
{
	return g->d[i].name;
}

static const char *path_of(const struct graph *g, int model)
{
	return model >= 0 ? g->m[model]->b->path : "?";
}

/* Free functions named NAME: how many declarations and definitions (*N),
 * of definitions alone (*NDEF), the last definition, or -1. */
static int named(const struct graph *g, const char *name, int *n, int *ndef)
{
	int found = -1;
	*n = *ndef = 0;
	for (size_t i = 0; i < g->nd; i++)
		if (is_free(g, i) && !strcmp(g->d[i].name, name)) {
			++*n;
			if (g->d[i].def) {
				found = (int)i;
				++*ndef;
			}
		}
	return found;
}

static int unique_def(const struct graph *g, const char *name, int *n)
{
	int all;
	return named(g, name, &all, n);
}

/* ---- the calls ---- */

/* Arguments of the call whose ')' is at CLOSE, counted on the tokens. */
static int count_args(const struct pk_ast *t, size_t close)
{
	size_t i = pk_tok_at(t, close), s[256], e[256];
	if (!pk_tok_is(t, i, ")"))
		return -1;
	size_t open = pk_tok_enclosing(t, i, "(", ")");
	return open < t->ntok ? (int)pk_tok_args(t, open, s, e, 256) : -1;
}

static void note_site(struct graph *g, int model, size_t call, int caller)
{
	const struct pk_ast *t = g->m[model];
	const struct pk_call *c = &t->calls[call];
	const struct pk_node *n = &t->nodes[c->node];
	struct site s = {
	    model, call, caller, -1, 0, n->start, -1, pk_ast_from_macro(n->c), pk_ast_line(g->m[model], n->start)};
	if (!s.macro) {
		/* the text must start with the callee's name (ns:: qualifiers aside):
		 * a macro's invocation maps to its own name and parentheses */
		size_t i = pk_tok_at(t, n->start);
		if (pk_tok_is(t, i, "::"))
			i++;
		while (i + 1 < t->ntok && t->tok[i].kind == CXToken_Identifier && pk_tok_is(t, i + 1, "::"))
			i += 2;
		if (!pk_tok_is(t, i, c->name))
			s.macro = 1;
		else
			s.name_off = t->tok[i].start; /* a macro's names expand at its own */
	}
	if (n->end > 0 && t->b->data[n->end - 1] == ')') {
		s.close = n->end - 1;
		s.nargs = count_args(t, s.close);
	} else {
		s.macro = 1; /* its ')' is not where the text says: treat as macro-made */
	}
	PK_GROW(g->s, g->cap_s, g->ns + 1);
	g->s[g->ns++] = s;
}

/* The model indexing the body of free function I, or NULL. */
static const struct pk_ast *body_of(const struct graph *g, size_t i)
{
	return is_free(g, i) && g->f[i].model >= 0 && g->f[i].func >= 0 ? g->m[g->f[i].model] : NULL;
}

/* Where each function is defined, and the calls of free functions in the
 * bodies of those the models index, in the unit's order. */
static void collect(struct graph *g)
{
	g->f = pk_xcalloc(g->nd + 1, sizeof(*g->f));
	CXFile last = NULL;
	int model = -1;
	for (size_t i = 0; i < g->nd; i++) {
		if (g->d[i].file != last) {
			last = g->d[i].file;
			model = -1;
			for (size_t k = 0; last && k < g->nm && model < 0; k++)
				if (pk_cx_same_file(last, g->m[k]->file))
					model = (int)k;
		}
		g->f[i] = (struct fn){.model = model, .func = -1};
	}
	for (size_t k = 0; k < g->nm; k++)
		for (size_t j = 0; j < g->m[k]->nfuncs; j++)
			g->f[g->m[k]->funcs[j].decl].func = (int)j;
	for (size_t i = 0; i < g->nd; i++) {
		const struct pk_ast *t = body_of(g, i);
		for (size_t c = 0; t && c < t->ncalls; c++) {
			const struct pk_call *pc = &t->calls[c];
			if (pc->node >= 0 && !pc->inactive && !pc->member && t->nodes[pc->node].func == g->f[i].func &&
			    t->nodes[pc->node].kind == CXCursor_CallExpr)
				note_site(g, g->f[i].model, c, (int)i);
		}
	}
}

static const char *site_name(const struct graph *g, const struct site *s)
{
	return g->m[s->model]->calls[s->call].name;
}

/* ---- the paths ---- */

static int on_path(const struct graph *g, int i)
{
	return i >= 0 && g->f[i].reach && g->f[i].leads;
}

/* A cycle among the functions on the path: recursion. */
static int cycle(struct graph *g, int i)
{
	g->f[i].state = 1;
	for (size_t j = 0; j < g->ns; j++) {
		const struct site *s = &g->s[j];
		if (s->caller != i || !on_path(g, s->callee))
			continue;
		if (g->f[s->callee].state == 1)
			return pk_error("%s:%u: '%s' calls '%s' recursively on the path to a helper event: the event "
			                "array cannot be threaded through recursion",
			                path_of(g, s->model), s->line, name_of(g, i), site_name(g, s));
		if (g->f[s->callee].state == 0 && cycle(g, s->callee) < 0)
			return -1;
	}
	g->f[i].state = 2;
	return 0;
}

static void mark_reach(struct graph *g, int i)
{
	if (g->f[i].reach)
		return;
	g->f[i].reach = 1;
	for (size_t j = 0; j < g->ns; j++)
		if (g->s[j].caller == i && g->s[j].callee >= 0)
			mark_reach(g, g->s[j].callee);
}

static void mark_leads(struct graph *g, int i)
{
	if (g->f[i].leads)
		return;
	g->f[i].leads = 1;
	for (size_t j = 0; j < g->ns; j++)
		if (g->s[j].callee == i)
			mark_leads(g, g->s[j].caller);
}

/* ---- the edits ---- */

static struct pk_plan *plan_of(struct graph *g, int model, struct pk_plan *kplan)
{
	return model == 0 ? kplan : &g->ed[model - 1]->plan;
}

static int nparams(const struct graph *g, int i)
{
	CXCursor pv[256];
	return pk_cursor_params(g->d[i].c, pv, 256);
}

/* The trailing parameter, with its default, in the one declaration. */
static int add_param(struct graph *g, int i, struct pk_plan *kplan)
{
	const struct pk_decl *d = &g->d[i];
	int model = g->f[i].model;
	struct pk_ast *t = g->m[model];
	size_t s, e;
	if (pk_ast_extent(t, d->c, &s, &e) < 0)
		return pk_error("%s: cannot find the text of '%s'", path_of(g, model), d->name);
	/* the parameter list: the first '(' after the name at top level */
	size_t i0 = pk_tok_at(t, d->off);
	while (i0 < t->ntok && t->tok[i0].start < e && !pk_tok_is(t, i0, "("))
		i0++;
	size_t j = pk_tok_close(t, i0, 0);
	if (j >= t->ntok || t->tok[j].start >= e)
		return pk_error("%s: cannot find the parameter list of '%s'", path_of(g, model), d->name);
	struct pk_sb sb = {0};
	const char *names[] = {"prefix"}, *vals[] = {g->sp->lay.prefix};
	char *param = tt_expand(tt_rule(g->sp->rules, "kernel", "events_param"), names, vals, 1);
	int np = nparams(g, i);
	pk_sb_addf(&sb, "%s%s", np > 0 ? ", " : "", param);
	free(param);
	if (np > 0)
		tt_insert_inline(plan_of(g, model, kplan), t->tok[j].start, sb.s);
	else if (j == i0 + 2 && pk_tok_is(t, i0 + 1, "void"))
		tt_replace_inline(t->b, plan_of(g, model, kplan), t->tok[i0 + 1].start, t->tok[i0 + 1].end, sb.s);
	else
		tt_insert_inline(plan_of(g, model, kplan), t->tok[j].start, sb.s);
	pk_sb_free(&sb);
	return 0;
}

static int add_arg(struct graph *g, const struct site *s, struct pk_plan *kplan)
{
	const char *name = site_name(g, s);
	if (s->macro)
		return pk_error("%s:%u: the call to '%s' on the path to a helper event is written by a macro: the "
		                "event array cannot be passed; expand the macro by hand",
		                path_of(g, s->model), s->line, name);
	int np = nparams(g, s->callee);
	if (s->nargs != np)
		return pk_error("%s:%u: the call to '%s' passes %d of its %d arguments (defaulted or variadic ones): "
		                "a trailing event-array argument would bind to the wrong parameter",
		                path_of(g, s->model), s->line, name, s->nargs, np);
	struct pk_sb sb = {0};
	pk_sb_addf(&sb, "%s%s" PK_NAME_TIMING_EVENTS, s->nargs > 0 ? ", " : "", g->sp->lay.prefix);
	tt_insert_inline(plan_of(g, s->model, kplan), s->close, sb.s);
	pk_sb_free(&sb);
	return 0;
}

/* The first byte of function C's declaration (W: the run's words). */
static size_t hk_start(struct pk_ast *t, const struct tt_words *w, CXCursor c)
{
	struct tt_kernel hk;
	size_t at = tt_func_describe(t, w, c, &hk) == 0 ? hk.decl_start : 0;
	tt_kernel_free(&hk);
	return at;
}

/* The sample inside the helper: through the pointer, when it is passed. */
static int place_helper_event(struct graph *g, int i, struct tt_event *ev)
{
	int model = g->f[i].model;
	struct pk_ast *t = g->m[model];
	struct tt_kernel hk;
	int rc = tt_func_describe(t, &g->sp->rules->w, g->d[i].c, &hk);
	if (rc == 0)
		rc = tt_place_event(t, &hk, ev);
	tt_kernel_free(&hk);
	if (rc < 0)
		return -1;
	ev->file = path_of(g, model);
	tt_lint_event(t, g->sp, ev);
	return 0;
}

static int place_sample(struct graph *g, int i, struct tt_event *ev, struct pk_plan *kplan)
{
	int model = g->f[i].model;
	struct pk_ast *t = g->m[model];
	const char *P = g->sp->lay.prefix;
	struct pk_sb sb = {0}, label = {0};
	const struct pk_api *api = g->sp->api;
	char *cy = tt_cycle_read(g->sp);
	/* the simulation's counter under its macro, its header before the function */
	char n[16];
	snprintf(n, sizeof(n), "%d", ev->helper);
	const char *names[] = {"prefix", "n", "cycle"}, *sv[] = {P, n, api->sim_cycle}, *dv[] = {P, n, cy};
	const char *tmpl = tt_rule(g->sp->rules, "kernel", "helper_sample");
	char *sim = tt_expand(tmpl, names, sv, 3), *dev = tt_expand(tmpl, names, dv, 3);
	char *lines = pk_api_read_lines(api, sim, dev, "\n");
	pk_sb_add(&sb, lines);
	free(lines);
	free(sim);
	free(dev);
	size_t at = *api->sim_macro ? hk_start(t, &g->sp->rules->w, g->d[i].c) : 0;
	if (*api->sim_macro && *api->sim_include && !pk_api_includes(t->b, &t->scan, api->sim_include) && at) {
		char *inc = pk_api_include_lines(api, api->sim_include, 1, "\n");
		tt_insert_before(t->b, plan_of(g, model, kplan), at, inc, "helper");
		free(inc);
	}
	free(cy);
	pk_sb_addf(&label, "event %s (%s)", ev->name, ev->kind);
	tt_event_write(t->b, plan_of(g, model, kplan), g->sp, (size_t)(ev - g->sp->opt.ev), sb.s, label.s);
	pk_sb_free(&sb);
	pk_sb_free(&label);
	return 0;
}

static int resolve(struct graph *g, struct tt_kernel *k, int *kernel)
{
	/* the kernel: the definition at the kernel's cursor */
	int f = pk_ast_func_of(g->t, k->cursor);
	*kernel = f >= 0 ? g->t->funcs[f].decl : -1;
	if (*kernel < 0 || !is_free(g, (size_t)*kernel))
		return pk_error("%s: kernel '%s' not found among the functions", g->t->b->path, k->name);
	for (size_t j = 0; j < g->ns; j++) {
		int n;
		int d = unique_def(g, site_name(g, &g->s[j]), &n);
		g->s[j].callee = n == 1 ? d : n > 1 ? -2 - d : -1; /* -2-d: ambiguous, last d */
	}
	return 0;
}

/* A helper definition in a file that may not be edited: named relative to
 * where the tool runs. */
static int not_editable(struct graph *g, int d, const struct tt_event *ev)
{
	char *path = g->d[d].file ? pk_cx_file_name(g->d[d].file) : pk_xstrdup("?");
	const char *name = path;
	char cwd[4096];
	size_t cl;
	if (getcwd(cwd, sizeof(cwd)) && (cl = strlen(cwd)) && !strncmp(name, cwd, cl) && name[cl] == '/')
		name += cl + 1;
	int rc = pk_error("event '%s': '%s' is defined in %s, which may not be edited: name it with --edit", ev->name,
	                  ev->func, name);
	free(path);
	return rc;
}

/* TARGETS[e]: the one definition of each helper event's function. */
static int find_targets(struct graph *g, const struct tt_spec *sp, int *targets)
{
	for (size_t e = 0; e < sp->opt.nev; e++) {
		struct tt_event *ev = &sp->opt.ev[e];
		if (ev->helper < 0)
			continue;
		int all, n, d = named(g, ev->func, &all, &n);
		if (n == 0) {
			if (all)
				return pk_error(
				    "event '%s': '%s' is declared but its definition is not in the translation unit",
				    ev->name, ev->func);
			return pk_error("event '%s': no function '%s' in the translation unit of %s", ev->name,
			                ev->func, g->t->b->path);
		}
		if (n > 1)
			return pk_error("event '%s': several functions are named '%s' (overloads or templates): the "
			                "place is ambiguous",
			                ev->name, ev->func);
		if (g->f[d].model < 0)
			return not_editable(g, d, ev);
		targets[e] = d;
		mark_leads(g, d);
	}
	return 0;
}

/* Every target is reached from the kernel, and no name with several
 * definitions called from the path could be a target's way. */
static int check_paths(struct graph *g, const struct tt_kernel *k, const struct tt_spec *sp, const int *targets,
                       int kernel)
{
	for (size_t e = 0; e < sp->opt.nev; e++) {
		if (sp->opt.ev[e].helper < 0)
			continue;
		if (!on_path(g, targets[e]) || targets[e] == kernel)
			return pk_error("event '%s': no call path from kernel '%s' to '%s' through files that may be "
			                "edited%s",
			                sp->opt.ev[e].name, k->name, sp->opt.ev[e].func,
			                targets[e] == kernel ? " (it is the kernel: leave out @FUNC)" : "");
	}
	if (on_path(g, kernel) && cycle(g, kernel) < 0)
		return -1;
	for (size_t j = 0; j < g->ns; j++) {
		const struct site *s = &g->s[j];
		if (s->callee > -2 || !on_path(g, s->caller))
			continue;
		for (size_t e = 0; e < sp->opt.nev; e++)
			if (sp->opt.ev[e].helper >= 0 && !strcmp(sp->opt.ev[e].func, site_name(g, s)))
				return pk_error("%s:%u: call to '%s': several functions carry that name; the path "
				                "cannot be told",
				                path_of(g, s->model), s->line, site_name(g, s));
	}
	return 0;
}

/* Is the function reference at offset OFF of model MODEL the callee of one
 * of the calls? */
static int is_callee(const struct graph *g, int model, const char *name, size_t off)
{
	for (size_t j = 0; j < g->ns; j++)
		if (g->s[j].model == model && g->s[j].name_off == off && !strcmp(site_name(g, &g->s[j]), name))
			return 1;
	return 0;
}

/* Is the address of NAME taken in a free function's body the models index:
 * a reference to it that is no call's callee? Refused there. */
static int refuse_address(const struct graph *g, const char *name)
{
	for (size_t i = 0; i < g->nd; i++) {
		const struct fn *f = &g->f[i];
		const struct pk_ast *t = body_of(g, i);
		for (size_t n = 0; t && n < t->nnodes; n++) {
			if (t->nodes[n].func != f->func || !pk_ast_func_ref(t, (int)n))
				continue;
			char *rn = pk_cursor_name(t->nodes[n].c);
			long off = pk_ast_name_offset(t, t->nodes[n].c);
			int taken = !strcmp(rn, name) && !(off >= 0 && is_callee(g, f->model, rn, (size_t)off));
			free(rn);
			if (taken)
				return pk_error("%s:%u: the address of '%s' is taken: calls through it could not pass "
				                "the event array",
				                path_of(g, f->model), off >= 0 ? pk_buf_line_of(t->b, (size_t)off) : 0,
				                name);
		}
	}
	return 0;
}

/* The helpers on the path: each editable, declared once, its address never
 * taken (a call through a pointer could not pass the event array). */
static int check_helpers(struct graph *g, int kernel)
{
	for (size_t i = 0; i < g->nd; i++) {
		if (!on_path(g, (int)i) || (int)i == kernel)
			continue;
		const char *name = name_of(g, (int)i);
		if (g->f[i].model < 0)
			return pk_error("'%s' is on the path to a helper event but defined in a file that may not be "
			                "edited (name it with --edit)",
			                name);
		int all, ndef;
		named(g, name, &all, &ndef);
		if (all - ndef > 0)
			return pk_error("%s: '%s' is declared more than once: the event parameter's default would "
			                "have to go on its first declaration, which is not supported; put the "
			                "definition first",
			                path_of(g, g->f[i].model), name);
		if (refuse_address(g, name) < 0)
			return -1;
	}
	return 0;
}

/* Every call from the path to the path passes the array, every helper takes
 * it, and each helper event samples into it. */
static int thread_array(struct graph *g, const struct tt_spec *sp, int kernel, struct pk_plan *plan)
{
	for (size_t j = 0; j < g->ns; j++)
		if (on_path(g, g->s[j].caller) && on_path(g, g->s[j].callee) && g->s[j].callee != kernel &&
		    add_arg(g, &g->s[j], plan) < 0)
			return -1;
	for (size_t i = 0; i < g->nd; i++)
		if (on_path(g, (int)i) && (int)i != kernel && add_param(g, (int)i, plan) < 0)
			return -1;
	int n; /* every helper event placed before any is written: braces are shared */
	for (size_t e = 0; e < sp->opt.nev; e++)
		if (sp->opt.ev[e].helper >= 0 &&
		    place_helper_event(g, unique_def(g, sp->opt.ev[e].func, &n), &sp->opt.ev[e]) < 0)
			return -1;
	for (size_t e = 0; e < sp->opt.nev; e++)
		if (sp->opt.ev[e].helper >= 0 &&
		    place_sample(g, unique_def(g, sp->opt.ev[e].func, &n), &sp->opt.ev[e], plan) < 0)
			return -1;
	return 0;
}

int tt_path_plan(struct pk_ast *t, struct tt_kernel *k, struct tt_spec *sp, const struct tt_files *fs,
                 struct pk_plan *plan)
{
	const struct pk_unit *u = pk_ast_unit(t, NULL);
	struct graph g = {.t = t, .sp = sp, .d = u->v, .nd = u->n};
	g.m = pk_xcalloc(fs->n + 1, sizeof(*g.m));
	g.ed = pk_xcalloc(fs->n + 1, sizeof(*g.ed));
	g.m[g.nm++] = t;
	for (size_t i = 0; i < fs->n; i++)
		if ((fs->v[i]->roles & TT_ROLE_EDIT) && fs->v[i]->have_t) {
			g.ed[g.nm - 1] = fs->v[i];
			g.m[g.nm++] = &fs->v[i]->t;
		}
	int kernel, rc = -1;
	collect(&g);
	if (resolve(&g, k, &kernel) == 0) {
		/* ambiguous callees take part in no path; say so if a target has that name */
		int *targets = pk_xcalloc(sp->opt.nev + 1, sizeof(int));
		if (find_targets(&g, sp, targets) == 0) {
			mark_reach(&g, kernel);
			rc = check_paths(&g, k, sp, targets, kernel);
		}
		free(targets);
		if (rc == 0)
			rc = check_helpers(&g, kernel);
		if (rc == 0)
			rc = thread_array(&g, sp, kernel, plan);
	}
	free(g.f);
	free(g.s);
	free(g.m);
	free(g.ed);
	return rc;
}

char *tt_cycle_read(const struct tt_spec *sp)
{
	return pk_api_call(sp->api, sp->api->cycle, 1, NULL);
}

/* SPEC: after:CALLEE[#n] | before:CALLEE[#n] | line:N, read by the parser of
 * probe-inject's --begin and --end. */
int tt_place_event(struct pk_ast *t, const struct tt_kernel *k, struct tt_event *ev)
{
	struct pk_spec s;
	if (pk_spec_parse(&s, ev->spec) < 0)
		return pk_error("event '%s': places are after:CALLEE[#n], before:CALLEE[#n] or line:N", ev->name);
	int rc;
	if (s.kind == PK_SPEC_LINE) {
		ev->after = 0;
		rc = event_at_line(t, k, ev, s.n);
	} else if (s.kind == PK_SPEC_AFTER || s.kind == PK_SPEC_BEFORE) {
		ev->after = s.kind == PK_SPEC_AFTER;
		rc = event_at_call(t, k, ev, s.name, s.n ? (int)s.n : 1);
	} else {
		rc =
		    pk_error("event '%s': place '%s' is not after:CALLEE, before:CALLEE or line:N", ev->name, ev->spec);
	}
	pk_spec_free(&s);
	return rc;
}

static int same_body(const struct tt_event *x, const struct tt_event *y)
{
	return x->brace && y->brace && x->brace_open == y->brace_open && x->file && y->file &&
	       !strcmp(x->file, y->file);
}

/* A whole '{' or '}' line at AT, marked like every line the timing tensor adds. */
static void brace_line(const struct pk_buf *b, struct pk_plan *plan, size_t at, const char *indent, char brace)
{
	char *text = pk_xasprintf("%s%c  " PK_TT_LINE_MARK " brace%s", indent, brace, pk_buf_eol(b));
	pk_plan_add(plan, at, at, text, strlen(text));
	free(text);
}

void tt_event_write(const struct pk_buf *b, struct pk_plan *plan, const struct tt_spec *sp, size_t i, const char *code,
                    const char *label)
{
	const struct tt_event *ev = &sp->opt.ev[i];
	int first = 1, last = 1; /* among the events in the same braceless body */
	for (size_t j = 0; j < sp->opt.nev; j++)
		if (j != i && same_body(ev, &sp->opt.ev[j]))
			*(j < i ? &first : &last) = 0;
	if (ev->brace && first)
		brace_line(b, plan, ev->brace_open, ev->brace_indent, '{');
	if (ev->after)
		tt_insert_after(b, plan, ev->at, ev->stmt, code, label);
	else
		tt_insert_before(b, plan, ev->at, code, label);
	if (ev->brace && last)
		brace_line(b, plan, ev->brace_close, ev->brace_indent, '}');
}

/* A completion event right after an asynchronous issue records
 * the issue, not the completion. */
void tt_lint_event(const struct pk_ast *t, const struct tt_spec *sp, const struct tt_event *ev)
{
	/* arrival and release are collective events: after a flag set is right */
	if (!sp->async_issue || !ev->after || (strcmp(ev->kind, "drain") && strcmp(ev->kind, "phase")))
		return;
	struct pk_spec s;
	if (pk_spec_parse(&s, ev->spec) == 0 && s.kind == PK_SPEC_AFTER && pk_namelist_has(sp->async_issue, s.name))
		pk_warning("%s:%u: event '%s' (%s) follows '%s', which only issues asynchronous "
		           "work: the sample records the issue, not its completion",
		           t->b->path, pk_buf_line_of(t->b, ev->at), ev->name, ev->kind, s.name);
	pk_spec_free(&s);
}

/* The offsets tt_event_write reads, from the front end's anchor AN: a
 * braceless body gets braces around it, as --begin/--end put them; beside a
 * statement inside braces the sample goes before its first byte or after
 * its ';' (whole lines, or in-line when it shares its line with code). */
static void take_anchor(const struct pk_ast *a, struct pk_anchor *an, struct tt_event *ev)
{
	const struct pk_node *n = &a->nodes[an->node];
	ev->stmt = n->start;
	ev->at = ev->after ? tt_past_semicolon(a, n->end) : n->start;
	if (an->brace >= 0) {
		ev->brace = 1;
		ev->brace_open = an->brace_open;
		ev->brace_close = an->brace_close;
		free(ev->brace_indent);
		ev->brace_indent = pk_xstrdup(an->brace_indent);
		if (ev->after)
			ev->at = an->brace_close;
	}
	pk_anchor_free(an);
}

static int refuse_lambda(const struct pk_ast *a, int node, const struct tt_event *ev, const char *what)
{
	if (!pk_ast_in_lambda(a, node, -1))
		return 0;
	return pk_error("%s:%u: event '%s': %s is inside a lambda, where the event array is not in scope; place the "
	                "event beside the lambda's use",
	                a->b->path, pk_buf_line_of(a->b, a->nodes[node].start), ev->name, what);
}

/* EV beside the statement holding call CALL of the front end's index. */
static int event_at_stmt_of(struct pk_ast *a, size_t call, struct tt_event *ev)
{
	const struct pk_call *c = &a->calls[call];
	unsigned line = pk_ast_line(a, c->off);
	char what[160];
	snprintf(what, sizeof(what), "the call to '%s'", c->name);
	if (refuse_lambda(a, c->node, ev, what) < 0)
		return -1;
	struct pk_anchor an;
	if (pk_ast_place_call(a, call, ev->after ? PK_AFTER : PK_BEFORE, PK_PLACE_IN_LINE, ev->spec, &an) < 0)
		return -1;
	if (an.brace_split) {
		pk_anchor_free(&an);
		return pk_error("%s:%u: event '%s': the braceless body holding the call to '%s' shares its "
		                "line with its if/for/while; put the body on its own line",
		                a->b->path, line, ev->name, c->name);
	}
	if (an.brace < 0 && pk_ast_in_condition(a, c->node)) {
		pk_anchor_free(&an);
		return pk_error("%s:%u: event '%s': the call to '%s' is not a statement directly inside braces (a "
		                "condition); move it into a statement of its own",
		                a->b->path, line, ev->name, c->name);
	}
	take_anchor(a, &an, ev);
	return 0;
}

/* A call of the function's body written by a macro: name the macro, whose
 * use is the place an event can go beside. */
static int refuse_macro_call(struct pk_ast *a, const struct tt_event *ev, const char *callee, size_t off)
{
	unsigned dl = 0, line = pk_ast_line(a, off);
	char uses[256];
	char *m = pk_ast_macro_calling(a, callee, &dl, uses, sizeof(uses));
	int rc;
	if (m)
		rc = pk_error("%s:%u: event '%s': the call to '%s' comes from macro '%s' (defined on line %u); "
		              "probekit does not edit inside macros: place the event beside the macro's use (line:%u)",
		              a->b->path, line, ev->name, callee, m, dl, line);
	else
		rc = pk_error("%s:%u: event '%s': the call to '%s' comes from a macro expansion; probekit does not "
		              "edit inside macros: place the event beside the macro's use (line:%u)",
		              a->b->path, line, ev->name, callee, line);
	free(m);
	return rc;
}

/* CALLEE#NTH: the NTH call written in function K's body that the
 * preprocessor kept and no macro wrote, on the front end's call index. */
static int event_at_call(struct pk_ast *a, const struct tt_kernel *k, struct tt_event *ev, const char *callee, int nth)
{
	int seen = 0;
	size_t skipped = (size_t)-1, macro = (size_t)-1;
	for (size_t i = 0; i < a->ncalls; i++) {
		const struct pk_call *c = &a->calls[i];
		if (c->off <= k->body_open || c->off >= k->body_close || strcmp(c->name, callee))
			continue;
		if (c->inactive && skipped == (size_t)-1)
			skipped = c->off;
		if (c->macro && !c->inactive && macro == (size_t)-1)
			macro = c->off;
		if (!c->inactive && !c->macro && ++seen == nth)
			return event_at_stmt_of(a, i, ev);
	}
	if (skipped != (size_t)-1)
		return pk_ast_refuse_skipped(a, skipped, ev->spec);
	if (macro != (size_t)-1)
		return refuse_macro_call(a, ev, callee, macro);
	if (seen)
		return pk_error("%s: event '%s': '%s' is called only %d time%s in '%s'", a->b->path, ev->name, callee,
		                seen, seen == 1 ? "" : "s", k->name);
	return pk_error("%s: event '%s': '%s' is not called in %s '%s'", a->b->path, ev->name, callee,
	                ev->helper >= 0 ? "function" : "kernel", k->name);
}

/* line:N: the statement of K's body starting on line N, found as --begin
 * line:N finds it. */
static int event_at_line(struct pk_ast *a, const struct tt_kernel *k, struct tt_event *ev, unsigned line)
{
	struct pk_spec s = {.kind = PK_SPEC_LINE, .n = line, .text = ev->spec};
	struct pk_anchor an;
	int rc = pk_ast_place_line_in(a, &s, PK_BEFORE, PK_PLACE_IN_LINE, k->body_open + 1, k->body_close, &an);
	if (rc < 0)
		return -1;
	if (rc > 0)
		return pk_error("%s: event '%s': no statement of %s '%s' starts on line %u", a->b->path, ev->name,
		                ev->helper >= 0 ? "function" : "kernel", k->name, line);
	int split = an.brace_split;
	if (split || refuse_lambda(a, an.node, ev, "the statement") < 0) {
		pk_anchor_free(&an);
		return split ? pk_error("%s:%u: event '%s': the braceless body shares its line with its if/for/while; "
		                        "put the body on its own line",
		                        a->b->path, line, ev->name)
		             : -1;
	}
	take_anchor(a, &an, ev);
	return 0;
}
