/* tt_gen.c - the kernel's timing edits: helpers above the
 * kernel, the entry sample as the first statement, event samples kept in
 * locals, the tail (body_done, one row per slot, writeback) before every exit,
 * the timing tensor in the ABI and every shifted scalar index. Code text
 * comes from rules/timing.ini; every byte added carries a timing mark. */
#include "tt.h"
#include "pk.h"
#include "timing_strip.h"

#include <jansson.h>
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

/* ---- the row's identity ---- */

/* The identity's words as the event map and rules/timing.ini name them. */
static const char *const id_names[] = {"task", "core", "block", "lane"};

/* The profile's formula of identity word I for a kernel on core C (the lane
 * has one per core type), or NULL: the kernel does not write it. */
static const char *id_formula(const struct tt_spec *sp, int i, enum tt_core c)
{
	char key[32];
	if (i == TT_ID_LANE)
		snprintf(key, sizeof(key), "identity_lane_%s", c == TT_AIC ? "aic" : "aiv");
	else
		snprintf(key, sizeof(key), "identity_%s", id_names[i]);
	return sp->slot_in_body ? tt_prof(sp, "slot", key) : NULL;
}

/* The identity's columns, after the timestamps: those the profile can read
 * in the body (a mixed kernel's lane needs both core types' formulas and
 * the macro telling its builds apart, on whose lines it goes). The
 * row grows by a line only when they do not fit beside the stamps. */
static void identity_layout(const struct tt_kernel *k, struct tt_spec *sp)
{
	struct tt_layout *l = &sp->lay;
	l->nidentity = 0;
	for (int i = 0; i < 4; i++) {
		int have = k->core != TT_MIX ? id_formula(sp, i, k->core) != NULL
		           : i != TT_ID_LANE ? id_formula(sp, i, TT_AIV) != NULL
		                             : id_formula(sp, i, TT_AIC) && id_formula(sp, i, TT_AIV) &&
		                                   tt_prof(sp, "slot", "mix_is_aic_macro");
		l->identity[i] = have ? l->columns + l->nidentity++ : -1;
	}
	l->row_words = 8 * ((l->columns + l->nidentity + 1 + 7) / 8);
}

/* `const uint64_t PREFIXid_NAME = FORMULA;` of identity word I for core C. */
static char *id_stmt(const struct tt_kernel *k, const struct tt_spec *sp, int i, enum tt_core c)
{
	char *e = slot_expand(sp, id_formula(sp, i, c), k->args_name ? k->args_name : "args");
	char *name = pk_xasprintf("%s" PK_NAME_TIMING_IDENTITY "%s", sp->lay.prefix, id_names[i]);
	char *x = kcode(sp, "identity", "name", name, "expr", e, NULL, NULL);
	free(name);
	free(e);
	return x;
}

/* The identity's statements, one a line: every word but a mixed kernel's
 * lane, which goes with its slot (the AIC and AIV builds differ). With
 * BY_MACRO the lane of a kernel on one core type is chosen like a mixed
 * kernel's, on marked #if lines testing the profile's core-type macro: the
 * runtime compiles every kernel with it, so the lane is right even where
 * the source does not say its core type (an AIC kernel with no marks). */
static char *id_stmts(const struct tt_kernel *k, const struct tt_spec *sp, int by_macro)
{
	struct pk_sb sb = {0};
	pk_sb_add(&sb, "");
	const char *mac = tt_prof(sp, "slot", "mix_is_aic_macro");
	for (int i = 0; i < 4; i++) {
		if (sp->lay.identity[i] < 0 || (i == TT_ID_LANE && k->core == TT_MIX))
			continue;
		if (i == TT_ID_LANE && by_macro && mac && id_formula(sp, i, TT_AIC) && id_formula(sp, i, TT_AIV)) {
			char *c = id_stmt(k, sp, i, TT_AIC), *v = id_stmt(k, sp, i, TT_AIV);
			pk_sb_addf(&sb, "%s#if %s\n%s\n#else\n%s\n#endif", sb.n ? "\n" : "", mac, c, v);
			free(c);
			free(v);
			continue;
		}
		char *x = id_stmt(k, sp, i, k->core == TT_AIC ? TT_AIC : TT_AIV);
		pk_sb_addf(&sb, "%s%s", sb.n ? "\n" : "", x);
		free(x);
	}
	return sb.s;
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
	for (int i = 0; i < 4; i++)
		if (sp->lay.identity[i] >= 0) {
			char *n = pk_xasprintf(PK_NAME_TIMING_IDENTITY "%s", id_names[i]);
			tail_param(&params, sp, n);
			free(n);
		}
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
	const char *rn[] = {"row_words", "slots"}, *rv[] = {rw, sp->opt.slots ? sp->opt.slots : "1"};
	/* this invocation's rows start at row0 = invocation * slots; in a room
	 * the slot is the run row, written at run_row % slots */
	const char *row_key = sp->opt.invocation ? (sp->lay.wrap ? "tail_row_invocation_wrap" : "tail_row_invocation")
	                                         : (sp->lay.wrap ? "tail_row_wrap" : "tail_row");
	kline(&sb, sp, row_key, rn, rv, 2);
	const char *in[] = {"i", "magic"};
	for (int i = 0; i < sp->lay.columns; i++) {
		snprintf(iw, sizeof(iw), "%d", i);
		const char *iv[] = {iw};
		kline(&sb, sp, "tail_value", in, iv, 1);
	}
	for (int i = 0; i < 4; i++) /* the row's identity, after the stamps */
		if (sp->lay.identity[i] >= 0) {
			char *n = pk_xasprintf(PK_NAME_TIMING_IDENTITY "%s", id_names[i]);
			snprintf(iw, sizeof(iw), "%d", sp->lay.identity[i]);
			const char *idn[] = {"i", "name"}, *idv[] = {iw, n};
			kline(&sb, sp, "tail_identity", idn, idv, 2);
			free(n);
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
	for (int i = 0; i < 4; i++)
		if (sp->lay.identity[i] >= 0)
			pk_sb_addf(&v, "%s" PK_NAME_TIMING_IDENTITY "%s, ", P, id_names[i]);
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
	/* in a room the slot is the run row itself: the tail wraps it */
	x = tt_expand(tt_prof(sp, "slot", sp->lay.wrap ? "task_slot_wrap" : "task_slot"), names, vals, 3);
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
	int lane = sp->lay.identity[TT_ID_LANE] >= 0; /* each build's lane goes with its slot */
	char *lc = lane ? id_stmt(k, sp, TT_ID_LANE, TT_AIC) : NULL,
	     *lv = lane ? id_stmt(k, sp, TT_ID_LANE, TT_AIV) : NULL;
	if (mac) { /* the builds told apart by the preprocessor: marked #if lines */
		char *sc = kcode(sp, "slot", "expr", c, NULL, NULL, NULL, NULL);
		char *sv = kcode(sp, "slot", "expr", v, NULL, NULL, NULL, NULL);
		s = pk_xasprintf("#if %s\n%s%s%s\n#else\n%s%s%s\n#endif", mac, sc, lane ? "\n" : "", lane ? lc : "", sv,
		                 lane ? "\n" : "", lane ? lv : "");
		free(sc);
		free(sv);
	} else {
		char *is = prof_expr(sp, k, "slot", "mix_is_aic_expr");
		s = kcode(sp, "slot_mix", "is_aic", is, "aic", c, "aiv", v);
		free(is);
	}
	free(lc);
	free(lv);
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
		size_t ls; /* #if lines need the first statement at the start of its line */
		char *is = id_stmts(k, sp, starts_line(t->b, k->first_stmt, &ls));
		if (*is)
			tt_insert_before(t->b, plan, k->first_stmt, is, "identity");
		free(is);
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

/* Does NAME hold one of the words of LIST (blank-separated)? */
static int names_one_of(const char *name, const char *list)
{
	for (const char *p = list; *p;) {
		p += strspn(p, " \t");
		size_t n = strcspn(p, " \t");
		if (n && memmem(name, strlen(name), p, n))
			return 1;
		p += n;
	}
	return 0;
}

long tt_direct_at(const struct tt_kernel *k, const struct tt_words *w)
{
	long at = k->ntensors; /* Ascend C ops pass workspace and tiling last: the tensor goes before them */
	while (at > 1 && names_one_of(k->params[at - 1].name, w->trailing))
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
		long at = tt_direct_at(k, &sp->rules->w);
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
	identity_layout(k, sp);
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
	char *h = helpers(k, sp), *ss = sp->slot_in_body ? slot_stmt(k, sp) : NULL, *is = id_stmts(k, sp, 0);
	struct pk_sb all = {0};
	pk_sb_addf(&all, "%s\n%s\n%s", h, ss ? ss : "", is);
	free(is);
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

static json_t *json_event(const char *name, int column, const char *kind, const char *at, const char *func,
                          const char *file)
{
	json_t *e = json_object();
	json_object_set_new(e, "name", json_string(name));
	json_object_set_new(e, "column", json_integer(column));
	json_object_set_new(e, "kind", json_string(kind));
	if (at)
		json_object_set_new(e, "at", json_string(at));
	if (func)
		json_object_set_new(e, "function", json_string(func));
	if (file)
		json_object_set_new(e, "file", json_string(file));
	return e;
}

/* "slot = RULE": the profile's slot rule in words ([target] *_words of
 * rules/timing.ini, beside the formulas they describe), inside its task
 * slot with several tasks; NULL when the profile has no words for it. */
static char *slot_words(const struct tt_spec *sp, int lanes)
{
	const char *lane = tt_prof(sp, "slot",
	                           !lanes             ? "slot_words"
	                           : sp->lay.aic_idle ? "mix_aiv_only_words"
	                                              : "mix_words");
	const char *task = tt_prof(sp, "slot", sp->lay.wrap ? "task_slot_wrap_words" : "task_slot_words");
	const char *wrap = tt_prof(sp, "slot", "wrap_words");
	if (!lane || (sp->lay.task_rows && !task) || (sp->lay.wrap && !wrap))
		return NULL;
	char *in = lanes && sp->lay.task_rows ? pk_xasprintf("(%s)", lane) : pk_xstrdup(lane);
	char *rule = sp->lay.task_rows ? tt_expand(task, (const char *[]){"slot"}, (const char *[]){in}, 1) : NULL;
	char *x;
	if (sp->lay.wrap) /* in a room: the run row, and the row it is written at */
		x = tt_expand(wrap, (const char *[]){"slot"}, (const char *[]){rule ? rule : in}, 1);
	else
		x = pk_xasprintf("slot = %s", rule ? rule : in);
	free(rule);
	free(in);
	return x;
}

/* The map's row layout: a mixed kernel's lanes, several tasks' rows. */
static void sidecar_rows(json_t *m, const struct tt_kernel *k, const struct tt_spec *sp)
{
	/* AIC and AIV lanes in rows of their own: the lane of each row */
	const char *ratio = tt_prof(sp, "slot", "aiv_per_aic");
	int lanes = sp->slot_in_body && k->core == TT_MIX && ratio;
	if (lanes) {
		json_object_set_new(m, "aiv_per_aic", json_integer(strtol(ratio, NULL, 10)));
		json_object_set_new(m, "aic_rows",
		                    sp->lay.mix_blocks > 0 ? json_integer(sp->lay.mix_blocks) : json_null());
		if (sp->lay.aic_idle) /* no task runs it on AIC: AIV rows only */
			json_object_set_new(m, "aic_idle", json_true());
	}
	if (sp->lay.task_rows) /* several tasks: each writes its own rows */
		json_object_set_new(m, "tasks", sp->lay.tasks >= 0 ? json_integer(sp->lay.tasks) : json_null());
	char *rule = sp->lay.task_rows || lanes || sp->lay.wrap ? slot_words(sp, lanes) : NULL;
	if (rule)
		json_object_set_new(m, "slot_rule", json_string(rule));
	free(rule);
	if (sp->lay.task_rows && k->style == TT_EXTERN)
		json_object_set_new(m, "task_arg", json_integer(sp->lay.task_index));
}

char *tt_sidecar_json(const struct tt_kernel *k, const struct tt_spec *sp, const char *const *files, size_t nfiles,
                      size_t *len)
{
	static const char *cores[] = {"aiv", "aic", "mix"};
	unsigned long long magic = strtoull(tt_prof(sp, "code", "magic"), NULL, 0);
	json_t *m = json_object();
	json_object_set_new(m, "kernel", json_string(k->name));
	json_object_set_new(m, "style", json_string(k->style == TT_EXTERN ? "extern" : "direct"));
	json_object_set_new(m, "core_type", json_string(cores[k->core]));
	int num = sp->opt.slots && *sp->opt.slots && strspn(sp->opt.slots, "0123456789") == strlen(sp->opt.slots);
	json_object_set_new(m, "slots", num ? json_integer(strtoll(sp->opt.slots, NULL, 10)) : json_null());
	if (sp->lay.slots_bound)
		json_object_set_new(m, "slots_bound", json_true());
	if (sp->lay.conditional) /* a branch or a predicate chooses whether some tasks run */
		json_object_set_new(m, "conditional", json_true());
	if (sp->lay.wrap) /* the marker keeps the run row, written at run_row % slots */
		json_object_set_new(m, "row_wrap", json_true());
	json_object_set_new(m, "row_words", json_integer(sp->lay.row_words));
	json_object_set_new(m, "magic", json_integer((json_int_t)magic));
	json_object_set_new(m, "magic_column", json_integer(sp->lay.row_words - 1));
	if (sp->opt.generation)
		json_object_set_new(m, "generation", json_true());
	static const char *const rules[2][2] = {
	    {"row[magic_column] == magic + slot",
	     "row[magic_column] == magic + ((generation & 0xFFFF) << 16) + (slot & 0xFFFF)"},
	    {"row[magic_column] == magic + run_row, written at row run_row % slots",
	     "row[magic_column] == magic + ((generation & 0xFFFF) << 16) + (run_row & 0xFFFF), written at row run_row "
	     "% "
	     "slots"}};
	json_object_set_new(m, "magic_rule", json_string(rules[sp->lay.wrap != 0][sp->opt.generation != NULL]));
	if (k->style == TT_EXTERN)
		json_object_set_new(m, "timing_arg", json_integer(sp->lay.timing_index));
	if (k->style == TT_EXTERN && sp->opt.generation)
		json_object_set_new(m, "generation_arg", json_integer(sp->lay.generation_index));
	if (sp->opt.invocation) {
		const char *inv = sp->opt.invocations;
		int n = *inv && strspn(inv, "0123456789") == strlen(inv);
		json_object_set_new(m, "invocations", n ? json_integer(strtoll(inv, NULL, 10)) : json_null());
		json_object_set_new(m, "row_rule", json_string("row = invocation * slots + slot"));
		if (k->style == TT_EXTERN)
			json_object_set_new(m, "row0_arg", json_integer(sp->lay.row0_index));
	}
	sidecar_rows(m, k, sp);
	if (sp->lay.nidentity) { /* which task, core, block and lane wrote the row */
		json_t *id = json_object();
		for (int i = 0; i < 4; i++)
			if (sp->lay.identity[i] >= 0)
				json_object_set_new(id, id_names[i], json_integer(sp->lay.identity[i]));
		json_object_set_new(m, "identity", id);
	}
	if (nfiles) { /* the other files the run changed, for probe-strip */
		json_t *f = json_array();
		for (size_t i = 0; i < nfiles; i++)
			json_array_append_new(f, json_string(files[i]));
		json_object_set_new(m, "files", f);
	}
	json_t *ev = json_array();
	json_array_append_new(
	    ev, json_event("entry", 0, tt_prof(sp, "kinds", "entry"), "entry", k->name, sp->opt.kernel_file));
	for (size_t i = 0; i < sp->opt.nev; i++) {
		const struct tt_event *e = &sp->opt.ev[i];
		json_array_append_new(ev, json_event(e->name, e->column, e->kind, e->spec, e->func ? e->func : k->name,
		                                     e->file ? e->file : sp->opt.kernel_file));
	}
	json_array_append_new(ev, json_event("body_done", sp->lay.columns - 1, tt_prof(sp, "kinds", "body_done"),
	                                     "exit", k->name, sp->opt.kernel_file));
	json_object_set_new(m, "events", ev);
	char *text = json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(m);
	struct pk_sb sb = {0};
	pk_sb_addf(&sb, "%s\n", text ? text : "{}");
	free(text);
	*len = sb.n;
	return sb.s;
}
