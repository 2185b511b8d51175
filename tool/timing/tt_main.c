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
	int script_by_hand;
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
	    .script_by_hand = o->test_script_by_hand,
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
	sp->lay.nhelper = nh;
	sp->lay.columns = (int)o->nev + 2;
	/* the magic word takes the row's last slot; more values take more lines */
	sp->lay.row_words = 8 * ((sp->lay.columns + 1 + 7) / 8);
	return 0;
}

/* A prefix no identifier of the files starts with, so names never clash:
 * the kernel's, the host's and the --edit files' tokens. */
static const char *pick_prefix(const struct tt_files *fs, char *buf, size_t cap)
{
	const char *base = PK_NAME_TIMING_PREFIX; /* rules/names.ini */
	for (int i = 0; i < 100; i++) {
		if (i == 0)
			snprintf(buf, cap, "%s_", base);
		else
			snprintf(buf, cap, "%s%d_", base, i);
		int used = 0;
		for (size_t x = 0; x < fs->n && !used; x++)
			used = fs->v[x]->have_t && (fs->v[x]->roles & (TT_ROLE_KERNEL | TT_ROLE_HOST | TT_ROLE_EDIT)) &&
			       pk_tok_prefix_used(&fs->v[x]->t, buf);
		if (!used)
			return buf;
	}
	return NULL;
}

struct job {
	struct tt_opts o;
	struct tt_rules rules;
	struct pk_ast_rules async;
	struct pk_api api;  /* the kernel kind's spellings (rules/api.ini) */
	struct tt_files fs; /* every file of the run, each once, with its roles and its one plan */
	struct tt_file *kf; /* the kernel's entry */
	struct tt_file *hf; /* --host's (the kernel's when one source holds kernel and launch), or NULL */
	struct tt_file *tf; /* --test-script's, or NULL */
	struct pk_ast *kt;  /* the kernel's parse */
	struct pk_ast *ht;  /* the host's (C++), or NULL */
	struct tt_kernel k;
	struct tt_spec sp;
	char prefix[32];
	char target[64];
	char *host_path, *extern_name; /* --host FILE[:EXTERN] */
	int host_py, host_orch;
	int py_mixed; /* the pypto extern is declared core_type="mixed" */
	long func_id, external;
	char slots_buf[32];    /* the rows counted from the orchestration, or the default room */
	char slots_why[320];   /* why they could not be counted, said with the room taken */
	char *pa_buf, *pa[16]; /* the profile's parse flags, kept to read the result back alike */
	int npa;
	struct tt_file *lane[8]; /* the other lane kernels' sources (NULL: the set's in another role) */
	long lane_id[8];
	size_t nlane;
};

static int ends_py(const char *path)
{
	size_t n = strlen(path);
	return n > 3 && !strcmp(path + n - 3, ".py");
}

/* Refuse a named file that already holds a timing tensor. */
static int check_unmarked(const struct tt_named *nm, struct tt_file *const *at, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (at[i] && pk_timing_marked(&at[i]->b))
			return pk_error("%s: already has a timing tensor (TIMING_PROBE: @timing marks); remove it "
			                "first with probe-strip --timing-tensor",
			                nm[i].path);
	return 0;
}

/* The files the command line names: the kernel, --host (FILE.py[:EXTERN] a
 * pypto extern), the test script, the --edit files (callers of the extern
 * when it is Python), in this order. */
static size_t name_files(struct job *j, struct tt_named **out)
{
	struct tt_opts *o = &j->o;
	const char *colon = o->host ? strstr(o->host, ".py:") : NULL;
	if (o->host) {
		j->host_path = colon ? pk_xstrndup(o->host, (size_t)(colon - o->host + 3)) : pk_xstrdup(o->host);
		j->extern_name = colon ? pk_xstrdup(colon + 4) : NULL;
		j->host_py = ends_py(j->host_path);
	}
	struct tt_named *nm = pk_xcalloc(o->nedit + 4, sizeof(*nm));
	size_t n = 0;
	nm[n++] = (struct tt_named){o->kernel, TT_ROLE_KERNEL};
	if (o->host)
		nm[n++] = (struct tt_named){j->host_path, j->host_py ? TT_ROLE_EXTERN : TT_ROLE_HOST};
	if (o->test_script)
		nm[n++] = (struct tt_named){o->test_script, TT_ROLE_TEST};
	for (size_t e = 0; e < o->nedit; e++)
		nm[n++] =
		    (struct tt_named){o->edit[e], j->host_py && ends_py(o->edit[e]) ? TT_ROLE_CALLER : TT_ROLE_EDIT};
	*out = nm;
	return n;
}

/* The named files, each read once, without locks: the kernel's parse
 * names the headers, and the test script the lanes, that join the set
 * before it is locked (lock_set). */
static int load_files(struct job *j)
{
	struct tt_opts *o = &j->o;
	struct tt_named *nm;
	size_t n = name_files(j, &nm);
	struct tt_file **at = pk_xcalloc(n, sizeof(*at));
	int rc = tt_files_load(&j->fs, nm, n, o->emit.mode == PK_EMIT_INPLACE ? PK_LOAD_FOR_WRITE : 0, at);
	if (rc == 0)
		rc = check_unmarked(nm, at, n);
	j->kf = at[0];
	j->hf = o->host ? at[1] : NULL;
	j->tf = o->test_script ? at[o->host ? 2 : 1] : NULL;
	free(at);
	free(nm);
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

/* With -o an --edit file's result goes next to OUT: never onto OUT, nor
 * onto the file itself. */
static int place_edit(const struct tt_opts *o, struct tt_file *f)
{
	const char *out = o->emit.out_path;
	f->out = beside_out(o, f->b.path);
	struct stat a, b;
	if (!strcmp(f->out, out))
		return pk_error("--edit %s: its result would overwrite -o %s", f->b.path, out);
	if (stat(f->out, &a) == 0 && stat(f->b.path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return pk_error("--edit %s: its result goes next to -o %s, which is the file itself; "
		                "write -o into another directory",
		                f->b.path, out);
	return 0;
}

/* One file in several roles is one input with one plan. An --edit naming
 * a file another role edits adds nothing (the kernel's reads outside its
 * body, the extern file's own calls are planned by those roles); a host
 * that is the kernel file is one source holding kernel and launch. Roles
 * that read a file as C++ and as Python cannot share it. */
static int resolve_roles(struct job *j)
{
	const unsigned named = TT_ROLE_KERNEL | TT_ROLE_HOST | TT_ROLE_EXTERN | TT_ROLE_TEST;
	for (size_t i = 0; i < j->fs.n; i++) {
		struct tt_file *f = j->fs.v[i];
		if (f->roles & named)
			f->roles &= ~(unsigned)(TT_ROLE_EDIT | TT_ROLE_CALLER);
		if ((f->roles & TT_ROLES_PY) && (f->roles & ~(unsigned)TT_ROLES_PY))
			return pk_error("%s: named as %s and as %s, which read it as C++ and as Python; a file is one "
			                "or the other: name the right file in each role",
			                f->b.path, tt_role_name(f->roles & ~(unsigned)TT_ROLES_PY),
			                tt_role_name(f->roles & TT_ROLES_PY));
		if ((f->roles & TT_ROLE_KERNEL) && (f->roles & TT_ROLE_HOST) && j->o.host_out)
			return pk_error("--host %s is the kernel's own file: its one result goes where the kernel's "
			                "goes; leave out --host-out",
			                j->o.host);
		if ((f->roles & TT_ROLE_EDIT) && j->o.emit.mode == PK_EMIT_OUTFILE && place_edit(&j->o, f) < 0)
			return -1;
	}
	return 0;
}

/* The --edit files: parts of the kernel's translation unit, seen through it. */
static int view_edits(struct job *j)
{
	for (size_t i = 0; i < j->fs.n; i++) {
		struct tt_file *f = j->fs.v[i];
		if (!(f->roles & TT_ROLE_EDIT))
			continue;
		CXFile cf = pk_ast_file_named(j->kt, f->b.path);
		if (!cf)
			return pk_error(
			    "--edit %s: the file is not part of the kernel's translation unit (not included "
			    "by %s)",
			    f->b.path, j->o.kernel);
		pk_ast_view(&f->t, j->kt, cf, &f->b);
		f->have_t = 1;
	}
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
		j->sp.target = tt_detect_target(&j->rules, &j->kf->b, j->hf && !j->host_py ? &j->hf->b : NULL,
		                                j->target, sizeof(j->target));
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
/* A simpler orchestration edited in a run that writes, with no
 * --test-script: a test script beside it that names it builds the
 * arguments its expected_arg_count counts, so the run would fail
 * ("arg_count N < expected N+1"). Refused, naming the script(s) and the
 * flag, unless --test-script-by-hand says the user adds the argument there
 * (a script the tool cannot edit: its refusal says to leave it out). */
static int unnamed_script(struct job *j)
{
	int m = j->o.emit.mode;
	if (m != PK_EMIT_INPLACE && m != PK_EMIT_OUTFILE)
		return 0;
	char **v;
	size_t n = tt_scripts_naming(&j->rules, j->host_path, &v);
	if (!n)
		return 0;
	struct pk_sb names = {0};
	for (size_t i = 0; i < n; i++)
		pk_sb_addf(&names, "%s%s", i ? (i + 1 == n ? " and " : ", ") : "", v[i]);
	int rc;
	if (n == 1)
		rc = pk_error("%s: the test script %s names this orchestration: it builds the arguments the timing "
		              "tensor adds one to (its %s list and signatures), so the orchestration alone would "
		              "fail at run time; add --test-script %s (or --test-script-by-hand when you add its "
		              "timing %s yourself); nothing was written",
		              j->host_path, v[0], tt_rule(&j->rules, "test_script", "tensorarg"), v[0],
		              tt_rule(&j->rules, "test_script", "tensorarg"));
	else
		rc = pk_error("%s: the test scripts %s name this orchestration: they build the arguments the timing "
		              "tensor adds one to, so the orchestration alone would fail at run time; add "
		              "--test-script with the one this run instruments (or --test-script-by-hand when you "
		              "add its timing argument yourself); nothing was written",
		              j->host_path, names.s);
	pk_sb_free(&names);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return rc;
}

static int read_host(struct job *j)
{
	struct tt_opts *o = &j->o;
	char core[16] = "";
	j->func_id = o->func_id;
	memcpy(j->sp.lay.twins, o->func_twins, o->nfunc_twins * sizeof(long));
	j->sp.lay.ntwins = o->nfunc_twins;
	j->k.host_tensors = -1;
	j->k.host_scalars = -2;
	if (!j->hf)
		return 0;
	if (j->hf == j->kf) { /* one source holds kernel and launch (an .asc file): one plan */
		j->ht = j->kt;
		return 0;
	}
	if (j->host_py) {
		j->k.host_tensors = tt_py_extern_tensors(&j->hf->b, &j->rules, j->extern_name, &j->py_mixed);
		return j->k.host_tensors < 0 ? -1 : 0;
	}
	j->ht = &j->hf->t;
	j->hf->have_t = 1;
	if (tt_parse(j->ht, &j->hf->b, 0, NULL, o->extra, o->nextra) < 0 || tt_check_terminated(j->ht) < 0)
		return -1;
	j->host_orch = tt_orch_is(j->ht, &j->rules);
	if (o->test_script && !j->host_orch)
		return pk_error("--test-script goes with a simpler orchestration (%s*%s) as --host",
		                j->rules.w.submit_prefix, j->rules.w.submit_suffix);
	if (!j->host_orch)
		return 0;
	if (!j->tf && !o->script_by_hand && unnamed_script(j) < 0)
		return -1;
	if (j->tf) {
		j->func_id = tt_py_test_func_id(&j->tf->b, &j->rules, o->kernel, j->host_path, j->func_id,
		                                j->sp.lay.twins, 8, &j->sp.lay.ntwins, core, sizeof(core));
		if (j->func_id < -1) /* a script the tool cannot read: refused */
			return -1;
		/* the incore's core type, as the runtime builds it, unless --core-type says another */
		if (!o->core && j->k.core != TT_MIX && !strcmp(core, "aic"))
			j->k.core = TT_AIC;
		else if (!o->core && j->k.core != TT_MIX && !strcmp(core, "aiv"))
			j->k.core = TT_AIV;
	}
	j->k.host_tensors = tt_orch_tensors(j->ht, &j->rules, j->func_id, &j->k.host_scalars);
	return j->k.host_tensors < 0 ? -1 : 0;
}

/* AIC and AIV lanes of a mixed task running the kernel (or a kernel its
 * source marks mixed, or a pypto extern declared core_type="mixed") own rows of their own when the profile tells the
 * builds apart by a macro: AIC slot = block index, AIV slot = AIC count +
 * block index * AIV lanes per AIC + sub-block index. Returns the rows of one
 * block (1 + AIV lanes per AIC), 1 when the lanes do not own rows. */
static long lane_rows(struct job *j, const struct tt_tasks *ts)
{
	const char *ratio = tt_prof(&j->sp, "slot", "aiv_per_aic");
	if (!j->sp.slot_in_body || !tt_prof(&j->sp, "slot", "mix_is_aic_macro") || !ratio)
		return 1;
	if (((ts && ts->lanes > 1) || j->py_mixed) && !j->o.core)
		j->k.core = TT_MIX;
	if (j->k.core != TT_MIX)
		return 1;
	j->sp.lay.mix_blocks = ts && ts->blocks > 0 ? ts->blocks : -1;
	j->sp.lay.aic_idle = ts && ts->lanes > 1 && !ts->on_aic && !j->py_mixed;
	if (j->sp.lay.aic_idle && tt_prof(&j->sp, "slot", "mix_aiv_only"))
		return strtol(ratio, NULL, 10); /* AIV rows only */
	j->sp.lay.aic_idle = 0;
	return 1 + strtol(ratio, NULL, 10);
}

/* One task instance: its rows, blocks * PER (PER: a mixed kernel's lanes
 * of one block), when the block count is a constant; the tensor is sized
 * to them unless --slots says more. */
static int size_one_task(struct job *j, const struct tt_tasks *ts, long per)
{
	if (ts->blocks < 0) {
		snprintf(j->slots_why, sizeof(j->slots_why),
		         "the block count of kernel %ld's submit (line %s) is set at run time", ts->id, ts->lines);
		j->sp.lay.slots_bound = 1;
	}
	j->sp.lay.slots_bound |= ts->conditional;
	j->sp.lay.conditional = ts->conditional;
	if (ts->blocks <= 0 || ts->tasks < 0)
		return 0;
	long rows = ts->blocks * per;
	const char *slots = j->sp.opt.slots;
	if (per > 1 && slots && strspn(slots, "0123456789") == strlen(slots) && strtol(slots, NULL, 10) < rows)
		return pk_error("%s: --slots %s, but the AIC and AIV lanes of the mixed task submitting kernel %ld "
		                "(line %s) write %ld rows (%ld block%s, each an AIC row and %ld AIV rows); pass "
		                "--slots %ld or leave it out",
		                j->host_path, slots, ts->id, ts->lines, rows, ts->blocks, ts->blocks == 1 ? "" : "s",
		                per - 1, rows);
	if (!slots) {
		snprintf(j->slots_buf, sizeof(j->slots_buf), "%ld", rows);
		j->sp.opt.slots = j->slots_buf;
	}
	return 0;
}

/* Several task instances submit the kernel (several submits, or a submit
 * in a loop): each passes its first row (the rows of the tasks before it)
 * + its slot in the task (a submit through a helper gets the run's counter
 * by reference). The rows of one run: counted from the orchestration when
 * the loops and block counts are constants, else --slots (required then). */
static int plan_tasks(struct job *j)
{
	struct tt_tasks ts;
	if (!j->host_orch || !j->sp.slot_in_body || tt_orch_tasks(j->ht, &j->sp, j->func_id, &ts) < 0) {
		lane_rows(j, NULL);
		return 0; /* no orchestration read, or its errors come from planning it */
	}
	long per = lane_rows(j, &ts);
	j->sp.lay.lane_rows = per;
	/* a graph function's tasks take their first rows from each call, even one alone */
	if (((ts.sites < 2 && !ts.in_loop) || ts.tasks == 0 || ts.tasks == 1) && !ts.graph)
		return size_one_task(j, &ts, per); /* one task instance at most: its rows are its own */
	/* the [host] templates are required when the rules load; task_slot only a profile sets */
	if (!tt_prof(&j->sp, "slot", "task_slot"))
		return pk_error("rules/timing.ini: no 'task_slot' in the %s profile: the rows of several tasks "
		                "submitting the kernel cannot be told apart",
		                j->sp.target ? j->sp.target : "default");
	const char *orch = j->host_path, *slots = j->sp.opt.slots;
	j->sp.lay.task_rows = 1;
	j->sp.lay.tasks = ts.tasks;
	long rows = ts.block_runs > 0 ? ts.block_runs * per : -1;
	const char *unit = per > 1 ? "block lane" : "block";
	char why[96];
	if (ts.loop_line)
		snprintf(why, sizeof(why), "a loop at line %u runs a count the tool cannot read", ts.loop_line);
	else
		snprintf(why, sizeof(why), "a block count is set at run time");
	if (rows >= 0 && slots && strspn(slots, "0123456789") == strlen(slots) && strtol(slots, NULL, 10) < rows)
		return pk_error("%s: --slots %s, but the %ld tasks submitting kernel %ld (line%s %s) run %ld "
		                "block%s: the tensor needs %ld rows; pass --slots %ld or leave it out",
		                orch, slots, ts.tasks, ts.id, strchr(ts.lines, ',') ? "s" : "", ts.lines, ts.block_runs,
		                ts.block_runs == 1 ? "" : "s", rows, rows);
	if (rows >= 0 && !slots) {
		snprintf(j->slots_buf, sizeof(j->slots_buf), "%ld", rows);
		j->sp.opt.slots = j->slots_buf;
	}
	j->sp.lay.slots_bound = rows < 0 || ts.conditional; /* a branch may skip some tasks' rows */
	j->sp.lay.conditional = ts.conditional;
	if (rows >= 0)
		pk_warning("%s: %s%ld tasks submit kernel %ld (line%s %s%s): each passes its first row, after the rows "
		           "of the tasks before it, and writes one row per %s; the timing tensor has %s rows",
		           orch, ts.conditional ? "at most " : "", ts.tasks, ts.id, strchr(ts.lines, ',') ? "s" : "",
		           ts.lines, ts.conditional ? "; a branch or a predicate chooses some" : "", unit,
		           j->sp.opt.slots);
	else
		snprintf(j->slots_why, sizeof(j->slots_why),
		         "many tasks submit kernel %ld (%s), each writing one row per %s after those of the tasks "
		         "before it",
		         ts.id, why, unit);
	return 0;
}

static int is_number(const char *s)
{
	return s && *s && strspn(s, "0123456789") == strlen(s);
}

/* Rows the tool could not count (a loop or a block count read at run time,
 * a launch's blocks): a room of --slots rows, or of the profile's default
 * ([slot] room) when a host is sized here. In a room the kernel writes its
 * run row at run_row % rows and keeps run_row in the marker, so
 * probe-report sees a run that needed more and names the --slots. One line
 * says which room and why. */
static int plan_room(struct job *j)
{
	if (j->hf && !j->sp.opt.slots && !j->slots_why[0]) { /* nothing counted the rows */
		snprintf(j->slots_why, sizeof(j->slots_why), "the tool does not count the blocks %s",
		         j->host_py ? "the extern's callers launch" : "the host launches");
		j->sp.lay.slots_bound = 1;
	}
	/* counted (a branch may skip some tasks), or no room to size */
	if (!j->slots_why[0] || (!j->hf && !j->sp.opt.slots))
		return 0;
	const char *room = tt_prof(&j->sp, "slot", "room");
	int dflt = !j->sp.opt.slots;
	if (dflt) {
		if (!is_number(room))
			return pk_error("rules/timing.ini: [slot] room must be a number of rows, not '%s'", room);
		snprintf(j->slots_buf, sizeof(j->slots_buf), "%s", room);
		j->sp.opt.slots = j->slots_buf;
	}
	/* a kernel wraps by a number, and the task slot must have its room form */
	j->sp.lay.wrap =
	    is_number(j->sp.opt.slots) && (!j->sp.lay.task_rows || tt_prof(&j->sp, "slot", "task_slot_wrap"));
	if (!j->sp.lay.wrap) {
		pk_warning("%s: %s; --slots %s must cover every row of one run", j->host_path, j->slots_why,
		           j->sp.opt.slots);
		return 0;
	}
	pk_warning("%s: %s; the timing tensor has %s %s rows%s: a run past them wraps, and probe-report names the "
	           "--slots it needed",
	           j->host_path, j->slots_why, dflt ? "the default room of" : "the", j->sp.opt.slots,
	           dflt ? " ([slot] room of rules/timing.ini)" : " --slots gave");
	return 0;
}

/* Packed reads outside the kernel's body: its file's helpers, --edit files
 * and the headers it includes with quotes (when it hands args on). */
static int plan_reads(struct job *j)
{
	if (!j->k.passes_args || j->k.style != TT_EXTERN)
		return 0;
	if (tt_reads_plan(j->kt, &j->sp, j->k.body_open, j->k.body_close + 1, &j->kf->plan) < 0)
		return -1;
	for (size_t i = 0; i < j->fs.n; i++) {
		struct tt_file *f = j->fs.v[i];
		if ((f->roles & TT_ROLE_EDIT) && tt_reads_plan(&f->t, &j->sp, 0, 0, &f->plan) < 0)
			return -1;
	}
	return tt_sides_plan(&j->fs, &j->sp);
}

/* The other lane kernels of the kernel's mixed tasks passing scalars, named
 * by the test script (before the set is locked): their scalar reads shift
 * with the kernel's. */
static int name_lanes(struct job *j)
{
	if (!j->host_orch || !j->tf)
		return 0;
	long ids[8];
	long n = tt_orch_lane_ids(j->ht, &j->sp, j->func_id, ids, 8);
	if (n < 0)
		return -1;
	const struct pk_buf *tb = &j->tf->b;
	const char *slash = strrchr(tb->path, '/');
	for (long i = 0; i < n; i++) {
		char *src = tt_py_incore_source(tb, &j->rules, j->o.kernel, j->host_path, ids[i]);
		if (!src)
			continue; /* refused by the planner, naming the lane */
		char *path = slash ? pk_xasprintf("%.*s/%s", (int)(slash - tb->path), tb->path, src) : pk_xstrdup(src);
		int rc = tt_sides_name_lane(&j->fs, path, &j->lane[j->nlane]);
		free(path);
		free(src);
		if (rc < 0)
			return -1;
		j->lane_id[j->nlane++] = ids[i];
	}
	return 0;
}

/* Every file of the run named (the command line's, the headers the
 * kernel's parse includes where packed reads may be renumbered, the lanes):
 * the set locked once, in one order. 1: a file read before the locks
 * changed meanwhile (the run starts again). */
static int lock_set(struct job *j)
{
	if (j->k.passes_args && j->k.style == TT_EXTERN)
		tt_sides_name(&j->fs, j->kt);
	if (name_lanes(j) < 0)
		return -1;
	int rc = tt_files_lock(&j->fs);
	/* the kernel's parse read the headers and --edit files itself: the
	 * bytes it parsed must be the bytes the set holds and writes over */
	for (size_t i = 0; rc == 0 && i < j->fs.n; i++)
		if (j->fs.v[i] != j->kf && (j->fs.v[i]->roles & (TT_ROLE_SIDE | TT_ROLE_EDIT)) &&
		    !pk_ast_parsed_bytes(j->kt, &j->fs.v[i]->b))
			rc = 1;
	return rc;
}

static int plan_lanes(struct job *j)
{
	for (size_t i = 0; i < j->nlane; i++) {
		if (j->lane[i] && tt_sides_plan_lane(j->lane[i], &j->sp) < 0)
			return -1;
		j->sp.lay.lanes[j->sp.lay.nlanes++] = j->lane_id[i];
	}
	return 0;
}

static int plan_host(struct job *j)
{
	if (!j->hf)
		return 0;
	if (j->host_py)
		return tt_py_plan_extern(&j->hf->b, j->extern_name, &j->sp, &j->fs, &j->hf->plan);
	if (!j->host_orch) /* a launch, a packed array, or the kernel's own file */
		return tt_gen_host(j->ht, &j->k, &j->sp, &j->hf->plan);
	if (j->tf && plan_lanes(j) < 0)
		return -1;
	if (tt_orch_plan(j->ht, &j->k, &j->sp, j->func_id, &j->external, &j->hf->plan) < 0 ||
	    pk_plan_check(&j->hf->plan, j->hf->b.path, j->hf->b.len) < 0 ||
	    tt_orch_verify(j->ht, &j->hf->plan, &j->k, &j->sp, j->func_id) < 0)
		return -1;
	if (j->k.host_scalars == -1 && (j->sp.lay.task_rows || j->o.generation || j->o.invocation))
		return pk_error(
		    "%s: the tasks submitting kernel '%s' pass different numbers of scalars, so the scalars "
		    "the timing tensor appends (the task's first row, the generation, the invocation's first row) "
		    "would sit at different "
		    "args[] indices; pass the same scalars in every task (a dummy %s), or measure "
		    "one task",
		    j->host_path, j->k.name, j->rules.w.add_scalar);
	if (j->tf && tt_py_plan_test(&j->tf->b, &j->k, &j->sp, j->func_id, j->external, &j->tf->plan) < 0)
		return -1;
	return 0;
}

static int check_plans(const struct tt_files *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		if (pk_plan_check(&fs->v[i]->plan, fs->v[i]->b.path, fs->v[i]->b.len) < 0)
			return -1;
	return 0;
}

/* The kernel: its semantic parse (the profile's parse arguments unless the
 * user gave a build folder or compiler arguments), the entry, its ABI. */
static int read_kernel(struct job *j)
{
	struct tt_opts *o = &j->o;
	const char *acc = j->sp.target ? tt_rule(&j->rules, j->sp.target, "tensor_accessors") : NULL;
	int desc = j->sp.target && tt_rule(&j->rules, j->sp.target, "tensor");
	struct tt_kctx cx = {&j->rules.w, acc, desc};
	const char *pargs = j->sp.target ? tt_rule(&j->rules, j->sp.target, "parse_args") : NULL;
	if (pargs && !o->build_dir && !o->nextra) { /* the profile's qualifiers, split at blanks */
		j->pa_buf = pk_xstrdup(pargs);
		for (char *save = NULL, *w = strtok_r(j->pa_buf, " \t", &save); w && j->npa < 16;
		     w = strtok_r(NULL, " \t", &save))
			j->pa[j->npa++] = w;
	}
	j->kt = &j->kf->t;
	j->kf->have_t = 1;
	int prc = tt_parse(j->kt, &j->kf->b, 1, o->build_dir, j->npa ? j->pa : o->extra, j->npa ? j->npa : o->nextra);
	if (prc < 0 || tt_check_terminated(j->kt) < 0 || tt_kernel_find(j->kt, &cx, o->kernel_name, &j->k) < 0 ||
	    read_host(j) < 0 || tt_kernel_abi(j->kt, &j->k) < 0)
		return -1;
	if (o->core)
		j->k.core = !strcmp(o->core, "mix") ? TT_MIX : !strcmp(o->core, "aic") ? TT_AIC : TT_AIV;
	return 0;
}

/* The layout: the args[] indices after the kernel's tensors and scalars,
 * a free name prefix, the events' columns and the row. */
static int lay_out(struct job *j)
{
	struct tt_layout *l = &j->sp.lay;
	l->timing_index = (int)j->k.ntensors;
	l->generation_index = (int)(j->k.ntensors + 1 + j->k.nscalars);
	l->row0_index = l->generation_index + (j->o.generation ? 1 : 0);
	l->task_index = l->row0_index + (j->o.invocation ? 1 : 0);
	l->prefix = pick_prefix(&j->fs, j->prefix, sizeof(j->prefix));
	if (!l->prefix)
		return pk_error("%s: no free generated-name prefix ([names] prefix of rules/timing.ini, then 1..99)",
		                j->o.kernel);
	return resolve_events(&j->o, &j->rules, &j->sp, j->k.name);
}

/* The host's C++ result parsed again by the front end: no error the
 * original did not have (the Python results and the orchestration's tasks
 * are read back by their planners). The kernel's own result is not parsed
 * again here: without the SDK its inserted device calls (cache writeback,
 * cycle reads) are undeclared in the stub headers, which is no fault of the
 * edit. */
/* A test hook: a planner fault the kernel's read-back must catch (its
 * first renumbered args[] read, or its last tail call, left out), so that a
 * test sees the check refuse what a faulty plan would have written. */
static void test_fault(const struct job *j, struct pk_plan *p)
{
	const char *f = getenv("PROBEKIT_TEST_KERNEL_FAULT");
	if (!f)
		return;
	char *tail =
	    pk_xasprintf("%s" PK_NAME_TIMING_TAIL "(%s" PK_NAME_TIMING_OUT, j->sp.lay.prefix, j->sp.lay.prefix);
	const char *key = !strcmp(f, "renumber") ? PK_TT_WAS_OPEN : !strcmp(f, "tail") ? tail : NULL;
	size_t hit = p->n;
	for (size_t i = 0; key && i < p->n; i++)
		if (memmem(p->e[i].text, p->e[i].text_len, key, strlen(key)) && (hit == p->n || key == tail))
			hit = i;
	if (hit < p->n) {
		free(p->e[hit].text);
		memmove(p->e + hit, p->e + hit + 1, (p->n - hit - 1) * sizeof(*p->e));
		p->n--;
	}
	free(tail);
}

/* The kernel's result, parsed again as it was parsed, with the facts the
 * edit must establish checked on that parse (tt_kcheck.c). */
static int read_back_kernel(struct job *j)
{
	test_fault(j, &j->kf->plan);
	if (!j->kf->plan.n)
		return 0;
	/* a header or helper file edited too: the kernel's unit would read it
	 * unedited from disk, so its result cannot be parsed alone (a limit) */
	for (size_t i = 0; i < j->fs.n; i++)
		if (j->fs.v[i] != j->kf && (j->fs.v[i]->roles & (TT_ROLE_EDIT | TT_ROLE_SIDE)) && j->fs.v[i]->plan.n)
			return 0;
	struct pk_buf nb = j->kf->b;
	nb.line_start = NULL; /* the result's own line index, not the original's */
	nb.nlines = 0;
	nb.lock_fd = -1;
	pk_plan_apply(&j->kf->plan, j->kf->b.data, j->kf->b.len, &nb.data, &nb.len);
	const char *acc = j->sp.target ? tt_rule(&j->rules, j->sp.target, "tensor_accessors") : NULL;
	struct tt_kparse how = {.build_dir = j->o.build_dir,
	                        .extra = j->npa ? j->pa : j->o.extra,
	                        .nextra = j->npa ? j->npa : j->o.nextra,
	                        .accessors = acc,
	                        .descriptors = j->sp.target && tt_rule(&j->rules, j->sp.target, "tensor")};
	int rc = tt_kernel_verify(&j->k, &j->sp, &j->kf->plan, &nb, &how);
	free(nb.line_start);
	free(nb.data);
	return rc;
}

static int read_back(struct job *j)
{
	if (read_back_kernel(j) < 0)
		return -1;
	if (!j->ht || j->ht == j->kt || !j->hf->plan.n)
		return 0;
	/* the host, parsed alone: a fresh parse of the result, no more errors than the original's */
	struct pk_buf nb = j->hf->b;
	pk_plan_apply(&j->hf->plan, j->hf->b.data, j->hf->b.len, &nb.data, &nb.len);
	struct pk_ast q;
	memset(&q, 0, sizeof(q));
	int rc = tt_parse(&q, &nb, 0, NULL, j->o.extra, j->o.nextra);
	if (rc == 0 && q.nerrs > j->ht->nerrs) {
		const struct pk_parse_error *e = &q.errs[q.nerrs - 1];
		for (size_t i = 0; i < q.nerrs && i < j->ht->nerrs; i++)
			if (strcmp(q.errs[i].msg, j->ht->errs[i].msg)) {
				e = &q.errs[i];
				break;
			}
		rc = pk_error("%s: internal error: read back, the edited file has a new parse error (line %u of "
		              "the result: %s); nothing was written",
		              j->hf->b.path, e->line, e->msg);
	}
	pk_ast_free(&q);
	free(nb.data);
	return rc;
}

/* Read the named files, parse, lock the set with the files the parse
 * named, then plan per role; every plan is checked before anything is
 * written. -1 on error, 1 when the run must start again. */
static int plan_all(struct job *j)
{
	struct tt_opts *o = &j->o;
	j->sp.opt = (struct tt_given){.ev = o->ev,
	                              .nev = o->nev,
	                              .kernel_file = o->kernel,
	                              .slots = o->slots,
	                              .generation = o->generation,
	                              .invocation = o->invocation,
	                              .invocations = o->invocations};
	if (tt_rules_load(&j->rules) < 0 || tt_rules_check(&j->rules, "rules/timing.ini") < 0 ||
	    pk_ast_rules_load(&j->async) < 0 || load_files(j) < 0 || resolve_roles(j) < 0)
		return -1;
	j->sp.opt.host_file = j->host_path;
	j->sp.rules = &j->rules;
	j->sp.async_issue = &j->async.issue;
	if (pick_target(j) < 0 || read_kernel(j) < 0)
		return -1;
	int locked = lock_set(j);
	if (locked)
		return locked;
	if (plan_tasks(j) < 0 || plan_room(j) < 0 || view_edits(j) < 0 || lay_out(j) < 0)
		return -1;
	if (tt_gen_kernel(j->kt, &j->k, &j->sp, &j->fs, &j->kf->plan) < 0 || plan_reads(j) < 0 || plan_host(j) < 0)
		return -1;
	return check_plans(&j->fs) < 0 ? -1 : read_back(j);
}

/* FILES: the other files this run changes in place, named from the kernel's
 * folder, so that probe-strip of the kernel finds them all. */
static int write_sidecar(struct job *j, struct pk_txn *txn, char *const *files, size_t nfiles)
{
	const struct tt_opts *o = &j->o;
	int to_file = o->emit.mode == PK_EMIT_OUTFILE || (o->emit.mode == PK_EMIT_INPLACE && !j->kf->b.from_stdin);
	if (!to_file && !o->events_out)
		return 0; /* --stdout, --diff, --check and standard input write no file */
	struct pk_sb path = {0};
	if (o->events_out)
		pk_sb_add(&path, o->events_out);
	else
		pk_sb_addf(&path, "%s.timing.json", o->emit.mode == PK_EMIT_OUTFILE ? o->emit.out_path : o->kernel);
	size_t len;
	char *json = tt_sidecar_json(&j->k, &j->sp, (const char *const *)files, nfiles, &len);
	int rc = pk_txn_add(txn, path.s, json, len, NULL, NULL, 0);
	free(json);
	pk_sb_free(&path);
	return rc;
}

/* Where file F's result goes: the kernel's as the user said, the host's to
 * --host-out when given, an --edit file's as placed, any other next to -o. */
static char *destination(const struct job *j, const struct tt_file *f, struct pk_emit_opts *xo)
{
	*xo = j->o.emit;
	if (f->roles & TT_ROLE_KERNEL)
		return NULL;
	if ((f->roles & (TT_ROLE_HOST | TT_ROLE_EXTERN)) && j->o.host_out) {
		xo->mode = PK_EMIT_OUTFILE;
		xo->out_path = j->o.host_out;
		return NULL;
	}
	if (xo->mode != PK_EMIT_OUTFILE || (f->roles & (TT_ROLE_HOST | TT_ROLE_EXTERN)))
		return NULL;
	char *out = f->out ? pk_xstrdup(f->out) : beside_out(&j->o, f->b.path);
	xo->out_path = out;
	return out;
}

/* The order files are written (and --diff shows them) in: kernel, host,
 * test script, headers, --edit files, Python callers. */
static int rank_of(unsigned roles)
{
	static const unsigned order[] = {
	    TT_ROLE_KERNEL, TT_ROLE_HOST | TT_ROLE_EXTERN, TT_ROLE_TEST, TT_ROLE_SIDE, TT_ROLE_EDIT, TT_ROLE_CALLER};
	if (roles == TT_ROLE_SIDE) /* a header found, not named: any named role comes first */
		return 3;
	for (int i = 0; i < 6; i++)
		if (roles & order[i] & ~(unsigned)TT_ROLE_SIDE)
			return i;
	return 6;
}

/* Every file of the set (a found header only when it changes) and the event
 * map go together: each is written beside itself first and all are
 * replaced only once every one is, so an error never leaves half an ABI
 * change. */
static int emit_all(struct job *j)
{
	int changed = 0, any = 0, rc = PK_EXIT_ERROR;
	struct pk_txn txn = {0};
	char **files = pk_xcalloc(j->fs.n, sizeof(*files));
	size_t nfiles = 0;
	for (int r = 0; r < 6; r++)
		for (size_t i = 0; i < j->fs.n; i++) {
			struct tt_file *f = j->fs.v[i];
			if (rank_of(f->roles) != r || (f->roles == TT_ROLE_SIDE && !f->plan.n))
				continue;
			struct pk_emit_opts xo;
			char *out = destination(j, f, &xo);
			int erc = pk_emit_txn(&xo, &f->b, &f->plan, &changed, &txn);
			free(out);
			if (erc < 0)
				goto fail;
			any |= changed;
			if (changed && f != j->kf && xo.mode == PK_EMIT_INPLACE && !f->b.from_stdin &&
			    (files[nfiles] = pk_path_from(j->o.kernel, f->b.path)))
				nfiles++;
		}
	if (write_sidecar(j, &txn, files, nfiles) < 0)
		goto fail;
	rc = pk_txn_commit(&txn) < 0 ? PK_EXIT_ERROR : pk_emit_exit(&j->o.emit, (size_t)any);
	goto out;
fail:
	if (txn.n)
		pk_warning("nothing written: every file of this run stays as it was");
	pk_txn_abort(&txn);
out:
	for (size_t i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	return rc;
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
	tt_kernel_free(&j->k);
	tt_files_free(&j->fs);
	free(j->host_path);
	free(j->extern_name);
	free(j->pa_buf);
	tt_rules_free(&j->rules);
	pk_ast_rules_free(&j->async);
}

int pk_tt_inject(const struct pk_inject_opts *o)
{
	if (!pk_inject_opts_ok(o))
		return PK_EXIT_ERROR;
	/* a file that changed between its read and its lock: read again, the
	 * messages of the attempt dropped (a run that read standard input cannot) */
	for (int tries = 0;; tries++) {
		struct job j;
		memset(&j, 0, sizeof(j));
		take_opts(&j.o, o);
		pk_msg_hold();
		int planned = plan_all(&j), rc = PK_EXIT_ERROR;
		int again =
		    planned > 0 && tries < 100 && strcmp(o->files[0], "-") && (!o->host || strcmp(o->host, "-"));
		pk_msg_release(!again);
		if (planned > 0 && !again)
			pk_error("%s: a file of the run changed while it was read; nothing was written: run again",
			         o->files[0]);
		if (planned == 0)
			rc = emit_all(&j);
		free_job(&j);
		if (!again)
			return rc;
	}
}
