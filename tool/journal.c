/* journal.c - finishing a multi-file rewrite that died between two renames,
 * and refusing every journal that is not provably that.
 *
 * Before the first rename of several files, emit.c has a journal written
 * into the folder of each (pk_journal_begin): ".probekit-txn.PID.XXXXXX",
 * complete and synced before it appears under that name, locked by its
 * writer until the renames are done, then removed. It names every file
 * relative to the folder all of them share (the anchor), never by an
 * absolute path, with what the file held before and after the write (its
 * device and inode, size and content hash, or that it did not exist).
 *
 * The next run that writes a file of such a folder reads it back. It acts
 * only when the journal is provably this user's own unfinished write on
 * these very files: a regular file owned by the user, of bounded size
 * (opened without following a link and without blocking), written on this
 * machine, whose anchor is still the very folder it was (its device and
 * inode), every name reached from there one folder at a time without a
 * link, "..", "." or absolute part, and every file in one of its two
 * recorded states. Then the files still old are renamed forward from their
 * temporary files (all new), and one line on stderr says so. Anything else
 * (a journal a clone, a copy or an archive brought; a file edited since; a
 * damaged journal) is refused: one line naming it and --discard-journal,
 * nothing touched, the command exits 2. docs/safety.md has the threat
 * model. */
#include "emit.h"
#include "journal.h"
#include "pk.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define JOURNAL_PREFIX ".probekit-txn."
#define JOURNAL_MAGIC  "probekit txn 2\n"
/* far above any real set (a record is two names and a few numbers), far
 * below what would take long to read */
#define JOURNAL_MAX (32u << 20)

uint64_t pk_hash64(const char *p, size_t n)
{
	uint64_t h = 14695981039346656037u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211u;
	return h;
}

static int discard;

void pk_journal_set_discard(int on)
{
	discard = on;
}

int pk_journal_discard(void)
{
	return discard;
}

/* This machine, as a journal records it: /etc/machine-id and the host name. */
const char *pk_host_id(void)
{
	static char id[160];
	if (id[0])
		return id;
	char mid[64] = "";
	FILE *f = fopen("/etc/machine-id", "r");
	if (f) {
		if (!fgets(mid, sizeof(mid), f))
			mid[0] = '\0';
		mid[strcspn(mid, "\n")] = '\0';
		fclose(f);
	}
	char host[96] = "";
	gethostname(host, sizeof(host) - 1);
	snprintf(id, sizeof(id), "%s/%s", mid, host);
	return id;
}

static int write_full(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* ---- writing --------------------------------------------------------- */

static void add_field(struct pk_sb *sb, const char *s)
{
	pk_sb_addn(sb, s, strlen(s) + 1);
}

static void add_num(struct pk_sb *sb, uint64_t v)
{
	char b[32];
	snprintf(b, sizeof(b), "%" PRIu64, v);
	add_field(sb, b);
}

/* The folder of real path P, malloc'd ("/" for a file at the root). */
static char *dir_of(const char *p)
{
	const char *s = strrchr(p, '/');
	return s && s != p ? pk_xstrndup(p, (size_t)(s - p)) : pk_xstrdup("/");
}

/* P below folder A, relative ("" for A itself). */
static const char *below(const char *a, const char *p)
{
	size_t n = strlen(a);
	if (!strcmp(a, "/"))
		return p + 1;
	return p[n] == '/' ? p + n + 1 : p + n;
}

static int by_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

void pk_journal_end(struct pk_journal *j)
{
	for (size_t i = 0; i < j->n; i++) {
		unlinkat(j->dirfd[i], j->name[i], 0);
		fsync(j->dirfd[i]);
		close(j->fd[i]);
		close(j->dirfd[i]);
		free(j->name[i]);
	}
	free(j->fd);
	free(j->dirfd);
	free(j->name);
	memset(j, 0, sizeof(*j));
}

int pk_journal_begin(struct pk_journal *j, const struct pk_jfile *f, size_t n, const char *shown)
{
	memset(j, 0, sizeof(*j));
	/* the anchor: the deepest folder holding every file */
	char *anchor = dir_of(f[0].target);
	for (size_t i = 1; i < n; i++)
		while (strcmp(anchor, "/") &&
		       (strncmp(f[i].target, anchor, strlen(anchor)) || f[i].target[strlen(anchor)] != '/')) {
			char *up = dir_of(anchor);
			free(anchor);
			anchor = up;
		}
	/* the folders that get a copy, in one order for every run */
	char **dirs = pk_xcalloc(n, sizeof(*dirs));
	size_t nd = 0;
	for (size_t i = 0; i < n; i++) {
		char *d = dir_of(f[i].target);
		size_t k = 0;
		while (k < nd && strcmp(dirs[k], d))
			k++;
		if (k < nd)
			free(d);
		else
			dirs[nd++] = d;
	}
	qsort(dirs, nd, sizeof(*dirs), by_str);
	j->fd = pk_xcalloc(nd, sizeof(*j->fd));
	j->dirfd = pk_xcalloc(nd, sizeof(*j->dirfd));
	j->name = pk_xcalloc(nd, sizeof(*j->name));
	char **tmp = pk_xcalloc(nd, sizeof(*tmp));
	struct stat ast;
	const char *what = NULL;
	int err = 0, afd = open(anchor, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (afd < 0 || fstat(afd, &ast) < 0) {
		what = anchor;
		err = errno;
	}
	if (afd >= 0)
		close(afd);
	for (size_t i = 0; i < nd && !what; i++) {
		char t[PATH_MAX];
		int dfd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0 || pk_temp_template(t, sizeof(t), dirs[i], "txn") < 0) {
			what = dirs[i];
			err = dfd < 0 ? errno : ENAMETOOLONG;
			if (dfd >= 0)
				close(dfd);
			break;
		}
		int fd = mkstemp(t);
		if (fd < 0) {
			what = dirs[i];
			err = errno;
			close(dfd);
			break;
		}
		j->fd[j->n] = fd;
		j->dirfd[j->n] = dfd;
		tmp[j->n] = pk_xstrdup(strrchr(t, '/') + 1);
		j->name[j->n++] = pk_xasprintf(JOURNAL_PREFIX "%ld.%s", (long)getpid(), t + strlen(t) - 6);
	}
	struct pk_sb sb = {0};
	if (!what) {
		pk_sb_add(&sb, JOURNAL_MAGIC);
		add_field(&sb, "H");
		add_num(&sb, (uint64_t)geteuid());
		add_field(&sb, pk_host_id());
		add_num(&sb, (uint64_t)ast.st_dev);
		add_num(&sb, (uint64_t)ast.st_ino);
		add_num(&sb, n);
		add_num(&sb, nd);
		for (size_t i = 0; i < n; i++) {
			add_field(&sb, "F");
			add_field(&sb, below(anchor, f[i].target));
			add_field(&sb, f[i].tmp ? below(anchor, f[i].tmp) : "");
			add_num(&sb, (uint64_t)f[i].before);
			add_num(&sb, (uint64_t)f[i].bdev);
			add_num(&sb, (uint64_t)f[i].bino);
			add_num(&sb, f[i].bsize);
			add_num(&sb, f[i].bhash);
			add_num(&sb, (uint64_t)f[i].after);
			add_num(&sb, (uint64_t)f[i].adev);
			add_num(&sb, (uint64_t)f[i].aino);
			add_num(&sb, f[i].asize);
			add_num(&sb, f[i].ahash);
		}
		for (size_t i = 0; i < nd; i++) {
			const char *rd = below(anchor, dirs[i]);
			char *p = pk_xasprintf("%s%s%s", rd, *rd ? "/" : "", j->name[i]);
			add_field(&sb, "J");
			add_field(&sb, p);
			free(p);
		}
		add_field(&sb, "E");
		if (sb.n > JOURNAL_MAX) {
			what = "the journal";
			err = EFBIG;
		}
	}
	/* each copy whole and synced before it appears under its name */
	for (size_t i = 0; i < j->n && !what; i++) {
		if (write_full(j->fd[i], sb.s, sb.n) < 0 || fsync(j->fd[i]) < 0 || flock(j->fd[i], LOCK_EX) < 0 ||
		    renameat(j->dirfd[i], tmp[i], j->dirfd[i], j->name[i]) < 0 || fsync(j->dirfd[i]) < 0) {
			what = dirs[i];
			err = errno;
			break;
		}
		free(tmp[i]);
		tmp[i] = NULL;
	}
	int rc = 0;
	if (what) {
		for (size_t i = 0; i < j->n; i++)
			if (tmp[i])
				unlinkat(j->dirfd[i], tmp[i], 0);
		pk_journal_end(j);
		rc = pk_error("%s: cannot write the journal of the change in '%s': %s; not changed", shown, what,
		              strerror(err));
	}
	for (size_t i = 0; i < nd; i++) {
		free(tmp[i]);
		free(dirs[i]);
	}
	free(tmp);
	free(dirs);
	free(anchor);
	pk_sb_free(&sb);
	return rc;
}

/* ---- reading --------------------------------------------------------- */

/* One folder down from FD by NAME, never through a link; -1 for "", ".",
 * ".." or a name holding '/'. Consumes nothing. */
static int down(int fd, const char *name)
{
	if (!*name || !strcmp(name, ".") || !strcmp(name, "..") || strchr(name, '/')) {
		errno = EPERM;
		return -1;
	}
	return openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* The folder of relative path REL below ANCHOR (a fd; REL's last part is
 * the file's name, set in *BASE), walked one part at a time: -1 when a part
 * is missing, a link, "..", "." or empty (an absolute REL starts with one). */
static int walk(int anchor, const char *rel, const char **base)
{
	const char *s = strrchr(rel, '/');
	*base = s ? s + 1 : rel;
	if (!**base || !strcmp(*base, ".") || !strcmp(*base, "..")) {
		errno = EPERM;
		return -1;
	}
	int fd = dup(anchor);
	const char *p = rel;
	while (fd >= 0 && s && p <= s) {
		const char *e = strchr(p, '/');
		char part[NAME_MAX + 1];
		if ((size_t)(e - p) > NAME_MAX) {
			close(fd);
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(part, p, (size_t)(e - p));
		part[e - p] = '\0';
		int next = down(fd, part);
		close(fd);
		fd = next;
		p = e + 1;
	}
	return fd;
}

/* A journal read back: its fields, NUL-terminated each. */
struct jread {
	char *data;
	size_t len;
	char **fld;
	size_t nf;
};

static uint64_t num(const char *s, int *bad)
{
	char *e;
	errno = 0;
	unsigned long long v = strtoull(s, &e, 10);
	if (!*s || *e || errno)
		*bad = 1;
	return v;
}

enum { F_FIELDS = 13 }; /* "F" and its twelve */

/* Check the structure; the fields stay in R. NULL, or what is wrong. */
static const char *parse(struct jread *r, size_t *nfiles, size_t *ncopies)
{
	size_t ml = strlen(JOURNAL_MAGIC);
	if (r->len < ml || memcmp(r->data, JOURNAL_MAGIC, ml))
		return "not a journal of this probekit (no 'probekit txn 2' header)";
	if (r->data[r->len - 1] != '\0')
		return "damaged (it does not end where a journal ends)";
	size_t cap = 0;
	for (size_t i = ml; i < r->len; i += strlen(r->data + i) + 1) {
		PK_GROW(r->fld, cap, r->nf + 1);
		r->fld[r->nf++] = r->data + i;
	}
	int bad = 0;
	if (r->nf < 8 || strcmp(r->fld[0], "H"))
		return "damaged (no header record)";
	*nfiles = num(r->fld[5], &bad);
	*ncopies = num(r->fld[6], &bad);
	if (bad || *nfiles == 0 || *ncopies == 0 || *nfiles > r->nf || *ncopies > r->nf ||
	    r->nf != 7 + *nfiles * F_FIELDS + *ncopies * 2 + 1 || strcmp(r->fld[r->nf - 1], "E"))
		return "damaged (truncated, or its records do not add up)";
	for (size_t i = 0; i < *nfiles; i++) {
		char **g = r->fld + 7 + i * F_FIELDS;
		if (strcmp(g[0], "F"))
			return "damaged (a file record is malformed)";
		for (int k = 3; k < F_FIELDS; k++)
			num(g[k], &bad);
	}
	for (size_t i = 0; i < *ncopies; i++)
		if (strcmp(r->fld[7 + *nfiles * F_FIELDS + i * 2], "J"))
			return "damaged (a copy record is malformed)";
	return bad ? "damaged (a number is malformed)" : NULL;
}

/* One file's state against its record. */
enum { ST_OLD = 1, ST_NEW = 2, ST_OTHER = 4 };

/* Does NAME in DFD hold exactly PRESENT/DEV/INO/SIZE/HASH? */
static int holds(int dfd, const char *name, int present, uint64_t dev, uint64_t ino, uint64_t size, uint64_t hash)
{
	struct stat st;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT && !present;
	if (!present || !S_ISREG(st.st_mode) || (uint64_t)st.st_dev != dev || (uint64_t)st.st_ino != ino ||
	    (uint64_t)st.st_size != size || size > (uint64_t)SSIZE_MAX)
		return 0;
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	char *buf = pk_xmalloc(size ? (size_t)size : 1);
	size_t got = 0;
	while (got < size) {
		ssize_t r = read(fd, buf + got, (size_t)size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	int same = got == size && pk_hash64(buf, got) == hash;
	free(buf);
	return same;
}

struct jfile_state {
	int dfd;
	const char *base, *tmpbase;
	int state, tmp_ok;
};

/* A discarded journal that is this user's own, for this folder (R, AFD its
 * anchor): every other copy, and each temporary file that holds exactly
 * the new text the journal recorded for it. */
static void discard_rest(int afd, const struct jread *r, size_t nfiles, size_t ncopies)
{
	int bad = 0;
	for (size_t i = 0; i < nfiles; i++) {
		char **g = r->fld + 7 + i * F_FIELDS;
		const char *tb;
		int td = *g[2] ? walk(afd, g[2], &tb) : -1;
		if (td >= 0 && !strncmp(tb, ".probekit.", 10) &&
		    holds(td, tb, 1, num(g[9], &bad), num(g[10], &bad), num(g[11], &bad), num(g[12], &bad)))
			unlinkat(td, tb, 0);
		if (td >= 0)
			close(td);
	}
	char **copies = r->fld + 7 + nfiles * F_FIELDS;
	for (size_t i = 0; i < ncopies; i++) {
		const char *cb;
		int cd = walk(afd, copies[i * 2 + 1], &cb);
		if (cd >= 0 && !strncmp(cb, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX)))
			unlinkat(cd, cb, 0);
		if (cd >= 0)
			close(cd);
	}
}

/* The journal DIR/NAME (DFD its folder): act on it, or refuse it. 0 done
 * (or nothing to do), -1 refused, 1 busy (locked by another run: retry). */
static int journal_one(int dfd, const char *dir, const char *name)
{
	char *shown = pk_xasprintf("%s/%s", dir, name);
	const char *why = NULL;
	char whybuf[PATH_MAX + 128];
	struct jread r = {0};
	int fd = openat(dfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC), afd = -1, rc = 0, verified = 0;
	int *cfd = NULL;
	size_t nfiles = 0, ncopies = 0, locked = 0;
	struct jfile_state *fs = NULL;
	struct stat st;
	if (fd < 0)
		why = errno == ELOOP ? "a symbolic link" : strerror(errno);
	else if (fstat(fd, &st) < 0)
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (st.st_uid != geteuid())
		why = "not owned by this user";
	else if ((uint64_t)st.st_size > JOURNAL_MAX)
		why = "larger than any journal probekit writes";
	if (why)
		goto refuse;
	/* its writer holds it until the renames are done */
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR) {
			why = strerror(errno);
			goto refuse;
		}
	if (fstat(fd, &st) < 0 || st.st_nlink == 0) /* finished meanwhile */
		goto out;
	r.data = pk_xmalloc((size_t)st.st_size + 1);
	while (r.len < (size_t)st.st_size) {
		ssize_t n = read(fd, r.data + r.len, (size_t)st.st_size - r.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		r.len += (size_t)n;
	}
	if ((why = parse(&r, &nfiles, &ncopies)) != NULL)
		goto refuse;
	int bad = 0;
	if (num(r.fld[1], &bad) != (uint64_t)geteuid() || strcmp(r.fld[2], pk_host_id())) {
		why = "written by another user or on another machine";
		goto refuse;
	}
	/* which copy this is: its folder below the anchor */
	char **copies = r.fld + 7 + nfiles * F_FIELDS;
	const char *own = NULL;
	for (size_t i = 0; i < ncopies; i++) {
		const char *c = copies[i * 2 + 1], *s = strrchr(c, '/');
		if (!strcmp(s ? s + 1 : c, name))
			own = c;
	}
	if (!own) {
		why = "it does not list itself";
		goto refuse;
	}
	/* up to the anchor, one ".." per part of its folder, then it must be
	 * the very folder the journal was written for, and down again the
	 * same way without a link to this folder */
	afd = dup(dfd);
	for (const char *p = own; afd >= 0 && (p = strchr(p, '/')) != NULL; p++) {
		int up = openat(afd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		close(afd);
		afd = up;
	}
	struct stat ast, dst, back;
	const char *obase;
	int odfd = afd >= 0 ? walk(afd, own, &obase) : -1;
	int same_dir = odfd >= 0 && fstat(odfd, &back) == 0 && fstat(dfd, &dst) == 0 && back.st_dev == dst.st_dev &&
	               back.st_ino == dst.st_ino;
	if (odfd >= 0)
		close(odfd);
	if (afd < 0 || fstat(afd, &ast) < 0 || (uint64_t)ast.st_dev != num(r.fld[3], &bad) ||
	    (uint64_t)ast.st_ino != num(r.fld[4], &bad) || !same_dir) {
		why = "written for another folder (a clone, a copy or an archive brought it, or the folder moved)";
		goto refuse;
	}
	verified = 1; /* this user's, for this very folder: its copies may go */
	/* every copy locked (one order for every run); one busy: retry */
	cfd = pk_xcalloc(ncopies, sizeof(*cfd));
	for (size_t i = 0; i < ncopies; i++) {
		const char *cb;
		int cd = copies[i * 2 + 1] == own ? -1 : walk(afd, copies[i * 2 + 1], &cb);
		cfd[i] = cd >= 0 ? openat(cd, cb, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) : -1;
		if (cd >= 0)
			close(cd);
		if (cfd[i] >= 0 && flock(cfd[i], LOCK_EX | LOCK_NB) < 0) {
			rc = 1;
			goto out;
		}
		locked = i + 1;
	}
	/* every file: old, new or neither */
	fs = pk_xcalloc(nfiles, sizeof(*fs));
	for (size_t i = 0; i < nfiles; i++)
		fs[i].dfd = -1;
	int all = 0, cannot = 0;
	for (size_t i = 0; i < nfiles; i++) {
		char **g = r.fld + 7 + i * F_FIELDS;
		fs[i].dfd = walk(afd, g[1], &fs[i].base);
		if (fs[i].dfd < 0) {
			snprintf(whybuf, sizeof(whybuf), "it names '%s', which is not a file below its folder", g[1]);
			why = whybuf;
			goto refuse;
		}
		if (*g[2]) {
			const char *tb, *s = strrchr(g[2], '/');
			int td = walk(afd, g[2], &tb);
			struct stat a, b;
			int same = td >= 0 && fstat(td, &a) == 0 && fstat(fs[i].dfd, &b) == 0 && a.st_dev == b.st_dev &&
			           a.st_ino == b.st_ino &&
			           (s ? (size_t)(s - g[2]) == (size_t)(strrchr(g[1], '/') - g[1]) : !strchr(g[1], '/'));
			if (td >= 0)
				close(td);
			if (!same || strncmp(tb, ".probekit.", 10)) {
				snprintf(whybuf, sizeof(whybuf), "its temporary file for '%s' is not one beside it",
				         g[1]);
				why = whybuf;
				goto refuse;
			}
			fs[i].tmpbase = tb;
			fs[i].tmp_ok = holds(fs[i].dfd, tb, 1, num(g[9], &bad), num(g[10], &bad), num(g[11], &bad),
			                     num(g[12], &bad));
		}
		if (holds(fs[i].dfd, fs[i].base, (int)num(g[3], &bad), num(g[4], &bad), num(g[5], &bad),
		          num(g[6], &bad), num(g[7], &bad)))
			fs[i].state = ST_OLD;
		else if (holds(fs[i].dfd, fs[i].base, (int)num(g[8], &bad), num(g[9], &bad), num(g[10], &bad),
		               num(g[11], &bad), num(g[12], &bad)))
			fs[i].state = ST_NEW;
		else
			fs[i].state = ST_OTHER;
		all |= fs[i].state;
		/* an old file is finished by its temporary file, or by removal */
		if (fs[i].state == ST_OLD && (*g[2] ? !fs[i].tmp_ok : num(g[8], &bad)))
			cannot = 1;
		if (fs[i].state == ST_OTHER) {
			snprintf(whybuf, sizeof(whybuf),
			         "'%s' changed since (it holds neither what it held before the write nor after)", g[1]);
			why = whybuf;
			goto refuse;
		}
	}
	if (cannot && all == (ST_OLD | ST_NEW)) {
		why = "a file still old has lost its new text (its temporary file is gone or changed)";
		goto refuse;
	}
	size_t moved = 0;
	if (!cannot) { /* forward: every file new */
		for (size_t i = 0; i < nfiles; i++) {
			if (fs[i].state != ST_OLD)
				continue;
			int e = fs[i].tmpbase ? renameat(fs[i].dfd, fs[i].tmpbase, fs[i].dfd, fs[i].base)
			                      : unlinkat(fs[i].dfd, fs[i].base, 0);
			if (e < 0) {
				rc =
				    pk_error("%s: cannot finish the interrupted write of '%s': %s; the journal is kept",
				             shown, r.fld[7 + i * F_FIELDS + 1], strerror(errno));
				goto out;
			}
			moved++;
			fsync(fs[i].dfd);
		}
	} else { /* back: every file old (killed before its first rename) */
		for (size_t i = 0; i < nfiles; i++)
			if (fs[i].tmp_ok)
				unlinkat(fs[i].dfd, fs[i].tmpbase, 0);
	}
	for (size_t i = 0; i < ncopies; i++) {
		const char *cb;
		int cd = walk(afd, copies[i * 2 + 1], &cb);
		if (cd >= 0 && !strncmp(cb, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX))) {
			unlinkat(cd, cb, 0);
			/* a copy its writer was killed before naming: its temporary
			 * name, ".probekit.txn." and the same pid and suffix */
			char *t = pk_xasprintf(".probekit.txn.%s", cb + strlen(JOURNAL_PREFIX));
			unlinkat(cd, t, 0);
			free(t);
		}
		if (cd >= 0)
			close(cd);
	}
	if (!cannot)
		pk_error("%s: finished an earlier run's interrupted write: %zu of %zu file(s) renamed forward, "
		         "the set is all new",
		         shown, moved, nfiles);
	else
		pk_error("%s: put back an earlier run's interrupted write: no file had been replaced yet, "
		         "%zu file(s) kept as they were",
		         shown, nfiles);
	goto out;
refuse:
	if (discard) {
		if (unlinkat(dfd, name, 0) == 0)
			pk_error("%s: journal discarded (%s); no file it names was touched", shown, why);
		else
			rc = pk_error("%s: cannot discard: %s", shown, strerror(errno));
		if (verified) /* its other copies and its own temporary files go too */
			discard_rest(afd, &r, nfiles, ncopies);
	} else {
		rc = pk_error("%s: journal refused: %s; nothing changed (discard it with --discard-journal)", shown,
		              why);
	}
out:
	for (size_t i = 0; fs && i < nfiles; i++)
		if (fs[i].dfd >= 0)
			close(fs[i].dfd);
	free(fs);
	for (size_t i = 0; i < locked; i++)
		if (cfd[i] >= 0)
			close(cfd[i]);
	if (cfd && locked < ncopies && cfd[locked] >= 0)
		close(cfd[locked]);
	free(cfd);
	if (afd >= 0)
		close(afd);
	if (fd >= 0)
		close(fd);
	free(r.fld);
	free(r.data);
	free(shown);
	return rc;
}

#define TEMP_RANDOM   6
#define TEMP_BASE_MAX (NAME_MAX - 10 - 1 - 20 - 1 - TEMP_RANDOM)

static int temp_base_len(const char *base)
{
	size_t n = strlen(base);
	return (int)(n < TEMP_BASE_MAX ? n : TEMP_BASE_MAX);
}

int pk_temp_template(char *out, size_t size, const char *dir, const char *base)
{
	int n = snprintf(out, size, "%s/.probekit.%.*s.%ld.", dir, temp_base_len(base), base, (long)getpid());
	if (n < 0 || (size_t)n + TEMP_RANDOM >= size)
		return -1;
	memset(out + n, 'X', TEMP_RANDOM); /* the template mkstemp requires */
	out[n + TEMP_RANDOM] = '\0';
	return 0;
}

/* The pid in a temporary file's name, ".probekit.BASE.PID.XXXXXX", or 0
 * when NAME is not one. */
static long temp_pid(const char *name)
{
	size_t n = strlen(name);
	if (strncmp(name, ".probekit.", 10) != 0 || n < 10 + 1 + 2 + TEMP_RANDOM || name[n - TEMP_RANDOM - 1] != '.')
		return 0;
	size_t d = n - TEMP_RANDOM - 1;
	while (d > 10 && name[d - 1] >= '0' && name[d - 1] <= '9')
		d--;
	if (d == n - TEMP_RANDOM - 1 || name[d - 1] != '.')
		return 0;
	return strtol(name + d, NULL, 10);
}

/* Temporary files of dead writers seen in the directories read so far,
 * "DIR/NAME": each goes when a run loads its target for writing. */
static char **dead;
static size_t ndead, cap_dead;

static void note_dead_temp(const char *dir, const char *name)
{
	long pid = temp_pid(name);
	if (pid <= 0 || (pid_t)pid != pid || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
		return; /* a live pid, even a reused one, keeps its file */
	PK_GROW(dead, cap_dead, ndead + 1);
	dead[ndead++] = pk_xasprintf("%s/%s", dir, name);
}

/* Remove the dead writers' temporary files of TARGET (DIR/BASE). A run
 * killed between mkstemp and rename (kill -9, power loss) leaves one behind;
 * its name carries the writer's pid, and a pid that kill(2) cannot find has
 * no rename pending. Writers on another host sharing the directory are not
 * told apart. */
static void remove_dead_temps(const char *dir, const char *base)
{
	char *prefix = pk_xasprintf("%s/.probekit.%.*s.", dir, temp_base_len(base), base);
	size_t n = strlen(prefix);
	for (size_t i = 0; i < ndead; i++) {
		struct stat st;
		if (dead[i] && !strncmp(dead[i], prefix, n) && !strchr(dead[i] + n, '/') &&
		    strlen(dead[i] + n) > TEMP_RANDOM + 1 && lstat(dead[i], &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_uid == geteuid()) {
			unlink(dead[i]);
			free(dead[i]);
			dead[i] = NULL;
		}
	}
	free(prefix);
}

/* The journals of DIR (its real path): each acted on or refused; then the
 * dead writers' temporary files are noted. -1 when one was refused. */
static int journal_recover_dir(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	DIR *dp = fdopendir(dfd);
	if (!dp) {
		close(dfd);
		return 0;
	}
	int rc = 0;
	struct dirent *e;
	for (int tries = 0; tries < 600; tries++) {
		int again = 0;
		rewinddir(dp);
		while ((e = readdir(dp)) != NULL) {
			if (strncmp(e->d_name, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX)))
				continue;
			int r = journal_one(dfd, dir, e->d_name);
			if (r < 0)
				rc = -1;
			again |= r > 0;
		}
		if (!again)
			break;
		/* another run holds a copy: it is finishing that journal */
		struct timespec ts = {0, 50 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	/* after the journals: a journal needs its temporaries */
	rewinddir(dp);
	while ((e = readdir(dp)) != NULL)
		note_dead_temp(dir, e->d_name);
	closedir(dp);
	return rc;
}

/* The real folder of PATH and its base name; -1 when PATH is not there. */
static int real_dir(const char *path, char *dir, char *base)
{
	char target[PATH_MAX];
	if (!strcmp(path, "-") || !realpath(path, target))
		return -1;
	snprintf(base, PATH_MAX, "%s", strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
	snprintf(dir, PATH_MAX, "%s", dirname(target));
	return 0;
}

/* Has this run read DIR already? (Each folder once: a set of many files in
 * one folder must not read it once per file.) */
static int seen_before(char ***seen, size_t *n, size_t *cap, const char *dir)
{
	for (size_t i = *n; i-- > 0;)
		if (!strcmp((*seen)[i], dir))
			return 1;
	pk_grow((void **)seen, cap, *n + 1, sizeof(**seen));
	(*seen)[(*n)++] = pk_xstrdup(dir);
	return 0;
}

static char **seen_dirs;
static size_t nseen_dirs, cap_seen_dirs;

void pk_txn_forget(void)
{
	for (size_t i = 0; i < nseen_dirs; i++)
		free(seen_dirs[i]);
	nseen_dirs = 0;
}

int pk_txn_recover(const char *path)
{
	char dir[PATH_MAX], base[PATH_MAX];
	if (real_dir(path, dir, base) < 0)
		return 0;
	int rc = 0;
	if (!seen_before(&seen_dirs, &nseen_dirs, &cap_seen_dirs, dir))
		rc = journal_recover_dir(dir);
	remove_dead_temps(dir, base);
	remove_dead_temps(dir, "txn"); /* a journal killed before it was whole */
	return rc;
}

size_t pk_journal_report(const char *path, FILE *out)
{
	static char **seen, *last;
	static size_t nseen, cap_seen;
	static int sweep_done;
	size_t found = 0;
	if (!sweep_done) {
		/* probe-sweep's default output folder, where probe-sweep runs */
		sweep_done = 1;
		struct stat st;
		if (lstat("probe-sweep.out/.journal", &st) == 0) {
			fprintf(out,
			        "probe-sweep.out/.journal: pending journal of an unfinished probe-sweep: the files "
			        "it lists may still have a probe on ('probe-sweep --recover' puts them back, or "
			        "refuses it)\n");
			found++;
		}
	}
	if (!strcmp(path, "-"))
		return found;
	/* the folder as named (no realpath: probe-check meets every file of a
	 * tree, folder by folder, and must stay one read per folder) */
	const char *slash = strrchr(path, '/');
	char *dir = slash ? pk_xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : pk_xstrdup(".");
	if ((last && !strcmp(last, dir)) || seen_before(&seen, &nseen, &cap_seen, dir)) {
		free(dir);
		return found;
	}
	last = seen[nseen - 1];
	DIR *dp = opendir(dir);
	struct dirent *e;
	while (dp && (e = readdir(dp)) != NULL)
		if (!strncmp(e->d_name, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX))) {
			fprintf(out,
			        "%s/%s: pending journal of an interrupted multi-file write: the files it names may be "
			        "half old, half new (the next probe-inject or probe-strip of a file here finishes it, "
			        "or refuses it)\n",
			        dir, e->d_name);
			found++;
		}
	if (dp)
		closedir(dp);
	free(dir);
	return found;
}
