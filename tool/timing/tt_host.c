/* tt_host.c - the host side of the timing tensor: the orchestration's
 * sequence of tensor and scalar adds (rules/timing.ini [simpler]), or a packed int64_t argument
 * array, gets the timing output right after its last tensor so host and
 * kernel agree on every args[] index. Works on tokens: host files include
 * runtime headers a bare machine does not have. */
#include "tt.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

struct add_call {
	int tensor;                  /* a tensor add (input, output or inout) */
	size_t stmt_start;           /* first token of its statement */
	size_t recv_start, recv_end; /* receiver text, '.' or '->' included */
	size_t arg_start, arg_end;   /* what is added */
	size_t close;                /* its ')' */
	size_t after;                /* just past ';' when the statement ends there, else 0 */
};

/* A [host] template: required by the schema (tt_schema.c), so present. */
static const char *host_rule(const struct tt_spec *sp, const char *key)
{
	return tt_rule(sp->rules, "host", key);
}

/* The slots expression of the matrix: with concurrent invocations, K of them. */
static char *matrix_slots(const struct tt_spec *sp)
{
	struct pk_sb sb = {0};
	if (sp->opt.invocations)
		pk_sb_addf(&sb, "(%s) * (%s)", sp->opt.slots, sp->opt.invocations);
	else
		pk_sb_add(&sb, sp->opt.slots);
	return sb.s;
}

/* The extra scalars after every original one, in order: the generation id,
 * this invocation's first row, the task's first row (several tasks submit the
 * kernel: [host] simpler_task_value). N values, VALS[i]. */
static size_t extra_scalars(const struct tt_spec *sp, char *vals[3])
{
	size_t n = 0;
	if (sp->opt.generation)
		vals[n++] = pk_xstrdup(sp->opt.generation);
	if (sp->opt.invocation) {
		struct pk_sb sb = {0};
		pk_sb_addf(&sb, "(%s) * (%s)", sp->opt.invocation, sp->opt.slots);
		vals[n++] = sb.s;
	}
	const char *task = sp->lay.task_rows ? tt_rule(sp->rules, "host", "simpler_task_value") : NULL;
	if (task) {
		const char *names[] = {"prefix"}, *pv[] = {sp->lay.prefix};
		vals[n++] = tt_expand(task, names, pv, 1);
	}
	return n;
}

/* The tensor and scalar adds, the same calls of [simpler] a simpler
 * orchestration makes (tt_orch.c). */
static size_t find_adds(const struct pk_ast *t, const struct tt_rules *r, struct add_call **out)
{
	struct add_call *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 1; i + 1 < t->ntok; i++) {
		int tensor = tt_tensor_add(r, t, i);
		if (!tensor && !pk_tok_is(t, i, r->w.add_scalar))
			continue;
		if (!(pk_tok_is(t, i - 1, ".") || pk_tok_is(t, i - 1, "->")) || !pk_tok_is(t, i + 1, "("))
			continue;
		size_t close = pk_tok_close(t, i + 1, 0);
		if (close >= t->ntok)
			continue;
		struct add_call a = {tensor, 0, 0, 0, 0, 0, 0, 0};
		size_t sb = pk_tok_stmt_first(t, i);
		a.stmt_start = pk_tok_lead(t, sb);
		a.recv_start = t->tok[sb].start;
		a.recv_end = t->tok[i - 1].end;
		a.arg_start = t->tok[i + 1].end;
		a.arg_end = t->tok[close].start;
		a.close = t->tok[close].end;
		if (pk_tok_is(t, close + 1, ";"))
			a.after = t->tok[close + 1].end;
		PK_GROW(v, cap, n + 1);
		v[n++] = a;
	}
	*out = v;
	return n;
}

/* The adds are all tensors, then all scalars, and as many tensors as the
 * kernel reads; *LAST is the last tensor add, or -1. */
static int tensors_first(const struct pk_ast *t, const struct tt_kernel *k, const struct add_call *a, size_t n,
                         long *last)
{
	const struct pk_buf *b = t->b;
	long tensors = 0, first_scalar = -1;
	*last = -1;
	for (size_t i = 0; i < n; i++) {
		if (!a[i].tensor) {
			if (first_scalar < 0)
				first_scalar = (long)i;
			continue;
		}
		if (first_scalar >= 0)
			return pk_error("%s:%u: tensor '%.*s' is added after scalar '%.*s': the orchestration "
			                "must add all tensors, then all scalars",
			                b->path, pk_buf_line_of(t->b, a[i].arg_start),
			                (int)(a[i].arg_end - a[i].arg_start), b->data + a[i].arg_start,
			                (int)(a[first_scalar].arg_end - a[first_scalar].arg_start),
			                b->data + a[first_scalar].arg_start);
		tensors++;
		*last = (long)i;
	}
	if (tensors != k->ntensors)
		return pk_error("%s: the orchestration adds %ld tensor%s but kernel '%s' reads %ld: "
		                "host and kernel disagree before any change",
		                b->path, tensors, tensors == 1 ? "" : "s", k->name, k->ntensors);
	return 0;
}

char *tt_host_extra_scalar_adds(const struct tt_spec *sp, const char *recv, const char *key)
{
	char *xv[3];
	size_t nx = extra_scalars(sp, xv);
	if (!nx)
		return NULL;
	struct pk_sb gs = {0};
	for (size_t i = 0; i < nx; i++) {
		const char *gnames[] = {"recv", "value"};
		const char *gvals[] = {recv, xv[i]};
		char *one = tt_expand(host_rule(sp, key), gnames, gvals, 2);
		pk_sb_addf(&gs, "%s%s", i ? "\n" : "", one);
		free(one);
		free(xv[i]);
	}
	return gs.s;
}

/* The scalars G go after the last scalar add, or else right after the
 * timing output, in the same lines as *LINE. */
static int place_extra_scalars(const struct pk_ast *t, const struct tt_kernel *k, const struct add_call *a, size_t n,
                               char **line, const char *g, struct pk_plan *plan)
{
	const struct pk_buf *b = t->b;
	long last_scalar = -1;
	for (size_t i = 0; i < n; i++)
		if (!a[i].tensor)
			last_scalar = (long)i;
	if (last_scalar < 0) {
		size_t ln = strlen(*line);
		*line = pk_xrealloc(*line, ln + strlen(g) + 2);
		snprintf(*line + ln, strlen(g) + 2, "\n%s", g);
		return 0;
	}
	if (!a[last_scalar].after)
		return pk_error("%s:%u: the last scalar add is not a statement of its own; split the chained call",
		                b->path, pk_buf_line_of(t->b, a[last_scalar].close));
	struct pk_sb gl = {0};
	pk_sb_addf(&gl, "scalars from args[%ld]", k->ntensors + 1 + k->nscalars);
	tt_insert_after(b, plan, a[last_scalar].after, a[last_scalar].stmt_start, g, gl.s);
	pk_sb_free(&gl);
	return 0;
}

static int plan_orchestration(struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp, struct add_call *a,
                              size_t n, struct pk_plan *plan)
{
	const struct pk_buf *b = t->b;
	long last;
	if (tensors_first(t, k, a, n, &last) < 0)
		return -1;
	const struct add_call *at = last >= 0 ? &a[last] : &a[0];
	char *recv = pk_xstrndup(b->data + at->recv_start, at->recv_end - at->recv_start);
	char rw[16], pre[64];
	snprintf(rw, sizeof(rw), "%d", sp->lay.row_words);
	snprintf(pre, sizeof(pre), "%s", sp->lay.prefix);
	char *mslots = matrix_slots(sp);
	const char *names[] = {"recv", "slots", "row_words", "prefix"};
	const char *vals[] = {recv, mslots, rw, pre};
	char *line = tt_expand(host_rule(sp, "orchestration"), names, vals, 4);
	struct pk_sb label = {0};
	pk_sb_addf(&label, "output (args[%ld])", k->ntensors);
	char *g = tt_host_extra_scalar_adds(sp, recv, "scalar");
	int rc = g ? place_extra_scalars(t, k, a, n, &line, g, plan) : 0;
	free(g);
	if (rc < 0)
		;
	else if (last < 0)
		tt_insert_before(b, plan, at->stmt_start, line, label.s);
	else if (at->after)
		tt_insert_after(b, plan, at->after, at->stmt_start, line, label.s);
	else
		rc = pk_error("%s:%u: the last tensor add is not a statement of its own; split the "
		              "chained call",
		              b->path, pk_buf_line_of(t->b, at->close));
	free(recv);
	free(line);
	free(mslots);
	pk_sb_free(&label);
	return rc;
}

/* ---- a packed int64_t array: `int64_t args[] = { ... };` ---- */

struct packed {
	size_t name_tok, open_tok, close_tok, stmt_start;
	long size_tok; /* the literal size in [N], or -1 */
};

static int find_packed(const struct pk_ast *t, struct packed *p)
{
	int found = 0;
	for (size_t i = 1; i + 4 < t->ntok; i++) {
		if (t->tok[i].kind != CXToken_Identifier || !pk_tok_is(t, i + 1, "["))
			continue;
		size_t rb = i + 2, size = (size_t)-1;
		if (!pk_tok_is(t, rb, "]"))
			size = rb++;
		if (!pk_tok_is(t, rb, "]") || !pk_tok_is(t, rb + 1, "=") || !pk_tok_is(t, rb + 2, "{"))
			continue;
		size_t sb = pk_tok_stmt_first(t, i);
		int is64 = 0;
		for (size_t j = sb; j < i; j++)
			is64 |= pk_tok_is(t, j, "int64_t") || pk_tok_is(t, j, "uint64_t");
		if (!is64)
			continue;
		if (found++)
			return pk_error("%s: several packed int64_t argument arrays; keep one per host file",
			                t->b->path);
		p->name_tok = i;
		p->open_tok = rb + 2;
		p->close_tok = pk_tok_close(t, rb + 2, 0);
		p->stmt_start = pk_tok_lead(t, sb);
		p->size_tok = size == (size_t)-1 ? -1 : (long)size;
	}
	return found;
}

static int plan_packed(struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp, const struct packed *p,
                       struct pk_plan *plan)
{
	const struct pk_buf *b = t->b;
	/* element ends: the top-level commas */
	size_t es[1024], ee[1024], ends[1024], nel = pk_tok_args(t, p->open_tok, es, ee, 1024);
	size_t first = t->tok[p->open_tok + 1].start;
	for (size_t i = 0; i < nel; i++)
		ends[i] = t->tok[ee[i] - 1].end;
	if ((long)nel < k->ntensors)
		return pk_error("%s: the packed array holds %zu values but kernel '%s' reads %ld tensors", b->path, nel,
		                k->name, k->ntensors);
	char rw[16], pre[64];
	snprintf(rw, sizeof(rw), "%d", sp->lay.row_words);
	snprintf(pre, sizeof(pre), "%s", sp->lay.prefix);
	char *mslots = matrix_slots(sp);
	const char *names[] = {"slots", "row_words", "prefix"};
	const char *vals[] = {mslots, rw, pre};
	char *decl = tt_expand(host_rule(sp, "packed_declare"), names, vals, 3);
	char *elem = tt_expand(host_rule(sp, "packed_element"), names, vals, 3);
	tt_insert_before(b, plan, p->stmt_start, decl, "tensor");
	struct pk_sb sb = {0}, gen = {0};
	char *xv[3];
	size_t nx = extra_scalars(sp, xv);
	for (size_t i = 0; i < nx; i++) { /* generation id, first row: more elements, the last */
		const char *gnames[] = {"value"};
		const char *gvals[] = {xv[i]};
		char *g = tt_expand(host_rule(sp, "packed_scalar"), gnames, gvals, 1);
		pk_sb_addf(&gen, ", %s", g);
		free(g);
		free(xv[i]);
	}
	if (k->ntensors > 0) {
		pk_sb_addf(&sb, ", %s", elem);
		if ((long)nel == k->ntensors && gen.n) /* no scalars: the same place */
			pk_sb_add(&sb, gen.s);
		else if (gen.n)
			tt_insert_inline(plan, ends[nel - 1], gen.s);
		tt_insert_inline(plan, ends[k->ntensors - 1], sb.s);
	} else {
		pk_sb_addf(&sb, "%s%s", elem, nel ? ", " : "");
		if (!nel && gen.n)
			pk_sb_add(&sb, gen.s);
		tt_insert_inline(plan, first, sb.s);
		if (nel && gen.n)
			tt_insert_inline(plan, ends[nel - 1], gen.s);
	}
	if (p->size_tok >= 0) {
		char num[32];
		const struct pk_tok *st = &t->tok[p->size_tok];
		snprintf(num, sizeof(num), "%ld", strtol(b->data + st->start, NULL, 10) + 1 + (long)nx);
		tt_replace_inline(b, plan, st->start, st->end, num);
	}
	pk_sb_free(&sb);
	pk_sb_free(&gen);
	free(mslots);
	free(decl);
	free(elem);
	return 0;
}

/* ---- the launch of a direct-signature kernel ----
 * `NAME<T...><<<blocks, l2, stream>>>(a, b, ...)` or the launch macros of
 * [launch], `ACL(NAME)(blocks, stream, a, b, ...)`: the timing buffer
 * is allocated and cleared above the launch's statement and passed at the
 * kernel's new parameter; the generation / first-row scalars go last. */
struct launch {
	size_t tok;         /* the kernel name (or the launch macro) */
	size_t open, close; /* the argument list's '(' and ')' tokens */
	size_t skip;        /* launch arguments before the kernel's own (2 for a macro) */
	int cpu;            /* CPU(NAME, blocks, ...): the CPU debug launch of a kernel test */
	size_t scope;       /* the '{' of the block holding it */
};

/* After NAME at I: its template arguments, `<<<...>>>`, then '('; the '(' or 0. */
static size_t chevron_args(const struct pk_ast *t, size_t i)
{
	i++;
	if (pk_tok_is(t, i, "<")) { /* template arguments */
		int d = 0;
		for (; i < t->ntok; i++) {
			d += pk_tok_is(t, i, "<") - pk_tok_is(t, i, ">") - 2 * pk_tok_is(t, i, ">>");
			if (pk_tok_is(t, i, "(") || pk_tok_is(t, i, ";") || d <= 0)
				break;
		}
		if (d != 0)
			return 0;
		i++;
	}
	if (!pk_tok_is(t, i, "<<") || !pk_tok_is(t, i + 1, "<"))
		return 0;
	for (i += 2; i + 2 < t->ntok; i++) {
		if (pk_tok_is(t, i, ";"))
			return 0;
		if (pk_tok_is(t, i, ">>") && pk_tok_is(t, i + 1, ">"))
			return pk_tok_is(t, i + 2, "(") ? i + 2 : 0;
	}
	return 0;
}

static size_t find_launches(const struct pk_ast *t, const struct tt_words *w, const char *name, struct launch *l,
                            size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i + 3 < t->ntok && n < cap; i++) {
		size_t open = 0, skip = 0;
		if (pk_tok_is(t, i, w->acl_launch) && pk_tok_is(t, i + 1, "(") && pk_tok_is(t, i + 2, name) &&
		    pk_tok_is(t, i + 3, ")") && i + 4 < t->ntok && pk_tok_is(t, i + 4, "("))
			open = i + 4, skip = 2;
		else if (pk_tok_is(t, i, w->cpu_launch) && pk_tok_is(t, i + 1, "(") && pk_tok_is(t, i + 2, name) &&
		         pk_tok_is(t, i + 3, ","))
			open = i + 1, skip = 2;
		else if (pk_tok_is(t, i, name) && (i == 0 || !pk_tok_is(t, i - 1, w->acl_launch)))
			open = chevron_args(t, i);
		if (!open)
			continue;
		struct launch x = {i, open, pk_tok_close(t, open, 0), skip, pk_tok_is(t, i, w->cpu_launch), 0};
		size_t scope = pk_tok_enclosing(t, i, "{", "}");
		if (scope < t->ntok)
			x.scope = scope;
		if (x.close < t->ntok)
			l[n++] = x;
	}
	return n;
}

/* The argument starts of the list opened at OPEN (top-level commas). */
static size_t launch_args(const struct pk_ast *t, const struct launch *l, size_t *starts, size_t cap)
{
	size_t n = 0;
	int d = 0;
	if (l->close == l->open + 1)
		return 0;
	starts[n++] = l->open + 1;
	for (size_t i = l->open + 1; i < l->close && n < cap; i++) {
		d += pk_tok_is(t, i, "(") + pk_tok_is(t, i, "[") + pk_tok_is(t, i, "{") - pk_tok_is(t, i, ")") -
		     pk_tok_is(t, i, "]") - pk_tok_is(t, i, "}");
		if (d == 0 && pk_tok_is(t, i, ","))
			starts[n++] = i + 1;
	}
	return n;
}

static int plan_launch(struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp, const struct launch *l,
                       struct pk_plan *plan)
{
	size_t starts[64];
	size_t n = launch_args(t, l, starts, 64);
	unsigned line = pk_buf_line_of(t->b, t->tok[l->tok].start);
	if ((long)n != (long)(l->skip + k->nparams))
		return pk_error("%s:%u: this launch passes %zu arguments but kernel '%s' takes %zu; fix the launch "
		                "or leave out --host",
		                t->b->path, line, n - l->skip, k->name, k->nparams);
	size_t s = pk_tok_stmt_first(t, l->tok); /* the launch's statement */
	if (s > 0 && s < l->tok &&
	    (pk_tok_is(t, s, "if") || pk_tok_is(t, s, "for") || pk_tok_is(t, s, "while") || pk_tok_is(t, s, "else")))
		return pk_error("%s:%u: the launch is the body of an if/for/while without braces; add braces",
		                t->b->path, line);
	char row_bytes[32];
	snprintf(row_bytes, sizeof(row_bytes), "%d", sp->lay.row_words * 8);
	char *slots = matrix_slots(sp);
	const char *names[] = {"slots", "row_bytes", "prefix"};
	const char *vals[] = {slots, row_bytes, sp->lay.prefix};
	char *tmpl = tt_rule_lines(sp->rules, "host", l->cpu ? "cpu_launch_declare" : "launch_declare");
	char *decl = tt_expand(tmpl, names, vals, 3);
	free(tmpl);
	tt_insert_before(t->b, plan, pk_tok_lead(t, s), decl, "launch buffer");
	free(decl);
	free(slots);
	struct pk_sb a = {0};
	size_t at = l->skip + (size_t)(k->ntensors > 0 ? tt_direct_at(k, &sp->rules->w) : 0);
	if (at < n)
		pk_sb_addf(&a, "%s" PK_NAME_TIMING_TIMING ", ", sp->lay.prefix);
	else
		pk_sb_addf(&a, "%s%s" PK_NAME_TIMING_TIMING, n ? ", " : "", sp->lay.prefix);
	tt_insert_inline(plan, at < n ? t->tok[starts[at]].start : t->tok[l->close].start, a.s);
	pk_sb_free(&a);
	char *extra[3];
	size_t ne = extra_scalars(sp, extra);
	for (size_t i = 0; i < ne; i++) {
		struct pk_sb e = {0};
		pk_sb_addf(&e, ", %s", extra[i]);
		tt_insert_inline(plan, t->tok[l->close].start, e.s);
		pk_sb_free(&e);
		free(extra[i]);
	}
	return 0;
}

/* The host file's own declarations of the kernel (`... void NAME(...);`)
 * take the new parameter too, at the kernel's place. */
static void plan_prototypes(struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp, struct pk_plan *plan)
{
	for (size_t i = 1; i + 1 < t->ntok; i++) {
		if (!pk_tok_is(t, i, k->name) || !pk_tok_is(t, i - 1, "void") || !pk_tok_is(t, i + 1, "("))
			continue;
		struct launch l = {i, i + 1, pk_tok_close(t, i + 1, 0), 0, 0, 0};
		if (l.close + 1 >= t->ntok || !pk_tok_is(t, l.close + 1, ";"))
			continue;
		size_t starts[64];
		size_t n = launch_args(t, &l, starts, 64);
		size_t at = (size_t)(k->ntensors > 0 ? tt_direct_at(k, &sp->rules->w) : 0);
		struct pk_sb a = {0};
		const char *names[] = {"prefix"}, *vals[] = {sp->lay.prefix};
		char *param = tt_expand(tt_rule(sp->rules, "kernel", "param"), names, vals, 1);
		if (at < n)
			pk_sb_addf(&a, "%s, ", param);
		else
			pk_sb_addf(&a, "%s%s", n ? ", " : "", param);
		free(param);
		tt_insert_inline(plan, at < n ? t->tok[starts[at]].start : t->tok[l.close].start, a.s);
		pk_sb_free(&a);
	}
}

/* Direct style: 1 when the host file launches the kernel (planned), 0 when
 * it does not, -1 on error. */
static int direct_launch(struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp, struct pk_plan *plan)
{
	struct launch l[64];
	size_t n = find_launches(t, &sp->rules->w, k->name, l, 64);
	for (size_t i = 1; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (l[i].scope == l[j].scope)
				return pk_error(
				    "%s:%u: kernel '%s' is launched twice in one block (also line %u), where one "
				    "timing buffer would be declared twice; pass it to the second launch by hand",
				    t->b->path, pk_buf_line_of(t->b, t->tok[l[i].tok].start), k->name,
				    pk_buf_line_of(t->b, t->tok[l[j].tok].start));
	for (size_t i = 0; i < n; i++)
		if (plan_launch(t, k, sp, &l[i], plan) < 0)
			return -1;
	if (n && strcmp(t->b->path, sp->opt.kernel_file)) /* the kernel's own file has its declarations done */
		plan_prototypes(t, k, sp, plan);
	return n ? 1 : 0;
}

int tt_gen_host(struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp, struct pk_plan *plan)
{
	if (!sp->opt.slots)
		return pk_error("%s: --host needs --slots EXPR, the number of core slots of the real "
		                "launch",
		                t->b->path);
	if (k->style == TT_DIRECT) {
		int rc = direct_launch(t, k, sp, plan);
		if (rc != 0)
			return rc < 0 ? -1 : 0;
	}
	const struct tt_words *w = &sp->rules->w;
	struct add_call *a;
	size_t n = find_adds(t, sp->rules, &a);
	int rc;
	if (n > 0) {
		rc = plan_orchestration(t, k, sp, a, n, plan);
	} else {
		struct packed p;
		rc = find_packed(t, &p);
		if (rc == 0)
			rc = k->style == TT_DIRECT
			         ? pk_error("%s: no launch of kernel '%s' (NAME<<<...>>>(...), %s(NAME, ...) or "
			                    "%s(NAME)(...)), add_* sequence or packed argument array; "
			                    "pass the timing buffer by hand and leave out --host",
			                    t->b->path, k->name, w->cpu_launch, w->acl_launch)
			         : pk_error("%s: no %s/%s/%s sequence and no packed "
			                    "int64_t argument array found",
			                    t->b->path, w->add_input, w->add_output, w->add_scalar);
		else if (rc > 0)
			rc = plan_packed(t, k, sp, &p, plan);
	}
	free(a);
	return rc < 0 ? -1 : 0;
}
