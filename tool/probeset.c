/* probeset.c - load, scan and emit a set of files as one unit. */
#include "probeset.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

static void add_name(struct pk_fileset *fs, const char *name)
{
	if (pk_fileset_has(fs, name))
		return;
	PK_GROW(fs->names, fs->cap_names, fs->nnames + 1);
	fs->names[fs->nnames++] = pk_xstrdup(name);
}

int pk_fileset_load(struct pk_fileset *fs, char *const *paths, size_t n, int load_flags, int scan_flags)
{
	memset(fs, 0, sizeof(*fs));
	fs->f = pk_xcalloc(n, sizeof(*fs->f));
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		struct pk_file *f = &fs->f[i];
		fs->n = i + 1;
		pk_plan_init(&f->plan);
		if (pk_buf_load(&f->buf, paths[i], load_flags) < 0) {
			rc = -1;
			continue;
		}
		pk_scan_buf(&f->buf, &f->scan, scan_flags);
		if (pk_scan_report_errors(&f->buf, &f->scan))
			rc = -1;
		for (size_t k = 0; k < f->scan.nblocks; k++)
			add_name(fs, f->scan.blocks[k].name);
	}
	return rc;
}

void pk_fileset_free(struct pk_fileset *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		pk_buf_free(&fs->f[i].buf);
		pk_scan_free(&fs->f[i].scan);
		pk_plan_free(&fs->f[i].plan);
	}
	for (size_t i = 0; i < fs->nnames; i++)
		free(fs->names[i]);
	free(fs->names);
	free(fs->f);
	memset(fs, 0, sizeof(*fs));
}

int pk_fileset_has(const struct pk_fileset *fs, const char *name)
{
	for (size_t i = 0; i < fs->nnames; i++)
		if (!strcmp(fs->names[i], name))
			return 1;
	return 0;
}

/* Levenshtein distance, case-insensitive: STAGE_b is close to STAGE_B. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = pk_xmalloc((lb + 1) * sizeof(*row));
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			int same = (a[i - 1] | 0x20) == (b[j - 1] | 0x20);
			size_t best = diag + !same;
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	size_t d = row[lb];
	free(row);
	return d;
}

int pk_fileset_unknown(const struct pk_fileset *fs, const char *name)
{
	const char *where = fs->n == 1 ? fs->f[0].buf.path : "the given files";
	if (fs->nnames == 0)
		return pk_error("%s: unknown probe '%s': no TIMING_PROBE blocks found", where, name);
	size_t cap = 64;
	for (size_t i = 0; i < fs->nnames; i++)
		cap += strlen(fs->names[i]) + 2;
	char *known = pk_xmalloc(cap);
	known[0] = '\0';
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	for (size_t i = 0; i < fs->nnames; i++) {
		if (i)
			strcat(known, ", ");
		strcat(known, fs->names[i]);
		size_t d = distance(name, fs->names[i]);
		if (d < best_d) {
			best_d = d;
			best = fs->names[i];
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
	*changed = 0;
	for (size_t i = 0; i < fs->n; i++)
		if (pk_plan_check(&fs->f[i].plan, fs->f[i].buf.path, fs->f[i].buf.len) < 0)
			return -1;
	for (size_t i = 0; i < fs->n; i++) {
		struct pk_file *f = &fs->f[i];
		int ch = 0;
		if (pk_emit(o, &f->buf, &f->plan, &ch) < 0) {
			if (o->mode == PK_EMIT_INPLACE) {
				/* put back what this run already rewrote: all or nothing */
				for (size_t k = 0; k < i; k++) {
					struct pk_file *g = &fs->f[k];
					struct stat now;
					if (!g->changed || g->buf.from_stdin || stat(g->buf.path, &now) < 0)
						continue;
					if (pk_write_atomic(g->buf.path, g->buf.data, g->buf.len, &now) == 0)
						pk_warning("%s: restored, because '%s' could not be written", g->buf.path,
							   f->buf.path);
				}
			}
			return -1;
		}
		f->changed = ch;
		*changed += ch != 0;
	}
	return 0;
}
