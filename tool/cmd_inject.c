/* cmd_inject.c - probe-inject: one command with three forms. The options
 * are parsed once (inject_opts.c); a table says what each form needs: the
 * block form (enable or disable existing probe blocks) is text only and runs
 * here; insertion at a placement and the timing tensor need the AST and run
 * in the libclang module, called with the parsed options. */
#include "inject.h"
#include "modload.h"
#include "pk.h"
#include "probeset.h"

#include <stdlib.h>

static int inject_blocks(const struct pk_inject_opts *o);

/* What a form needs before it runs. */
enum { PK_NEEDS_AST = 1 /* the libclang module, loaded for this form only */ };

/* One row per form, as the options decide it. A form that needs the AST
 * names its entry point in the module; the others name their function. */
static const struct inject_form {
	const char *name;
	int (*fn)(const struct pk_inject_opts *);
	const char *module_fn;
	int needs;
} forms[PK_INJECT_FORMS] = {
    [PK_INJECT_BLOCKS] = {"blocks", inject_blocks, NULL, 0},
    [PK_INJECT_PLACE] = {"placement", NULL, "pk_ast_inject", PK_NEEDS_AST},
    [PK_INJECT_TIMING] = {"timing-tensor", NULL, "pk_tt_inject", PK_NEEDS_AST},
};

int cmd_inject(int argc, char **argv)
{
	struct pk_inject_opts o;
	int rc;
	if (pk_inject_parse(argc, argv, &o, &rc) == PK_INJECT_RUN) {
		const struct inject_form *f = &forms[o.form];
		rc = f->needs & PK_NEEDS_AST ? pk_module_call(f->module_fn, &o) : f->fn(&o);
	}
	pk_inject_opts_free(&o);
	return rc;
}

/* Enable or disable the blocks of probe NAME (and the base probe with it). */
static int inject_blocks(const struct pk_inject_opts *o)
{
	struct pk_fileset fs;
	int load_flags = o->emit.mode == PK_EMIT_INPLACE ? PK_LOAD_FOR_WRITE : 0;
	int rc = PK_EXIT_ERROR;
	if (pk_fileset_load(&fs, o->files, (size_t)o->nfiles, load_flags, 0) < 0)
		goto out;
	unsigned flags = (o->allow_multiple ? PK_SWITCH_ALLOW_MULTIPLE : 0) | (o->no_base ? PK_SWITCH_NO_BASE : 0);
	const char *name = o->action == PK_BLOCK_DISABLE_ALL ? NULL : o->name;
	if (pk_fileset_plan_switch(&fs, name, o->action == PK_BLOCK_ENABLE, flags) < 0)
		goto out;
	size_t changed;
	if (pk_fileset_emit(&fs, &o->emit, &changed) < 0)
		goto out;
	rc = pk_emit_exit(&o->emit, changed);
out:
	pk_fileset_free(&fs);
	return rc;
}
