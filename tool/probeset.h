/* probeset.h - the files one command works on, each loaded and scanned
 * once as a pk_source, with its edit plan; and the probe names they hold.
 * Included by the cmd_*.c files. */
#ifndef PK_PROBESET_H
#define PK_PROBESET_H

#include "edit.h"
#include "emit.h"
#include "pk.h"
#include "source.h"

struct pk_file {
	struct pk_source src; /* bytes, block scan, brace and timing marks */
	struct pk_plan plan;  /* every planner adds its edits here */
	int changed;          /* set by pk_fileset_emit */
	size_t *name_of;      /* name_of[k]: index in fs->names of src.scan.blocks[k] */
};

struct pk_fileset {
	struct pk_file *f;
	size_t n;
	struct pk_strset names; /* distinct probe names, in order of first appearance */
};

/* Load every path as one set (pk_buf_load_set) and scan each file once
 * (pk_source_scan with SCAN_FLAGS). Scan errors are printed ("probekit:
 * PATH:LINE: msg"); returns -1 if any file failed to load or scan cleanly.
 * Damaged marks are not an error here: the planner that needs them says so. */
int pk_fileset_load(struct pk_fileset *fs, char *const *paths, size_t n, int load_flags, int scan_flags);
/* The same, adopting the bytes already read of the first NPRE paths: a
 * PRE[i] holding bytes (pk_check_expand_dirs) moves into the set, which
 * locks and checks it rather than reading it again (pk_buf_adopt_set). */
int pk_fileset_adopt(struct pk_fileset *fs, char *const *paths, size_t n, struct pk_buf *pre, size_t npre,
                     int load_flags, int scan_flags);
void pk_fileset_free(struct pk_fileset *fs);
int pk_fileset_has(const struct pk_fileset *fs, const char *name);
/* Index of NAME in fs->names.v, or -1. */
long pk_fileset_find(const struct pk_fileset *fs, const char *name);
/* "unknown probe 'X'" with the known names and the closest one; returns -1. */
int pk_fileset_unknown(const struct pk_fileset *fs, const char *name);
/* One probe at a time: is a probe other than NAME and the base probe on in
 * any of the N scans (of the files PATHS)? Then refuse (-1, naming its line
 * and what to do), or with ALLOW warn that they run together (0). */
int pk_refuse_others(size_t n, const char *const *paths, const struct pk_scan *const *scans, const char *name,
                     int allow);
/* Plan the switch of probe NAME in every file of FS: on (ENABLE) or off;
 * NAME NULL with ENABLE 0 turns every probe off. The base probe follows
 * unless PK_SWITCH_NO_BASE: on with any probe, off with the last one on.
 * Enabling refuses while another probe is on (pk_refuse_others), unless
 * PK_SWITCH_ALLOW_MULTIPLE. An unknown NAME is refused with the known ones.
 * Returns 0 or -1 (message printed, nothing planned). */
enum { PK_SWITCH_ALLOW_MULTIPLE = 1, PK_SWITCH_NO_BASE = 2 };
int pk_fileset_plan_switch(struct pk_fileset *fs, const char *name, int enable, unsigned flags);
/* Check every plan, then emit every file. When a later write fails, files
 * already rewritten are put back. *changed counts files that differ. */
int pk_fileset_emit(struct pk_fileset *fs, const struct pk_emit_opts *o, size_t *changed);
/* pk_fileset_emit's writes staged in TXN (committed or aborted by the
 * caller, which may add to it); on -1 TXN is aborted. */
int pk_fileset_stage(struct pk_fileset *fs, const struct pk_emit_opts *o, size_t *changed, struct pk_txn *txn);

#endif
