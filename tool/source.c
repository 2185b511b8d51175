/* source.c - load a source file and make its scans, once (see source.h). */
#include "source.h"
#include "pk.h"

#include <stdlib.h>
#include <string.h>

void pk_source_scan(struct pk_source *src, int flags)
{
	if (src->scanned)
		return;
	src->scanned = 1;
	pk_scan_buf(&src->buf, &src->scan, flags | PK_SCAN_COMMENTS);
	pk_marks_find(&src->buf, &src->scan, &src->marks, &src->nmarks, &src->marks_damage);
	pk_timing_find(&src->buf, &src->scan, &src->tmarks, &src->ntmarks, &src->timing_damage);
}

int pk_source_load(struct pk_source *src, const char *path, int load_flags)
{
	memset(src, 0, sizeof(*src));
	if (pk_buf_load(&src->buf, path, load_flags) < 0)
		return -1;
	pk_source_scan(src, 0);
	return 0;
}

void pk_source_free(struct pk_source *src)
{
	pk_buf_free(&src->buf);
	pk_scan_free(&src->scan);
	pk_marks_free(src->marks, src->nmarks);
	free(src->marks_damage);
	pk_timing_free(src->tmarks, src->ntmarks);
	free(src->timing_damage);
	memset(src, 0, sizeof(*src));
}
