/* tt_main.c - `probe-inject --timing-tensor`: pk_tt_inject, called from the
 * core with the parsed options (inject.h). Reads the kernel
 * (and the host file), plans every edit of both, checks both plans, then
 * writes: nothing is written when any step fails. */
#include "tt.h"
#include "emit.h"
#include "inject.h"
#include "pk.h"
#include "timing_strip.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The options of this form, as the planning below reads them: the parsed
 * command line (inject.h) with the events as the planner's own records. */
struct tt_opts {
	const char *kernel, *kernel_name, *host, *host_out, *slots, *events_out, *core, *build_dir, *generation,
	    *invocation, *invocations, *target, *test_script, *api;
	long func_id;
	const long *func_twins;
	size_t nfunc_twins;
	struct pk_emit_opts emit;
	struct tt_event *ev;
	size_t nev;
	const char **edit;
	size_t nedit;
	char **extra;
	int nextra;
};

static void take_opts(struct tt_opts *t, const struct pk_inject_opts *o)
{
	*t = (struct tt_opts){
	    .kernel = o->files[0],
	    .kernel_name = o->kernel_name,
	    .host = o->host,
	    .host_out = o->host_out,
	    .slots = o->slots,
	    .events_out = o->events_out,
	    .core = o->core_type,
	    .build_dir = o->build_dir,
	    .generation = o->generation,
	    .invocation = o->invocation,
	    .invocations = o->invocations,
	    .target = o->target,
	    .api = o->api,
	    .test_script = o->test_script,
	    .func_id = o->func_id,
	    .func_twins = o->func_twins,
	    .nfunc_twins = o->nfunc_twins,
	    .emit = o->emit,
	    .edit = o->edit,
	    .nedit = o->nedit,
	    .extra = o->extra,
	    .nextra = o->nextra,
	};
	t->ev = pk_xcalloc(o->nevents + 1, sizeof(*t->ev));
	for (size_t i = 0; i < o->nevents; i++) {
		const struct pk_inject_event *e = &o->events[i];
		t->ev[i] = (struct tt_event){.name = pk_xstrdup(e->name), .spec = pk_xstrdup(e->place), .helper = -1};
		t->ev[i].kind = e->kind ? pk_xstrdup(e->kind) : NULL;
		t->ev[i].func = e->func ? pk_xstrdup(e->func) : NULL;
	}
	t->nev = o->nevents;
}

static int resolve_events(struct tt_opts *o, const struct tt_rules *r, struct tt_spec *sp, const char *kernel_name)
{
	for (size_t i = 0; i < o->nev; i++) {
		struct tt_event *e = &o->ev[i];
		if (!strcmp(e->name, "entry") || !strcmp(e->name, "body_done"))
			return pk_error("--event '%s': the name is taken by the sample the tool always adds", e->name);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(o->ev[j].name, e->name))
				return pk_error("--event '%s' given twice", e->name);
		if (!e->kind) {
			const char *k = tt_rule(r, "kinds", e->name);
			if (!k)
				return pk_error("--event '%s': say which kind of event it is (NAME:KIND=PLACE, "
				                "KIND issue|drain|phase|arrival|release); rules/timing.ini "
				                "[kinds] has no default for it",
				                e->name);
			e->kind = pk_xstrdup(k);
		}
		if (pk_event_kind_of(e->kind) < 0)
			return pk_error("--event '%s': unknown kind '%s' (issue, drain, phase, arrival, release)",
			                e->name, e->kind);
		e->column = (int)i + 1;
	}
	size_t nh = 0;
	for (size_t i = 0; i < o->nev; i++)
		if (o->ev[i].func && strcmp(o->ev[i].func, kernel_name))
			o->ev[i].helper = (int)nh++;
	sp->nhelper = nh;
	sp->ev = o->ev;
	sp->nev = o->nev;
	sp->columns = (int)o->nev + 2;
	/* the magic word takes the row's last slot; more values take more lines */
	sp->row_words = 8 * ((sp->columns + 1 + 7) / 8);
	return 0;
}

/* A prefix no identifier of the files starts with, so names never clash. */
static const char *pick_prefix(const struct pk_ast *k, const struct pk_ast *h, const struct tt_spec *sp, char *buf,
                               size_t cap)
{
	const char *base = tt_rule(sp->rules, "names", "prefix");
	if (!base) {
		pk_error("rules/timing.ini: no 'prefix' in [names]: the generated names have no prefix");
		return NULL;
	}
	for (int i = 0; i < 100; i++) {
		if (i == 0)
			snprintf(buf, cap, "%s_", base);
		else
			snprintf(buf, cap, "%s%d_", base, i);
		int used = pk_tok_prefix_used(k, buf) || (h && pk_tok_prefix_used(h, buf));
		for (size_t x = 0; x < sp->nextra && !used; x++)
			used = pk_tok_prefix_used(&sp->extra[x].view, buf);
		if (!used)
			return buf;
	}
	return NULL;
}

struct job {
	struct tt_opts o;
	struct tt_rules rules;
	struct pk_ast_rules async;
	struct pk_buf kb, hb;
	int have_kb, have_hb;
	struct pk_ast kt, ht;
	struct tt_kernel k;
	struct pk_plan kp, hp;
	struct tt_spec sp;
	char prefix[32];
	char **extra_out; /* where each --edit file's result goes with -o */
	char target[64];
	char *host_path, *extern_name; /* --host FILE[:EXTERN] */
	int host_py, host_orch, host_self;
	struct pk_buf pyb[8]; /* --edit FILE.py: callers of the pypto extern */
	struct pk_plan pyp[8];
	int have_pyb[8];
	struct tt_pycaller pyc[8];
	struct pk_buf tb; /* the test script */
	int have_tb;
	struct pk_plan tp;
	long func_id, external;
	struct tt_sides sides; /* headers holding packed reads */
	struct pk_api api;     /* the kernel kind's spellings (rules/api.ini) */
	char slots_buf[32];    /* the rows counted from the orchestration */
};

static int load_file(struct pk_buf *b, int *have, const char *path, const struct tt_opts *o, int host);

/* The --edit files: read, unmarked, part of the kernel's translation unit. */
static int load_extras(struct job *j)
{
	struct tt_opts *o = &j->o;
	j->sp.extra = pk_xcalloc(o->nedit + 1, sizeof(*j->sp.extra));
	j->extra_out = pk_xcalloc(o->nedit + 1, sizeof(char *));
	j->sp.nextra = 0;
	j->sp.pycallers = j->pyc;
	for (size_t e = 0; e < o->nedit; e++) {
		size_t pl = strlen(o->edit[e]);
		if (j->host_py && pl > 3 && !strcmp(o->edit[e] + pl - 3, ".py")) { /* a caller of the extern */
			size_t n = j->sp.npycallers;
			if (n == 8)
				return pk_error("--edit %s: at most 8 Python caller files", o->edit[e]);
			pk_plan_init(&j->pyp[n]);
			if (load_file(&j->pyb[n], &j->have_pyb[n], o->edit[e], o, 1) < 0)
				return -1;
			j->pyc[n].b = &j->pyb[n];
			j->pyc[n].plan = &j->pyp[n];
			j->sp.npycallers++;
			continue;
		}
		size_t i = j->sp.nextra++;
		struct tt_extra *x = &j->sp.extra[i];
		x->path = o->edit[e];
		pk_plan_init(&x->plan);
		if (load_file(&x->b, &x->have_b, x->path, o, 0) < 0)
			return -1;
		CXFile f = clang_getFile(j->kt.tu, x->path);
		if (!f)
			return pk_error(
			    "--edit %s: the file is not part of the kernel's translation unit (not included "
			    "by %s)",
			    x->path, o->kernel);
		if (pk_cx_same_file(f, j->kt.file))
			return pk_error("--edit %s: that is the kernel file itself", x->path);
		for (size_t k = 0; k < i; k++)
			if (pk_cx_same_file(f, j->sp.extra[k].view.file))
				return pk_error("--edit %s given twice", x->path);
		pk_ast_view(&x->view, &j->kt, f, &x->b);
		x->have_view = 1;
		if (o->emit.mode == PK_EMIT_OUTFILE) {
			/* next to -o, under the file's own name */
			const char *out = o->emit.out_path, *slash = strrchr(out, '/');
			const char *base = strrchr(x->path, '/');
			base = base ? base + 1 : x->path;
			struct pk_sb sb = {0};
			if (slash)
				pk_sb_addn(&sb, out, (size_t)(slash - out + 1));
			pk_sb_add(&sb, base);
			j->extra_out[i] = sb.s;
			struct stat a, b;
			if (!strcmp(sb.s, out))
				return pk_error("--edit %s: its result would overwrite -o %s", x->path, out);
			if (stat(sb.s, &a) == 0 && stat(x->path, &b) == 0 && a.st_dev == b.st_dev &&
			    a.st_ino == b.st_ino)
				return pk_error("--edit %s: its result goes next to -o %s, which is the file itself; "
				                "write -o into another directory",
				                x->path, out);
		}
	}
	return 0;
}

static int load_file(struct pk_buf *b, int *have, const char *path, const struct tt_opts *o, int host)
{
	int in_place = o->emit.mode == PK_EMIT_INPLACE && !(host && o->host_out);
	if (pk_buf_load(b, path, in_place ? PK_LOAD_FOR_WRITE : 0) < 0) {
		pk_buf_free(b); /* what was read before the failure */
		return -1;
	}
	*have = 1;
	if (pk_timing_marked(b))
		return pk_error("%s: already has a timing tensor (TIMING_PROBE: @timing marks); remove it "
		                "first with probe-strip --timing-tensor",
		                path);
	return 0;
}

/* The profile: --target, else the first [target.X] whose detect names a
 * header the kernel includes, else the defaults ([code], [slot]). */
static int pick_target(struct job *j)
{
	if (j->o.target) {
		snprintf(j->target, sizeof(j->target), "target.%s", j->o.target);
		if (!tt_rule(&j->rules, j->target, "detect"))
			return pk_error("--target '%s': rules/timing.ini has no [%s] section", j->o.target, j->target);
		j->sp.target = j->target;
	} else {
		j->sp.target = tt_detect_target(&j->rules, &j->kb, j->target, sizeof(j->target));
	}
	static const char *need[][2] = {{"code", "qualifiers"}, {"code", "magic"},   {"code", "tensor_type"},
	                                {"slot", "aiv"},        {"slot", "aic"},     {"slot", "mix_is_aic"},
	                                {"slot", "mix_aic"},    {"slot", "mix_aiv"}, {"kinds", "entry"},
	                                {"kinds", "body_done"}};
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!tt_prof(&j->sp, need[i][0], need[i][1]))
			return pk_error("rules/timing.ini: [%s] needs %s", need[i][0], need[i][1]);
	/* the probe API: --api, else the profile's (the default profile is Ascend C's) */
	const char *kind = j->o.api ? j->o.api : tt_prof(&j->sp, "code", "api");
	if (!kind)
		return pk_error("rules/timing.ini: [code] needs api (a kind of rules/api.ini)");
	if (pk_api_load(kind, &j->api) < 0)
		return -1;
	j->sp.api = &j->api;
	const char *sib = tt_prof(&j->sp, "code", "slot_in_body");
	j->sp.slot_in_body = sib && !strcmp(sib, "yes");
	return 0;
}

/* The host: a pypto extern (.py[:NAME]), a simpler orchestration, or the
 * seed's forms (add_* sequence, packed array). The host's tensor count,
 * where it says one, decides the kernel's split. */
static int load_host(struct job *j)
{
	struct tt_opts *o = &j->o;
	j->func_id = o->func_id;
	memcpy(j->sp.twins, o->func_twins, o->nfunc_twins * sizeof(long));
	j->sp.ntwins = o->nfunc_twins;
	j->k.host_tensors = -1;
	if (!o->host)
		return 0;
	const char *colon = strstr(o->host, ".py:");
	j->host_path = colon ? pk_xstrndup(o->host, (size_t)(colon - o->host + 3)) : pk_xstrdup(o->host);
	j->extern_name = colon ? pk_xstrdup(colon + 4) : NULL;
	size_t hl = strlen(j->host_path);
	j->host_py = hl > 3 && !strcmp(j->host_path + hl - 3, ".py");
	struct stat hs, ks;
	if (!j->host_py && !o->host_out && stat(j->host_path, &hs) == 0 && stat(o->kernel, &ks) == 0 &&
	    hs.st_dev == ks.st_dev && hs.st_ino == ks.st_ino) {
		j->host_self = 1; /* one source holds kernel and launch (an .asc file): one plan */
		return 0;
	}
	if (load_file(&j->hb, &j->have_hb, j->host_path, o, 1) < 0)
		return -1;
	if (j->host_py) {
		j->k.host_tensors = tt_py_extern_tensors(&j->hb, j->extern_name);
		return j->k.host_tensors < 0 ? -1 : 0;
	}
	if (tt_parse(&j->ht, &j->hb, 0, NULL, o->extra, o->nextra) < 0 || tt_check_terminated(&j->ht) < 0)
		return -1;
	j->host_orch = tt_orch_is(&j->ht);
	if (o->test_script && !j->host_orch)
		return pk_error("--test-script goes with a simpler orchestration (rt_submit_*_task) as --host");
	if (!j->host_orch)
		return 0;
	if (o->test_script) {
		if (load_file(&j->tb, &j->have_tb, o->test_script, o, 0) < 0)
			return -1;
		j->func_id = tt_py_test_func_id(&j->tb, o->kernel, j->func_id, j->sp.twins, 8, &j->sp.ntwins);
		if (j->func_id < -1) /* a script the tool cannot read: refused */
			return -1;
	}
	j->k.host_tensors = tt_orch_tensors(&j->ht, &j->rules, j->func_id);
	return j->k.host_tensors < 0 ? -1 : 0;
}

/* Several task instances submit the kernel (several submits, or a submit
 * in a loop): each passes its task index and owns rows task * block count +
 * block index. The rows of one run: counted from the orchestration when the
 * loops and block counts are constants, else --slots (required then). */
static int plan_tasks(struct job *j)
{
	struct tt_tasks ts;
	if (!j->host_orch || !j->sp.slot_in_body || tt_orch_tasks(&j->ht, &j->sp, j->func_id, &ts) < 0)
		return 0; /* no orchestration read, or its errors come from planning it */
	if ((ts.sites < 2 && !ts.in_loop) || ts.tasks == 0 || ts.tasks == 1)
		return 0;    /* one task instance at most: its rows are its own */
	if (ts.via_helper) { /* the run's task counter is not in the helper's scope */
		pk_warning(
		    "%s: kernel %ld is submitted through a helper function by several tasks: they write the same "
		    "rows (the block index); measure one task at a time, or submit it from the orchestration entry",
		    j->host_path, ts.id);
		return 0;
	}
	static const char *const need[][2] = {{"slot", "task_slot"},
	                                      {"slot", "block_num"},
	                                      {"host", "simpler_task_counter"},
	                                      {"host", "simpler_task_value"}};
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!tt_prof(&j->sp, need[i][0], need[i][1]))
			return pk_error("rules/timing.ini: no '%s' in [%s] (or the %s profile): the task index of "
			                "several tasks submitting the kernel cannot be written",
			                need[i][1], need[i][0], j->sp.target ? j->sp.target : "default");
	const char *orch = j->host_path, *slots = j->o.slots;
	j->sp.task_rows = 1;
	j->sp.tasks = ts.tasks;
	long rows = ts.tasks >= 0 && ts.blocks > 0 ? ts.tasks * ts.blocks : -1;
	char why[96];
	if (ts.loop_line)
		snprintf(why, sizeof(why), "a loop at line %u runs a count the tool cannot read", ts.loop_line);
	else
		snprintf(why, sizeof(why), "their block counts are not one constant");
	if (rows < 0 && !slots)
		return pk_error("%s: kernel %ld is submitted by more tasks than the tool can count (%s): each writes "
		                "its own rows (task index * block count + block index); pass --slots ROWS, one row "
		                "per task and block of one run",
		                orch, ts.id, why);
	if (rows >= 0 && slots && strspn(slots, "0123456789") == strlen(slots) && strtol(slots, NULL, 10) < rows)
		return pk_error("%s: --slots %s, but %ld tasks of %ld block%s submit kernel %ld (line%s %s): the "
		                "tensor needs %ld rows; pass --slots %ld or leave it out",
		                orch, slots, ts.tasks, ts.blocks, ts.blocks == 1 ? "" : "s", ts.id,
		                strchr(ts.lines, ',') ? "s" : "", ts.lines, rows, rows);
	if (rows >= 0 && !slots) {
		snprintf(j->slots_buf, sizeof(j->slots_buf), "%ld", rows);
		j->o.slots = j->slots_buf;
	}
	if (rows >= 0)
		pk_warning("%s: %ld tasks submit kernel %ld (line%s %s): each passes its task index and writes its own "
		           "row (task * block count + block index); the timing tensor has %s rows",
		           orch, ts.tasks, ts.id, strchr(ts.lines, ',') ? "s" : "", ts.lines, j->o.slots);
	else
		pk_warning("%s: many tasks submit kernel %ld (%s): each passes its task index and writes its own row "
		           "(task * block count + block index); --slots %s must cover every task and block of one run",
		           orch, ts.id, why, j->o.slots);
	return 0;
}

/* Packed reads outside the kernel's body: its file's helpers, --edit files
 * and the headers it includes with quotes (when it hands args on). */
static int plan_reads(struct job *j)
{
	if (!j->k.passes_args || j->k.style != TT_EXTERN)
		return 0;
	if (tt_reads_plan(&j->kt, &j->sp, j->k.body_open, j->k.body_close + 1, &j->kp) < 0)
		return -1;
	for (size_t i = 0; i < j->sp.nextra; i++) {
		int n = tt_reads_plan(&j->sp.extra[i].view, &j->sp, 0, 0, &j->sp.extra[i].plan);
		if (n < 0)
			return -1;
		j->sp.extra[i].edited |= n > 0;
	}
	return tt_sides_find(&j->sides, &j->kt, &j->sp, j->o.emit.mode == PK_EMIT_INPLACE);
}

/* The other lane kernels of the kernel's mixed tasks passing scalars, named
 * by the test script: their scalar reads shift with the kernel's. */
static int plan_lanes(struct job *j)
{
	long ids[8];
	long n = tt_orch_lane_ids(&j->ht, &j->sp, j->func_id, ids, 8);
	if (n < 0)
		return -1;
	const char *slash = strrchr(j->tb.path, '/');
	for (long i = 0; i < n; i++) {
		char *src = tt_py_incore_source(&j->tb, ids[i]);
		if (!src)
			continue; /* refused by the planner, naming the lane */
		char *path =
		    slash ? pk_xasprintf("%.*s/%s", (int)(slash - j->tb.path), j->tb.path, src) : pk_xstrdup(src);
		int rc = tt_sides_add_lane(&j->sides, path, &j->sp, j->o.emit.mode == PK_EMIT_INPLACE);
		free(path);
		free(src);
		if (rc < 0)
			return -1;
		j->sp.lanes[j->sp.nlanes++] = ids[i];
	}
	return 0;
}

static int plan_host(struct job *j)
{
	if (!j->o.host)
		return 0;
	if (!j->sp.slots)
		return pk_error("%s: --host needs --slots EXPR, the number of core slots of the real launch",
		                j->host_path);
	if (j->host_py)
		return tt_py_plan_extern(&j->hb, j->extern_name, &j->sp, &j->hp);
	if (j->host_self)
		return tt_gen_host(&j->kt, &j->k, &j->sp, &j->kp);
	if (!j->host_orch)
		return tt_gen_host(&j->ht, &j->k, &j->sp, &j->hp);
	if (j->have_tb && plan_lanes(j) < 0)
		return -1;
	if (tt_orch_plan(&j->ht, &j->k, &j->sp, j->func_id, &j->external, &j->hp) < 0)
		return -1;
	if (j->have_tb && tt_py_plan_test(&j->tb, &j->k, &j->sp, j->func_id, j->external, &j->tp) < 0)
		return -1;
	return 0;
}

static int check_plans(struct job *j)
{
	if (pk_plan_check(&j->kp, j->kb.path, j->kb.len) < 0)
		return -1;
	if (j->have_hb && pk_plan_check(&j->hp, j->hb.path, j->hb.len) < 0)
		return -1;
	if (j->have_tb && pk_plan_check(&j->tp, j->tb.path, j->tb.len) < 0)
		return -1;
	for (size_t i = 0; i < j->sp.nextra; i++)
		if (pk_plan_check(&j->sp.extra[i].plan, j->sp.extra[i].b.path, j->sp.extra[i].b.len) < 0)
			return -1;
	for (size_t i = 0; i < j->sp.npycallers; i++)
		if (pk_plan_check(&j->pyp[i], j->pyb[i].path, j->pyb[i].len) < 0)
			return -1;
	for (size_t i = 0; i < j->sides.n; i++)
		if (pk_plan_check(&j->sides.v[i].plan, j->sides.v[i].b.path, j->sides.v[i].b.len) < 0)
			return -1;
	return 0;
}

/* One file, one role: the files the run names, by identity (device and
 * inode, so a link or a hard link is the file it names), before any is
 * loaded or locked. A host that is the kernel file itself (a source holding
 * kernel and launch) is the one pair allowed. */
struct role {
	const char *opt, *path;
	struct stat st;
};

static void add_role(struct role *r, size_t *n, const char *opt, const char *path, size_t len)
{
	char *p = pk_xstrndup(path, len);
	int rc = stat(p, &r[*n].st);
	free(p);
	if (rc == 0) { /* a file that is not there is refused when it is loaded */
		r[*n].opt = opt;
		r[*n].path = path;
		++*n;
	}
}

static int check_roles(const struct tt_opts *o)
{
	struct role *r = pk_xcalloc(o->nedit + 4, sizeof(*r));
	size_t n = 0;
	add_role(r, &n, "the kernel", o->kernel, strlen(o->kernel));
	const char *colon = o->host ? strstr(o->host, ".py:") : NULL;
	if (o->host)
		add_role(r, &n, "--host", o->host, colon ? (size_t)(colon - o->host + 3) : strlen(o->host));
	if (o->test_script)
		add_role(r, &n, "--test-script", o->test_script, strlen(o->test_script));
	for (size_t e = 0; e < o->nedit; e++)
		add_role(r, &n, "--edit", o->edit[e], strlen(o->edit[e]));
	int rc = 0;
	for (size_t a = 0; a < n && !rc; a++)
		for (size_t b = a + 1; b < n && !rc; b++) {
			if (r[a].st.st_dev != r[b].st.st_dev || r[a].st.st_ino != r[b].st.st_ino)
				continue;
			if (a == 0 && !strcmp(r[b].opt, "--host") && !colon)
				continue; /* kernel and launch in one source */
			rc = pk_error("%s %s and %s %s are one file (the same device and inode): a file takes one "
			              "role in a timing-tensor run; name it once, in the role it plays",
			              r[a].opt, r[a].path, r[b].opt, r[b].path);
		}
	free(r);
	return rc;
}

static int plan_all(struct job *j)
{
	struct tt_opts *o = &j->o;
	if (check_roles(o) < 0 || tt_rules_load(&j->rules) < 0 || pk_ast_rules_load(&j->async) < 0 ||
	    load_file(&j->kb, &j->have_kb, o->kernel, o, 0) < 0)
		return -1;
	j->sp.rules = &j->rules;
	j->sp.async_issue = &j->async.issue;
	if (pick_target(j) < 0)
		return -1;
	const char *acc = j->sp.target ? tt_rule(&j->rules, j->sp.target, "tensor_accessors") : NULL;
	int desc = j->sp.target && tt_rule(&j->rules, j->sp.target, "tensor");
	char *pa_buf = NULL, *pa[16];
	int npa = 0;
	const char *pargs = j->sp.target ? tt_rule(&j->rules, j->sp.target, "parse_args") : NULL;
	if (pargs && !o->build_dir && !o->nextra) { /* the profile's qualifiers, split at blanks */
		pa_buf = pk_xstrdup(pargs);
		for (char *save = NULL, *w = strtok_r(pa_buf, " \t", &save); w && npa < 16;
		     w = strtok_r(NULL, " \t", &save))
			pa[npa++] = w;
	}
	int prc = tt_parse(&j->kt, &j->kb, 1, o->build_dir, npa ? pa : o->extra, npa ? npa : o->nextra);
	free(pa_buf);
	if (prc < 0 || tt_check_terminated(&j->kt) < 0 ||
	    tt_kernel_find_prof(&j->kt, o->kernel_name, &j->k, acc, desc) < 0 || load_host(j) < 0 ||
	    tt_kernel_abi(&j->kt, &j->k) < 0)
		return -1;
	if (o->core)
		j->k.core = !strcmp(o->core, "mix") ? TT_MIX : !strcmp(o->core, "aic") ? TT_AIC : TT_AIV;
	if (plan_tasks(j) < 0)
		return -1;
	j->sp.slots = o->slots;
	j->sp.timing_index = (int)j->k.ntensors;
	j->sp.generation = o->generation;
	j->sp.generation_index = (int)(j->k.ntensors + 1 + j->k.nscalars);
	j->sp.invocation = o->invocation;
	j->sp.invocations = o->invocations;
	j->sp.row0_index = j->sp.generation_index + (o->generation ? 1 : 0);
	j->sp.task_index = j->sp.row0_index + (o->invocation ? 1 : 0);
	j->sp.kernel_file = o->kernel;
	if (load_extras(j) < 0)
		return -1;
	j->sp.prefix =
	    pick_prefix(&j->kt, j->have_hb && !j->host_py ? &j->ht : NULL, &j->sp, j->prefix, sizeof(j->prefix));
	if (!j->sp.prefix)
		return pk_error("%s: no free generated-name prefix ([names] prefix of rules/timing.ini, then 1..99)",
		                o->kernel);
	if (resolve_events(o, &j->rules, &j->sp, j->k.name) < 0 || tt_gen_kernel(&j->kt, &j->k, &j->sp, &j->kp) < 0 ||
	    plan_reads(j) < 0 || plan_host(j) < 0)
		return -1;
	return check_plans(j);
}

static int write_sidecar(struct job *j, struct pk_txn *txn)
{
	const struct tt_opts *o = &j->o;
	int to_file = o->emit.mode == PK_EMIT_OUTFILE || (o->emit.mode == PK_EMIT_INPLACE && !j->kb.from_stdin);
	if (!to_file && !o->events_out)
		return 0; /* --stdout, --diff, --check and standard input write no file */
	struct pk_sb path = {0};
	if (o->events_out)
		pk_sb_add(&path, o->events_out);
	else
		pk_sb_addf(&path, "%s.timing.json", o->emit.mode == PK_EMIT_OUTFILE ? o->emit.out_path : o->kernel);
	size_t len;
	char *json = tt_sidecar_json(&j->k, &j->sp, &len);
	int rc = pk_txn_add(txn, path.s, json, len, NULL, NULL, 0);
	free(json);
	pk_sb_free(&path);
	return rc;
}

/* With -o a further file's result goes next to OUT under its own name. */
static char *beside_out(const struct tt_opts *o, const char *path)
{
	const char *out = o->emit.out_path, *slash = strrchr(out, '/');
	const char *base = strrchr(path, '/');
	struct pk_sb sb = {0};
	if (slash)
		pk_sb_addn(&sb, out, (size_t)(slash - out + 1));
	pk_sb_add(&sb, base ? base + 1 : path);
	return sb.s;
}

/* The test script and the headers whose packed reads were renumbered. */
static int emit_more(struct job *j, struct pk_txn *txn, int *any)
{
	int changed = 0, rc = 0;
	struct pk_emit_opts xo = j->o.emit;
	char *out = NULL;
	if (j->have_tb) {
		if (xo.mode == PK_EMIT_OUTFILE)
			xo.out_path = out = beside_out(&j->o, j->tb.path);
		rc = pk_emit_txn(&xo, &j->tb, &j->tp, &changed, txn);
		*any |= changed;
		free(out);
		out = NULL;
	}
	for (size_t i = 0; i < j->sides.n && rc == 0; i++) {
		struct tt_side *x = &j->sides.v[i];
		if (!x->edited)
			continue;
		xo = j->o.emit;
		if (xo.mode == PK_EMIT_OUTFILE)
			xo.out_path = out = beside_out(&j->o, x->b.path);
		rc = pk_emit_txn(&xo, &x->b, &x->plan, &changed, txn);
		*any |= changed;
		free(out);
		out = NULL;
	}
	return rc;
}

/* Kernel, host, edited helper files and event map go together: each is
 * written beside itself first and all are replaced only once every one is,
 * so an error never leaves half an ABI change. */
static int emit_all(struct job *j)
{
	int changed = 0, any = 0;
	struct pk_txn txn = {0};
	struct pk_emit_opts ho = j->o.emit;
	if (j->o.host_out) {
		ho.mode = PK_EMIT_OUTFILE;
		ho.out_path = j->o.host_out;
	}
	if (pk_emit_txn(&j->o.emit, &j->kb, &j->kp, &changed, &txn) < 0)
		goto fail;
	any |= changed;
	if (j->have_hb && pk_emit_txn(&ho, &j->hb, &j->hp, &changed, &txn) < 0)
		goto fail;
	any |= changed;
	if (j->have_tb || j->sides.n) {
		if (emit_more(j, &txn, &any) < 0)
			goto fail;
	}
	for (size_t i = 0; i < j->sp.nextra; i++) {
		struct tt_extra *x = &j->sp.extra[i];
		struct pk_emit_opts xo = j->o.emit;
		if (j->extra_out[i])
			xo.out_path = j->extra_out[i];
		if (pk_emit_txn(&xo, &x->b, &x->plan, &changed, &txn) < 0)
			goto fail;
		any |= changed;
	}
	for (size_t i = 0; i < j->sp.npycallers; i++) {
		struct pk_emit_opts xo = j->o.emit;
		char *out = xo.mode == PK_EMIT_OUTFILE ? beside_out(&j->o, j->pyb[i].path) : NULL;
		if (out)
			xo.out_path = out;
		int rc = pk_emit_txn(&xo, &j->pyb[i], &j->pyp[i], &changed, &txn);
		free(out);
		if (rc < 0)
			goto fail;
		any |= changed;
	}
	if (write_sidecar(j, &txn) < 0)
		goto fail;
	if (pk_txn_commit(&txn) < 0)
		return PK_EXIT_ERROR;
	return pk_emit_exit(&j->o.emit, (size_t)any);
fail:
	if (txn.n)
		pk_warning("nothing written: every file of this run stays as it was");
	pk_txn_abort(&txn);
	return PK_EXIT_ERROR;
}

static void free_job(struct job *j)
{
	pk_api_free(&j->api);
	for (size_t i = 0; i < j->o.nev; i++) {
		free(j->o.ev[i].name);
		free(j->o.ev[i].kind);
		free(j->o.ev[i].spec);
		free(j->o.ev[i].func);
		free(j->o.ev[i].brace_indent);
	}
	free(j->o.ev);
	for (size_t i = 0; i < j->sp.nextra; i++) {
		struct tt_extra *x = &j->sp.extra[i];
		if (x->have_view)
			pk_ast_free(&x->view);
		pk_plan_free(&x->plan);
		if (x->have_b)
			pk_buf_free(&x->b);
		free(j->extra_out[i]);
	}
	free(j->sp.extra);
	free(j->extra_out);
	for (size_t i = 0; i < j->sp.npycallers; i++) {
		pk_plan_free(&j->pyp[i]);
		if (j->have_pyb[i])
			pk_buf_free(&j->pyb[i]);
	}
	tt_kernel_free(&j->k);
	pk_ast_free(&j->kt);
	pk_ast_free(&j->ht);
	pk_plan_free(&j->kp);
	pk_plan_free(&j->hp);
	if (j->have_kb)
		pk_buf_free(&j->kb);
	if (j->have_hb)
		pk_buf_free(&j->hb);
	if (j->have_tb)
		pk_buf_free(&j->tb);
	pk_plan_free(&j->tp);
	tt_sides_free(&j->sides);
	free(j->host_path);
	free(j->extern_name);
	tt_rules_free(&j->rules);
	pk_ast_rules_free(&j->async);
}

int pk_tt_inject(const struct pk_inject_opts *o)
{
	if (!pk_inject_opts_ok(o))
		return PK_EXIT_ERROR;
	struct job j;
	memset(&j, 0, sizeof(j));
	pk_plan_init(&j.kp);
	pk_plan_init(&j.hp);
	pk_plan_init(&j.tp);
	take_opts(&j.o, o);
	int rc = PK_EXIT_ERROR;
	if (plan_all(&j) == 0)
		rc = emit_all(&j);
	free_job(&j);
	return rc;
}
