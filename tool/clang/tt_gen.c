/* tt_gen.c - the kernel's timing edits: helpers above the
 * kernel, the entry sample as the first statement, event samples kept in
 * locals, the tail (body_done, one row per slot, writeback) before every exit,
 * the timing tensor in the ABI and every shifted scalar index. Code text
 * comes from rules/timing.ini; every byte added carries a timing mark. */
#include "tt.h"
#include "pk.h"
#include "timing_strip.h"

#include <stdlib.h>
#include <string.h>

/* TMPL (a slot formula of rules/timing.ini) with {block}, {subblock} the
 * kind's accessors (rules/api.ini) and {args} the kernel's packed parameter. */
static char *slot_expand(const struct tt_spec *sp, const char *tmpl, const char *args)
{
	char *blk = pk_api_call(sp->api, sp->api->block, 1, args);
	char *sub = pk_api_call(sp->api, sp->api->subblock, 1, args);
	const char *ratio = tt_prof(sp, "slot", "aiv_per_aic");
	const char *names[] = {"block", "subblock", "args", "ratio"},
	           *vals[] = {blk, sub, args ? args : "args", ratio ? ratio : "{ratio}"};
	char *e = tt_expand(tmpl, names, vals, 4);
	free(blk);
	free(sub);
	return e;
}

/* A profile expression with {args} the kernel's packed parameter. */
static char *prof_expr(const struct tt_spec *sp, const struct tt_kernel *k, const char *sec, const char *key)
{
	const char *v = tt_prof(sp, sec, key);
	return v ? slot_expand(sp, v, k->args_name ? k->args_name : "args") : NULL;
}

/* A [kernel] template of rules/timing.ini (required: tt_schema.c) with
 * {prefix} and up to three more {NAME}s; malloc'd. */
static char *kcode(const struct tt_spec *sp, const char *key, const char *n1, const char *v1, const char *n2,
                   const char *v2, const char *n3, const char *v3)
{
	const char *names[] = {"prefix", n1, n2, n3}, *vals[] = {sp->lay.prefix, v1, v2, v3};
	size_t n = 1 + (n1 != NULL) + (n1 && n2) + (n1 && n2 && n3); /* the names given, in order */
	return tt_expand(tt_rule(sp->rules, "kernel", key), names, vals, n);
}

static const char *slot_key(enum tt_core c)
{
	return c == TT_AIC ? "aic" : "aiv";
}

/* ---- helpers written once above the kernel ---- */

/* [kernel] KEY expanded with the prefix and up to N NAMES/VALS, its "\n"
 * escapes made new lines. */
static char *kfill(const struct tt_spec *sp, const char *key, const char *const *names, const char *const *vals,
                   size_t n)
{
	const char *nm[8] = {"prefix"}, *vl[8] = {sp->lay.prefix};
	for (size_t i = 0; i < n && i < 7; i++) {
		nm[i + 1] = names[i];
		vl[i + 1] = vals[i];
	}
	char *t = tt_expand(tt_rule(sp->rules, "kernel", key), nm, vl, n + 1);
	char *w = t;
	for (const char *r = t; *r; r++)
		if (r[0] == '\\' && r[1] == 'n') {
			*w++ = '\n';
			r++;
		} else {
			*w++ = *r;
		}
	*w = '\0';
	return t;
}

/* "    LINE\n" of [kernel] KEY into SB. */
static void kline(struct pk_sb *sb, const struct tt_spec *sp, const char *key, const char *const *names,
                  const char *const *vals, size_t n)
{
	char *l = kfill(sp, key, names, vals, n);
	pk_sb_addf(sb, "    %s\n", l);
	free(l);
}

static void slot_code(struct pk_sb *sb, const struct tt_kernel *k, const struct tt_spec *sp)
{
	if (sp->slot_in_body)
		return; /* a parameter: the kernel body read it with the runtime's accessors */
	if (k->core != TT_MIX) {
		char *e = prof_expr(sp, k, "slot", slot_key(k->core));
		const char *n[] = {"expr"}, *v[] = {e};
		kline(sb, sp, "tail_slot", n, v, 1);
		free(e);
		return;
	}
	char *c = prof_expr(sp, k, "slot", "mix_aic"), *v = prof_expr(sp, k, "slot", "mix_aiv");
	const char *n[] = {"is_aic", "aic", "aiv"}, *vals[] = {tt_prof(sp, "slot", "mix_is_aic"), c, v};
	kline(sb, sp, "tail_slot_mix", n, vals, 3);
	free(c);
	free(v);
}

/* The cycle read: the device's, or under the kind's simulation macro the
 * simulation's counter (preprocessor lines, each marked like the rest). */
static void cycle_helper(struct pk_sb *sb, const struct tt_spec *sp, const char *qual)
{
	char *dev = tt_cycle_read(sp);
	const char *qn[] = {"qualifiers"}, *qv[] = {qual}, *cn[] = {"cycle"};
	char *open = kfill(sp, "read_cycle_open", qn, qv, 1);
	pk_sb_addf(sb, "%s\n{\n", open);
	free(open);
	const char *sv[] = {sp->api->sim_cycle}, *dv[] = {dev};
	char *sim_ret = kfill(sp, "read_cycle_return", cn, sv, 1), *dev_ret = kfill(sp, "read_cycle_return", cn, dv, 1);
	char *sim_line = pk_xasprintf("    %s", sim_ret), *dev_line = pk_xasprintf("    %s", dev_ret);
	char *lines = pk_api_read_lines(sp->api, sim_line, dev_line, "\n");
	pk_sb_addf(sb, "%s\n}\n", lines);
	free(lines);
	free(dev_line);
	free(sim_line);
	free(dev_ret);
	free(sim_ret);
	free(dev);
}

/* The headers the generated code needs and KB does not include: the
 * simulation's counter (under its macro) and the block accessors when the
 * slot is read with them. Empty text when none. */
static char *needed_includes(const struct pk_ast *t, const struct tt_spec *sp, const char *slot_text)
{
	const struct pk_api *a = sp->api;
	struct pk_sb sb = {0};
	pk_sb_add(&sb, "");
	char *inc = NULL;
	if (*a->sim_macro && *a->sim_include && !pk_api_includes(t->b, &t->scan, a->sim_include)) {
		inc = pk_api_include_lines(a, a->sim_include, 1, "\n");
		pk_sb_addf(&sb, "%s\n", inc);
		free(inc);
	}
	size_t bl = strcspn(a->block, "(");
	if (*a->block_include && bl && slot_text && memmem(slot_text, strlen(slot_text), a->block, bl) &&
	    !pk_api_includes(t->b, &t->scan, a->block_include)) {
		inc = pk_api_include_lines(a, a->block_include, 0, "\n");
		pk_sb_addf(&sb, "%s\n", inc);
		free(inc);
	}
	return sb.s;
}

/* ", uint64_t NAME" of the tail's parameter list ([kernel] tail_param). */
static void tail_param(struct pk_sb *params, const struct tt_spec *sp, const char *name)
{
	const char *n[] = {"name"}, *v[] = {name};
	char *p = kfill(sp, "tail_param", n, v, 1);
	pk_sb_add(params, p);
	free(p);
}

static char *helpers(const struct tt_kernel *k, const struct tt_spec *sp)
{
	const char *magic = tt_prof(sp, "code", "magic");
	struct pk_sb sb = {0}, params = {0};
	char vname[16], iw[16], rw[16];
	pk_sb_add(&params, "");
	if (sp->slot_in_body)
		tail_param(&params, sp, "slot");
	if (sp->opt.generation)
		tail_param(&params, sp, "gen");
	if (sp->opt.invocation)
		tail_param(&params, sp, "row0");
	for (int i = 0; i < sp->lay.columns; i++) {
		snprintf(vname, sizeof(vname), "v%d", i);
		tail_param(&params, sp, vname);
	}
	const char *on[] = {"qualifiers", "params"}, *ov[] = {tt_prof(sp, "code", "qualifiers"), params.s};
	char *open = kfill(sp, "tail_open", on, ov, 2);
	pk_sb_addf(&sb, "%s\n{\n", open);
	free(open);
	pk_sb_free(&params);
	slot_code(&sb, k, sp);
	snprintf(rw, sizeof(rw), "%d", sp->lay.row_words);
	const char *rn[] = {"row_words"}, *rv[] = {rw};
	/* this invocation's rows start at row0 = invocation * slots */
	kline(&sb, sp, sp->opt.invocation ? "tail_row_invocation" : "tail_row", rn, rv, 1);
	const char *in[] = {"i", "magic"};
	for (int i = 0; i < sp->lay.columns; i++) {
		snprintf(iw, sizeof(iw), "%d", i);
		const char *iv[] = {iw};
		kline(&sb, sp, "tail_value", in, iv, 1);
	}
	snprintf(iw, sizeof(iw), "%d", sp->lay.row_words - 1);
	const char *mv[] = {iw, magic}; /* the marker word: magic (| generation << 16) + slot */
	kline(&sb, sp, sp->opt.generation ? "tail_marker_generation" : "tail_marker", in, mv, 2);
	for (int l = 0; l < sp->lay.row_words / 8; l++) {
		char line[32];
		snprintf(line, sizeof(line), "row + %d", l * 8);
		const char *names[] = {"line"}, *vals[] = {line};
		char *w = tt_expand(sp->api->writeback, names, vals, 1);
		pk_sb_addf(&sb, "    %s\n", w);
		free(w);
	}
	if (*sp->api->fence)
		pk_sb_addf(&sb, "    %s\n", sp->api->fence);
	pk_sb_add(&sb, "}");
	return sb.s;
}

/* ---- statements in the body ---- */

static char *tail_call(const struct tt_spec *sp)
{
	const char *P = sp->lay.prefix;
	struct pk_sb v = {0};
	if (sp->slot_in_body)
		pk_sb_addf(&v, "%s" PK_NAME_TIMING_SLOT ", ", P);
	if (sp->opt.generation)
		pk_sb_addf(&v, "%s" PK_NAME_TIMING_GEN ", ", P);
	if (sp->opt.invocation)
		pk_sb_addf(&v, "%s" PK_NAME_TIMING_ROW0 ", ", P);
	pk_sb_addf(&v, "%s" PK_NAME_TIMING_ENTRY, P);
	for (size_t i = 0; i < sp->opt.nev; i++)
		if (sp->opt.ev[i].helper >= 0)
			pk_sb_addf(&v, ", %s" PK_NAME_TIMING_EVENTS "[%d]", P, sp->opt.ev[i].helper);
		else
			pk_sb_addf(&v, ", %s" PK_NAME_TIMING_EVENT "%s", P, sp->opt.ev[i].name);
	char *call = kcode(sp, "tail_call", "values", v.s, NULL, NULL, NULL, NULL);
	pk_sb_free(&v);
	return call;
}

/* The timing tensor's data pointer, read as the kernel reads its own: the
 * raw address ([code] tensor), through the descriptor, or through the accessor. */
static char *tensor_read(const struct tt_kernel *k, const struct tt_spec *sp)
{
	char idx[16];
	snprintf(idx, sizeof(idx), "%d", sp->lay.timing_index);
	const char *tmpl = NULL;
	if (k->tensor_accessor)
		tmpl = tt_prof(sp, "code", "tensor_by_accessor");
	if (!tmpl)
		tmpl = tt_prof(sp, "code", "tensor");
	const char *type = k->tensor_type ? k->tensor_type : tt_prof(sp, "code", "tensor_type");
	const char *names[] = {"args", "index", "type", "accessor"};
	const char *vals[] = {k->args_name, idx, type, k->tensor_accessor ? k->tensor_accessor : ""};
	return tt_expand(tmpl, names, vals, 4);
}

/* The slot from the formula KEY of [slot]; with several tasks inside the
 * task slot, after the task's first row, which the host passes. */
static char *slot_expr(const struct tt_kernel *k, const struct tt_spec *sp, const char *key)
{
	char *e = prof_expr(sp, k, "slot", key), *x;
	if (!sp->lay.task_rows) {
		const char *n[] = {"expr"}, *v[] = {e};
		x = kfill(sp, "slot_cast", n, v, 1);
		free(e);
		return x;
	}
	char task[64];
	snprintf(task, sizeof(task), "%stask", sp->lay.prefix);
	const char *names[] = {"task", "slot", "slots"}, *vals[] = {task, e, sp->opt.slots ? sp->opt.slots : "1"};
	x = tt_expand(tt_prof(sp, "slot", "task_slot"), names, vals, 3);
	free(e);
	return x;
}

/* The slot, read in the body with the runtime's accessors (they take args).
 * A mixed kernel: the AIC and AIV builds told apart by the profile's macro
 * (marked #if lines) or by a C++ test (checked in tt_gen_kernel). */
static char *slot_stmt(const struct tt_kernel *k, const struct tt_spec *sp)
{
	const char *mac = tt_prof(sp, "slot", "mix_is_aic_macro");
	char *s;
	if (k->core != TT_MIX) {
		char *e = slot_expr(k, sp, slot_key(k->core));
		s = kcode(sp, "slot", "expr", e, NULL, NULL, NULL, NULL);
		free(e);
		return s;
	}
	/* a kernel no task runs on AIC keeps AIV rows only, where the profile says how */
	const char *aiv = sp->lay.aic_idle && tt_prof(sp, "slot", "mix_aiv_only") ? "mix_aiv_only" : "mix_aiv";
	char *c = slot_expr(k, sp, "mix_aic"), *v = slot_expr(k, sp, aiv);
	if (mac) { /* the builds told apart by the preprocessor: marked #if lines */
		char *sc = kcode(sp, "slot", "expr", c, NULL, NULL, NULL, NULL);
		char *sv = kcode(sp, "slot", "expr", v, NULL, NULL, NULL, NULL);
		s = pk_xasprintf("#if %s\n%s\n#else\n%s\n#endif", mac, sc, sv);
		free(sc);
		free(sv);
	} else {
		char *is = prof_expr(sp, k, "slot", "mix_is_aic_expr");
		s = kcode(sp, "slot_mix", "is_aic", is, "aic", c, "aiv", v);
		free(is);
	}
	free(c);
	free(v);
	return s;
}

/* `const uint64_t <prefix>LOCAL = args[INDEX];` at the top of the body: a
 * launch field the host packs among the scalars (labelled WHAT). */
static void plan_packed_read(const struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp,
                             struct pk_plan *plan, const char *local, const char *what, int index)
{
	struct pk_sb label = {0};
	char idx[16], *name = pk_xasprintf("%s%s", sp->lay.prefix, local);
	snprintf(idx, sizeof(idx), "%d", index);
	char *read = kcode(sp, "packed_read", "name", name, "args", k->args_name, "index", idx);
	pk_sb_addf(&label, "%s %s[%d]", what, k->args_name, index);
	tt_insert_before(t->b, plan, k->first_stmt, read, label.s);
	free(read);
	free(name);
	pk_sb_free(&label);
}

/* Entry sample first, then the tensor pointer, then the event locals:
 * declared here so a sample in any nested scope reaches the tail. */
static void plan_entry(const struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp,
                       struct pk_plan *plan)
{
	struct pk_sb label = {0};
	char *line = kcode(sp, "entry", NULL, NULL, NULL, NULL, NULL, NULL);
	tt_insert_before(t->b, plan, k->first_stmt, line, "entry");
	free(line);
	if (k->style == TT_EXTERN) {
		char *rd = tensor_read(k, sp);
		line = kcode(sp, "out", "tensor", rd, NULL, NULL, NULL, NULL);
		free(rd);
		pk_sb_addf(&label, "tensor %s[%d]", k->args_name, sp->lay.timing_index);
	} else {
		line = kcode(sp, "out_param", NULL, NULL, NULL, NULL, NULL, NULL);
		pk_sb_add(&label, "tensor");
	}
	tt_insert_before(t->b, plan, k->first_stmt, line, label.s);
	free(line);
	if (sp->lay.task_rows && k->style == TT_EXTERN) /* the slot below reads it */
		plan_packed_read(t, k, sp, plan, PK_NAME_TIMING_TASK, "task's first row", sp->lay.task_index);
	if (sp->slot_in_body) {
		char *ss = slot_stmt(k, sp);
		tt_insert_before(t->b, plan, k->first_stmt, ss, "slot");
		free(ss);
	}
	if (sp->opt.generation && k->style == TT_EXTERN) /* direct style: a parameter */
		plan_packed_read(t, k, sp, plan, PK_NAME_TIMING_GEN, "generation", sp->lay.generation_index);
	if (sp->opt.invocation && k->style == TT_EXTERN)
		plan_packed_read(t, k, sp, plan, PK_NAME_TIMING_ROW0, "invocation rows", sp->lay.row0_index);
	for (size_t i = 0; i < sp->opt.nev; i++) {
		if (sp->opt.ev[i].helper >= 0)
			continue;
		line = kcode(sp, "event_local", "event", sp->opt.ev[i].name, NULL, NULL, NULL, NULL);
		tt_insert_before(t->b, plan, k->first_stmt, line, "event local");
		free(line);
	}
	if (sp->lay.nhelper) { /* the helpers' samples: the array the call path passes down */
		char n[32];
		snprintf(n, sizeof(n), "%zu", sp->lay.nhelper);
		line = kcode(sp, "events_local", "n", n, NULL, NULL, NULL, NULL);
		tt_insert_before(t->b, plan, k->first_stmt, line, "helper event locals");
		free(line);
	}
	pk_sb_free(&label);
}

/* Only blanks between the start of OFF's line and OFF; *ls gets the line start. */
static int starts_line(const struct pk_buf *b, size_t off, size_t *ls)
{
	size_t le;
	pk_buf_line_bounds(b, off, ls, &le);
	for (size_t j = *ls; j < off; j++)
		if (b->data[j] != ' ' && b->data[j] != '\t')
			return 0;
	return 1;
}

/* The tail before a closing brace on its own line is indented like the
 * body's first statement, not like the brace. */
static void plan_closing_tail(const struct pk_ast *t, const struct tt_kernel *k, const char *tail, struct pk_plan *plan)
{
	size_t ls, fs;
	if (!starts_line(t->b, k->body_close, &ls) || k->first_stmt >= k->body_close ||
	    !starts_line(t->b, k->first_stmt, &fs)) {
		tt_insert_before(t->b, plan, k->body_close, tail, "tail");
		return;
	}
	struct pk_sb sb = {0};
	pk_sb_addn(&sb, t->b->data + fs, k->first_stmt - fs);
	pk_sb_addf(&sb, "%s  " PK_TT_LINE_MARK " tail%s", tail, pk_buf_eol(t->b));
	pk_plan_add(plan, ls, ls, sb.s, sb.n);
	pk_sb_free(&sb);
}

static void plan_exits(const struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp,
                       struct pk_plan *plan)
{
	char *tail = tail_call(sp);
	for (size_t i = 0; i < k->nrets; i++) {
		const struct tt_return *r = &k->rets[i];
		if (r->braced) {
			tt_insert_before(t->b, plan, r->start, tail, "tail");
			continue;
		}
		/* a braceless `if (c) return;` gets braces, marked like the rest */
		struct pk_sb open = {0};
		pk_sb_addf(&open, "{ %s ", tail);
		tt_insert_inline(plan, r->start, open.s);
		tt_insert_inline(plan, r->end, " }");
		pk_sb_free(&open);
	}
	if (!k->last_is_return)
		plan_closing_tail(t, k, tail, plan);
	free(tail);
}

/* ---- events ---- */

/* ---- the ABI ---- */

/* Other declarations of a direct-signature kernel in its file (a forward
 * declaration, an explicit template instantiation): the same parameter after
 * the same AT-th parameter, the extra scalars last, so they keep matching. */
static void other_decls(const struct pk_ast *t, const struct tt_kernel *k, long at, const char *param, const char *tail,
                        struct pk_plan *plan)
{
	for (size_t i = 0; i + 1 < t->ntok; i++) {
		if (!pk_tok_is(t, i, k->name) || (t->tok[i].start >= k->decl_start && t->tok[i].start <= k->body_close))
			continue;
		size_t o = i + 1;
		if (pk_tok_is(t, o, "<")) { /* scale_kernel<float>( */
			int d = 0;
			for (; o < t->ntok; o++)
				if (pk_tok_is(t, o, "<"))
					d++;
				else if (pk_tok_is(t, o, ">") && --d == 0)
					break;
			o++;
		}
		if (!pk_tok_is(t, o, "("))
			continue;
		size_t c = o, comma = 0;
		long seen = 0;
		int d = 0;
		for (; c < t->ntok; c++) {
			if (pk_tok_is(t, c, "(") || pk_tok_is(t, c, "<"))
				d++;
			else if ((pk_tok_is(t, c, ")") || pk_tok_is(t, c, ">")) && --d == 0)
				break;
			else if (d == 1 && pk_tok_is(t, c, ",") && ++seen == at)
				comma = c;
		}
		/* a declaration ends with ';' and names parameter types: a call would not be one here */
		if (c + 1 >= t->ntok || !pk_tok_is(t, c + 1, ";") || seen + 1 != (long)k->nparams)
			continue;
		size_t after = comma ? t->tok[comma - 1].end : t->tok[c - 1].end;
		tt_insert_inline(plan, after, param);
		if (tail && comma)
			tt_insert_inline(plan, t->tok[c - 1].end, tail);
	}
}

long tt_direct_at(const struct tt_kernel *k)
{
	long at = k->ntensors; /* Ascend C ops pass workspace and tiling last: the tensor goes before them */
	while (at > 1 && (strstr(k->params[at - 1].name, "workspace") || strstr(k->params[at - 1].name, "tiling")))
		at--;
	return at;
}

static void plan_abi(const struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp, struct pk_plan *plan)
{
	const char *P = sp->lay.prefix;
	if (k->style == TT_EXTERN) {
		for (size_t i = 0; i < k->nuses; i++) {
			const struct tt_use *u = &k->uses[i];
			if (u->index < sp->lay.timing_index)
				continue;
			char num[32];
			snprintf(num, sizeof(num), "%ld", u->index + 1);
			tt_replace_inline(t->b, plan, u->lit_start, u->lit_end, num);
		}
		return;
	}
	struct pk_sb sb = {0}, gen = {0};
	char *param = kcode(sp, "param", NULL, NULL, NULL, NULL, NULL, NULL);
	const char *scalars[] = {sp->opt.generation ? PK_NAME_TIMING_GEN : NULL,
	                         sp->opt.invocation ? PK_NAME_TIMING_ROW0 : NULL};
	for (size_t i = 0; i < 2; i++) /* the last scalars (scalars come after every tensor) */
		if (scalars[i]) {
			char *name = pk_xasprintf("%s%s", P, scalars[i]);
			char *sc = kcode(sp, "scalar_param", "name", name, NULL, NULL, NULL, NULL);
			pk_sb_addf(&gen, ", %s", sc);
			free(sc);
			free(name);
		}
	if (k->ntensors > 0) {
		pk_sb_addf(&sb, ", %s", param);
		if (k->ntensors == (long)k->nparams) /* no scalars: one insertion */
			pk_sb_add(&sb, gen.n ? gen.s : "");
		else if (gen.n)
			tt_insert_inline(plan, k->params[k->nparams - 1].end, gen.s);
		long at = tt_direct_at(k);
		tt_insert_inline(plan, k->params[at - 1].end, sb.s);
		other_decls(t, k, at, sb.s, gen.n ? gen.s : NULL, plan);
	} else if (k->nparams > 0) {
		pk_sb_addf(&sb, "%s, ", param);
		tt_insert_inline(plan, k->params[0].start, sb.s);
		if (gen.n)
			tt_insert_inline(plan, k->params[k->nparams - 1].end, gen.s);
	} else {
		size_t i = pk_tok_at(t, k->decl_start);
		while (i < t->ntok && !pk_tok_is(t, i, "("))
			i++;
		pk_sb_addf(&sb, "%s%s", param, gen.n ? gen.s : "");
		size_t s = t->tok[i].end, e = s;
		if (pk_tok_is(t, i + 1, "void"))
			e = t->tok[i + 1].end, s = t->tok[i + 1].start;
		if (e > s)
			tt_replace_inline(t->b, plan, s, e, sb.s);
		else
			tt_insert_inline(plan, s, sb.s);
	}
	free(param);
	pk_sb_free(&sb);
	pk_sb_free(&gen);
}

/* A mixed kernel's slot tells its AIC and AIV builds apart: by the
 * profile's macro on #if lines of their own (the body's first statement must
 * start its line), or by a C++ test. */
static int mix_refused(const struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp)
{
	size_t ls;
	if (tt_prof(sp, "slot", "mix_is_aic_macro")) {
		if (starts_line(t->b, k->first_stmt, &ls))
			return 0;
		return pk_error("%s:%u: kernel '%s' runs on AIC and AIV lanes, whose rows differ by a #if line "
		                "before its first statement, which shares its line with other code: put the first "
		                "statement on a line of its own",
		                t->b->path, pk_buf_line_of(t->b, k->first_stmt), k->name);
	}
	if (tt_prof(sp, "slot", "mix_is_aic_expr"))
		return 0;
	return pk_error("%s: kernel '%s' runs on AIC and AIV, and the %s profile has no test telling them apart "
	                "(mix_is_aic_macro or mix_is_aic_expr in rules/timing.ini): instrument each core's build "
	                "with --core-type aic or --core-type aiv",
	                t->b->path, k->name, sp->target ? sp->target : "default");
}

int tt_gen_kernel(struct pk_ast *t, struct tt_kernel *k, struct tt_spec *sp, const struct tt_files *fs,
                  struct pk_plan *plan)
{
	if (sp->slot_in_body && k->core == TT_MIX && mix_refused(t, k, sp) < 0)
		return -1;
	for (size_t i = 0; i < sp->opt.nev; i++) {
		if (sp->opt.ev[i].helper >= 0)
			continue;
		sp->opt.ev[i].file = t->b->path;
		if (tt_place_event(t, k, &sp->opt.ev[i]) < 0)
			return -1;
		tt_lint_event(t, sp, &sp->opt.ev[i]);
	}
	if (sp->lay.nhelper && tt_path_plan(t, k, sp, fs, plan) < 0)
		return -1;
	char *h = helpers(k, sp), *ss = sp->slot_in_body ? slot_stmt(k, sp) : NULL;
	struct pk_sb all = {0};
	pk_sb_addf(&all, "%s\n%s", h, ss ? ss : "");
	char *inc = needed_includes(t, sp, all.s);
	all.n = 0;
	pk_sb_add(&all, inc);
	cycle_helper(&all, sp, tt_prof(sp, "code", "qualifiers"));
	all.s[--all.n] = '\0'; /* the lines end where the chunk does */
	/* the cycle read says its kind unless it is Ascend C's, the default */
	char *label =
	    strcmp(sp->api->kind, sp->api->dflt) ? pk_xasprintf("helper, api %s", sp->api->kind) : pk_xstrdup("helper");
	tt_insert_before(t->b, plan, k->decl_start, all.s, label);
	tt_insert_before(t->b, plan, k->decl_start, h, "helper");
	free(label);
	pk_sb_free(&all);
	free(inc);
	free(ss);
	free(h);
	plan_entry(t, k, sp, plan);
	for (size_t i = 0; i < sp->opt.nev; i++) {
		if (sp->opt.ev[i].helper >= 0)
			continue;
		struct pk_sb sb = {0}, label = {0};
		char *sample = kcode(sp, "event_sample", "event", sp->opt.ev[i].name, NULL, NULL, NULL, NULL);
		pk_sb_add(&sb, sample);
		free(sample);
		pk_sb_addf(&label, "event %s (%s)", sp->opt.ev[i].name, sp->opt.ev[i].kind);
		tt_event_write(t->b, plan, sp, i, sb.s, label.s);
		pk_sb_free(&sb);
		pk_sb_free(&label);
	}
	plan_exits(t, k, sp, plan);
	if (k->style == TT_DIRECT && k->nparams == 0) {
		size_t i = pk_tok_at(t, k->decl_start);
		while (i < t->ntok && !pk_tok_is(t, i, "("))
			i++;
		if (!pk_tok_is(t, i + 1, ")") && !(pk_tok_is(t, i + 1, "void") && pk_tok_is(t, i + 2, ")")))
			return pk_error(
			    "%s:%u: the parameters of kernel '%s' could not be read (the parse failed on its "
			    "declaration): give the qualifier macros with -- -DNAME= or -p BUILD_DIR",
			    t->b->path, pk_buf_line_of(t->b, k->decl_start), k->name);
	}
	plan_abi(t, k, sp, plan);
	return 0;
}

/* ---- the sidecar: what each column holds, for probe-report --events ---- */

static void json_quoted(struct pk_sb *sb, const char *val)
{
	pk_sb_add(sb, "\"");
	for (const char *p = val; *p; p++)
		if (*p == '"' || *p == '\\')
			pk_sb_addf(sb, "\\%c", *p);
		else if ((unsigned char)*p >= 0x20)
			pk_sb_addn(sb, p, 1);
	pk_sb_add(sb, "\"");
}

static void json_str(struct pk_sb *sb, const char *key, const char *val)
{
	pk_sb_addf(sb, ", \"%s\": ", key);
	json_quoted(sb, val);
}

static void json_event(struct pk_sb *sb, const char *name, int column, const char *kind, const char *at,
                       const char *func, const char *file)
{
	pk_sb_addf(sb, "    {\"name\": \"%s\", \"column\": %d, \"kind\": \"%s\"", name, column, kind);
	if (at)
		json_str(sb, "at", at);
	if (func)
		json_str(sb, "function", func);
	if (file)
		json_str(sb, "file", file);
	pk_sb_add(sb, "}");
}

/* The map's row layout: a mixed kernel's lanes, several tasks' rows. */
static void sidecar_rows(struct pk_sb *sb, const struct tt_kernel *k, const struct tt_spec *sp)
{
	/* AIC and AIV lanes in rows of their own: the lane of each row */
	const char *ratio = tt_prof(sp, "slot", "aiv_per_aic");
	int lanes = sp->slot_in_body && k->core == TT_MIX && ratio;
	if (lanes) {
		pk_sb_addf(sb, "  \"aiv_per_aic\": %s,\n", ratio);
		if (sp->lay.mix_blocks > 0)
			pk_sb_addf(sb, "  \"aic_rows\": %ld,\n", sp->lay.mix_blocks);
		else
			pk_sb_add(sb, "  \"aic_rows\": null,\n");
		if (sp->lay.aic_idle) /* no task runs it on AIC: AIV rows only */
			pk_sb_add(sb, "  \"aic_idle\": true,\n");
	}
	const char *lane_rule = sp->lay.aic_idle
	                            ? "AIV: block_idx * aiv_per_aic + sub_block_idx"
	                            : "AIC: block_idx; AIV: block_num + block_idx * aiv_per_aic + sub_block_idx";
	if (sp->lay.task_rows) { /* several tasks: each writes its own rows */
		if (sp->lay.tasks >= 0)
			pk_sb_addf(sb, "  \"tasks\": %ld,\n", sp->lay.tasks);
		else
			pk_sb_add(sb, "  \"tasks\": null,\n");
		/* a task's first row: the rows of the run's tasks before it */
		if (lanes)
			pk_sb_addf(sb, "  \"slot_rule\": \"slot = task_first_row + (%s)\",\n", lane_rule);
		else
			pk_sb_add(sb, "  \"slot_rule\": \"slot = task_first_row + block_idx\",\n");
		if (k->style == TT_EXTERN)
			pk_sb_addf(sb, "  \"task_arg\": %d,\n", sp->lay.task_index);
	} else if (lanes) {
		pk_sb_addf(sb, "  \"slot_rule\": \"slot = %s\",\n", lane_rule);
	}
}

char *tt_sidecar_json(const struct tt_kernel *k, const struct tt_spec *sp, const char *const *files, size_t nfiles,
                      size_t *len)
{
	struct pk_sb sb = {0};
	static const char *cores[] = {"aiv", "aic", "mix"};
	unsigned long long magic = strtoull(tt_prof(sp, "code", "magic"), NULL, 0);
	pk_sb_addf(&sb, "{\n  \"kernel\": \"%s\",\n  \"style\": \"%s\",\n  \"core_type\": \"%s\",\n", k->name,
	           k->style == TT_EXTERN ? "extern" : "direct", cores[k->core]);
	if (sp->opt.slots && strspn(sp->opt.slots, "0123456789") == strlen(sp->opt.slots))
		pk_sb_addf(&sb, "  \"slots\": %s,\n", sp->opt.slots);
	else
		pk_sb_add(&sb, "  \"slots\": null,\n");
	if (sp->lay.slots_bound)
		pk_sb_add(&sb, "  \"slots_bound\": true,\n");
	pk_sb_addf(&sb, "  \"row_words\": %d,\n  \"magic\": %llu,\n  \"magic_column\": %d,\n", sp->lay.row_words, magic,
	           sp->lay.row_words - 1);
	if (sp->opt.generation)
		pk_sb_add(&sb,
		          "  \"generation\": true,\n  \"magic_rule\": \"row[magic_column] == magic + ((generation & "
		          "0xFFFF) << 16) + (slot & 0xFFFF)\",\n");
	else
		pk_sb_add(&sb, "  \"magic_rule\": \"row[magic_column] == magic + slot\",\n");
	if (k->style == TT_EXTERN)
		pk_sb_addf(&sb, "  \"timing_arg\": %d,\n", sp->lay.timing_index);
	if (k->style == TT_EXTERN && sp->opt.generation)
		pk_sb_addf(&sb, "  \"generation_arg\": %d,\n", sp->lay.generation_index);
	if (sp->opt.invocation) {
		int num = strspn(sp->opt.invocations, "0123456789") == strlen(sp->opt.invocations);
		pk_sb_addf(&sb, "  \"invocations\": %s,\n  \"row_rule\": \"row = invocation * slots + slot\",\n",
		           num ? sp->opt.invocations : "null");
		if (k->style == TT_EXTERN)
			pk_sb_addf(&sb, "  \"row0_arg\": %d,\n", sp->lay.row0_index);
	}
	sidecar_rows(&sb, k, sp);
	if (nfiles) { /* the other files the run changed, for probe-strip */
		pk_sb_add(&sb, "  \"files\": [");
		for (size_t i = 0; i < nfiles; i++) {
			pk_sb_add(&sb, i ? ", " : "");
			json_quoted(&sb, files[i]);
		}
		pk_sb_add(&sb, "],\n");
	}
	pk_sb_add(&sb, "  \"events\": [\n");
	json_event(&sb, "entry", 0, tt_prof(sp, "kinds", "entry"), "entry", k->name, sp->opt.kernel_file);
	for (size_t i = 0; i < sp->opt.nev; i++) {
		const struct tt_event *e = &sp->opt.ev[i];
		pk_sb_add(&sb, ",\n");
		json_event(&sb, e->name, e->column, e->kind, e->spec, e->func ? e->func : k->name,
		           e->file ? e->file : sp->opt.kernel_file);
	}
	pk_sb_add(&sb, ",\n");
	json_event(&sb, "body_done", sp->lay.columns - 1, tt_prof(sp, "kinds", "body_done"), "exit", k->name,
	           sp->opt.kernel_file);
	pk_sb_add(&sb, "\n  ]\n}\n");
	*len = sb.n;
	return sb.s;
}
