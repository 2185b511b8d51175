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

/* The anchor: the deepest folder holding every file of F. */
static char *anchor_of(const struct pk_jfile *f, size_t n)
{
	char *anchor = dir_of(f[0].target);
	for (size_t i = 1; i < n; i++)
		while (strcmp(anchor, "/") &&
		       (strncmp(f[i].target, anchor, strlen(anchor)) || f[i].target[strlen(anchor)] != '/')) {
			char *up = dir_of(anchor);
			free(anchor);
			anchor = up;
		}
	return anchor;
}

/* The folders that get a copy, in one order for every run. */
static char **dirs_of(const struct pk_jfile *f, size_t n, size_t *nd)
{
	char **dirs = pk_xcalloc(n, sizeof(*dirs));
	*nd = 0;
	for (size_t i = 0; i < n; i++) {
		char *d = dir_of(f[i].target);
		size_t k = 0;
		while (k < *nd && strcmp(dirs[k], d))
			k++;
		if (k < *nd)
			free(d);
		else
			dirs[(*nd)++] = d;
	}
	qsort(dirs, *nd, sizeof(*dirs), by_str);
	return dirs;
}

/* The journal's text (journal.c's header has the format). */
static void journal_text(struct pk_sb *sb, const char *anchor, const struct stat *ast, const struct pk_jfile *f,
                         size_t n, char **dirs, const struct pk_journal *j)
{
	pk_sb_add(sb, JOURNAL_MAGIC);
	add_field(sb, "H");
	add_num(sb, (uint64_t)geteuid());
	add_field(sb, pk_host_id());
	add_num(sb, (uint64_t)ast->st_dev);
	add_num(sb, (uint64_t)ast->st_ino);
	add_num(sb, n);
	add_num(sb, j->n);
	for (size_t i = 0; i < n; i++) {
		add_field(sb, "F");
		add_field(sb, below(anchor, f[i].target));
		add_field(sb, f[i].tmp ? below(anchor, f[i].tmp) : "");
		uint64_t v[10] = {
		    (uint64_t)f[i].before, (uint64_t)f[i].bdev, (uint64_t)f[i].bino, f[i].bsize, f[i].bhash,
		    (uint64_t)f[i].after,  (uint64_t)f[i].adev, (uint64_t)f[i].aino, f[i].asize, f[i].ahash};
		for (int k = 0; k < 10; k++)
			add_num(sb, v[k]);
	}
	for (size_t i = 0; i < j->n; i++) {
		const char *rd = below(anchor, dirs[i]);
		char *p = pk_xasprintf("%s%s%s", rd, *rd ? "/" : "", j->name[i]);
		add_field(sb, "J");
		add_field(sb, p);
		free(p);
	}
	add_field(sb, "E");
}

/* A temporary file in each folder of DIRS, its final name chosen: the
 * folder that failed (ERR set), or NULL. */
static const char *journal_temps(struct pk_journal *j, char **dirs, size_t nd, char **tmp, int *err)
{
	for (size_t i = 0; i < nd; i++) {
		char t[PATH_MAX];
		int dfd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd = -1;
		*err = dfd < 0 ? errno : ENAMETOOLONG;
		if (dfd >= 0 && pk_temp_template(t, sizeof(t), dirs[i], "txn") == 0) {
			fd = mkstemp(t);
			*err = errno;
		}
		if (fd < 0) {
			if (dfd >= 0)
				close(dfd);
			return dirs[i];
		}
		j->fd[j->n] = fd;
		j->dirfd[j->n] = dfd;
		tmp[j->n] = pk_xstrdup(strrchr(t, '/') + 1);
		j->name[j->n++] = pk_xasprintf(JOURNAL_PREFIX "%ld.%s", (long)getpid(), t + strlen(t) - 6);
	}
	return NULL;
}

int pk_journal_begin(struct pk_journal *j, const struct pk_jfile *f, size_t n, const char *shown)
{
	memset(j, 0, sizeof(*j));
	char *anchor = anchor_of(f, n);
	size_t nd;
	char **dirs = dirs_of(f, n, &nd);
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
	if (!what)
		what = journal_temps(j, dirs, nd, tmp, &err);
	struct pk_sb sb = {0};
	if (!what) {
		journal_text(&sb, anchor, &ast, f, n, dirs, j);
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

/* One journal being read back. */
struct jctx {
	int dfd;          /* the folder the copy was met in */
	const char *name; /* the copy's name there */
	char *shown;      /* DIR/NAME, for messages */
	struct jread r;
	size_t nfiles, ncopies, locked;
	char **copies; /* "J" records: copies[i * 2 + 1] is a copy's name */
	const char *own;
	int fd, afd, *cfd;
	struct jfile_state *fs;
	char whybuf[PATH_MAX + 128];
};

/* Every copy of C's journal, each with the temporary name its writer gave
 * it before naming it (".probekit.txn." and the same pid and suffix). */
static void remove_copies(const struct jctx *c)
{
	for (size_t i = 0; i < c->ncopies; i++) {
		const char *cb;
		int cd = walk(c->afd, c->copies[i * 2 + 1], &cb);
		if (cd >= 0 && !strncmp(cb, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX))) {
			unlinkat(cd, cb, 0);
			char *t = pk_xasprintf(".probekit.txn.%s", cb + strlen(JOURNAL_PREFIX));
			unlinkat(cd, t, 0);
			free(t);
		}
		if (cd >= 0)
			close(cd);
	}
}

/* A discarded journal that is this user's own, for this folder: every
 * other copy, and each temporary file that holds exactly the new text the
 * journal recorded for it. */
static void discard_rest(const struct jctx *c)
{
	int bad = 0;
	for (size_t i = 0; i < c->nfiles; i++) {
		char **g = c->r.fld + 7 + i * F_FIELDS;
		const char *tb;
		int td = *g[2] ? walk(c->afd, g[2], &tb) : -1;
		if (td >= 0 && !strncmp(tb, ".probekit.", 10) &&
		    holds(td, tb, 1, num(g[9], &bad), num(g[10], &bad), num(g[11], &bad), num(g[12], &bad)))
			unlinkat(td, tb, 0);
		if (td >= 0)
			close(td);
	}
	remove_copies(c);
}

/* Open, lock (its writer holds it until the renames are done) and read
 * C's copy: NULL, or what is wrong with it. *GONE: finished meanwhile. */
static const char *read_journal(struct jctx *c, int *gone)
{
	struct stat st;
	c->fd = openat(c->dfd, c->name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (c->fd < 0)
		return errno == ELOOP ? "a symbolic link" : strerror(errno);
	if (fstat(c->fd, &st) < 0)
		return strerror(errno);
	if (!S_ISREG(st.st_mode))
		return "not a regular file";
	if (st.st_uid != geteuid())
		return "not owned by this user";
	if ((uint64_t)st.st_size > JOURNAL_MAX)
		return "larger than any journal probekit writes";
	while (flock(c->fd, LOCK_EX) < 0)
		if (errno != EINTR)
			return strerror(errno);
	if (fstat(c->fd, &st) < 0 || st.st_nlink == 0) {
		*gone = 1;
		return NULL;
	}
	c->r.data = pk_xmalloc((size_t)st.st_size + 1);
	while (c->r.len < (size_t)st.st_size) {
		ssize_t n = read(c->fd, c->r.data + c->r.len, (size_t)st.st_size - c->r.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		c->r.len += (size_t)n;
	}
	const char *why = parse(&c->r, &c->nfiles, &c->ncopies);
	if (why)
		return why;
	int bad = 0;
	if (num(c->r.fld[1], &bad) != (uint64_t)geteuid() || strcmp(c->r.fld[2], pk_host_id()))
		return "written by another user or on another machine";
	c->copies = c->r.fld + 7 + c->nfiles * F_FIELDS;
	return NULL;
}

/* The anchor: up from the copy's folder, one ".." per part of its name,
 * it must be the very folder the journal was written for, and down again
 * by that name without a link, this folder. NULL, or what is wrong. */
static const char *find_anchor(struct jctx *c)
{
	for (size_t i = 0; i < c->ncopies; i++) {
		const char *n = c->copies[i * 2 + 1], *s = strrchr(n, '/');
		if (!strcmp(s ? s + 1 : n, c->name))
			c->own = n;
	}
	if (!c->own)
		return "it does not list itself";
	c->afd = dup(c->dfd);
	for (const char *p = c->own; c->afd >= 0 && (p = strchr(p, '/')) != NULL; p++) {
		int up = openat(c->afd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		close(c->afd);
		c->afd = up;
	}
	struct stat ast, dst, back;
	const char *obase;
	int bad = 0, odfd = c->afd >= 0 ? walk(c->afd, c->own, &obase) : -1;
	int same_dir = odfd >= 0 && fstat(odfd, &back) == 0 && fstat(c->dfd, &dst) == 0 && back.st_dev == dst.st_dev &&
	               back.st_ino == dst.st_ino;
	if (odfd >= 0)
		close(odfd);
	if (c->afd < 0 || fstat(c->afd, &ast) < 0 || (uint64_t)ast.st_dev != num(c->r.fld[3], &bad) ||
	    (uint64_t)ast.st_ino != num(c->r.fld[4], &bad) || !same_dir)
		return "written for another folder (a clone, a copy or an archive brought it, or the folder moved)";
	return NULL;
}

/* Every other copy locked (one order for every run): 0, or 1 when one is
 * busy (another run is finishing this journal). */
static int lock_copies(struct jctx *c)
{
	c->cfd = pk_xcalloc(c->ncopies, sizeof(*c->cfd));
	for (size_t i = 0; i < c->ncopies; i++) {
		const char *cb;
		int cd = c->copies[i * 2 + 1] == c->own ? -1 : walk(c->afd, c->copies[i * 2 + 1], &cb);
		c->cfd[i] = cd >= 0 ? openat(cd, cb, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) : -1;
		if (cd >= 0)
			close(cd);
		c->locked = i + 1;
		if (c->cfd[i] >= 0 && flock(c->cfd[i], LOCK_EX | LOCK_NB) < 0)
			return 1;
	}
	return 0;
}

/* File I of C (its record G): old, new or neither, and its temporary
 * file. NULL, or what is wrong. */
static const char *classify(struct jctx *c, size_t i, char **g)
{
	struct jfile_state *f = &c->fs[i];
	int bad = 0;
	f->dfd = walk(c->afd, g[1], &f->base);
	if (f->dfd < 0) {
		snprintf(c->whybuf, sizeof(c->whybuf), "it names '%s', which is not a file below its folder", g[1]);
		return c->whybuf;
	}
	if (*g[2]) { /* the temporary file: beside its target, one of ours */
		const char *tb, *s = strrchr(g[2], '/');
		int td = walk(c->afd, g[2], &tb);
		struct stat a, b;
		int same = td >= 0 && fstat(td, &a) == 0 && fstat(f->dfd, &b) == 0 && a.st_dev == b.st_dev &&
		           a.st_ino == b.st_ino &&
		           (s ? (size_t)(s - g[2]) == (size_t)(strrchr(g[1], '/') - g[1]) : !strchr(g[1], '/'));
		if (td >= 0)
			close(td);
		if (!same || strncmp(tb, ".probekit.", 10)) {
			snprintf(c->whybuf, sizeof(c->whybuf), "its temporary file for '%s' is not one beside it",
			         g[1]);
			return c->whybuf;
		}
		f->tmpbase = tb;
		f->tmp_ok = holds(f->dfd, tb, 1, num(g[9], &bad), num(g[10], &bad), num(g[11], &bad), num(g[12], &bad));
	}
	if (holds(f->dfd, f->base, (int)num(g[3], &bad), num(g[4], &bad), num(g[5], &bad), num(g[6], &bad),
	          num(g[7], &bad)))
		f->state = ST_OLD;
	else if (holds(f->dfd, f->base, (int)num(g[8], &bad), num(g[9], &bad), num(g[10], &bad), num(g[11], &bad),
	               num(g[12], &bad)))
		f->state = ST_NEW;
	else {
		snprintf(c->whybuf, sizeof(c->whybuf),
		         "'%s' changed since (it holds neither what it held before the write nor after)", g[1]);
		return c->whybuf;
	}
	return NULL;
}

/* Every file of C still old renamed forward (or removed): 0, or -1. */
static int roll_forward(struct jctx *c, size_t *moved)
{
	for (size_t i = 0; i < c->nfiles; i++) {
		struct jfile_state *f = &c->fs[i];
		if (f->state != ST_OLD)
			continue;
		int e = f->tmpbase ? renameat(f->dfd, f->tmpbase, f->dfd, f->base) : unlinkat(f->dfd, f->base, 0);
		if (e < 0)
			return pk_error("%s: cannot finish the interrupted write of '%s': %s; the journal is kept",
			                c->shown, c->r.fld[7 + i * F_FIELDS + 1], strerror(errno));
		++*moved;
		fsync(f->dfd);
	}
	return 0;
}

/* Act on C once it is proven this user's own: NULL when done (RC set), or
 * why it is refused. */
static const char *act(struct jctx *c, int *rc)
{
	int all = 0, cannot = 0, bad = 0;
	c->fs = pk_xcalloc(c->nfiles, sizeof(*c->fs));
	for (size_t i = 0; i < c->nfiles; i++)
		c->fs[i].dfd = -1;
	for (size_t i = 0; i < c->nfiles; i++) {
		char **g = c->r.fld + 7 + i * F_FIELDS;
		const char *why = classify(c, i, g);
		if (why)
			return why;
		all |= c->fs[i].state;
		/* an old file is finished by its temporary file, or by removal */
		if (c->fs[i].state == ST_OLD && (*g[2] ? !c->fs[i].tmp_ok : num(g[8], &bad)))
			cannot = 1;
	}
	if (cannot && all == (ST_OLD | ST_NEW))
		return "a file still old has lost its new text (its temporary file is gone or changed)";
	size_t moved = 0;
	if (!cannot && roll_forward(c, &moved) < 0) {
		*rc = -1;
		return NULL;
	}
	for (size_t i = 0; cannot && i < c->nfiles; i++) /* back: no file had been renamed */
		if (c->fs[i].tmp_ok)
			unlinkat(c->fs[i].dfd, c->fs[i].tmpbase, 0);
	remove_copies(c);
	if (!cannot)
		pk_error("%s: finished an earlier run's interrupted write: %zu of %zu file(s) renamed forward, "
		         "the set is all new",
		         c->shown, moved, c->nfiles);
	else
		pk_error("%s: put back an earlier run's interrupted write: no file had been replaced yet, "
		         "%zu file(s) kept as they were",
		         c->shown, c->nfiles);
	return NULL;
}

static void jctx_free(struct jctx *c)
{
	for (size_t i = 0; c->fs && i < c->nfiles; i++)
		if (c->fs[i].dfd >= 0)
			close(c->fs[i].dfd);
	free(c->fs);
	for (size_t i = 0; i < c->locked; i++)
		if (c->cfd[i] >= 0)
			close(c->cfd[i]);
	free(c->cfd);
	if (c->afd >= 0)
		close(c->afd);
	if (c->fd >= 0)
		close(c->fd);
	free(c->r.fld);
	free(c->r.data);
	free(c->shown);
}

/* The journal DIR/NAME (DFD its folder): act on it, or refuse it. 0 done
 * (or nothing to do), -1 refused, 1 busy (locked by another run: retry). */
static int journal_one(int dfd, const char *dir, const char *name)
{
	struct jctx c = {.dfd = dfd, .name = name, .fd = -1, .afd = -1};
	c.shown = pk_xasprintf("%s/%s", dir, name);
	int gone = 0, rc = 0, verified = 0;
	const char *why = read_journal(&c, &gone);
	if (!why && !gone) {
		why = find_anchor(&c);
		verified = !why; /* this user's, for this very folder: its copies may go */
	}
	if (verified && lock_copies(&c))
		rc = 1;
	else if (verified)
		why = act(&c, &rc);
	if (why && pk_journal_discard()) {
		if (unlinkat(dfd, name, 0) == 0)
			pk_error("%s: journal discarded (%s); no file it names was touched", c.shown, why);
		else
			rc = pk_error("%s: cannot discard: %s", c.shown, strerror(errno));
		if (verified) /* its other copies and its own temporary files go too */
			discard_rest(&c);
	} else if (why) {
		rc = pk_error("%s: journal refused: %s; nothing changed (discard it with --discard-journal)", c.shown,
		              why);
	}
	jctx_free(&c);
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

/* The folders this run has read for journals already: each once, however
 * many of its files the run takes (a tree's thousands of folders, looked up
 * by hash). */
static struct pk_strset seen_dirs;

void pk_txn_forget(void)
{
	pk_strset_clear(&seen_dirs);
}

int pk_txn_recover(const char *path)
{
	char dir[PATH_MAX], base[PATH_MAX];
	if (real_dir(path, dir, base) < 0)
		return 0;
	int rc = 0;
	if (!pk_strset_add(&seen_dirs, dir))
		rc = journal_recover_dir(dir);
	remove_dead_temps(dir, base);
	remove_dead_temps(dir, "txn"); /* a journal killed before it was whole */
	return rc;
}

size_t pk_journal_sweep_report(FILE *out)
{
	/* probe-sweep's default output folder, where probe-sweep runs */
	struct stat st;
	if (lstat("probe-sweep.out/.journal", &st) < 0)
		return 0;
	fprintf(out, "probe-sweep.out/.journal: pending journal of an unfinished probe-sweep: the files it lists may "
	             "still have a probe on ('probe-sweep --recover' puts them back, or refuses it)\n");
	return 1;
}

char *pk_journal_dir_of(const char *path)
{
	if (!strcmp(path, "-"))
		return NULL;
	/* the folder as named (no realpath: probe-check meets every file of a
	 * tree, folder by folder, and must stay one read per folder) */
	const char *slash = strrchr(path, '/');
	return slash ? pk_xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : pk_xstrdup(".");
}

char *pk_journal_dir_text(const char *dir, size_t *n)
{
	char *text = NULL;
	size_t len = 0;
	*n = 0;
	DIR *dp = opendir(dir);
	struct dirent *e;
	while (dp && (e = readdir(dp)) != NULL)
		if (!strncmp(e->d_name, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX))) {
			char *line =
			    pk_xasprintf("%s/%s: pending journal of an interrupted multi-file write: the files it "
			                 "names may be half old, half new (the next probe-inject or probe-strip of "
			                 "a file here finishes it, or refuses it)\n",
			                 dir, e->d_name);
			size_t l = strlen(line);
			text = pk_xrealloc(text, len + l + 1);
			memcpy(text + len, line, l + 1);
			len += l;
			free(line);
			++*n;
		}
	if (dp)
		closedir(dp);
	return text;
}

size_t pk_journal_report(const char *path, FILE *out)
{
	static struct pk_strset seen;
	static const char *last;
	static int sweep_done;
	size_t found = 0;
	if (!sweep_done) {
		sweep_done = 1;
		found += pk_journal_sweep_report(out);
	}
	char *dir = pk_journal_dir_of(path);
	if (!dir)
		return found;
	if ((last && !strcmp(last, dir)) || pk_strset_add(&seen, dir)) {
		free(dir);
		return found;
	}
	last = seen.v[seen.n - 1];
	size_t n;
	char *text = pk_journal_dir_text(dir, &n);
	if (text)
		fputs(text, out);
	free(text);
	free(dir);
	return found + n;
}
