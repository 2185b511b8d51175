/* probeset.c - load, scan and emit a set of files as one unit. */
#include "probeset.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

long pk_fileset_find(const struct pk_fileset *fs, const char *name)
{
	return pk_strset_index(&fs->names, name);
}

static size_t add_name(struct pk_fileset *fs, const char *name)
{
	pk_strset_add(&fs->names, name);
	return (size_t)pk_strset_index(&fs->names, name);
}

int pk_fileset_load(struct pk_fileset *fs, char *const *paths, size_t n, int load_flags, int scan_flags)
{
	return pk_fileset_adopt(fs, paths, n, NULL, 0, load_flags, scan_flags);
}

int pk_fileset_adopt(struct pk_fileset *fs, char *const *paths, size_t n, struct pk_buf *pre, size_t npre,
                     int load_flags, int scan_flags)
{
	memset(fs, 0, sizeof(*fs));
	fs->f = pk_xcalloc(n + 1, sizeof(*fs->f));
	struct pk_buf **bufs = pk_xcalloc(n + 1, sizeof(*bufs));
	size_t *first = pk_xcalloc(n + 1, sizeof(*first));
	for (size_t i = 0; i < n; i++) {
		bufs[i] = &fs->f[i].src.buf;
		if (pre && i < npre && pre[i].data) { /* the set's now */
			*bufs[i] = pre[i];
			memset(&pre[i], 0, sizeof(pre[i]));
			pre[i].lock_fd = -1;
		}
	}
	int rc = pre ? pk_buf_adopt_set(bufs, paths, n, load_flags, first)
	             : pk_buf_load_set(bufs, paths, n, load_flags, first);
	for (size_t i = 0; i < n; i++) {
		if (first[i] != i && first[i] != PK_LOAD_FAILED) {
			pk_buf_free(&fs->f[i].src.buf); /* a file named again: once is enough */
			continue;
		}
		struct pk_file *f = &fs->f[fs->n++];
		if (f != &fs->f[i]) {
			f->src.buf = fs->f[i].src.buf;
			memset(&fs->f[i].src.buf, 0, sizeof(fs->f[i].src.buf));
		}
		pk_plan_init(&f->plan);
		if (first[i] == PK_LOAD_FAILED)
			continue;
		pk_source_scan(&f->src, scan_flags);
		if (pk_scan_report_errors(&f->src.buf, &f->src.scan))
			rc = -1;
		f->name_of = pk_xcalloc(f->src.scan.nblocks, sizeof(*f->name_of));
		for (size_t k = 0; k < f->src.scan.nblocks; k++)
			f->name_of[k] = add_name(fs, f->src.scan.blocks[k].name);
	}
	free(bufs);
	free(first);
	return rc;
}

void pk_fileset_free(struct pk_fileset *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		pk_source_free(&fs->f[i].src);
		pk_plan_free(&fs->f[i].plan);
		free(fs->f[i].name_of);
	}
	pk_strset_clear(&fs->names);
	free(fs->f);
	memset(fs, 0, sizeof(*fs));
}

int pk_fileset_has(const struct pk_fileset *fs, const char *name)
{
	return pk_fileset_find(fs, name) >= 0;
}

int pk_fileset_unknown(const struct pk_fileset *fs, const char *name)
{
	const char *where = fs->n == 1 ? fs->f[0].src.buf.path : "the given files";
	if (fs->names.n == 0)
		return pk_error("%s: unknown probe '%s': no TIMING_PROBE blocks found", where, name);
	size_t cap = 64;
	for (size_t i = 0; i < fs->names.n; i++)
		cap += strlen(fs->names.v[i]) + 2;
	char *known = pk_xmalloc(cap);
	known[0] = '\0';
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	for (size_t i = 0; i < fs->names.n; i++) {
		if (i)
			strcat(known, ", ");
		strcat(known, fs->names.v[i]);
		size_t d = pk_distance(name, fs->names.v[i]);
		if (d < best_d) {
			best_d = d;
			best = fs->names.v[i];
		}
	}
	size_t limit = strlen(name) / 2 > 2 ? strlen(name) / 2 : 2;
	if (best && best_d <= limit)
		pk_error("%s: unknown probe '%s'; did you mean '%s'? (known: %s)", where, name, best, known);
	else
		pk_error("%s: unknown probe '%s' (known: %s)", where, name, known);
	free(known);
	return -1;
}

int pk_fileset_emit(struct pk_fileset *fs, const struct pk_emit_opts *o, size_t *changed)
{
	struct pk_txn txn = {0};
	if (pk_fileset_stage(fs, o, changed, &txn) < 0)
		return -1;
	return pk_txn_commit(&txn);
}

int pk_fileset_stage(struct pk_fileset *fs, const struct pk_emit_opts *o, size_t *changed, struct pk_txn *txn)
{
	*changed = 0;
	for (size_t i = 0; i < fs->n; i++)
		if (pk_plan_check(&fs->f[i].plan, fs->f[i].src.buf.path, fs->f[i].src.buf.len) < 0)
			return -1;
	/* all or nothing: every file is written beside itself first, and
	 * replaced only once all of them are */
	for (size_t i = 0; i < fs->n; i++) {
		struct pk_file *f = &fs->f[i];
		int ch = 0;
		if (pk_emit_txn(o, &f->src.buf, &f->plan, &ch, txn) < 0) {
			for (size_t k = 0; k < i; k++)
				if (fs->f[k].changed && o->mode == PK_EMIT_INPLACE)
					pk_error("%s: not changed, because '%s' could not be written",
					         fs->f[k].src.buf.path, f->src.buf.path);
			pk_txn_abort(txn);
			return -1;
		}
		f->changed = ch;
		*changed += ch != 0;
	}
	return 0;
}

int pk_refuse_others(size_t n, const char *const *paths, const struct pk_scan *const *scans, const char *name,
                     int allow)
{
	const char *first_at = NULL, *last_path = NULL;
	const struct pk_block *first = NULL;
	struct pk_sb others = {0}, files = {0};
	pk_sb_addf(&others, "%s", "");
	pk_sb_addf(&files, "%s", "");
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < scans[i]->nblocks; k++) {
			const struct pk_block *b = &scans[i]->blocks[k];
			if (!b->enabled || !strcmp(b->name, name) || !strcmp(b->name, PK_BASE_PROBE))
				continue;          /* the base probe runs with any one probe */
			if (last_path != paths[i]) /* the files the suggested command names */
				pk_sb_addf(&files, " %s", paths[i]);
			last_path = paths[i];
			if (!first) {
				first = b;
				first_at = paths[i];
			}
			char *quoted = pk_xasprintf("'%s'", b->name);
			if (!strstr(others.s, quoted))
				pk_sb_addf(&others, "%s%s", *others.s ? ", " : "", quoted);
			free(quoted);
		}
	int rc = 0;
	if (first && allow)
		pk_warning("probes %s and '%s' enabled together: each probe's printf delays the code after it "
		           "and contaminates the other probes' start, end and gaps; compare runs with one probe each",
		           others.s, name);
	else if (first)
		rc = pk_error("%s:%u: probe '%s' is already enabled; enable one probe at a time (its printf "
		              "skews every other probe): turn it off first (probe-inject --disable-all%s), or pass "
		              "--allow-multiple",
		              first_at, first->line, first->name, files.s);
	free(others.s);
	free(files.s);
	return rc;
}

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

int pk_fileset_plan_switch(struct pk_fileset *fs, const char *name, int enable, unsigned flags)
{
	if (name && !pk_fileset_has(fs, name))
		return pk_fileset_unknown(fs, name);
	if (enable && strcmp(name, PK_BASE_PROBE) &&
	    refuse_others(fs, name, (flags & PK_SWITCH_ALLOW_MULTIPLE) != 0) < 0)
		return -1;
	int base = !(flags & PK_SWITCH_NO_BASE) && name && (enable || !others_on(fs, name));
	for (size_t i = 0; i < fs->n; i++) {
		struct pk_file *f = &fs->f[i];
		for (size_t k = 0; k < f->src.scan.nblocks; k++) {
			const struct pk_block *b = &f->src.scan.blocks[k];
			if (!name || !strcmp(b->name, name) || (base && !strcmp(b->name, PK_BASE_PROBE)))
				plan_value(f, b, enable);
		}
	}
	return 0;
}
