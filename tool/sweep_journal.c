/* sweep_journal.c - probe-sweep puts the sources back: after each probe, on
 * a failure or a signal, and, through the journal in its output directory,
 * on the next run after probe-sweep itself was killed (kill -9, a crash,
 * power loss).
 *
 * The journal is DIR/.journal: one copy of each file's original bytes
 * (orig.K) and an index naming each file by its real path with the size and
 * FNV-1a hash of its original (so a damaged copy is never written back). It
 * is written before the first probe is enabled and removed once every file
 * is back. A file is only ever put back when it differs from its original by
 * probe switches alone: the sweep only turns '#if 0' into '#if 1', so
 * anything else is someone's edit and is left for the user. */
#include "emit.h"
#include "pk.h"
#include "sweep.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define JOURNAL_DIR   ".journal"
#define JOURNAL_MAGIC "probe-sweep journal 1\n"

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 14695981039346656037u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211u;
	return h;
}

int sw_only_flips(const struct pk_buf *orig, const struct pk_scan *scan, const char *cur, size_t len)
{
	if (len != orig->len)
		return 0;
	char *tmp = pk_xmalloc(len + 1);
	memcpy(tmp, cur, len);
	for (size_t k = 0; k < scan->nblocks; k++) {
		size_t at = scan->blocks[k].value_off;
		if (at < len && tmp[at] == '1' && orig->data[at] == '0')
			tmp[at] = '0';
	}
	int same = memcmp(tmp, orig->data, len) == 0;
	free(tmp);
	return same;
}

int sw_put_back(const struct pk_buf *orig, const struct pk_scan *scans, size_t n, const char *where, size_t *restored)
{
	struct pk_buf *cur = pk_xcalloc(n, sizeof(*cur));
	struct pk_txn txn = {0};
	int rc = 0;
	*restored = 0;
	for (size_t i = 0; i < n; i++) {
		cur[i].lock_fd = -1;
		if (pk_buf_load(&cur[i], orig[i].path, PK_LOAD_FOR_WRITE) < 0) {
			rc = -1;
			continue;
		}
		if (cur[i].len == orig[i].len && !memcmp(cur[i].data, orig[i].data, orig[i].len))
			continue;
		if (!sw_only_flips(&orig[i], &scans[i], cur[i].data, cur[i].len)) {
			rc = pk_error(
			    "%s: changed during the sweep by more than probe switches (an edit, or the command "
			    "wrote it); left as it is: its original is in %s",
			    orig[i].path, where);
			continue;
		}
		if (pk_txn_add(&txn, orig[i].path, orig[i].data, orig[i].len, &cur[i].st, cur[i].data, cur[i].len) < 0)
			rc = -1;
		else
			++*restored;
	}
	/* the others go back even when one cannot: none stays instrumented
	 * that need not */
	if (pk_txn_commit(&txn) < 0) {
		rc = -1;
		*restored = 0;
	}
	for (size_t i = 0; i < n; i++)
		pk_buf_free(&cur[i]);
	free(cur);
	return rc;
}

int sw_lock_dir(const char *dir)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/.lock", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return pk_error("%s: %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		close(fd);
		if (e == EWOULDBLOCK)
			return pk_error("%s: another probe-sweep is running with this output directory; wait for it or "
			                "give another --out",
			                dir);
		return pk_error("%s: cannot lock: %s", path, strerror(e));
	}
	return fd;
}

static void journal_path(char *out, size_t cap, const char *dir, const char *name)
{
	snprintf(out, cap, "%s/" JOURNAL_DIR "%s%s", dir, name ? "/" : "", name ? name : "");
}

int sw_journal_exists(const char *dir)
{
	char p[PATH_MAX];
	journal_path(p, sizeof(p), dir, "index");
	return access(p, F_OK) == 0;
}

/* The index: the magic line, then per file
 * "file<TAB>SIZE<TAB>HASH<TAB>orig.K<TAB>REALPATH". */
int sw_journal_write(const char *dir, const struct pk_buf *orig, size_t n)
{
	char p[PATH_MAX], real[PATH_MAX];
	journal_path(p, sizeof(p), dir, NULL);
	if (mkdir(p, 0700) < 0 && errno != EEXIST)
		return pk_error("%s: %s", p, strerror(errno));
	size_t len = strlen(JOURNAL_MAGIC), cap = 0;
	char *index = NULL;
	int rc = 0;
	PK_GROW(index, cap, len + 1);
	memcpy(index, JOURNAL_MAGIC, len);
	for (size_t i = 0; i < n && rc == 0; i++) {
		char name[32];
		snprintf(name, sizeof(name), "orig.%zu", i);
		journal_path(p, sizeof(p), dir, name);
		if (!realpath(orig[i].path, real))
			rc = pk_error("%s: %s", orig[i].path, strerror(errno));
		else if (strchr(real, '\n'))
			rc = pk_error("%s: a path holding a newline cannot be journalled", orig[i].path);
		else if (pk_write_atomic(p, orig[i].data, orig[i].len, NULL) < 0)
			rc = -1;
		if (rc < 0)
			break;
		PK_GROW(index, cap, len + strlen(real) + 96);
		len += (size_t)sprintf(index + len, "file\t%zu\t%016" PRIx64 "\t%s\t%s\n", orig[i].len,
		                       fnv1a(orig[i].data, orig[i].len), name, real);
	}
	journal_path(p, sizeof(p), dir, "index");
	if (rc == 0)
		rc = pk_write_atomic(p, index, len, NULL);
	free(index);
	return rc;
}

void sw_journal_remove(const char *dir)
{
	char p[PATH_MAX];
	journal_path(p, sizeof(p), dir, "index");
	unlink(p); /* first: without it the copies are nothing to recover */
	journal_path(p, sizeof(p), dir, NULL);
	DIR *d = opendir(p);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char f[PATH_MAX];
		if ((size_t)snprintf(f, sizeof(f), "%s/%s", p, e->d_name) < sizeof(f))
			unlink(f);
	}
	closedir(d);
	rmdir(p);
}

/* One index line into ORIG (the copy's bytes, under the file's path) and
 * its scan. */
static int journal_entry(const char *dir, char *line, struct pk_buf *orig, struct pk_scan *scan)
{
	char *f[5];
	for (int k = 0; k < 5; k++) {
		f[k] = line;
		char *tab = k < 4 ? strchr(line, '\t') : NULL;
		if (k < 4 && !tab)
			return pk_error("%s/" JOURNAL_DIR "/index: malformed line '%s'", dir, f[0]);
		if (tab) {
			*tab = '\0';
			line = tab + 1;
		}
	}
	char p[PATH_MAX];
	journal_path(p, sizeof(p), dir, f[3]);
	if (strcmp(f[0], "file") || strchr(f[3], '/') || pk_buf_load(orig, p, 0) < 0)
		return pk_error("%s/" JOURNAL_DIR ": cannot read the original of %s", dir, f[4]);
	char hash[17];
	snprintf(hash, sizeof(hash), "%016" PRIx64, fnv1a(orig->data, orig->len));
	if (strtoull(f[1], NULL, 10) != orig->len || strcmp(f[2], hash))
		return pk_error("%s: the journal's copy of %s is damaged (size or hash); not used", p, f[4]);
	free(orig->path);
	orig->path = pk_xstrdup(f[4]);
	pk_scan_buf(orig, scan, 0);
	return 0;
}

static int load_journal(const char *dir, struct pk_buf **orig, struct pk_scan **scans, size_t *n)
{
	char p[PATH_MAX];
	journal_path(p, sizeof(p), dir, "index");
	struct pk_buf idx;
	if (pk_buf_load(&idx, p, 0) < 0) {
		pk_buf_free(&idx);
		return -1;
	}
	int rc = 0;
	size_t cap = 0, capscan = 0;
	if (strncmp(idx.data, JOURNAL_MAGIC, strlen(JOURNAL_MAGIC)))
		rc = pk_error("%s: not a probe-sweep journal", p);
	char *save = NULL;
	for (char *line = rc ? NULL : strtok_r(idx.data + strlen(JOURNAL_MAGIC), "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		PK_GROW(*orig, cap, *n + 1);
		PK_GROW(*scans, capscan, *n + 1);
		memset(&(*orig)[*n], 0, sizeof(**orig));
		memset(&(*scans)[*n], 0, sizeof(**scans));
		(*orig)[*n].lock_fd = -1;
		++*n;
		if (journal_entry(dir, line, &(*orig)[*n - 1], &(*scans)[*n - 1]) < 0) {
			rc = -1;
			break;
		}
	}
	pk_buf_free(&idx);
	return rc;
}

int sw_journal_recover(const char *dir)
{
	if (!sw_journal_exists(dir)) {
		sw_journal_remove(dir); /* copies without an index: killed before any file changed */
		return 0;
	}
	struct pk_buf *orig = NULL;
	struct pk_scan *scans = NULL;
	size_t n = 0, restored = 0;
	char where[PATH_MAX];
	journal_path(where, sizeof(where), dir, NULL);
	int rc = load_journal(dir, &orig, &scans, &n);
	if (rc == 0)
		rc = sw_put_back(orig, scans, n, where, &restored);
	if (rc == 0) {
		pk_note("probe-sweep: %s: an earlier sweep did not finish; %zu of %zu file(s) put back from its "
		        "journal, the others were already as before",
		        dir, restored, n);
		sw_journal_remove(dir);
	} else {
		pk_error("%s: the journal is kept; once the files are right, remove it", where);
	}
	for (size_t i = 0; i < n; i++) {
		pk_buf_free(&orig[i]);
		pk_scan_free(&scans[i]);
	}
	free(orig);
	free(scans);
	return rc;
}
