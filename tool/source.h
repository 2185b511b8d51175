/* source.h - one source file as the text commands see it: its bytes, the
 * block scan with its comment map, the brace marks and the timing marks.
 * pk_source_scan makes the three once; every planner and rule reads them
 * and none scans the bytes again. Any tool/ file may include this. */
#ifndef PK_SOURCE_H
#define PK_SOURCE_H

#include "buf.h"
#include "marks.h"
#include "scan.h"
#include "timing_strip.h"

struct pk_source {
	struct pk_buf buf;
	struct pk_scan scan;   /* always with the comment map */
	int scanned;           /* scan, marks and timing marks are made */
	struct pk_mark *marks; /* brace marks in file order (none when damaged) */
	size_t nmarks;
	char *marks_damage;      /* "PATH:LINE: what" of a damaged brace mark, or NULL */
	struct pk_tmark *tmarks; /* timing marks in file order (none when damaged) */
	size_t ntmarks;
	char *timing_damage; /* "PATH:LINE: what" of a damaged timing mark, or NULL */
};

/* Scan the bytes already in src->buf (loaded by the caller, for one file or
 * as one of a set): the block scan with FLAGS plus the comment map, the
 * brace marks and the timing marks. A second call does nothing, so a
 * command that scans only the files it needs calls it where it needs them.
 * Damaged marks are kept as messages for the planner that needs them. */
void pk_source_scan(struct pk_source *src, int flags);
/* Load PATH (pk_buf_load with LOAD_FLAGS) and scan it. Load errors are
 * printed; returns -1 then. Scan errors stay in src->scan.errors. */
int pk_source_load(struct pk_source *src, const char *path, int load_flags);
void pk_source_free(struct pk_source *src);

#endif
