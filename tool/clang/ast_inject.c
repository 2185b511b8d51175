/* ast_inject.c - pk_ast_inject: probe-inject with a placement option, called
 * from the core with the parsed options (inject.h). Load the file, parse it
 * with libclang, turn the placement into anchors,
 * write the canonical probe blocks (and brace markers) as whole lines into
 * an edit plan against the original bytes, and hand it to pk_emit. */
#include "ast.h"
#include "emit.h"
#include "inject.h"
#include "marks.h"
#include "names.h"
#include "pk.h"
#include "probeset.h"

#include <stdlib.h>
#include <string.h>

/* ---- the text of the probe ---- */

struct gen {
	const char *name, *eol, *unit;
	const struct pk_api *api; /* the kernel kind (rules/api.ini) */
	/* the probe API's calls as spelled here */
	char *cycle, *sim_cycle, *barrier, *block, *subblock, *print;
	int no_block;  /* the kind's block index needs the packed args the function lacks */
	char dir[512]; /* the directive line; probe names are short (checked) */
	char *sv, *ev; /* start and end variables */
	char *iter;    /* induction variable for iter=, or NULL */
	int all_blocks;
	int no_barrier;   /* a wait for an event of the same core: no barrier before its samples */
	const char *note; /* a wait probe's comment (rules/async.ini [wait]), or NULL */
	int core;         /* pk_ast_core_kind */
	const struct pk_ast_rules *r;
};

/* TMPL (a [code] line of rules/api.ini) with {NAME} replaced by VALUE, for
 * up to three pairs; malloc'd. */
static char *code_line(const char *tmpl, const char *n1, const char *v1, const char *n2, const char *v2, const char *n3,
                       const char *v3)
{
	const char *names[] = {n1, n2 ? n2 : "", n3 ? n3 : ""}, *vals[] = {v1, v2 ? v2 : "", v3 ? v3 : ""};
	return pk_api_fill(tmpl, names, vals, n3 ? 3 : n2 ? 2 : 1);
}

/* IND, TEXT (freed) and the line end. */
static void add_line(struct pk_sb *t, const struct gen *g, const char *ind, char *text)
{
	pk_sb_addf(t, "%s%s%s", ind, text, g->eol);
	free(text);
}

/* The print of an end (or base) part: FIELDS_FMT / FIELDS_ARGS after the
 * block= and iter= fields, under the guard the rules give for this code. */
static void gen_print(struct pk_sb *t, const struct gen *g, const char *ind, const char *fields_fmt,
                      const char *fields_args)
{
	const struct pk_api *a = g->api;
	struct pk_sb fmt = {0}, args = {0}, inner = {0};
	pk_sb_add(&fmt, "");
	pk_sb_add(&args, "");
	if (g->all_blocks) {
		char *v = code_line(a->block_arg, "value", g->block, NULL, NULL, NULL, NULL);
		pk_sb_addf(&fmt, "%s%s ", PK_NAME_LOG_BLOCK, a->index);
		pk_sb_addf(&args, "%s, ", v);
		free(v);
	}
	if (g->iter) {
		char *v = code_line(a->iter_arg, "value", g->iter, NULL, NULL, NULL, NULL);
		pk_sb_addf(&fmt, "%s%s ", PK_NAME_LOG_ITER, a->index);
		pk_sb_addf(&args, "%s, ", v);
		free(v);
	}
	pk_sb_add(&fmt, fields_fmt);
	pk_sb_add(&args, fields_args);
	const char *names[] = {"print", "name", "format", "args"}, *vals[] = {g->print, g->name, fmt.s, args.s};
	char *print = pk_api_fill(a->print_line, names, vals, 4);
	if (g->all_blocks || g->no_block) {
		add_line(t, g, ind, print);
	} else {
		const char *core = g->core == 2 ? g->r->aic_core : g->r->aiv_core;
		const char *cond = g->core == 0 ? g->r->guard : g->core == 2 ? g->r->aic_guard : g->r->aiv_guard;
		char *qc = code_line(cond, "block", g->block, "subblock", g->subblock, NULL, NULL);
		pk_sb_addf(&inner, "%s%s", ind, g->core ? g->unit : "");
		if (g->core)
			add_line(t, g, ind, code_line(a->core_open, "core", core, NULL, NULL, NULL, NULL));
		add_line(t, g, inner.s, code_line(a->guard_open, "cond", qc, NULL, NULL, NULL, NULL));
		pk_sb_addf(t, "%s%s", inner.s, g->unit);
		add_line(t, g, "", print);
		add_line(t, g, inner.s, pk_xstrdup(a->close));
		if (g->core)
			add_line(t, g, ind, pk_xstrdup(a->close));
		free(qc);
	}
	free(fmt.s);
	free(args.s);
	free(inner.s);
}

/* The sample VAR = <cycle read>, under the kind's simulation macro the
 * simulation's counter; the first sample of a probe says the kind. */
static void gen_sample(struct pk_sb *t, const struct gen *g, const char *ind, const char *var, int say)
{
	const struct pk_api *a = g->api;
	char *note =
	    say && strcmp(a->kind, a->dflt) ? code_line(a->kind_note, "kind", a->kind, NULL, NULL, NULL, NULL) : NULL;
	char *s_sim = g->sim_cycle ? code_line(a->sample, "var", var, "cycle", g->sim_cycle, NULL, NULL) : NULL;
	char *s_dev = code_line(a->sample, "var", var, "cycle", g->cycle, NULL, NULL);
	char *sim = s_sim ? pk_xasprintf("%s%s", ind, s_sim) : NULL;
	char *dev = pk_xasprintf("%s%s%s%s", ind, s_dev, note ? "  " : "", note ? note : "");
	char *lines = g->sim_cycle ? pk_api_read_lines(a, sim, dev, g->eol) : pk_xstrdup(dev);
	pk_sb_addf(t, "%s%s", lines, g->eol);
	free(lines);
	free(dev);
	free(sim);
	free(s_dev);
	free(s_sim);
	free(note);
}

static char *gen_start(const struct gen *g, const char *ind)
{
	struct pk_sb t = {0};
	pk_sb_addf(&t, "%s%s", g->dir, g->eol);
	if (g->note)
		pk_sb_addf(&t, "%s%s%s", ind, g->note, g->eol);
	if (!g->no_barrier)
		add_line(&t, g, ind, code_line(g->api->barrier_line, "barrier", g->barrier, NULL, NULL, NULL, NULL));
	gen_sample(&t, g, ind, g->sv, 1);
	pk_sb_addf(&t, "#endif%s", g->eol);
	return t.s;
}

static char *gen_end(const struct gen *g, const char *ind)
{
	const struct pk_api *a = g->api;
	struct pk_sb t = {0}, fmt = {0};
	char *dur = code_line(a->dur_arg, "start", g->sv, "end", g->ev, NULL, NULL);
	char *args = pk_xasprintf("%s, %s, %s", g->sv, g->ev, dur);
	pk_sb_addf(&fmt, "%s%s %s%s %s%s", PK_NAME_LOG_START, a->cycles, PK_NAME_LOG_END, a->cycles, PK_NAME_LOG_DUR,
	           a->cycles);
	pk_sb_addf(&t, "%s%s", g->dir, g->eol);
	if (!g->no_barrier)
		add_line(&t, g, ind, code_line(a->barrier_line, "barrier", g->barrier, NULL, NULL, NULL, NULL));
	gen_sample(&t, g, ind, g->ev, 0);
	gen_print(&t, g, ind, fmt.s, args);
	pk_sb_addf(&t, "#endif%s", g->eol);
	free(fmt.s);
	free(args);
	free(dur);
	return t.s;
}

static char *gen_base(const struct gen *g, const char *ind)
{
	struct pk_sb t = {0};
	pk_sb_addf(&t, "%s%s", g->dir, g->eol);
	gen_sample(&t, g, ind, g->sv, 1);
	gen_print(&t, g, ind, g->api->cycles, g->sv);
	pk_sb_addf(&t, "#endif%s", g->eol);
	return t.s;
}

/* The headers the probe's calls need and the file does not include, as a
 * block of the probe at file scope (probe-strip removes it with the rest);
 * NULL when none. */
static char *gen_includes(struct pk_ast *a, const struct gen *g)
{
	const struct pk_api *api = g->api;
	struct pk_sb t = {0};
	char *inc = NULL;
	if (g->sim_cycle && *api->sim_include && !pk_api_includes(a->b, &a->scan, api->sim_include)) {
		inc = pk_api_include_lines(api, api->sim_include, 1, g->eol);
		pk_sb_addf(&t, "%s%s", inc, g->eol);
		free(inc);
	}
	if (*api->block_include && !g->no_block && !pk_api_includes(a->b, &a->scan, api->block_include)) {
		inc = pk_api_include_lines(api, api->block_include, 0, g->eol);
		pk_sb_addf(&t, "%s%s", inc, g->eol);
		free(inc);
	}
	if (!t.n)
		return NULL;
	char *body = t.s;
	t = (struct pk_sb){0};
	pk_sb_addf(&t, "%s%s%s#endif%s", g->dir, g->eol, body, g->eol);
	free(body);
	return t.s;
}

static char *gen_brace(const struct gen *g, int open, int split, const char *ind)
{
	char m[640]; /* longer than any directive line that passed build_plan */
	pk_marks_text(m, sizeof(m), open, split, g->name);
	struct pk_sb t = {0};
	pk_sb_addf(&t, "%s%s%s", split ? "" : ind, m, g->eol);
	return t.s;
}

/* ---- the plan ---- */

struct ins {
	size_t off;
	int rank; /* at one offset: code after a statement, '}', '{', code before one,
	           * the indentation of a body moved to its own line */
	size_t seq;
	char *text;
};

struct insv {
	struct ins *v;
	size_t n, cap;
};

static void add_ins(struct insv *iv, size_t off, int rank, char *text)
{
	PK_GROW(iv->v, iv->cap, iv->n + 1);
	iv->v[iv->n] = (struct ins){off, rank, iv->n, text};
	iv->n++;
}

static int cmp_ins(const void *x, const void *y)
{
	const struct ins *a = x, *b = y;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank - b->rank;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void add_part(struct insv *iv, const struct pk_anchor *an, char *text)
{
	add_ins(iv, an->off, an->where == PK_AFTER ? 0 : 3, text);
}

static void add_braces(struct insv *iv, const struct gen *g, const struct pk_anchor *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i].brace < 0)
			continue;
		int seen = 0;
		for (size_t k = 0; k < iv->n; k++)
			if (iv->v[k].rank == 2 && iv->v[k].off == v[i].brace_open)
				seen = 1;
		if (seen)
			continue;
		add_ins(iv, v[i].brace_open, 2, gen_brace(g, 1, v[i].brace_split, v[i].brace_indent));
		add_ins(iv, v[i].brace_close, 1, gen_brace(g, 0, 0, v[i].brace_indent));
		if (v[i].brace_split)
			add_ins(iv, v[i].brace_open, 4, pk_xstrdup(v[i].body_indent));
	}
}

/* ---- the command ---- */

static int refuse_existing(struct pk_ast *a, const char *name)
{
	for (size_t i = 0; i < a->scan.nblocks; i++)
		if (!strcmp(a->scan.blocks[i].name, name))
			return pk_error("%s:%u: probe '%s' already exists; strip it first (probe-strip --probe %s) "
			                "or pick another name",
			                a->b->path, a->scan.blocks[i].line, name, name);
	struct pk_mark *m;
	size_t n;
	char *damage;
	if (pk_marks_find(a->b, &a->scan, &m, &n, &damage) < 0) {
		pk_error("%s", damage);
		free(damage);
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		if (!strcmp(m[i].name, name))
			rc = pk_error("%s:%u: brace markers of probe '%s' are still in the file; strip it first",
			              a->b->path, m[i].line, name);
	pk_marks_free(m, n);
	return rc;
}

/* `using namespace NS;` before OFF (a directive after the probe does not help it). */
static int uses_namespace(struct pk_ast *a, const char *ns, size_t off)
{
	char pat[128];
	snprintf(pat, sizeof(pat), "using namespace %s;", ns);
	const char *p = a->b->data;
	while ((p = strstr(p, pat)) && (size_t)(p - a->b->data) < off) {
		if (!pk_scan_in_comment(&a->scan, (size_t)(p - a->b->data)))
			return 1;
		p++;
	}
	return 0;
}

/* The packed-args parameter of function F (the front end's test on the
 * tokens before its body), or NULL. Only a signed one: the runtime's block
 * index takes `int64_t *`, and `uint64_t *` passed to it does not compile. */
static char *packed_args(const struct pk_ast *a, int f)
{
	size_t to = a->nodes[a->funcs[f].body].start;
	char *found = NULL;
	for (size_t i = pk_tok_at(a, a->funcs[f].start); i < a->ntok && a->tok[i].end <= to; i++)
		if (pk_tok_packed_name(a, i) && pk_tok_is(a, i - 2, "int64_t")) {
			free(found);
			found = pk_xstrndup(a->b->data + a->tok[i].start, a->tok[i].end - a->tok[i].start);
		}
	return found;
}

/* The kernel kind: --api, else the file's includes and entry, else the
 * namespace of the default kind ([kinds] default) visible at OFF, else the
 * fallback kind. */
static int pick_api(struct pk_ast *a, const struct pk_inject_opts *o, size_t off, struct pk_api *api)
{
	char kind[16];
	if (o->api)
		return pk_api_load(o->api, api);
	int found = pk_api_detect(a->b, &a->scan, kind, sizeof(kind));
	if (found < 0)
		return -1;
	if (!found) {
		struct pk_api fb, asc; /* the fallback kind names the default */
		if (pk_api_load(kind, &fb) < 0)
			return -1;
		int rc = pk_api_load(fb.dflt, &asc);
		pk_api_free(&fb);
		if (rc < 0)
			return -1;
		if (pk_ast_ns_visible(a, asc.ns, off))
			snprintf(kind, sizeof(kind), "%s", asc.kind);
		pk_api_free(&asc);
	}
	return pk_api_load(kind, api);
}

static int set_spelling(struct pk_ast *a, struct gen *g, const struct pk_inject_opts *o, const struct pk_anchor *start)
{
	const struct pk_api *api = g->api;
	int q = *api->ns && !uses_namespace(a, api->ns, start->off);
	int f = start->scope >= 0 ? a->nodes[start->scope].func : -1;
	char *args = f >= 0 ? packed_args(a, f) : NULL;
	g->no_block = strstr(api->block, "{args}") && !args;
	g->cycle = pk_api_call(api, api->cycle, q, args);
	g->sim_cycle = *api->sim_macro ? pk_api_call(api, api->sim_cycle, 0, args) : NULL;
	g->barrier = pk_api_call(api, api->barrier, q, args);
	g->block = pk_api_call(api, api->block, q, args);
	g->subblock = pk_api_call(api, api->subblock, q, args);
	g->print = pk_api_call(api, api->print, q, args);
	free(args);
	if (g->no_block && o->all_blocks)
		return pk_error("%s:%u: --all-blocks: the %s block index %s needs the kernel's packed args, which "
		                "the function holding probe '%s' does not take; leave out --all-blocks",
		                a->b->path, pk_buf_line_of(a->b, start->off), api->kind, api->block, g->name);
	if (g->no_block)
		pk_warning("%s:%u: probe '%s': the %s block index %s needs the kernel's packed args, which this "
		           "function does not take: every block prints",
		           a->b->path, pk_buf_line_of(a->b, start->off), g->name, api->kind, api->block);
	return 0;
}

/* The directive word of the line at LS (before LE), or "" ("include", "if"...). */
static size_t directive_at(const char *d, size_t ls, size_t le, char w[16])
{
	size_t i = ls;
	while (i < le && (d[i] == ' ' || d[i] == '\t'))
		i++;
	w[0] = '\0';
	if (i >= le || d[i] != '#')
		return 0;
	i++;
	while (i < le && (d[i] == ' ' || d[i] == '\t'))
		i++;
	size_t n = 0;
	while (i < le && pk_is_ident(d[i]) && n < 15)
		w[n++] = d[i++];
	w[n] = '\0';
	return n;
}

/* Where a block at file scope goes for a probe at OFF: after the last
 * #include before it at the #if depth of OFF's line (the headers the kernel
 * reads first, at file scope; not those of other probes' blocks), else at
 * the start of the file. */
static size_t file_scope_at(struct pk_ast *a, size_t off)
{
	const char *d = a->b->data;
	size_t n = a->b->len, at = 0, ls = 0;
	int depth = 0;
	struct {
		size_t end;
		int depth;
	} last = {(size_t)-1, 0};
	if (n >= 3 && !memcmp(d, "\xEF\xBB\xBF", 3))
		ls = at = 3;
	while (ls < off && ls < n) {
		size_t le = ls;
		while (le < n && d[le] != '\n')
			le++;
		char w[16];
		if (directive_at(d, ls, le, w) && !pk_scan_in_comment(&a->scan, ls)) {
			if (!strncmp(w, "if", 2))
				depth++;
			else if (!strcmp(w, "endif"))
				depth--;
			else if (!strcmp(w, "include") && pk_scan_block_at(&a->scan, ls) < 0)
				last.end = le < n ? le + 1 : le, last.depth = depth;
		}
		ls = le + 1;
	}
	if (last.end != (size_t)-1 && last.depth <= depth)
		at = last.end;
	return at;
}

static void unique_vars(struct pk_ast *a, struct gen *g, int base)
{
	const char *sp = base ? PK_NAME_PRINTF_BASE : PK_NAME_PRINTF_START; /* rules/names.ini */
	size_t cap = strlen(g->name) + strlen(sp) + strlen(PK_NAME_PRINTF_END) + 16;
	g->sv = pk_xmalloc(cap);
	g->ev = pk_xmalloc(cap);
	for (int k = 1;; k++) {
		char suf[16] = "";
		if (k > 1)
			snprintf(suf, sizeof(suf), "_%d", k);
		snprintf(g->sv, cap, "%s%s%s", sp, g->name, suf);
		snprintf(g->ev, cap, "%s%s%s", PK_NAME_PRINTF_END, g->name, suf);
		if (!pk_ast_word_used(a, g->sv) && (base || !pk_ast_word_used(a, g->ev)))
			return;
	}
}

static int ast_has_entry(const struct pk_ast *a, const char *want)
{
	int n, second;
	return pk_ast_funcs_named(a, want && *want ? want : NULL, 0, &n, &second) >= 0;
}

static int kernel_entry(struct pk_ast *a, const char *want)
{
	if (want && *want) {
		int f = pk_ast_find_func(a, want);
		if (f < 0)
			return pk_error("%s: --base=%s: no single function '%s' with a body", a->b->path, want, want);
		return f;
	}
	int n, second, found = pk_ast_one_entry(a, &n, &second);
	if (n == 1)
		return found;
	size_t open, close;
	int nt = pk_ast_text_entries(a, NULL, &open, &close);
	if (n == 0 && nt > 1)
		return pk_error("%s: %d kernel entries are written in code the preprocessor skipped or clang "
		                "could not parse; select one configuration with -- -DNAME=... or name one: "
		                "--base=FUNC",
		                a->b->path, nt);
	if (n == 0)
		return pk_error("%s: no kernel entry found (__global__, or extern \"C\" __aicore__); name it: "
		                "--base=FUNC",
		                a->b->path);
	return pk_error("%s: %d kernel entries; name one: --base=FUNC", a->b->path, n);
}

static int resolve(struct pk_ast *a, const struct pk_inject_opts *o, struct pk_anchor **start, size_t *ns,
                   struct pk_anchor **ends, size_t *ne)
{
	struct pk_spec b, e;
	char *bt = NULL, *et = NULL;
	int rc = -1;
	memset(&b, 0, sizeof(b));
	memset(&e, 0, sizeof(e));
	if (o->place == PK_PLACE_RANGE) {
		if (pk_spec_parse(&b, o->begin) < 0 || pk_spec_parse(&e, o->end) < 0)
			goto out;
	} else if (o->place == PK_PLACE_BASE) {
		size_t open, close;
		int nt = pk_ast_text_entries(a, o->base_func, &open, &close);
		if (nt == 1 && !ast_has_entry(a, o->base_func)) { /* a body the AST does not hold */
			*start = pk_xcalloc(1, sizeof(**start));
			*ns = 1;
			rc = pk_ast_place_brace(a, open, close, -1, "--base", *start);
			goto out;
		}
		int f = kernel_entry(a, o->base_func);
		if (f < 0)
			goto out;
		size_t l = strlen(a->funcs[f].name) + 8;
		bt = pk_xmalloc(l);
		snprintf(bt, l, "entry:%s", a->funcs[f].name);
		if (pk_spec_parse(&b, bt) < 0)
			goto out;
		rc = pk_ast_place(a, &b, 0, start, ns);
		goto out;
	} else {
		size_t l = strlen(o->callee) + 8;
		bt = pk_xmalloc(l);
		et = pk_xmalloc(l);
		snprintf(bt, l, "before:%s", o->callee);
		snprintf(et, l, "after:%s", o->callee);
		if (pk_spec_parse(&b, bt) < 0 || pk_spec_parse(&e, et) < 0)
			goto out;
	}
	if (pk_ast_place(a, &b, 0, start, ns) < 0 || pk_ast_place(a, &e, 1, ends, ne) < 0)
		goto out;
	rc = pk_ast_check_scopes(a, *start, *ends, *ne);
out:
	pk_spec_free(&b);
	pk_spec_free(&e);
	free(bt);
	free(et);
	return rc;
}

/* A wait probe's kind, from the waited call's name (CALLEE[#n], its last
 * component): the same core's event is sampled without the barrier. */
static void set_wait_kind(struct gen *g, const struct pk_ast_rules *r, const char *callee)
{
	const char *e = strchr(callee, '#'), *s = callee;
	size_t n = e ? (size_t)(e - callee) : strlen(callee);
	for (const char *p = callee; p + 1 < callee + n; p++)
		if (p[0] == ':' && p[1] == ':')
			s = p + 2;
	char *name = pk_xstrndup(s, n - (size_t)(s - callee));
	if (pk_namelist_has(&r->wait_same, name)) {
		g->no_barrier = 1;
		g->note = r->wait_same_note;
	} else if (pk_namelist_has(&r->wait_cross, name) || pk_namelist_has(&r->collective, name)) {
		g->note = r->wait_cross_note;
	}
	free(name);
}

static void set_iter(struct pk_ast *a, struct gen *g, const struct pk_anchor *start)
{
	int loop;
	unsigned line = 0;
	g->iter = pk_ast_loop_var(a, start->scope, &loop, &line);
	if (loop >= 0 && !g->iter)
		pk_warning("%s:%u: the loop around probe '%s' has no integer induction variable; its print "
		           "carries no iter=",
		           a->b->path, line, g->name);
}

/* MARK: the base probe's words when it goes in with another probe, or NONE. */
static int build_plan(struct pk_ast *a, const struct pk_inject_opts *o, enum pk_base_mark mark, struct pk_plan *plan)
{
	struct pk_ast_rules r;
	if (pk_ast_rules_load(&r) < 0)
		return -1;
	struct pk_anchor *start = NULL, *ends = NULL;
	size_t ns = 0, ne = 0;
	struct gen g;
	memset(&g, 0, sizeof(g));
	struct pk_api api;
	memset(&api, 0, sizeof(api));
	struct insv iv = {0};
	int rc = -1;
	if (resolve(a, o, &start, &ns, &ends, &ne) < 0)
		goto out;
	g.name = o->name;
	g.eol = pk_buf_eol(a->b);
	if (pick_api(a, o, start->off, &api) < 0)
		goto out;
	g.api = &api;
	if (set_spelling(a, &g, o, start) < 0)
		goto out;
	g.unit = pk_indent_unit(start->indent);
	g.all_blocks = o->all_blocks;
	g.r = &r;
	int dl = pk_canonical_directive(g.dir, sizeof(g.dir), !o->off, o->name);
	if (dl >= 0 && (size_t)dl < sizeof(g.dir) && mark != PK_BASE_MARK_NONE) {
		char *words = pk_base_mark_text(mark, NULL);
		dl += snprintf(g.dir + dl, sizeof(g.dir) - (size_t)dl, "%s", words);
		free(words);
	}
	if (dl < 0 || (size_t)dl >= sizeof(g.dir)) {
		pk_error("probe name '%.40s...' is too long", o->name);
		goto out;
	}
	unique_vars(a, &g, o->place == PK_PLACE_BASE);
	if (o->place == PK_PLACE_BASE) {
		g.core = pk_ast_core_kind(a, &r, start->scope);
		add_part(&iv, start, gen_base(&g, start->indent));
	} else {
		set_iter(a, &g, start);
		if (o->place == PK_PLACE_WAIT)
			set_wait_kind(&g, &r, o->callee);
		g.core = pk_ast_core_kind(a, &r, ends[0].scope);
		pk_ast_lint(a, &r, o->name, start, ends, ne, o->place == PK_PLACE_WAIT);
		add_part(&iv, start, gen_start(&g, start->indent));
		for (size_t i = 0; i < ne; i++)
			add_part(&iv, &ends[i], gen_end(&g, ends[i].indent));
		add_braces(&iv, &g, start, ns);
		add_braces(&iv, &g, ends, ne);
	}
	char *inc = start->scope >= 0 ? gen_includes(a, &g) : NULL;
	if (inc)
		add_ins(&iv, file_scope_at(a, start->off), 3, inc);
	if (iv.n)
		qsort(iv.v, iv.n, sizeof(*iv.v), cmp_ins);
	for (size_t i = 0; i < iv.n; i++)
		pk_plan_add(plan, iv.v[i].off, iv.v[i].off, iv.v[i].text, strlen(iv.v[i].text));
	rc = pk_plan_check(plan, a->b->path, a->b->len);
out:
	for (size_t i = 0; i < iv.n; i++)
		free(iv.v[i].text);
	free(iv.v);
	free(g.sv);
	free(g.ev);
	free(g.iter);
	free(g.cycle);
	free(g.sim_cycle);
	free(g.barrier);
	free(g.block);
	free(g.subblock);
	free(g.print);
	pk_api_free(&api);
	pk_anchors_free(start, ns);
	pk_anchors_free(ends, ne);
	pk_ast_rules_free(&r);
	return rc;
}

/* One probe at a time, as enabling a probe refuses a second one: an
 * enabled probe (not the base probe) inserted while another is on. */
static int refuse_others_on(struct pk_ast *a, const struct pk_inject_opts *o)
{
	if (o->off || o->place == PK_PLACE_BASE || !strcmp(o->name, PK_BASE_PROBE))
		return 0;
	const char *path = a->b->path;
	const struct pk_scan *scan = &a->scan;
	return pk_refuse_others(1, &path, &scan, o->name, o->allow_multiple);
}

/* The base probe goes with the first probe, as enabling a probe enables it:
 * its blocks are turned on, or, when the file has none, it is inserted (off
 * with --off, so that enabling the probe later turns both on) at
 * the kernel entry (as --base would), its edits first in the plan so that
 * at one offset the base sample is taken first. No single kernel entry (a
 * header, several entries): a warning, and the probe goes in alone.
 * Either way its directive says so after the name (rules/names.ini [probe]
 * base_added, base_on), unless it already says either, so that
 * probe-strip --probe NAME can take back what came with NAME. */
static int plan_base(struct pk_ast *a, const struct pk_inject_opts *o, struct pk_plan *plan)
{
	if (o->no_base || o->place == PK_PLACE_BASE || !strcmp(o->name, PK_BASE_PROBE))
		return 0;
	struct pk_plan base;
	pk_plan_init(&base);
	int have = 0, marked = 0;
	for (size_t i = 0; i < a->scan.nblocks; i++)
		if (!strcmp(a->scan.blocks[i].name, PK_BASE_PROBE))
			marked |= a->scan.blocks[i].mark != PK_BASE_MARK_NONE;
	char *on = pk_base_mark_text(PK_BASE_MARK_ON, o->name);
	for (size_t i = 0; i < a->scan.nblocks; i++) {
		const struct pk_block *b = &a->scan.blocks[i];
		if (strcmp(b->name, PK_BASE_PROBE))
			continue;
		have = 1;
		if (!b->enabled && !o->off) {
			pk_plan_add(&base, b->value_off, b->value_off + 1, "1", 1);
			if (!marked)
				pk_plan_add(&base, b->name_end, b->name_end, on, strlen(on));
		}
	}
	free(on);
	if (!have) {
		struct pk_inject_opts bo = *o;
		bo.place = PK_PLACE_BASE;
		bo.base_func = NULL;
		bo.name = PK_BASE_PROBE;
		pk_msg_hold();
		int rc = build_plan(a, &bo, PK_BASE_MARK_ADDED, &base);
		pk_msg_release(rc == 0);
		if (rc < 0) {
			pk_plan_free(&base);
			pk_warning("%s: no single kernel entry here for the base probe %s; probe '%s' goes in "
			           "without it (insert it where the kernel starts: --base[=FUNC], or pass --no-base)",
			           a->b->path, PK_BASE_PROBE, o->name);
			return 0;
		}
	}
	for (size_t i = 0; i < plan->n; i++)
		pk_plan_add(&base, plan->e[i].start, plan->e[i].end, plan->e[i].text, plan->e[i].text_len);
	pk_plan_free(plan);
	*plan = base;
	return pk_plan_check(plan, a->b->path, a->b->len);
}

/* May a target in a skipped branch be reached by parsing again with the
 * flags that select it? Only when the user gave no build flags: with -p or
 * -D/-U after --, the branch the build takes is known, and refused. */
static int may_follow(const struct pk_parse_opts *po)
{
	if (po->build_dir)
		return 0;
	for (int i = 0; i < po->nextra; i++)
		if (!strncmp(po->extra[i], "-D", 2) || !strncmp(po->extra[i], "-U", 2))
			return 0;
	return 1;
}

/* Parse again with the user's flags and the ones the refusal named
 * (" -DX=1 -UY"), told in a warning, for a second plan. */
static int follow_branch(struct pk_ast *a, struct pk_buf *b, const struct pk_parse_opts *user, struct pk_plan *plan)
{
	char *flags = a->branch_flags;
	a->branch_flags = NULL;
	unsigned line = a->branch_line;
	struct pk_parse_opts po = *user;
	size_t nwords = 0;
	for (const char *p = flags; *p; p++)
		nwords += *p == ' ';
	char **extra = pk_xcalloc((size_t)user->nextra + nwords + 1, sizeof(char *));
	int n = 0;
	for (int i = 0; i < user->nextra; i++)
		extra[n++] = user->extra[i];
	char *words = pk_xstrdup(flags), *save = NULL;
	for (char *t = strtok_r(words, " ", &save); t; t = strtok_r(NULL, " ", &save))
		extra[n++] = t;
	po.extra = extra;
	po.nextra = n;
	pk_ast_free(a);
	pk_plan_free(plan);
	pk_plan_init(plan);
	int rc = pk_ast_parse_edit(a, b, &po);
	if (rc == 0)
		pk_warning("%s:%u: the target is in code the preprocessor skips without the build's flags: parsed "
		           "again with%s (give the build's flags after -- or with -p to choose the branch)",
		           b->path, line, flags);
	free(words);
	free(extra);
	free(flags);
	return rc;
}

int pk_ast_inject(const struct pk_inject_opts *o)
{
	if (!pk_inject_opts_ok(o))
		return PK_EXIT_ERROR;
	struct pk_parse_opts po = {o->build_dir, o->extra, o->nextra, o->tu};
	struct pk_buf b;
	if (pk_buf_load(&b, o->files[0], o->emit.mode == PK_EMIT_INPLACE ? PK_LOAD_FOR_WRITE : 0) < 0) {
		pk_buf_free(&b); /* a failed load may hold the path and the bytes read */
		return PK_EXIT_ERROR;
	}
	struct pk_ast a;
	struct pk_plan plan;
	pk_plan_init(&plan);
	int rc = PK_EXIT_ERROR;
	if (pk_ast_parse_edit(&a, &b, &po) < 0) /* headers parsed once for the check too */
		goto out;
	if (pk_scan_report_errors(&b, &a.scan) > 0 || refuse_existing(&a, o->name) < 0 || refuse_others_on(&a, o) < 0)
		goto out;
	int follow = may_follow(&po);
	if (follow)
		pk_msg_hold();
	pk_ast_warn_errors(&a);
	int planned = build_plan(&a, o, PK_BASE_MARK_NONE, &plan);
	if (planned < 0 && follow && a.branch_flags) {
		pk_msg_release(0);
		if (follow_branch(&a, &b, &po, &plan) < 0)
			goto out;
		pk_ast_warn_errors(&a);
		planned = build_plan(&a, o, PK_BASE_MARK_NONE, &plan);
	}
	pk_msg_release(1);
	if (planned < 0 || plan_base(&a, o, &plan) < 0 || pk_ast_verify(&a, &plan, o->name) < 0)
		goto out;
	int changed = 0;
	if (pk_emit(&o->emit, &b, &plan, &changed) < 0)
		goto out;
	rc = pk_emit_exit(&o->emit, (size_t)changed);
out:
	pk_msg_release(1);
	pk_ast_free(&a);
	pk_plan_free(&plan);
	pk_buf_free(&b);
	return rc;
}
