/* cmd_strip.c - probe-strip: the production form. Removes every probe block
 * whole, the brace markers an insertion added, and the timing tensor with its
 * ABI change, restoring the original bytes. */
#include "check.h"
#include "marks.h"
#include "pk.h"
#include "probeset.h"
#include "timing_strip.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: probe-strip [options] FILE|DIR...\n"
    "\n"
    "Remove every TIMING_PROBE block whole (directive line, body, #endif line),\n"
    "the braces probe-inject added around a braceless body, and the timing\n"
    "tensor with its args[] shift, so no probe text remains. A file with no\n"
    "probes comes out byte-identical. A DIR is walked as probe-check walks\n"
    "it (kernel sources and .py, .gitignore, .probekitignore): its files\n"
    "that hold a probe, all written or none. The files a kernel's event map\n"
    "(FILE.timing.json) lists, which its timing tensor changed, go with it.\n"
    "\n"
    "      --probe NAME      remove only probe NAME; undo what its insertion did to\n"
    "                        " PK_BASE_PROBE " (inserted: removed with the last other probe;\n"
    "                        turned on: off again)\n"
    "      --disable         keep the blocks but turn every probe off (#if 0)\n"
    "      --timing-tensor   remove only the timing tensor instrumentation\n"
    "  -q, --quiet           no notes or warnings on standard error (errors still)\n" PK_EMIT_HELP
    "  -h, --help            this help;  --version  the version\n"
    "\n"
    "exit: 0 done or nothing to do, 1 --check or --diff and something would change,\n"
    "      2 usage or input error (nothing written)\n";

struct strip_opts {
	const char *name;
	int disable_only;
	int timing_only;
	struct pk_emit_opts emit;
};

enum { OPT_PROBE = 1, OPT_DISABLE, OPT_TIMING, OPT_QUIET = 'q' };

static int strip_option(void *user, int c, const char *arg)
{
	struct strip_opts *o = user;
	int r = pk_emit_option(&o->emit, c, arg);
	if (r)
		return r < 0 ? PK_OPT_REFUSED : PK_OPT_TAKEN;
	switch (c) {
	case OPT_PROBE:
		o->name = arg;
		return PK_OPT_TAKEN;
	case OPT_DISABLE:
		o->disable_only = 1;
		return PK_OPT_TAKEN;
	case OPT_TIMING:
		o->timing_only = 1;
		return PK_OPT_TAKEN;
	case OPT_QUIET:
		pk_set_verbosity(-1);
		return PK_OPT_TAKEN;
	}
	return PK_OPT_OTHER;
}

static int parse(int argc, char **argv, struct strip_opts *o, int *done)
{
	static const struct option longopts[] = {
	    {"probe", required_argument, 0, OPT_PROBE},
	    {"disable", no_argument, 0, OPT_DISABLE},
	    {"timing-tensor", no_argument, 0, OPT_TIMING},
	    {"quiet", no_argument, 0, OPT_QUIET},
	    PK_COMMON_LONGOPTS,
	    PK_EMIT_LONGOPTS,
	    {0, 0, 0, 0},
	};
	int rc;
	*done = 0;
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) /* probe-inject's option, given here */
		if (!strcmp(argv[i], "--enable") || !strncmp(argv[i], "--enable=", 9))
			return pk_error("unknown option '%s': probe-strip removes or turns off probes; to turn one on, "
			                "probe-inject --probe NAME FILE (see --help)",
			                argv[i]);
	if (pk_options(argc, argv, ":o:hq", longopts, strip_option, o, usage_text, &rc)) {
		*done = 1;
		return rc == PK_EXIT_OK ? 0 : -1;
	}
	if (o->disable_only + o->timing_only + (o->name != NULL) > 1)
		return pk_error("--probe, --disable and --timing-tensor exclude each other");
	if (o->name && !pk_probe_name_ok(o->name))
		return pk_error("'%s' is not a probe name ([A-Za-z_][A-Za-z0-9_]*)", o->name);
	if (optind >= argc)
		return pk_error("no input files (use '-' for standard input)");
	/* `--disable STAGE_B f`: --disable takes no name; say so rather than "no such file" */
	for (int i = optind; o->disable_only && i < argc; i++)
		if (strcmp(argv[i], "-") && access(argv[i], F_OK) != 0 && pk_probe_name_ok(argv[i]))
			return pk_error("'%s' is not a file: --disable takes no probe name, it turns every probe of "
			                "the files off; to turn one probe off, probe-inject --disable %s FILE",
			                argv[i], argv[i]);
	return pk_emit_validate(&o->emit, (size_t)(argc - optind));
}

/* Stripping probe NAME takes back what its insertion did to the base
 * probe, as the words after the base probe's name record it: blocks
 * probe-inject inserted with a probe go when no other probe is left in F,
 * and turn off when none is on; blocks it turned on for NAME turn off again,
 * without the words. A base probe with no words is the user's: left as is. */
static int plan_base(struct pk_file *f, const char *name)
{
	const struct pk_scan *s = &f->src.scan;
	const char *d = f->src.buf.data;
	int mine = 0, others = 0, others_on = 0, removed = 0;
	if (!strcmp(name, PK_BASE_PROBE))
		return 0;
	for (size_t k = 0; k < s->nblocks; k++)
		if (!strcmp(s->blocks[k].name, name)) {
			mine = 1;
		} else if (strcmp(s->blocks[k].name, PK_BASE_PROBE)) {
			others = 1;
			others_on |= s->blocks[k].enabled;
		}
	if (!mine) /* a file of the set without NAME: its base probe is another probe's business */
		return 0;
	for (size_t k = 0; k < s->nblocks; k++) {
		const struct pk_block *b = &s->blocks[k];
		if (strcmp(b->name, PK_BASE_PROBE))
			continue;
		if (b->mark == PK_BASE_MARK_ADDED && !others) {
			pk_plan_add(&f->plan, b->dir_start, b->endif_end, NULL, 0);
			removed = 1;
		} else if (b->mark == PK_BASE_MARK_ADDED && !others_on && b->enabled) {
			pk_plan_add(&f->plan, b->value_off, b->value_off + 1, "0", 1);
		} else if (b->mark == PK_BASE_MARK_ON && b->mark_probe_len == strlen(name) &&
		           !memcmp(d + b->mark_probe, name, b->mark_probe_len)) {
			if (b->enabled)
				pk_plan_add(&f->plan, b->value_off, b->value_off + 1, "0", 1);
			pk_plan_add(&f->plan, b->name_end, b->mark_end, NULL, 0);
		}
	}
	return removed ? pk_marks_plan_strip(&f->src, PK_BASE_PROBE, &f->plan) : 0;
}

/* Every planner adds to the one plan of F; a brace or timing mark inside a
 * block removed here is dropped by the plan check, with the block. */
static int plan_file(struct pk_file *f, const struct strip_opts *o)
{
	if (!o->timing_only) {
		for (size_t k = 0; k < f->src.scan.nblocks; k++) {
			const struct pk_block *b = &f->src.scan.blocks[k];
			if (o->name && strcmp(b->name, o->name))
				continue;
			if (o->disable_only) {
				if (b->enabled)
					pk_plan_add(&f->plan, b->value_off, b->value_off + 1, "0", 1);
			} else {
				pk_plan_add(&f->plan, b->dir_start, b->endif_end, NULL, 0);
			}
		}
		if (o->disable_only)
			return 0;
		if (pk_marks_plan_strip(&f->src, o->name, &f->plan) < 0)
			return -1;
		if (o->name)
			return plan_base(f, o->name);
	}
	return pk_timing_plan_strip(&f->src, &f->plan) < 0 ? -1 : 0;
}

/* The event map beside a named kernel (KERNEL.timing.json), read once:
 * ROOT is NULL when there is none, the file there is not one the tool
 * wrote (no "magic_rule"), or it is the map of a file named before. It is
 * opened without blocking and read only when it is a regular file of a
 * map's size: a FIFO or a huge file a repository brings never stalls the
 * run. ST is what the name held when read (THERE
 * 0: nothing), so that once the set is locked an unchanged map is known by
 * its identity, not by reading it again. */
struct strip_map {
	char *path;
	json_t *root;
	struct stat st;
	int there;
};

/* Is the map M found (its state in M->st) one of the N read before it, by
 * identity? A kernel named twice, or named and also found in a directory
 * of the run, has one map: it is read, listed and removed once. */
static int map_met(const struct strip_map *m, const struct strip_map *before, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (before[k].there && before[k].st.st_dev == m->st.st_dev && before[k].st.st_ino == m->st.st_ino)
			return 1;
	return 0;
}

/* The map of KERNEL into M; a map met already among the N of BEFORE is
 * not read again (M->root NULL: the first name's map stands for it). */
static void read_map(const char *kernel, struct strip_map *m, const struct strip_map *before, size_t n)
{
	memset(m, 0, sizeof(*m));
	m->path = pk_xasprintf("%s.timing.json", kernel);
	int fd = pk_open_small(m->path, 64u << 20);
	if (fd >= 0 && fstat(fd, &m->st) == 0) {
		m->there = 1;
		if (!map_met(m, before, n)) {
			pk_note_read(m->path, &m->st);
			m->root = json_loadfd(fd, 0, NULL);
		}
	} else {
		m->there = lstat(m->path, &m->st) == 0;
	}
	if (fd >= 0)
		close(fd);
	if (m->root && !json_object_get(m->root, "magic_rule")) {
		json_decref(m->root);
		m->root = NULL;
	}
}

/* Does the name still hold the map M read (the same file, untouched)? The
 * tool replaces a map by renaming a new file over it: another inode. */
static int map_unchanged(const struct strip_map *m)
{
	struct stat now;
	int there = lstat(m->path, &now) == 0;
	if (there != m->there)
		return 0;
	return !there || (now.st_dev == m->st.st_dev && now.st_ino == m->st.st_ino && now.st_size == m->st.st_size &&
	                  now.st_mtim.tv_sec == m->st.st_mtim.tv_sec && now.st_mtim.tv_nsec == m->st.st_mtim.tv_nsec &&
	                  now.st_ctim.tv_sec == m->st.st_ctim.tv_sec && now.st_ctim.tv_nsec == m->st.st_ctim.tv_nsec);
}

/* The maps of the GIVEN named files ("-" has none). */
static struct strip_map *read_maps(char **files, size_t given)
{
	struct strip_map *maps = pk_xcalloc(given ? given : 1, sizeof(*maps));
	for (size_t i = 0; i < given; i++)
		if (strcmp(files[i], "-"))
			read_map(files[i], &maps[i], maps, i);
	return maps;
}

static void free_maps(struct strip_map *maps, size_t given)
{
	for (size_t i = 0; maps && i < given; i++) {
		json_decref(maps[i].root);
		free(maps[i].path);
	}
	free(maps);
}

/* Is PATH, links resolved, below folder BOUND? */
static int below_bound(const char *path, const char *bound)
{
	return bound && pk_path_within(path, bound);
}

/* The files KERNEL's event map lists (the other files the timing tensor
 * changed), named from KERNEL's folder, appended to *FILES when they exist
 * and lie in KERNEL's work tree: stripping the kernel strips what its
 * instrumentation touched. NOTE: say so on stderr. */
static void add_mapped(const char *kernel, const struct strip_map *m, char ***files, size_t *n, size_t *cap, int note)
{
	const char *map = m->path;
	json_t *list = m->root ? json_object_get(m->root, "files") : NULL;
	const char *slash = strrchr(kernel, '/');
	char *bound = list ? pk_work_tree(kernel) : NULL;
	size_t i;
	json_t *v;
	json_array_foreach(list, i, v)
	{
		if (!json_is_string(v))
			continue;
		char *path =
		    pk_xasprintf("%.*s%s", slash ? (int)(slash - kernel + 1) : 0, kernel, json_string_value(v));
		if (access(path, F_OK) == 0 && !below_bound(path, bound)) {
			if (note)
				pk_warning("%s: lists %s, outside the work tree '%s'; not stripped (strip it by name)",
				           map, path, bound ? bound : "?");
			free(path);
		} else if (access(path, F_OK) == 0) {
			if (note && pk_verbosity() >= 0) {
				char *name = pk_path_fold(path);
				pk_note("probekit: %s: also strips %s, which the timing tensor changed", map, name);
				free(name);
			}
			pk_grow((void **)files, cap, *n + 1, sizeof(**files));
			(*files)[(*n)++] = path;
		} else {
			free(path);
		}
	}
	free(bound);
}

/* The set of a strip: the files named (GIVEN of them) and, with WHOLE, the
 * files their event maps (MAPS) list; FILES[GIVEN..] rebuilt. */
static void strip_set(char ***files, size_t given, size_t *n, size_t *cap, const struct strip_map *maps, int whole,
                      int note)
{
	for (size_t i = given; i < *n; i++)
		free((*files)[i]);
	*n = given;
	for (size_t i = 0; whole && i < given; i++)
		if (strcmp((*files)[i], "-"))
			add_mapped((*files)[i], &maps[i], files, n, cap, note);
}

/* Are the event maps, now that the files are locked, the ones read? (An
 * inject that finished while this run waited for its locks may have
 * written a map, and with it more files to the set.) */
static int maps_still(const struct strip_map *maps, char **files, size_t given)
{
	for (size_t i = 0; i < given; i++)
		if (strcmp(files[i], "-") && !map_unchanged(&maps[i]))
			return 0;
	return 1;
}

/* The captures the edited test script saved beside KERNEL
 * (KERNEL.timing.CASE.npy) stay: they are the run's, not the tool's. Said
 * once each, since probe-report reads them through the map that goes now. */
static void note_captures(const char *kernel)
{
	const char *slash = strrchr(kernel, '/');
	char *dir = slash ? pk_xstrndup(kernel, (size_t)(slash - kernel)) : pk_xstrdup(".");
	char *prefix = pk_xasprintf("%s.timing.", slash ? slash + 1 : kernel);
	size_t plen = strlen(prefix), shown = 0;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
		size_t len = strlen(e->d_name);
		if (len > plen + 4 && !strncmp(e->d_name, prefix, plen) && !strcmp(e->d_name + len - 4, ".npy") &&
		    shown++ < 3)
			pk_note(
			    "probekit: %s%s%s stays (a capture of the run); probe-report reads it through the event "
			    "map removed now: report before stripping, or inject again with the same --event options",
			    slash ? dir : "", slash ? "/" : "", e->d_name);
	}
	if (d)
		closedir(d);
	if (shown > 3)
		pk_note("probekit: %zu more captures of %s stay", shown - 3, kernel);
	free(prefix);
	free(dir);
}

/* The event map goes with the instrumentation, in the same journalled
 * set as the files: a run killed half-way never leaves it behind alone. */
static int stage_maps(const struct strip_map *maps, char **files, size_t given, struct pk_txn *txn,
                      unsigned char *removed)
{
	for (size_t i = 0; i < given; i++) {
		if (!strcmp(files[i], "-"))
			continue;
		int rc = maps[i].root ? pk_txn_remove(txn, maps[i].path) : 0;
		removed[i] = maps[i].root && rc == 0;
		if (rc < 0)
			return -1;
	}
	return 0;
}

int cmd_strip(int argc, char **argv)
{
	struct strip_opts o = {0};
	int done;
	if (parse(argc, argv, &o, &done) < 0)
		return PK_EXIT_ERROR;
	if (done)
		return PK_EXIT_OK;

	struct pk_fileset fs;
	int load_flags = o.emit.mode == PK_EMIT_INPLACE ? PK_LOAD_FOR_WRITE : 0;
	int rc = PK_EXIT_ERROR, walk_rc;
	unsigned char *removed = NULL;
	struct strip_map *maps = NULL;
	size_t nfiles;
	struct pk_buf *pre = NULL; /* a directory's files, read once for their markers */
	memset(&fs, 0, sizeof(fs));
	char **files = pk_check_expand_dirs(argv + optind, (size_t)(argc - optind), &nfiles, &walk_rc, &pre);
	size_t given = nfiles, cap = nfiles;
	int whole = walk_rc >= 0 && !o.name && !o.disable_only && o.emit.mode != PK_EMIT_OUTFILE &&
	            o.emit.mode != PK_EMIT_STDOUT;
	int inplace = o.emit.mode == PK_EMIT_INPLACE;
	if (walk_rc < 0)
		goto out;
	/* an interrupted write of a set is finished (or refused) before its
	 * event map says what the set is */
	for (size_t i = 0; inplace && i < given; i++)
		if (strcmp(files[i], "-") && pk_txn_recover(files[i]) < 0)
			goto out;
	/* the maps read, the set they name locked: until the maps are the
	 * ones read (a map is read again only when it was replaced meanwhile) */
	maps = whole ? read_maps(files, given) : NULL;
	for (int tries = 0;; tries++) {
		strip_set(&files, given, &nfiles, &cap, maps, whole, 0);
		if (pk_emit_validate(&o.emit, nfiles) < 0 ||
		    pk_fileset_adopt(&fs, files, nfiles, pre, given, load_flags, 0) < 0)
			goto out;
		if (!whole || !inplace || tries == 100 || maps_still(maps, files, given))
			break;
		pk_fileset_free(&fs);
		memset(&fs, 0, sizeof(fs));
		free_maps(maps, given);
		maps = read_maps(files, given);
	}
	strip_set(&files, given, &nfiles, &cap, maps, whole, 1);
	if (o.name && !pk_fileset_has(&fs, o.name)) {
		pk_fileset_unknown(&fs, o.name);
		goto out;
	}
	for (size_t i = 0; i < fs.n; i++)
		if (plan_file(&fs.f[i], &o) < 0)
			goto out;
	size_t changed;
	struct pk_txn txn = {0};
	if (pk_fileset_stage(&fs, &o.emit, &changed, &txn) < 0)
		goto out;
	removed = pk_xcalloc(given ? given : 1, 1);
	if (inplace && whole && stage_maps(maps, files, given, &txn, removed) < 0) {
		pk_txn_abort(&txn);
		goto out;
	}
	if (pk_txn_commit(&txn) < 0)
		goto out;
	for (size_t i = 0; i < given && pk_verbosity() >= 0; i++)
		if (removed[i])
			note_captures(files[i]);
	rc = pk_emit_exit(&o.emit, changed);
out:
	free(removed);
	free_maps(maps, given);
	pk_fileset_free(&fs);
	pk_check_free_pre(pre, given);
	free(pre);
	for (size_t i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	return rc;
}
