/* cmd_inject.c - probe-inject: enable or disable existing probe blocks
 * (text only), or hand over to the libclang module to insert a new probe
 * (--begin/--end/--around/--wait/--base) or the timing tensor. */
#include "modload.h"
#include "pk.h"
#include "probeset.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: probe-inject --probe NAME [options] FILE...\n"
    "       probe-inject --disable NAME | --disable-all [options] FILE...\n"
    "       probe-inject --probe NAME --begin SPEC --end SPEC | --around CALLEE | --wait CALLEE | --base FILE\n"
    "       probe-inject --timing-tensor --slots EXPR [--event NAME[:KIND]=PLACE...] KERNEL [--host FILE]\n"
    "\n"
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
    "      --no-base         do not also enable the base probe " PK_BASE_PROBE "\n"
    "  placement (insert a new probe on the libclang AST; see 'probe-inject --probe N --begin x --help'):\n"
    "      --begin SPEC --end SPEC, --around CALLEE, --wait CALLEE, --base\n"
    "      -p BUILD_DIR      (with placement) read compile flags from BUILD_DIR/compile_commands.json\n"
    "                        (or -p the compile_commands.json file itself)\n"
    "      --timing-tensor   add the CCE in-core timing tensor and shift args[];\n"
    "                        with --event, --edit, --slots, --host, --host-out, --kernel,\n"
    "                        --core-type, --generation, --invocation, --invocations,\n"
    "                        --events-out, -p ('probe-inject --timing-tensor --help', docs/timing.md)\n" PK_EMIT_HELP
    "  -h, --help            this help;  --version  the version\n"
    "\n"
    "exit: 0 done or nothing to do, 1 --check or --diff and something would change,\n"
    "      2 usage or input error (nothing written)\n";

/* Options that need the AST: the whole command goes to the libclang module. */
static const char *module_entry(int argc, char **argv)
{
	static const char *const placement[] = {"--begin", "--end", "--around", "--wait", "--base", NULL};
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strncmp(argv[i], "--timing-tensor", 15))
			return "pk_tt_inject_main";
		for (const char *const *p = placement; *p; p++) {
			size_t l = strlen(*p);
			if (!strncmp(argv[i], *p, l) && (argv[i][l] == '\0' || argv[i][l] == '='))
				return "pk_ast_inject_main";
		}
	}
	return NULL;
}

enum action { ACT_NONE, ACT_ENABLE, ACT_DISABLE, ACT_DISABLE_ALL };

struct inject_opts {
	enum action act;
	const char *name;
	int allow_multiple;
	int no_base;
	struct pk_emit_opts emit;
};

static int set_action(struct inject_opts *o, enum action a, const char *name)
{
	if (o->act != ACT_NONE)
		return pk_error("give one of --probe, --disable, --disable-all");
	o->act = a;
	o->name = name;
	return 0;
}

static int parse(int argc, char **argv, struct inject_opts *o, int *done)
{
	enum { OPT_PROBE = 1, OPT_DISABLE, OPT_DISABLE_ALL, OPT_ALLOW, OPT_NO_BASE };
	static const struct option longopts[] = {
	    {"probe", required_argument, 0, OPT_PROBE},
	    {"disable", required_argument, 0, OPT_DISABLE},
	    {"disable-all", no_argument, 0, OPT_DISABLE_ALL},
	    {"allow-multiple", no_argument, 0, OPT_ALLOW},
	    {"no-base", no_argument, 0, OPT_NO_BASE},
	    PK_COMMON_LONGOPTS,
	    PK_EMIT_LONGOPTS,
	    {0, 0, 0, 0},
	};
	int c;
	*done = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:p:h", longopts, NULL)) != -1) {
		int r = pk_emit_option(&o->emit, c, optarg);
		if (r < 0)
			return -1;
		if (r)
			continue;
		switch (c) {
		case OPT_PROBE:
			if (set_action(o, ACT_ENABLE, optarg) < 0)
				return -1;
			break;
		case OPT_DISABLE:
			if (set_action(o, ACT_DISABLE, optarg) < 0)
				return -1;
			break;
		case OPT_DISABLE_ALL:
			if (set_action(o, ACT_DISABLE_ALL, NULL) < 0)
				return -1;
			break;
		case OPT_ALLOW:
			o->allow_multiple = 1;
			break;
		case OPT_NO_BASE:
			o->no_base = 1;
			break;
		case 'p':
			return pk_error(
			    "'-p BUILD_DIR' goes with a placement option (--begin, --end, --around, --wait, "
			    "--base) or --timing-tensor; to enable a probe use --probe NAME");
		default: {
			int rc;
			pk_common_option(c, argv, usage_text, &rc);
			*done = 1;
			return rc == PK_EXIT_OK ? 0 : -1;
		}
		}
	}
	if (o->act == ACT_NONE)
		return pk_error("nothing to do: give --probe NAME, --disable NAME or --disable-all (see --help)");
	if (o->name && !pk_probe_name_ok(o->name))
		return pk_error("'%s' is not a probe name ([A-Za-z_][A-Za-z0-9_]*)", o->name);
	if (optind >= argc)
		return pk_error("no input files (use '-' for standard input)");
	return pk_emit_validate(&o->emit, (size_t)(argc - optind));
}

static void plan_value(struct pk_file *f, const struct pk_block *b, int value)
{
	if (b->enabled != value)
		pk_plan_add(&f->plan, b->value_off, b->value_off + 1, value ? "1" : "0", 1);
}

/* One probe per run: a probe other than NAME already on anywhere in the set? */
static int refuse_others(struct pk_fileset *fs, const char *name, int allow)
{
	const struct pk_file *first_f = NULL;
	const struct pk_block *first = NULL;
	size_t len = 0;
	char *others = pk_xcalloc(1, 1);
	unsigned char *seen = pk_xcalloc(fs->nnames, 1);
	for (size_t i = 0; i < fs->n; i++) {
		const struct pk_file *f = &fs->f[i];
		for (size_t k = 0; k < f->src.scan.nblocks; k++) {
			const struct pk_block *b = &f->src.scan.blocks[k];
			if (!b->enabled || !strcmp(b->name, name) || !strcmp(b->name, PK_BASE_PROBE))
				continue; /* the base probe runs with any one probe */
			if (!first) {
				first = b;
				first_f = f;
			}
			if (seen[f->name_of[k]]++)
				continue;
			others = pk_xrealloc(others, len + strlen(b->name) + 5);
			len += (size_t)sprintf(others + len, "%s'%s'", len ? ", " : "", b->name);
		}
	}
	free(seen);
	int rc = 0;
	if (first && allow)
		pk_warning("probes %s and '%s' enabled together: each probe's printf delays the code after it "
		           "and contaminates the other probes' start, end and gaps; compare runs with one probe each",
		           others, name);
	else if (first)
		rc = pk_error(
		    "%s:%u: probe '%s' is already enabled; enable one probe at a time (its printf "
		    "skews every other probe): run 'probe-inject --disable-all' first, or pass --allow-multiple",
		    first_f->src.buf.path, first->line, first->name);
	free(others);
	return rc;
}

/* Is a probe other than NAME and the base probe on? Then the base stays on. */
static int others_on(const struct pk_fileset *fs, const char *name)
{
	for (size_t i = 0; i < fs->n; i++)
		for (size_t k = 0; k < fs->f[i].src.scan.nblocks; k++) {
			const struct pk_block *b = &fs->f[i].src.scan.blocks[k];
			if (b->enabled && strcmp(b->name, name) && strcmp(b->name, PK_BASE_PROBE))
				return 1;
		}
	return 0;
}

int cmd_inject(int argc, char **argv)
{
	const char *entry = module_entry(argc, argv);
	if (entry)
		return pk_module_call(entry, argc, argv);

	struct inject_opts o = {0};
	int done;
	if (parse(argc, argv, &o, &done) < 0)
		return PK_EXIT_ERROR;
	if (done)
		return PK_EXIT_OK;

	struct pk_fileset fs;
	int load_flags = o.emit.mode == PK_EMIT_INPLACE ? PK_LOAD_FOR_WRITE : 0;
	int rc = PK_EXIT_ERROR;
	if (pk_fileset_load(&fs, argv + optind, (size_t)(argc - optind), load_flags, 0) < 0)
		goto out;
	if (o.name && !pk_fileset_has(&fs, o.name)) {
		pk_fileset_unknown(&fs, o.name);
		goto out;
	}
	if (o.act == ACT_ENABLE && strcmp(o.name, PK_BASE_PROBE) && refuse_others(&fs, o.name, o.allow_multiple) < 0)
		goto out;
	int base_off = o.act == ACT_DISABLE && !o.no_base && !others_on(&fs, o.name);
	for (size_t i = 0; i < fs.n; i++) {
		struct pk_file *f = &fs.f[i];
		for (size_t k = 0; k < f->src.scan.nblocks; k++) {
			const struct pk_block *b = &f->src.scan.blocks[k];
			int base = (o.act == ACT_ENABLE && !o.no_base) || base_off;
			if (o.act == ACT_DISABLE_ALL || !strcmp(b->name, o.name) ||
			    (base && !strcmp(b->name, PK_BASE_PROBE)))
				plan_value(f, b, o.act == ACT_ENABLE);
		}
	}
	size_t changed;
	if (pk_fileset_emit(&fs, &o.emit, &changed) < 0)
		goto out;
	rc = pk_emit_exit(&o.emit, changed);
out:
	pk_fileset_free(&fs);
	return rc;
}
