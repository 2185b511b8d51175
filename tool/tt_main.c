/* tt_main.c - `probe-inject --timing-tensor`: the command. Reads the kernel
 * (and the host file), plans every edit of both, checks both plans, then
 * writes: nothing is written when any step fails. */
#include "tt.h"
#include "emit.h"
#include "pk.h"
#include "timing_strip.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct tt_opts {
	const char *kernel, *kernel_name, *host, *host_out, *slots, *events_out, *core, *build_dir, *generation,
	    *invocation, *invocations, *target, *test_script;
	long func_id;
	struct pk_emit_opts emit;
	struct tt_event *ev;
	size_t nev, cap_ev;
	const char **edit;
	size_t nedit, cap_edit;
	char **extra;
	int nextra;
};

static int usage(FILE *out)
{
	fprintf(out,
	        "usage: %s --timing-tensor [--event NAME[:KIND]=PLACE[@FUNC]]... [--edit FILE]...\n"
	        "         [--kernel NAME]\n"
	        "         [--core-type aiv|aic|mix] [--host FILE [--host-out FILE]] [--slots EXPR]\n"
	        "         [--generation EXPR] [--invocation EXPR --invocations K]\n"
	        "         [--target simpler|ascendc] [--test-script FILE] [--func-id N]\n"
	        "         [--events-out FILE] [-p BUILD_DIR] [-o FILE | --stdout | --diff | --check] KERNEL\n"
	        "         [-- CLANG-ARGS]\n\n"
	        "Add the in-core timing tensor: an INT64 output timing[slots][8k], the entry\n"
	        "sample, event samples kept in locals, and before every exit body_done, the\n"
	        "slot's row and its cache writeback; every packed args[] index after the new\n"
	        "tensor is renumbered. probe-strip --timing-tensor undoes it byte for byte.\n\n"
	        "  --event NAME[:KIND]=PLACE[@FUNC]  a sample; PLACE is after:CALLEE[#n],\n"
	        "                      before:CALLEE[#n] or line:N, in FUNC (default: the kernel);\n"
	        "                      KIND is issue|drain|phase|arrival|release, from\n"
	        "                      rules/timing.ini [kinds] when left out\n"
	        "  --generation EXPR   an extra last scalar: the launch's generation id (host\n"
	        "                      expression EXPR); the row's marker word carries it\n"
	        "  --invocation EXPR --invocations K  concurrent invocations share one matrix:\n"
	        "                      K * slots rows; this launch (host expression EXPR) writes\n"
	        "                      rows EXPR*slots + slot, passed as an extra last scalar\n"
	        "  --edit FILE         a file of helpers (included by the kernel) that may be edited;\n"
	        "                      with -o its result goes next to OUT\n"
	        "  --kernel NAME       the kernel function (default: kernel_entry or the only __global__)\n"
	        "  --core-type T       slot mapping (default: from KERNEL_TYPE_* / ASCEND_IS_* marks)\n"
	        "  --host FILE         also update the host orchestration or packed argument array;\n"
	        "                      FILE.py[:EXTERN]: a pypto @pl.jit.extern signature and its calls\n"
	        "  --target T          profile of rules/timing.ini [target.T] (default: from the includes)\n"
	        "  --test-script FILE  simpler test script: golden TensorArg, signatures, comparator\n"
	        "  --func-id N         the kernel's func_id in the orchestration (default: the test\n"
	        "                      script's entry for the kernel file, or the only one)\n"
	        "  --host-out FILE     write the host result there (needed with -o)\n"
	        "  --slots EXPR        number of core slots of the real launch (needed with --host)\n"
	        "  --events-out FILE   event map for probe-report (default OUT.timing.json)\n"
	        "  -p BUILD_DIR        compiler flags from BUILD_DIR/compile_commands.json\n",
	        pk_progname);
	return out == stdout ? PK_EXIT_OK : PK_EXIT_ERROR;
}

static int valid_name(const char *s, size_t n)
{
	if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return 0;
	return 1;
}

static int add_event(struct tt_opts *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq)
		return pk_error("--event '%s': expected NAME[:KIND]=PLACE", arg);
	const char *colon = memchr(arg, ':', (size_t)(eq - arg));
	size_t nl = (size_t)((colon ? colon : eq) - arg);
	if (!valid_name(arg, nl))
		return pk_error("--event '%s': '%.*s' is not a valid event name", arg, (int)nl, arg);
	PK_GROW(o->ev, o->cap_ev, o->nev + 1);
	struct tt_event *e = &o->ev[o->nev++];
	memset(e, 0, sizeof(*e));
	e->name = pk_xstrndup(arg, nl);
	e->kind = colon ? pk_xstrndup(colon + 1, (size_t)(eq - colon - 1)) : NULL;
	e->helper = -1;
	const char *at = strrchr(eq + 1, '@');
	if (at) {
		if (!valid_name(at + 1, strlen(at + 1)))
			return pk_error("--event '%s': '%s' after '@' is not a function name", arg, at + 1);
		e->spec = pk_xstrndup(eq + 1, (size_t)(at - eq - 1));
		e->func = pk_xstrdup(at + 1);
	} else {
		e->spec = pk_xstrdup(eq + 1);
	}
	return 0;
}

/* Options that take one string; a host expression may not be empty. */
static const struct {
	const char *name;
	size_t off;
	int expr;
} str_opts[] = {
    {"--generation", offsetof(struct tt_opts, generation), 1},
    {"--invocation", offsetof(struct tt_opts, invocation), 1},
    {"--invocations", offsetof(struct tt_opts, invocations), 1},
    {"--target", offsetof(struct tt_opts, target), 0},
    {"--test-script", offsetof(struct tt_opts, test_script), 0},
    {"-p", offsetof(struct tt_opts, build_dir), 0},
    {"--kernel", offsetof(struct tt_opts, kernel_name), 0},
    {"--core-type", offsetof(struct tt_opts, core), 0},
    {"--host", offsetof(struct tt_opts, host), 0},
    {"--host-out", offsetof(struct tt_opts, host_out), 0},
    {"--slots", offsetof(struct tt_opts, slots), 0},
    {"--events-out", offsetof(struct tt_opts, events_out), 0},
};

/* An option with an argument ARG (NULL when none is left); 1 when A is not
 * one of them. */
static int arg_opt(struct tt_opts *o, const char *a, const char *arg)
{
	size_t k = 0, nk = sizeof(str_opts) / sizeof(str_opts[0]);
	while (k < nk && strcmp(a, str_opts[k].name))
		k++;
	if (k == nk && strcmp(a, "--event") && strcmp(a, "--func-id") && strcmp(a, "--edit") && strcmp(a, "-o"))
		return 1;
	if (!arg)
		return pk_error("option '%s' needs an argument", a);
	if (k < nk) {
		if (str_opts[k].expr && !*arg)
			return pk_error("%s needs a host expression", a);
		*(const char **)((char *)o + str_opts[k].off) = arg;
	} else if (!strcmp(a, "--event")) {
		return add_event(o, arg);
	} else if (!strcmp(a, "--func-id")) {
		char *end;
		o->func_id = strtol(arg, &end, 10);
		if (*end || o->func_id < 0)
			return pk_error("--func-id '%s': expected a kernel id (0, 1, ...)", arg);
	} else if (!strcmp(a, "--edit")) {
		PK_GROW(o->edit, o->cap_edit, o->nedit + 1);
		o->edit[o->nedit++] = arg;
	} else {
		o->emit.mode = PK_EMIT_OUTFILE;
		o->emit.out_path = arg;
	}
	return 0;
}

/* Options that go together, or cannot. */
static int check_opts(const struct tt_opts *o)
{
	if (!o->kernel)
		return pk_error("--timing-tensor needs a kernel file");
	if (o->host && o->emit.mode == PK_EMIT_OUTFILE && !o->host_out)
		return pk_error("--host with -o needs --host-out FILE (the host file would be rewritten in place)");
	if (o->host && o->emit.mode == PK_EMIT_STDOUT)
		return pk_error("--host cannot go to --stdout: two files would be mixed; use -o and --host-out");
	if (o->host_out && !o->host)
		return pk_error("--host-out without --host");
	if (!o->invocation != !o->invocations)
		return pk_error("--invocation EXPR and --invocations K go together");
	if (o->nedit && o->emit.mode == PK_EMIT_STDOUT)
		return pk_error("--edit cannot go to --stdout: several files would be mixed; use -o");
	if (o->test_script && !o->host)
		return pk_error("--test-script goes with --host ORCHESTRATION.cpp");
	if (o->test_script && o->emit.mode == PK_EMIT_STDOUT)
		return pk_error("--test-script cannot go to --stdout: use -o");
	if (o->core && strcmp(o->core, "aiv") && strcmp(o->core, "aic") && strcmp(o->core, "mix"))
		return pk_error("--core-type '%s': expected aiv, aic or mix", o->core);
	return 0;
}

static int parse_opts(int argc, char **argv, struct tt_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--timing-tensor"))
			continue;
		if (!strcmp(a, "--")) {
			o->extra = argv + i + 1;
			o->nextra = argc - i - 1;
			break;
		}
		int rc = arg_opt(o, a, i + 1 < argc ? argv[i + 1] : NULL);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			i++;
			continue;
		}
		if (!strcmp(a, "--stdout"))
			o->emit.mode = PK_EMIT_STDOUT;
		else if (!strcmp(a, "--diff"))
			o->emit.mode = PK_EMIT_DIFF;
		else if (!strcmp(a, "--check"))
			o->emit.mode = PK_EMIT_CHECK;
		else if (a[0] == '-' && a[1])
			return pk_error("unknown option '%s' for --timing-tensor (see --help)", a);
		else if (o->kernel)
			return pk_error("--timing-tensor takes one kernel file ('%s', '%s')", o->kernel, a);
		else
			o->kernel = a;
	}
	return check_opts(o);
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
static const char *pick_prefix(const struct tt_tu *k, const struct tt_tu *h, const struct tt_spec *sp, char *buf,
                               size_t cap)
{
	for (int i = 0; i < 100; i++) {
		if (i == 0)
			snprintf(buf, cap, "pk_tt_");
		else
			snprintf(buf, cap, "pk_tt%d_", i);
		int used = tt_ident_prefix_used(k, buf) || (h && tt_ident_prefix_used(h, buf));
		for (size_t x = 0; x < sp->nextra && !used; x++)
			used = tt_ident_prefix_used(&sp->extra[x].view, buf);
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
	struct tt_tu kt, ht;
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
		tt_tu_view(&x->view, &j->kt, f, &x->b);
		x->have_view = 1;
		if (o->emit.mode == PK_EMIT_OUTFILE) {
			/* next to -o, under the file's own name */
			const char *out = o->emit.out_path, *slash = strrchr(out, '/');
			const char *base = strrchr(x->path, '/');
			base = base ? base + 1 : x->path;
			struct tt_sb sb = {0};
			if (slash)
				tt_sb_addn(&sb, out, (size_t)(slash - out + 1));
			tt_sb_add(&sb, base);
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
	if (tt_parse(&j->ht, &j->hb, 0, NULL, o->extra, o->nextra) < 0)
		return -1;
	j->host_orch = tt_orch_is(&j->ht);
	if (o->test_script && !j->host_orch)
		return pk_error("--test-script goes with a simpler orchestration (rt_submit_*_task) as --host");
	if (!j->host_orch)
		return 0;
	if (o->test_script) {
		if (load_file(&j->tb, &j->have_tb, o->test_script, o, 0) < 0)
			return -1;
		if (j->func_id < 0)
			j->func_id = tt_py_test_func_id(&j->tb, o->kernel);
	}
	j->k.host_tensors = tt_orch_tensors(&j->ht, j->func_id);
	return j->k.host_tensors < 0 ? -1 : 0;
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

static int plan_all(struct job *j)
{
	struct tt_opts *o = &j->o;
	if (tt_rules_load(&j->rules) < 0 || pk_ast_rules_load(&j->async) < 0 ||
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
	if (prc < 0 || tt_kernel_find_prof(&j->kt, o->kernel_name, &j->k, acc, desc) < 0 || load_host(j) < 0 ||
	    tt_kernel_abi(&j->kt, &j->k) < 0)
		return -1;
	if (o->core)
		j->k.core = !strcmp(o->core, "mix") ? TT_MIX : !strcmp(o->core, "aic") ? TT_AIC : TT_AIV;
	j->sp.slots = o->slots;
	j->sp.timing_index = (int)j->k.ntensors;
	j->sp.generation = o->generation;
	j->sp.generation_index = (int)(j->k.ntensors + 1 + j->k.nscalars);
	j->sp.invocation = o->invocation;
	j->sp.invocations = o->invocations;
	j->sp.row0_index = j->sp.generation_index + (o->generation ? 1 : 0);
	j->sp.kernel_file = o->kernel;
	if (load_extras(j) < 0)
		return -1;
	j->sp.prefix =
	    pick_prefix(&j->kt, j->have_hb && !j->host_py ? &j->ht : NULL, &j->sp, j->prefix, sizeof(j->prefix));
	if (!j->sp.prefix)
		return pk_error("%s: no free 'pk_tt*_' name prefix", o->kernel);
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
	struct tt_sb path = {0};
	if (o->events_out)
		tt_sb_add(&path, o->events_out);
	else
		tt_sb_addf(&path, "%s.timing.json", o->emit.mode == PK_EMIT_OUTFILE ? o->emit.out_path : o->kernel);
	size_t len;
	char *json = tt_sidecar_json(&j->k, &j->sp, &len);
	int rc = pk_txn_add(txn, path.s, json, len, NULL, NULL, 0);
	free(json);
	tt_sb_free(&path);
	return rc;
}

/* With -o a further file's result goes next to OUT under its own name. */
static char *beside_out(const struct tt_opts *o, const char *path)
{
	const char *out = o->emit.out_path, *slash = strrchr(out, '/');
	const char *base = strrchr(path, '/');
	struct tt_sb sb = {0};
	if (slash)
		tt_sb_addn(&sb, out, (size_t)(slash - out + 1));
	tt_sb_add(&sb, base ? base + 1 : path);
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
	for (size_t i = 0; i < j->o.nev; i++) {
		free(j->o.ev[i].name);
		free(j->o.ev[i].kind);
		free(j->o.ev[i].spec);
		free(j->o.ev[i].func);
	}
	free(j->o.ev);
	for (size_t i = 0; i < j->sp.nextra; i++) {
		struct tt_extra *x = &j->sp.extra[i];
		if (x->have_view)
			tt_tu_free(&x->view);
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
	free(j->o.edit);
	tt_kernel_free(&j->k);
	tt_tu_free(&j->kt);
	tt_tu_free(&j->ht);
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

int pk_tt_inject_main(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return usage(stdout);
		if (!strcmp(argv[i], "--version"))
			return pk_print_version();
	}
	struct job j;
	memset(&j, 0, sizeof(j));
	pk_plan_init(&j.kp);
	pk_plan_init(&j.hp);
	pk_plan_init(&j.tp);
	j.o.func_id = -1;
	int rc = PK_EXIT_ERROR;
	if (parse_opts(argc, argv, &j.o) == 0 && plan_all(&j) == 0)
		rc = emit_all(&j);
	free_job(&j);
	return rc;
}
