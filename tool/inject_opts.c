/* inject_opts.c - probe-inject's one option table, its parser and its help
 * text. Every form of the command (blocks, insertion, the timing tensor)
 * reads the same table; the form is decided from what was parsed, then the
 * options are checked against the form's column of the table. */
#include "embed.h"
#include "inject.h"
#include "scan.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum {
	O_PROBE = 0x100,
	O_DISABLE,
	O_DISABLE_ALL,
	O_ALLOW,
	O_NO_BASE,
	O_BEGIN,
	O_END,
	O_AROUND,
	O_WAIT,
	O_BASE,
	O_OFF,
	O_ALL_BLOCKS,
	O_TU,
	O_TIMING,
	O_EVENT,
	O_EDIT,
	O_FUNC_ID,
	O_VERBOSE,
	O_VALUE, /* an option that only stores its value (see the table) */
};

#define F_BLOCKS (1u << PK_INJECT_BLOCKS)
#define F_PLACE  (1u << PK_INJECT_PLACE)
#define F_TIMING (1u << PK_INJECT_TIMING)
#define FIELD(f) offsetof(struct pk_inject_opts, f)

/* How an O_VALUE option stores its value at FIELD. */
enum store { STORE_NONE, STORE_STRING, STORE_EXPR /* a host expression: not empty */, STORE_FLAG };

static const struct inject_option {
	const char *name; /* the long name; NULL for -p, which has only the short one */
	int has_arg;
	int code;       /* an O_* code, or O_VALUE */
	unsigned forms; /* the forms that take it */
	enum store store;
	size_t field;
} table[] = {
    {"probe", required_argument, O_PROBE, F_BLOCKS | F_PLACE, STORE_NONE, 0},
    {"disable", required_argument, O_DISABLE, F_BLOCKS, STORE_NONE, 0},
    {"disable-all", no_argument, O_DISABLE_ALL, F_BLOCKS, STORE_NONE, 0},
    {"allow-multiple", no_argument, O_VALUE, F_BLOCKS | F_PLACE, STORE_FLAG, FIELD(allow_multiple)},
    {"no-base", no_argument, O_VALUE, F_BLOCKS | F_PLACE, STORE_FLAG, FIELD(no_base)},
    {"begin", required_argument, O_BEGIN, F_PLACE, STORE_NONE, 0},
    {"end", required_argument, O_END, F_PLACE, STORE_NONE, 0},
    {"around", required_argument, O_AROUND, F_PLACE, STORE_NONE, 0},
    {"wait", required_argument, O_WAIT, F_PLACE, STORE_NONE, 0},
    {"base", optional_argument, O_BASE, F_PLACE, STORE_NONE, 0},
    {"off", no_argument, O_VALUE, F_PLACE, STORE_FLAG, FIELD(off)},
    {"all-blocks", no_argument, O_VALUE, F_PLACE, STORE_FLAG, FIELD(all_blocks)},
    {"tu", required_argument, O_VALUE, F_PLACE, STORE_STRING, FIELD(tu)},
    {"api", required_argument, O_VALUE, F_PLACE | F_TIMING, STORE_STRING, FIELD(api)},
    {NULL, required_argument, 'p', F_PLACE | F_TIMING, STORE_STRING, FIELD(build_dir)},
    {"timing-tensor", no_argument, O_TIMING, F_TIMING, STORE_NONE, 0},
    {"event", required_argument, O_EVENT, F_TIMING, STORE_NONE, 0},
    {"edit", required_argument, O_EDIT, F_TIMING, STORE_NONE, 0},
    {"func-id", required_argument, O_FUNC_ID, F_TIMING, STORE_NONE, 0},
    {"kernel", required_argument, O_VALUE, F_TIMING, STORE_STRING, FIELD(kernel_name)},
    {"core-type", required_argument, O_VALUE, F_TIMING, STORE_STRING, FIELD(core_type)},
    {"host", required_argument, O_VALUE, F_TIMING, STORE_STRING, FIELD(host)},
    {"host-out", required_argument, O_VALUE, F_TIMING, STORE_STRING, FIELD(host_out)},
    {"host-by-hand", no_argument, O_VALUE, F_TIMING, STORE_FLAG, FIELD(host_by_hand)},
    {"slots", required_argument, O_VALUE, F_TIMING, STORE_STRING, FIELD(slots)},
    {"events-out", required_argument, O_VALUE, F_TIMING, STORE_STRING, FIELD(events_out)},
    {"generation", required_argument, O_VALUE, F_TIMING, STORE_EXPR, FIELD(generation)},
    {"invocation", required_argument, O_VALUE, F_TIMING, STORE_EXPR, FIELD(invocation)},
    {"invocations", required_argument, O_VALUE, F_TIMING, STORE_EXPR, FIELD(invocations)},
    {"target", required_argument, O_VALUE, F_TIMING, STORE_STRING, FIELD(target)},
    {"test-script", required_argument, O_VALUE, F_TIMING, STORE_STRING, FIELD(test_script)},
    {"test-script-by-hand", no_argument, O_VALUE, F_TIMING, STORE_FLAG, FIELD(test_script_by_hand)},
    {"verbose", no_argument, O_VERBOSE, F_PLACE | F_TIMING, STORE_NONE, 0},
    {"quiet", no_argument, 'q', F_BLOCKS | F_PLACE | F_TIMING, STORE_NONE, 0},
};
enum { NTABLE = sizeof(table) / sizeof(table[0]) };

/* getopt_long's view of the table, the output options and --help/--version. */
static const struct option *longopts(void)
{
	static const struct option shared[] = {PK_COMMON_LONGOPTS, PK_EMIT_LONGOPTS, {0, 0, 0, 0}};
	static struct option v[NTABLE + sizeof(shared) / sizeof(shared[0])];
	if (v[0].name)
		return v;
	size_t n = 0;
	for (size_t i = 0; i < NTABLE; i++)
		if (table[i].name)
			v[n++] = (struct option){table[i].name, table[i].has_arg, 0, (int)(0x4000 + i)};
	memcpy(v + n, shared, sizeof(shared));
	return v;
}

/* ---- the help text: one text, a section per form ---- */

static const char *const usage_lines[PK_INJECT_FORMS] = {
    "probe-inject --probe NAME [options] FILE...\n"
    "       probe-inject --disable NAME | --disable-all [options] FILE...\n",
    "probe-inject --probe NAME --begin SPEC --end SPEC [options] FILE [-- CLANG-ARGS]\n"
    "       probe-inject --probe NAME --around CALLEE | --wait CALLEE [options] FILE [-- CLANG-ARGS]\n"
    "       probe-inject --base[=FUNC] [--probe NAME] [options] FILE [-- CLANG-ARGS]\n",
    "probe-inject --timing-tensor [--event NAME[:KIND]=PLACE[@FUNC]]... [options] KERNEL\n"
    "         [-- CLANG-ARGS]\n",
};

static const char *const sections[PK_INJECT_FORMS] = {
    "Enable every block of probe NAME (its start and end parts together) by\n"
    "changing '#if 0  // TIMING_PROBE: NAME' to '#if 1'. One probe at a time:\n"
    "each probe's printf delays the code after it and skews other probes.\n"
    "The base probe " PK_BASE_PROBE " (one print at entry, the zero of the timeline)\n"
    "is enabled with it when the files have one, and --disable NAME turns it\n"
    "off again unless another probe is still on.\n"
    "\n"
    "      --probe NAME      enable probe NAME (in all given files)\n"
    "      --disable NAME    turn probe NAME off\n"
    "      --disable-all     turn every probe off\n"
    "      --allow-multiple  allow enabling a probe while another is on (warns)\n"
    "      --no-base         do not also enable the base probe " PK_BASE_PROBE "\n",

    "Insert a new canonical probe at places found on the libclang AST,\n"
    "enabled ('#if 1') unless --off, and with it the base probe " PK_BASE_PROBE " at the\n"
    "kernel entry (enabled, or inserted when the file has none). One probe at a\n"
    "time: refused while another probe is on. The result is parsed again and\n"
    "refused when the inserted lines do not parse. probe-strip --probe NAME\n"
    "removes it again, byte for byte.\n"
    "\n"
    "  SPEC: after:CALLEE | before:CALLEE  the statement holding the call\n"
    "                                      (CALLEE#n: the n-th call)\n"
    "        line:N                        the statement starting on line N\n"
    "                                      (start: before it, end: after it)\n"
    "        entry:FUNC                    before FUNC's first statement\n"
    "        exit:FUNC                     before every return and the closing brace\n"
    "      --begin SPEC --end SPEC  start and end of the new probe\n"
    "      --around CALLEE   start before, end after the statement holding the call\n"
    "      --wait CALLEE     a wait probe around a wait call\n"
    "      --base[=FUNC]     [" PK_BASE_PROBE "] at the kernel entry; NAME defaults to " PK_BASE_PROBE "\n"
    "      --probe NAME      the probe's name\n"
    "      --off             insert it disabled ('#if 0')\n"
    "      --allow-multiple  insert it enabled while another probe is on (warns)\n"
    "      --no-base         do not also insert (or enable) the base probe " PK_BASE_PROBE "\n"
    "                        at the kernel entry\n"
    "      --all-blocks      every block prints, with " PK_NAME_LOG_BLOCK "\n"
    "      --api KIND        the probe's API, ascendc|pto|cce (rules/api.ini; default:\n"
    "                        from the includes and the entry: kernel_operator.h is\n"
    "                        ascendc, simpler's kernel_entry(__gm__ int64_t *args) or\n"
    "                        runtime headers pto, else cce); the diff says which\n"
    "  -p BUILD_DIR          compile flags from BUILD_DIR/compile_commands.json\n"
    "                        (or -p the compile_commands.json file itself)\n"
    "      --tu SOURCE       parse a header FILE in the unit of SOURCE (default: a\n"
    "                        source file beside or above it that includes it)\n"
    "  -- ARGS...            extra compiler arguments (-I, -D, ...)\n",

    "Add the in-core timing tensor: an INT64 output timing[slots][8k], the entry\n"
    "sample, event samples kept in locals, and before every exit body_done, the\n"
    "slot's row and its cache writeback; every packed args[] index after the new\n"
    "tensor is renumbered. probe-strip --timing-tensor undoes it byte for byte\n"
    "(docs/timing.md).\n"
    "\n"
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
    "  --core-type T       slot mapping aiv|aic|mix (default: from KERNEL_TYPE_* /\n"
    "                      ASCEND_IS_* marks)\n"
    "  --host FILE         also update the host orchestration or packed argument array;\n"
    "                      FILE.py[:EXTERN]: a pypto @{pypto.decorator} signature and its calls\n"
    "  --target T          profile of rules/timing.ini [target.T], simpler|ascendc\n"
    "                      (default: from the includes)\n"
    "  --api KIND          cycle read, block index and row writeback of rules/api.ini\n"
    "                      [KIND], ascendc|pto|cce (default: the profile's kind, pto\n"
    "                      for simpler, ascendc for ascendc and without a profile)\n"
    "  --test-script FILE  simpler test script: golden {test_script.tensorarg}, signatures, comparator\n"
    "  --test-script-by-hand  no --test-script: you add the timing argument to the test\n"
    "                      script naming the orchestration yourself\n"
    "  --func-id N[,M...]  the kernel's {test_script.func_id} in the orchestration (default: the test\n"
    "                      script's entry for the kernel file, or the only one); M...: other\n"
    "                      ids the same source is built under (the lanes of a mixed task)\n"
    "  --host-out FILE     write the host result there (needed with -o)\n"
    "  --host-by-hand      no --host: you change the host side yourself (the kernel's\n"
    "                      ABI changes: without --host or this, nothing is written)\n"
    "  --slots EXPR        rows of one run (counted from a simpler orchestration's\n"
    "                      submits, constant loops and block counts; when they cannot\n"
    "                      be counted, a room of 4096 rows ([slot] room) that a longer\n"
    "                      run wraps in, and probe-report names the --slots it needs)\n"
    "  --events-out FILE   event map for probe-report (default OUT.timing.json)\n"
    "  -p BUILD_DIR        compiler flags from BUILD_DIR/compile_commands.json\n"
    "  -- ARGS...          extra compiler arguments (-I, -D, ...)\n",
};

static const char *const headings[PK_INJECT_FORMS] = {
    "enable or disable probes:\n",
    "insert a new probe (the libclang module; 'probe-inject --begin x --help' shows only this):\n",
    "the timing tensor (the libclang module; 'probe-inject --timing-tensor --help' shows only this):\n",
};

/* rules/timing.ini as the help reads it, once: "SECTION.KEY=VALUE" each. */
struct help_rules {
	char **kv;
	size_t n, cap;
	int read; /* 1 read, -1 unreadable */
};

static int on_help_rule(void *user, const char *section, const char *key, const char *value, unsigned line)
{
	struct help_rules *h = user;
	(void)line;
	PK_GROW(h->kv, h->cap, h->n + 1);
	h->kv[h->n++] = pk_xasprintf("%s.%s=%s", section, key, value);
	return 0;
}

/* The value of REF ("SECTION.KEY", N bytes), the last setting; NULL if none. */
static const char *help_rule(struct help_rules *h, const char *ref, size_t n)
{
	if (!h->read)
		h->read = pk_ini_parse_rules("timing.ini", on_help_rule, h) == 0 ? 1 : -1;
	for (size_t i = h->n; h->read > 0 && i-- > 0;)
		if (!strncmp(h->kv[i], ref, n) && h->kv[i][n] == '=')
			return h->kv[i] + n + 1;
	return NULL;
}

/* TEXT with each {SECTION.KEY} the word of rules/timing.ini it names (the
 * rules a run reads), so the help spells the words the tool looks for; a
 * word the rules do not give is left as its reference. */
static void put_help(FILE *out, const char *text, struct help_rules *h)
{
	for (const char *p = text; *p;) {
		const char *o = strchr(p, '{');
		size_t n = o ? strspn(o + 1, "abcdefghijklmnopqrstuvwxyz_.") : 0;
		if (!o || !n || o[1 + n] != '}' || !memchr(o + 1, '.', n)) {
			size_t upto = o ? (size_t)(o - p) + 1 : strlen(p);
			fwrite(p, 1, upto, out);
			p += upto;
			continue;
		}
		fwrite(p, 1, (size_t)(o - p), out);
		const char *v = help_rule(h, o + 1, n);
		if (v)
			fputs(v, out);
		else
			fwrite(o, 1, n + 2, out);
		p = o + n + 2;
	}
}

void pk_inject_usage(FILE *out, enum pk_inject_form form)
{
	int all = form == PK_INJECT_FORMS;
	fputs("usage: ", out);
	for (int f = 0; f < PK_INJECT_FORMS; f++)
		if (all || f == (int)form)
			fprintf(out, "%s%s", f && all ? "       " : "", usage_lines[f]);
	struct help_rules h = {NULL, 0, 0, 0};
	for (int f = 0; f < PK_INJECT_FORMS; f++)
		if (all || f == (int)form) {
			fprintf(out, "\n%s", all ? headings[f] : "");
			put_help(out, sections[f], &h);
		}
	for (size_t i = 0; i < h.n; i++)
		free(h.kv[i]);
	free(h.kv);
	fputs("\n" PK_EMIT_HELP "  -q, --quiet           no warnings (errors still print)\n"
	      "      --verbose         every parse error libclang reports (default: a count\n"
	      "                        past three, with the first)\n"
	      "  -h, --help            this help;  --version  the version\n"
	      "\n"
	      "exit: 0 done or nothing to do, 1 --check or --diff and something would change,\n"
	      "      2 usage or input error (nothing written)\n",
	      out);
}

/* ---- the parser ---- */

static int set_place(struct pk_inject_opts *o, enum pk_placement p)
{
	if (o->place != PK_PLACE_NONE && o->place != p)
		return pk_error("give one placement: --begin/--end, --around, --wait or --base");
	o->place = p;
	return 0;
}

/* --event NAME[:KIND]=PLACE[@FUNC], split into its parts. */
static int add_event(struct pk_inject_opts *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq)
		return pk_error("--event '%s': expected NAME[:KIND]=PLACE", arg);
	const char *colon = memchr(arg, ':', (size_t)(eq - arg));
	size_t nl = (size_t)((colon ? colon : eq) - arg);
	PK_GROW(o->events, o->cap_events, o->nevents + 1);
	struct pk_inject_event *e = &o->events[o->nevents++];
	memset(e, 0, sizeof(*e));
	e->name = pk_xstrndup(arg, nl);
	if (!pk_probe_name_ok(e->name))
		return pk_error("--event '%s': '%.*s' is not a valid event name", arg, (int)nl, arg);
	e->kind = colon ? pk_xstrndup(colon + 1, (size_t)(eq - colon - 1)) : NULL;
	const char *at = strrchr(eq + 1, '@');
	e->place = at ? pk_xstrndup(eq + 1, (size_t)(at - eq - 1)) : pk_xstrdup(eq + 1);
	if (!at)
		return 0;
	e->func = pk_xstrdup(at + 1);
	if (!pk_probe_name_ok(e->func))
		return pk_error("--event '%s': '%s' after '@' is not a function name", arg, e->func);
	return 0;
}

/* An option of the table with its value ARG: 0 or -1 (message printed). */
static int take(struct pk_inject_opts *o, const struct inject_option *t, const char *arg)
{
	switch (t->code) {
	case O_PROBE:
	case O_DISABLE:
		o->name = arg;
		o->action = t->code == O_PROBE ? PK_BLOCK_ENABLE : PK_BLOCK_DISABLE;
		o->nactions++;
		return 0;
	case O_DISABLE_ALL:
		o->action = PK_BLOCK_DISABLE_ALL;
		o->nactions++;
		return 0;
	case O_BEGIN:
		o->begin = arg;
		return set_place(o, PK_PLACE_RANGE);
	case O_END:
		o->end = arg;
		return set_place(o, PK_PLACE_RANGE);
	case O_AROUND:
	case O_WAIT:
		o->callee = arg;
		return set_place(o, t->code == O_AROUND ? PK_PLACE_AROUND : PK_PLACE_WAIT);
	case O_BASE:
		o->base_func = arg;
		return set_place(o, PK_PLACE_BASE);
	case O_EVENT:
		return add_event(o, arg);
	case O_VERBOSE:
	case 'q':
		pk_set_verbosity(t->code == 'q' ? -1 : 1);
		return 0;
	case O_EDIT:
		PK_GROW(o->edit, o->cap_edit, o->nedit + 1);
		o->edit[o->nedit++] = arg;
		return 0;
	case O_FUNC_ID: {
		char *end;
		const char *p = arg;
		o->nfunc_twins = 0;
		for (size_t k = 0;; k++) {
			long id = strtol(p, &end, 10);
			if (end == p || id < 0 || (*end && *end != ',') || k > 8)
				return pk_error(
				    "--func-id '%s': expected a kernel id (0, 1, ...), or the ids one source is "
				    "built under (11,12; at most 9)",
				    arg);
			if (k)
				o->func_twins[o->nfunc_twins++] = id;
			else
				o->func_id = id;
			if (!*end)
				return 0;
			p = end + 1;
		}
	}
	}
	if (t->store == STORE_FLAG) {
		*(int *)(void *)((char *)o + t->field) = 1;
	} else if (t->store != STORE_NONE) {
		if (t->store == STORE_EXPR && !*arg)
			return pk_error("--%s needs a host expression", t->name);
		*(const char **)(void *)((char *)o + t->field) = arg;
	}
	return 0;
}

/* The row of getopt's code C, or NULL (an output or common option). */
static const struct inject_option *row_of(int c)
{
	if (c == 'p' || c == 'q') /* a short option: the row of its code */
		for (size_t i = 0; i < NTABLE; i++)
			if (table[i].code == c)
				return &table[i];
	if (c >= 0x4000 && c < 0x4000 + NTABLE)
		return &table[c - 0x4000];
	return NULL;
}

/* The form the options given so far ask for; PK_INJECT_FORMS: not told yet
 * (for --help: then the whole text). */
static enum pk_inject_form form_of(const struct pk_inject_opts *o, int final)
{
	for (size_t i = 0; i < NTABLE; i++)
		if (table[i].code == O_TIMING && (o->given >> i & 1))
			return PK_INJECT_TIMING;
	if (o->place != PK_PLACE_NONE)
		return PK_INJECT_PLACE;
	return final ? PK_INJECT_BLOCKS : PK_INJECT_FORMS;
}

#define PLACEMENT "a placement option (--begin/--end, --around, --wait, --base)"

/* Every option given goes with the form. */
static int check_form(const struct pk_inject_opts *o)
{
	static const char *const not_with[PK_INJECT_FORMS] = {NULL, PLACEMENT, "--timing-tensor"};
	if (o->form == PK_INJECT_TIMING && o->place != PK_PLACE_NONE)
		return pk_error("--timing-tensor does not go with " PLACEMENT ": give one form (see --help)");
	for (size_t i = 0; i < NTABLE; i++) {
		const struct inject_option *t = &table[i];
		if (!(o->given >> i & 1) || (t->forms & (1u << o->form)))
			continue;
		if (t->code == 'p')
			return pk_error(
			    "'-p BUILD_DIR' goes with a placement option (--begin, --end, --around, --wait, "
			    "--base) or --timing-tensor; to enable a probe use --probe NAME");
		if (o->form != PK_INJECT_BLOCKS)
			return pk_error("option '--%s' does not go with %s (see --help)", t->name, not_with[o->form]);
		return pk_error("option '--%s' goes with %s (see --help)", t->name,
		                t->forms & F_PLACE ? PLACEMENT : "--timing-tensor");
	}
	return 0;
}

static int check_blocks(struct pk_inject_opts *o)
{
	if (o->nactions > 1)
		return pk_error("give one of --probe, --disable, --disable-all");
	if (o->action == PK_BLOCK_NONE)
		return pk_error("nothing to do: give --probe NAME, --disable NAME or --disable-all (see --help)");
	if (o->name && !pk_probe_name_ok(o->name))
		return pk_error("'%s' is not a probe name ([A-Za-z_][A-Za-z0-9_]*)", o->name);
	if (!o->nfiles)
		return pk_error("no input files (use '-' for standard input)");
	return pk_emit_validate(&o->emit, (size_t)o->nfiles);
}

static int check_place(struct pk_inject_opts *o)
{
	if (o->place == PK_PLACE_RANGE && (!o->begin || !o->end))
		return pk_error("--begin and --end go together");
	if (o->place == PK_PLACE_BASE && !o->name)
		o->name = PK_BASE_PROBE;
	if (!o->name && o->build_dir)
		return pk_error("name the new probe: --probe NAME (with a placement option, -p names the "
		                "build directory holding compile_commands.json)");
	if (!o->name)
		return pk_error("name the new probe: --probe NAME");
	if (!pk_probe_name_ok(o->name))
		return pk_error("'%s' is not a probe name ([A-Za-z_][A-Za-z0-9_]*)", o->name);
	if (!o->nfiles)
		return pk_error("no input file (use '-' for standard input)");
	if (o->nfiles > 1)
		return pk_error("placement works on one file at a time");
	return pk_emit_validate(&o->emit, 1);
}

/* Options of the timing tensor that go together, or cannot. */
static int check_timing(struct pk_inject_opts *o)
{
	enum pk_emit_mode m = o->emit.mode;
	if (o->nfiles > 1)
		return pk_error("--timing-tensor takes one kernel file ('%s', '%s')", o->files[0], o->files[1]);
	if (!o->nfiles)
		return pk_error("--timing-tensor needs a kernel file");
	if (o->host && m == PK_EMIT_OUTFILE && !o->host_out)
		return pk_error("--host with -o needs --host-out FILE (the host file would be rewritten in place)");
	if (o->host && m == PK_EMIT_STDOUT)
		return pk_error("--host cannot go to --stdout: two files would be mixed; use -o and --host-out");
	if (o->host_out && !o->host)
		return pk_error("--host-out without --host");
	if (o->host && o->host_by_hand)
		return pk_error("--host and --host-by-hand: the tool changes the host, or you do; choose one");
	if (!o->invocation != !o->invocations)
		return pk_error("--invocation EXPR and --invocations K go together");
	if (o->nedit && m == PK_EMIT_STDOUT)
		return pk_error("--edit cannot go to --stdout: several files would be mixed; use -o");
	if (o->test_script && !o->host)
		return pk_error("--test-script goes with --host ORCHESTRATION.cpp");
	if (o->test_script && o->test_script_by_hand)
		return pk_error("--test-script and --test-script-by-hand: the tool changes the test script, or you "
		                "do; choose one");
	if (o->test_script_by_hand && !o->host)
		return pk_error("--test-script-by-hand goes with --host ORCHESTRATION.cpp");
	if (o->test_script && m == PK_EMIT_STDOUT)
		return pk_error("--test-script cannot go to --stdout: use -o");
	const char *c = o->core_type;
	if (c && strcmp(c, "aiv") && strcmp(c, "aic") && strcmp(c, "mix"))
		return pk_error("--core-type '%s': expected aiv, aic or mix", c);
	if (!o->host && !o->host_by_hand && (m == PK_EMIT_INPLACE || m == PK_EMIT_OUTFILE))
		return pk_error("--timing-tensor changes the kernel's arguments (one more tensor): name the host "
		                "file that passes them with --host FILE (and the simpler test script with "
		                "--test-script), or say you change it yourself with --host-by-hand; nothing was "
		                "written");
	return 0;
}

/* The input files: the words left before `--`; in the block form the words
 * after it are files too (there is no compiler to hand them to). */
/* One option (pk_options' answers): the output options, then -h (the help
 * of the form asked for so far), then the table's rows. */
static int inject_option(void *user, int c, const char *arg)
{
	struct pk_inject_opts *o = user;
	int r = pk_emit_option(&o->emit, c, arg);
	if (r)
		return r < 0 ? PK_OPT_REFUSED : PK_OPT_TAKEN;
	if (c == 'h') {
		pk_inject_usage(stdout, form_of(o, 0));
		return PK_OPT_DONE;
	}
	const struct inject_option *t = row_of(c);
	if (!t)
		return PK_OPT_OTHER;
	o->given |= 1ull << (t - table);
	return take(o, t, arg) < 0 ? PK_OPT_REFUSED : PK_OPT_TAKEN;
}

static void set_files(struct pk_inject_opts *o, char **argv, int first, int end)
{
	int more = o->form == PK_INJECT_BLOCKS ? o->nextra : 0;
	o->files = pk_xcalloc((size_t)(end - first + more) + 1, sizeof(char *));
	for (int i = first; i < end; i++)
		o->files[o->nfiles++] = argv[i];
	for (int i = 0; i < more; i++)
		o->files[o->nfiles++] = o->extra[i];
}

enum pk_inject_parsed pk_inject_parse(int argc, char **argv, struct pk_inject_opts *o, int *rc)
{
	memset(o, 0, sizeof(*o));
	o->abi = PK_INJECT_ABI;
	o->size = sizeof(*o);
	o->func_id = -1;
	*rc = PK_EXIT_ERROR;
	int nargs = argc;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			nargs = i;
			o->extra = argv + i + 1;
			o->nextra = argc - i - 1;
			break;
		}
	for (int i = 1; i < nargs; i++) /* the word for what --probe does */
		if (!strcmp(argv[i], "--enable") || !strncmp(argv[i], "--enable=", 9)) {
			pk_error("unknown option '%s'; did you mean '--probe'? (probe-inject --probe NAME FILE "
			         "turns probe NAME on; see --help)",
			         argv[i]);
			return PK_INJECT_EXIT;
		}
	if (pk_options(nargs, argv, ":o:p:qh", longopts(), inject_option, o, "", rc))
		return PK_INJECT_EXIT;
	o->form = form_of(o, 1);
	set_files(o, argv, optind, nargs);
	static int (*const check[PK_INJECT_FORMS])(struct pk_inject_opts *) = {check_blocks, check_place, check_timing};
	if (check_form(o) < 0 || check[o->form](o) < 0)
		return PK_INJECT_EXIT;
	*rc = PK_EXIT_OK;
	return PK_INJECT_RUN;
}

void pk_inject_opts_free(struct pk_inject_opts *o)
{
	for (size_t i = 0; i < o->nevents; i++) {
		free(o->events[i].name);
		free(o->events[i].kind);
		free(o->events[i].place);
		free(o->events[i].func);
	}
	free(o->events);
	free(o->edit);
	free(o->files);
	memset(o, 0, sizeof(*o));
}
