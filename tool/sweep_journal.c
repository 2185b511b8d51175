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
 * anything else is someone's edit and is left for the user.
 *
 * A repository may bring an output folder with a journal in it (or a link
 * named .journal, or an index naming any path). So a journal is used only
 * when it is provably this user's own: .journal a real folder (not a link)
 * owned by the user, its index a regular file of bounded size opened
 * without following a link or blocking, whose header names this user,
 * this machine and the device and inode of that very .journal folder
 * (which no clone, copy or archive can have), and whose files' folders are
 * reached from / without a link. Anything else is refused: one line naming
 * it and --discard-journal, nothing touched. Removal only ever unlinks the
 * names the sweep writes (index, orig.K) inside that folder. */
#include "emit.h"
#include "journal.h"
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
#define JOURNAL_MAGIC "probe-sweep journal 2\n"
#define JOURNAL_MAX   (32u << 20)

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
	struct stat st;
	/* the output folder a repository brought as a link would send the
	 * logs, the lock and the journal anywhere */
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return pk_error("%s: the output folder is a link, not a folder, or not this user's; give a folder "
		                "of your own with --out",
		                dir);
	snprintf(path, sizeof(path), "%s/.lock", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
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
	struct stat st;
	journal_path(p, sizeof(p), dir, NULL);
	return lstat(p, &st) == 0;
}

/* The .journal folder of DIR, opened without following a link: its fd, or
 * -1 (WHY set) when it is not a folder of this user's. */
static int journal_open(const char *dir, struct stat *st, const char **why)
{
	char p[PATH_MAX];
	journal_path(p, sizeof(p), dir, NULL);
	int fd = open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	*why = NULL;
	if (fd < 0)
		*why = errno == ELOOP || errno == ENOTDIR ? "a link or not a folder" : strerror(errno);
	else if (fstat(fd, st) < 0)
		*why = strerror(errno);
	else if (st->st_uid != geteuid())
		*why = "not owned by this user";
	if (*why && fd >= 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* NAME in folder FD: a regular file of this user's, read whole (at most
 * JOURNAL_MAX bytes) without following a link or blocking. */
static char *read_in(int fd, const char *name, size_t *len, const char **why)
{
	int f = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	*why = NULL;
	if (f < 0)
		*why = errno == ELOOP ? "a link" : strerror(errno);
	else if (fstat(f, &st) < 0)
		*why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		*why = "not a regular file";
	else if (st.st_uid != geteuid())
		*why = "not owned by this user";
	else if ((uint64_t)st.st_size > JOURNAL_MAX)
		*why = "larger than any journal probe-sweep writes";
	if (*why) {
		if (f >= 0)
			close(f);
		return NULL;
	}
	char *d = pk_xmalloc((size_t)st.st_size + 1);
	size_t n = 0;
	while (n < (size_t)st.st_size) {
		ssize_t r = read(f, d + n, (size_t)st.st_size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(f);
	d[n] = '\0';
	*len = n;
	return d;
}

/* Is the folder of absolute path P reached from / without a link? */
static int plain_folder(const char *p)
{
	if (p[0] != '/')
		return 0;
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	const char *q = p + 1, *s;
	while (fd >= 0 && (s = strchr(q, '/')) != NULL) {
		char part[NAME_MAX + 1];
		if (s == q || (size_t)(s - q) > NAME_MAX) {
			close(fd);
			return 0;
		}
		memcpy(part, q, (size_t)(s - q));
		part[s - q] = '\0';
		int next = !strcmp(part, ".") || !strcmp(part, "..")
		               ? -1
		               : openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		fd = next;
		q = s + 1;
	}
	if (fd >= 0)
		close(fd);
	return fd >= 0 && *q;
}

/* The index: the magic line, then per file
 * "file<TAB>SIZE<TAB>HASH<TAB>orig.K<TAB>REALPATH". */
int sw_journal_write(const char *dir, const struct pk_buf *orig, size_t n)
{
	char p[PATH_MAX], real[PATH_MAX];
	journal_path(p, sizeof(p), dir, NULL);
	if (mkdir(p, 0700) < 0)
		return pk_error("%s: %s (a journal of another run? 'probe-sweep --recover --out %s' first)", p,
		                strerror(errno), dir);
	struct stat st;
	const char *why;
	int jfd = journal_open(dir, &st, &why);
	if (jfd < 0)
		return pk_error("%s: %s", p, why);
	close(jfd);
	size_t len = strlen(JOURNAL_MAGIC), cap = 0;
	char *index = NULL;
	int rc = 0;
	PK_GROW(index, cap, len + 256);
	memcpy(index, JOURNAL_MAGIC, len);
	len += (size_t)snprintf(index + len, 256, "owner\t%lu\t%s\t%" PRIu64 "\t%" PRIu64 "\n",
	                        (unsigned long)geteuid(), pk_host_id(), (uint64_t)st.st_dev, (uint64_t)st.st_ino);
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
		                       pk_hash64(orig[i].data, orig[i].len), name, real);
	}
	journal_path(p, sizeof(p), dir, "index");
	if (rc == 0)
		rc = pk_write_atomic(p, index, len, NULL);
	free(index);
	return rc;
}

/* Only the names the sweep writes, inside a .journal folder that is one
 * (never through a link); a folder holding anything else stays. */
void sw_journal_remove(const char *dir)
{
	struct stat st;
	const char *why;
	int jfd = journal_open(dir, &st, &why);
	if (jfd < 0)
		return;
	unlinkat(jfd, "index", 0); /* first: without it the copies are nothing to recover */
	DIR *d = fdopendir(jfd);
	if (!d) {
		close(jfd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		const char *n = e->d_name;
		if (!strncmp(n, "orig.", 5) && n[5] && strspn(n + 5, "0123456789") == strlen(n + 5))
			unlinkat(jfd, n, 0);
		else if (!strncmp(n, ".probekit.", 10)) /* a copy's temporary file */
			unlinkat(jfd, n, 0);
	}
	closedir(d);
	char p[PATH_MAX];
	journal_path(p, sizeof(p), dir, NULL);
	rmdir(p);
}

/* One index line into ORIG (the copy's bytes, under the file's path) and
 * its scan; NULL, or what is wrong. */
static const char *journal_entry(int jfd, char *line, struct pk_buf *orig, struct pk_scan *scan)
{
	char *f[5];
	for (int k = 0; k < 5; k++) {
		f[k] = line;
		char *tab = k < 4 ? strchr(line, '\t') : NULL;
		if (k < 4 && !tab)
			return "damaged (a malformed line)";
		if (tab) {
			*tab = '\0';
			line = tab + 1;
		}
	}
	const char *why;
	if (strcmp(f[0], "file") || strncmp(f[3], "orig.", 5) || strchr(f[3], '/'))
		return "damaged (a malformed line)";
	if (!plain_folder(f[4]))
		return "it names a file not reached from / without a link";
	size_t len;
	char *d = read_in(jfd, f[3], &len, &why);
	if (!d)
		return "a copy of an original is missing, a link or not a regular file";
	char hash[17];
	snprintf(hash, sizeof(hash), "%016" PRIx64, pk_hash64(d, len));
	if (strtoull(f[1], NULL, 10) != len || strcmp(f[2], hash)) {
		free(d);
		return "a copy of an original is damaged (size or hash)";
	}
	pk_buf_from_mem(orig, f[4], d, len);
	pk_scan_buf(orig, scan, 0);
	return NULL;
}

/* The index of the journal folder JFD (ST its stat): every original, or
 * what is wrong with it. */
static const char *load_journal(int jfd, const struct stat *st, struct pk_buf **orig, struct pk_scan **scans, size_t *n)
{
	size_t len, cap = 0, capscan = 0, ml = strlen(JOURNAL_MAGIC);
	const char *why;
	char *idx = read_in(jfd, "index", &len, &why);
	if (!idx)
		return why;
	if (len < ml || strncmp(idx, JOURNAL_MAGIC, ml)) {
		free(idx);
		return "not a journal of this probe-sweep (no 'probe-sweep journal 2' header)";
	}
	char *save = NULL, *line = strtok_r(idx + ml, "\n", &save);
	char want[128];
	snprintf(want, sizeof(want), "owner\t%lu\t%s\t%" PRIu64 "\t%" PRIu64, (unsigned long)geteuid(), pk_host_id(),
	         (uint64_t)st->st_dev, (uint64_t)st->st_ino);
	why = !line || strcmp(line, want) ? "written for another folder, user or machine (a clone, a copy or an "
	                                    "archive brought it)"
	                                  : NULL;
	for (line = why ? NULL : strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		PK_GROW(*orig, cap, *n + 1);
		PK_GROW(*scans, capscan, *n + 1);
		memset(&(*orig)[*n], 0, sizeof(**orig));
		memset(&(*scans)[*n], 0, sizeof(**scans));
		(*orig)[*n].lock_fd = -1;
		++*n;
		if ((why = journal_entry(jfd, line, &(*orig)[*n - 1], &(*scans)[*n - 1])) != NULL)
			break;
	}
	free(idx);
	return why;
}

/* A journal that is not provably this user's own: refused, or with
 * --discard-journal removed (only it). */
static int refuse(const char *dir, const char *where, const char *why)
{
	if (!pk_journal_discard())
		return pk_error("%s: journal refused: %s; nothing changed (discard it with 'probe-sweep --recover "
		                "--discard-journal --out %s')",
		                where, why, dir);
	struct stat st;
	const char *w2;
	int jfd = journal_open(dir, &st, &w2);
	if (jfd >= 0) {
		close(jfd);
		sw_journal_remove(dir);
	} else {
		unlink(where); /* a link or a file: the name alone */
	}
	if (lstat(where, &st) == 0)
		return pk_error("%s: cannot discard it whole (it holds files probe-sweep does not write); remove it "
		                "yourself",
		                where);
	pk_note("probe-sweep: %s: journal discarded (%s); no file it names was touched", where, why);
	return 0;
}

int sw_journal_recover(const char *dir)
{
	if (!sw_journal_exists(dir))
		return 0;
	struct pk_buf *orig = NULL;
	struct pk_scan *scans = NULL;
	size_t n = 0, restored = 0;
	char where[PATH_MAX];
	journal_path(where, sizeof(where), dir, NULL);
	struct stat st, ist;
	const char *why;
	int rc = 0, jfd = journal_open(dir, &st, &why);
	if (jfd >= 0 && fstatat(jfd, "index", &ist, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT) {
		close(jfd); /* copies without an index: killed before any file changed */
		sw_journal_remove(dir);
		return 0;
	}
	if (jfd >= 0)
		why = load_journal(jfd, &st, &orig, &scans, &n);
	if (why)
		rc = refuse(dir, where, why);
	else
		rc = sw_put_back(orig, scans, n, where, &restored);
	if (!why && rc == 0) {
		pk_note("probe-sweep: %s: an earlier sweep did not finish; %zu of %zu file(s) put back from its "
		        "journal, the others were already as before",
		        dir, restored, n);
		sw_journal_remove(dir);
	} else if (!why) {
		pk_error("%s: the journal is kept; once the files are right, remove it", where);
	}
	if (jfd >= 0)
		close(jfd);
	for (size_t i = 0; i < n; i++) {
		pk_buf_free(&orig[i]);
		pk_scan_free(&scans[i]);
	}
	free(orig);
	free(scans);
	return rc;
}
