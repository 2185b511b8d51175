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
#include <string.h>

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

static void plan_value(struct pk_file *f, const struct pk_block *b, int value)
{
	if (b->enabled != value)
		pk_plan_add(&f->plan, b->value_off, b->value_off + 1, value ? "1" : "0", 1);
}

/* One probe per run: a probe other than NAME already on anywhere in the set? */
static int refuse_others(struct pk_fileset *fs, const char *name, int allow)
{
	const char **paths = pk_xcalloc(fs->n + 1, sizeof(*paths));
	const struct pk_scan **scans = pk_xcalloc(fs->n + 1, sizeof(*scans));
	for (size_t i = 0; i < fs->n; i++) {
		paths[i] = fs->f[i].src.buf.path;
		scans[i] = &fs->f[i].src.scan;
	}
	int rc = pk_refuse_others(fs->n, paths, scans, name, allow);
	free(paths);
	free(scans);
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
	if (o->name && !pk_fileset_has(&fs, o->name)) {
		pk_fileset_unknown(&fs, o->name);
		goto out;
	}
	int enable = o->action == PK_BLOCK_ENABLE;
	if (enable && strcmp(o->name, PK_BASE_PROBE) && refuse_others(&fs, o->name, o->allow_multiple) < 0)
		goto out;
	int base =
	    (enable && !o->no_base) || (o->action == PK_BLOCK_DISABLE && !o->no_base && !others_on(&fs, o->name));
	for (size_t i = 0; i < fs.n; i++) {
		struct pk_file *f = &fs.f[i];
		for (size_t k = 0; k < f->src.scan.nblocks; k++) {
			const struct pk_block *b = &f->src.scan.blocks[k];
			if (o->action == PK_BLOCK_DISABLE_ALL || !strcmp(b->name, o->name) ||
			    (base && !strcmp(b->name, PK_BASE_PROBE)))
				plan_value(f, b, enable);
		}
	}
	size_t changed;
	if (pk_fileset_emit(&fs, &o->emit, &changed) < 0)
		goto out;
	rc = pk_emit_exit(&o->emit, changed);
out:
	pk_fileset_free(&fs);
	return rc;
}
