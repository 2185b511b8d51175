/* inject.h - probe-inject's options: one parser for every form of the
 * command (enable or disable probe blocks, insert a new probe at a placement
 * on the AST, add the timing tensor) and the struct it fills.
 *
 * The struct is what the core hands across dlopen to the libclang module:
 * `int pk_ast_inject(const struct pk_inject_opts *)` and
 * `int pk_tt_inject(const struct pk_inject_opts *)`. It holds only plain
 * values and pointers into argv or into memory the parser owns; the module
 * reads it and never frees or changes it. A module built from other sources
 * than the executable refuses the struct (pk_inject_opts_ok): ABI and size
 * must match. Any tool/ file may include this. */
#ifndef PK_INJECT_H
#define PK_INJECT_H

#include "emit.h"
#include "pk.h"

#include <stddef.h>

/* Raise when a field of struct pk_inject_opts is added, removed or moved. */
#define PK_INJECT_ABI 2

/* The form of the command, decided from the parsed options: --timing-tensor
 * gives the timing tensor, a placement option gives insertion, else blocks. */
enum pk_inject_form { PK_INJECT_BLOCKS, PK_INJECT_PLACE, PK_INJECT_TIMING, PK_INJECT_FORMS };

/* What the block form does (--probe, --disable, --disable-all). */
enum pk_block_action { PK_BLOCK_NONE, PK_BLOCK_ENABLE, PK_BLOCK_DISABLE, PK_BLOCK_DISABLE_ALL };

/* Where insertion puts the new probe. */
enum pk_placement {
	PK_PLACE_NONE,
	PK_PLACE_RANGE,  /* --begin SPEC --end SPEC */
	PK_PLACE_AROUND, /* --around CALLEE */
	PK_PLACE_WAIT,   /* --wait CALLEE */
	PK_PLACE_BASE,   /* --base[=FUNC] */
};

/* One --event NAME[:KIND]=PLACE[@FUNC], split (kind and func NULL when not
 * given). */
struct pk_inject_event {
	char *name, *kind, *place, *func;
};

struct pk_inject_opts {
	unsigned abi; /* PK_INJECT_ABI of the side that filled it */
	size_t size;  /* sizeof(struct pk_inject_opts) on that side */
	enum pk_inject_form form;

	/* every form */
	const char *name;         /* --probe NAME (or --disable NAME); insertion: T_BASE with --base */
	struct pk_emit_opts emit; /* -o, --stdout, --diff, --check */
	char **files;             /* the input files (one for insertion and the timing tensor) */
	int nfiles;
	char **extra; /* after `--`: compiler arguments (blocks: more files) */
	int nextra;
	const char *build_dir; /* -p BUILD_DIR (insertion, timing tensor) */

	/* enable or disable blocks */
	enum pk_block_action action;
	int allow_multiple, no_base;

	/* insert a new probe */
	enum pk_placement place;
	const char *begin, *end, *callee, *base_func, *tu;
	const char *api; /* --api KIND (rules/api.ini), insertion and the timing tensor */
	int off, all_blocks;

	/* the timing tensor */
	const char *kernel_name, *core_type, *host, *host_out, *slots, *events_out, *generation, *invocation,
	    *invocations, *target, *test_script;
	int host_by_hand; /* --host-by-hand: no --host, the user changes the host side */
	/* --test-script-by-hand: no --test-script, the user adds the test script's timing argument */
	int test_script_by_hand;
	long func_id; /* -1: not given */
	/* --func-id N,M...: the other ids the kernel's source is built under */
	long func_twins[8];
	size_t nfunc_twins;
	struct pk_inject_event *events;
	size_t nevents;
	const char **edit;
	size_t nedit;

	/* the parser's own bookkeeping */
	int nactions;             /* --probe/--disable/--disable-all given, for the block form */
	unsigned long long given; /* one bit per option of the table, in table order */
	size_t cap_events, cap_edit;
};

/* What parsing decided: run the form, or end now with the exit code. */
enum pk_inject_parsed { PK_INJECT_RUN, PK_INJECT_EXIT };

/* Parse ARGV into O (which it clears first) with every option of every
 * form, decide the form and check that the options go together.
 * Returns PK_INJECT_RUN, or PK_INJECT_EXIT with *rc set: PK_EXIT_OK after
 * --help or --version, PK_EXIT_ERROR after one "probekit: ..." line. Free O
 * with pk_inject_opts_free either way. */
enum pk_inject_parsed pk_inject_parse(int argc, char **argv, struct pk_inject_opts *o, int *rc);
void pk_inject_opts_free(struct pk_inject_opts *o);

/* The help text of FORM (PK_INJECT_FORMS: of the whole command). */
void pk_inject_usage(FILE *out, enum pk_inject_form form);

/* Does O come from a side built with this header? (the module asks: a
 * module of another build must not read the struct) */
static inline int pk_inject_opts_ok(const struct pk_inject_opts *o)
{
	if (o->abi == PK_INJECT_ABI && o->size == sizeof(*o))
		return 1;
	pk_error("the libclang module was built from other sources than this probe-inject (options ABI %u, "
	         "expected %u); rebuild both or set PROBEKIT_AST_MODULE to the matching module",
	         o->abi, PK_INJECT_ABI);
	return 0;
}

/* The module's entry points (probekit_ast.so), loaded by pk_module_call. */
int pk_ast_inject(const struct pk_inject_opts *o);
int pk_tt_inject(const struct pk_inject_opts *o);

#endif
