/* check_walk.c - which files probe-check reads: directories walked the way
 * git sees them (one `git ls-files` per repository), .gitignore honoured
 * outside git, .probekitignore and --exclude on top; and for --staged /
 * --diff-base the changed files with the lines each change adds. */
#include "buf.h"
#include "check.h"
#include "check_ignore.h"
#include "pk.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- git ------------------------------------------------------------- */

static char *run_capture(const char *cmd, size_t *len)
{
	FILE *p = popen(cmd, "r");
	if (!p)
		return NULL;
	size_t n;
	char *buf = pk_read_all(p, &n);
	if (pclose(p) != 0) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static char *shell_quote(const char *s)
{
	size_t n = 3;
	for (const char *p = s; *p; p++)
		n += *p == '\'' ? 4 : 1;
	char *q = pk_xmalloc(n), *w = q;
	*w++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(w, "'\\''", 4);
			w += 4;
		} else
			*w++ = *p;
	}
	*w++ = '\'';
	*w = '\0';
	return q;
}

/* "git -C DIR ARGS" with DIR quoted; WALK: the repository found from DIR,
 * not one a hook's environment points at. */
static char *git_in(const char *dir, const char *args, int walk, size_t *len)
{
	char *qd = shell_quote(dir);
	size_t n = strlen(qd) + strlen(args) + 96;
	char *cmd = pk_xmalloc(n);
	snprintf(cmd, n, "%sgit -C %s %s 2>/dev/null", walk ? "env -u GIT_DIR -u GIT_WORK_TREE -u GIT_INDEX_FILE " : "",
	         qd, args);
	char *out = run_capture(cmd, len);
	free(cmd);
	free(qd);
	return out;
}

static char *chomp_line(char *s, size_t len)
{
	if (!s)
		return NULL;
	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		s[--len] = '\0';
	if (!len) {
		free(s);
		return NULL;
	}
	return s;
}

char *pk_check_git_toplevel(void)
{
	size_t len = 0;
	char *top = git_in(".", "rev-parse --show-toplevel", 0, &len);
	return chomp_line(top, len);
}

/* ---- collecting -------------------------------------------------------- */

int pk_check_ext_ok(const struct check *c, const char *name)
{
	const char *dot = strrchr(name, '.');
	if (!dot || strchr(dot, '/'))
		return 0;
	size_t nl = strlen(name); /* the timing tensor's event map: judged as a leftover */
	if (nl > 12 && !strcmp(name + nl - 12, ".timing.json"))
		return 1;
	for (size_t i = 0; i < c->nexts; i++)
		if (!strcmp(dot, c->exts[i]))
			return 1;
	return 0;
}

struct item *pk_check_add_item(struct check *c, const char *path)
{
	PK_GROW(c->items, c->cap_items, c->nitems + 1);
	struct item *it = &c->items[c->nitems++];
	memset(it, 0, sizeof(*it));
	it->path = pk_xstrdup(path);
	size_t n = strlen(path);
	it->python = n > 3 && !strcmp(path + n - 3, ".py");
	return it;
}

struct walk {
	struct check *c;
	const char *root;     /* the directory named on the command line */
	struct pk_ignores ex; /* --exclude, relative to ROOT */
	struct pk_ignores ig; /* .gitignore / .probekitignore in force */
	char **rel;           /* files found, relative to ROOT */
	size_t nrel, cap_rel;
	int rc;
};

static int hidden(const char *rel)
{
	for (const char *p = rel; p; p = strchr(p, '/')) {
		if (*p == '/')
			p++;
		if (*p == '.')
			return 1; /* .git and other hidden entries */
	}
	return 0;
}

static void found(struct walk *w, const char *rel)
{
	PK_GROW(w->rel, w->cap_rel, w->nrel + 1);
	w->rel[w->nrel++] = pk_xstrdup(rel);
}

static int is_repo(const char *dir)
{
	char p[PATH_MAX];
	struct stat st;
	return (size_t)snprintf(p, sizeof(p), "%s/.git", dir) < sizeof(p) && lstat(p, &st) == 0;
}

static int path_of(char *out, size_t cap, const char *root, const char *rel)
{
	if ((size_t)snprintf(out, cap, "%s/%s", root, rel) >= cap)
		return pk_error("%s/%s: path too long", root, rel);
	return 0;
}

static int walk_git(struct walk *w, const char *sub);
static void walk_plain(struct walk *w, const char *sub, int depth);

struct entry {
	char *name;
	unsigned char type; /* DT_DIR, DT_REG, other: skipped; DT_UNKNOWN: lstat */
};

/* A directory's visible entries; *dots: bit 0 .git, 1 .gitignore, 2 .probekitignore */
static struct entry *read_dir(const char *dir, size_t *n, int *dots)
{
	DIR *dp = opendir(dir);
	if (!dp)
		return NULL;
	struct entry *e = NULL;
	size_t cap = 0;
	struct dirent *de;
	*n = 0;
	*dots = 0;
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.') { /* ., .., .git and other hidden entries */
			*dots |= !strcmp(de->d_name, ".git")              ? 1
			         : !strcmp(de->d_name, ".gitignore")      ? 2
			         : !strcmp(de->d_name, ".probekitignore") ? 4
			                                                  : 0;
			continue;
		}
		PK_GROW(e, cap, *n + 1);
		e[*n].name = pk_xstrdup(de->d_name);
		e[(*n)++].type = de->d_type;
	}
	closedir(dp);
	if (!e)
		e = pk_xmalloc(1);
	return e;
}

static void plain_entry(struct walk *w, const char *sub, const struct entry *e, int depth)
{
	char rel[PATH_MAX], full[PATH_MAX];
	unsigned char type = e->type;
	if ((size_t)snprintf(rel, sizeof(rel), "%s%s", sub, e->name) >= sizeof(rel) - 1)
		return;
	if (type == DT_UNKNOWN) {
		struct stat st;
		if (path_of(full, sizeof(full), w->root, rel) < 0 || lstat(full, &st) < 0)
			return;
		type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
	}
	int isdir = type == DT_DIR;
	if ((!isdir && type != DT_REG) || (!isdir && !pk_check_ext_ok(w->c, e->name)) ||
	    pk_ign_match(&w->ex, rel, isdir) || pk_ign_match(&w->ig, rel, isdir))
		return; /* symbolic links are not followed */
	if (isdir) {
		strcat(rel, "/");
		walk_plain(w, rel, depth + 1);
	} else
		found(w, rel);
}

/* Outside git: a directory's entries, honouring its .gitignore. */
static void walk_plain(struct walk *w, const char *sub, int depth)
{
	char dir[PATH_MAX], p[PATH_MAX];
	size_t n, mark = w->ig.n;
	int dots;
	if (depth > 256) {
		w->rc = pk_error("%s/%s: directories nested too deep (a symlink loop?)", w->root, sub);
		return;
	}
	if (path_of(dir, sizeof(dir), w->root, sub) < 0) {
		w->rc = -1;
		return;
	}
	struct entry *e = read_dir(dir, &n, &dots);
	if (!e) {
		w->rc = pk_error("%s: %s", dir, strerror(errno));
		return;
	}
	int nested = *sub && !w->c->no_ignore && (dots & 1) && walk_git(w, sub) == 0; /* as git sees it */
	if (!nested && !w->c->no_ignore) {
		if ((dots & 2) && path_of(p, sizeof(p), dir, ".gitignore") == 0)
			pk_ign_add_file(&w->ig, sub, "", p);
		if ((dots & 4) && path_of(p, sizeof(p), dir, ".probekitignore") == 0)
			pk_ign_add_file(&w->ig, sub, "", p);
	}
	for (size_t i = 0; i < n; i++) {
		if (!nested)
			plain_entry(w, sub, &e[i], depth);
		free(e[i].name);
	}
	free(e);
	pk_ign_pop(&w->ig, mark);
}

/* .probekitignore files above ROOT, up to its repository's top */
static void ancestor_ignores(struct walk *w)
{
	char real[PATH_MAX], up[PATH_MAX] = "", p[PATH_MAX];
	if (!realpath(w->root, real))
		return;
	size_t first = w->ig.n;
	while (!is_repo(real)) {
		char *slash = strrchr(real, '/');
		if (!slash || slash == real)
			break;
		char tmp[PATH_MAX];
		int n = snprintf(tmp, sizeof(tmp), "%s/%s", slash + 1, up);
		if (n < 0 || (size_t)n >= sizeof(tmp))
			break;
		memcpy(up, tmp, (size_t)n + 1);
		*slash = '\0';
		if ((size_t)snprintf(p, sizeof(p), "%s/.probekitignore", real) < sizeof(p))
			pk_ign_add_file(&w->ig, "", up, p);
	}
	/* added deepest first; the deepest must decide last */
	for (size_t i = first, k = w->ig.n; k-- > i; i++) {
		struct pk_ign_file t = w->ig.f[i];
		w->ig.f[i] = w->ig.f[k];
		w->ig.f[k] = t;
	}
}

static int depth_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t dx = 0, dy = 0;
	for (; *x; x++)
		dx += *x == '/';
	for (; *y; y++)
		dy += *y == '/';
	return dx < dy ? -1 : dx > dy;
}

/* the .probekitignore files a listing holds, shallow first */
static void listed_ignores(struct walk *w, const char *sub, char *names, size_t len)
{
	char **ig = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < len; i += strlen(names + i) + 1) {
		const char *nm = names + i, *slash = strrchr(nm, '/');
		if (!strcmp(slash ? slash + 1 : nm, ".probekitignore") && slash) {
			PK_GROW(ig, cap, n + 1);
			ig[n++] = (char *)nm;
		}
	}
	if (n > 1)
		qsort(ig, n, sizeof(*ig), depth_cmp);
	for (size_t i = 0; i < n; i++) {
		char base[PATH_MAX], full[PATH_MAX];
		size_t bl = (size_t)(strrchr(ig[i], '/') - ig[i]) + 1;
		if ((size_t)snprintf(base, sizeof(base), "%s%.*s", sub, (int)bl, ig[i]) < sizeof(base) &&
		    (size_t)snprintf(full, sizeof(full), "%s/%s%s", w->root, sub, ig[i]) < sizeof(full))
			pk_ign_add_file(&w->ig, base, "", full);
	}
	free(ig);
}

static void listed_entry(struct walk *w, const char *sub, const char *nm)
{
	char rel[PATH_MAX], full[PATH_MAX];
	struct stat st;
	size_t l = strlen(nm);
	int slash = l && nm[l - 1] == '/'; /* an untracked nested repository */
	if ((size_t)snprintf(rel, sizeof(rel), "%s%.*s", sub, (int)(l - (size_t)slash), nm) >= sizeof(rel) ||
	    hidden(nm) || path_of(full, sizeof(full), w->root, rel) < 0 || lstat(full, &st) < 0)
		return;
	int isdir = S_ISDIR(st.st_mode);
	if (pk_ign_match_path(&w->ex, rel, isdir) || pk_ign_match_path(&w->ig, rel, isdir))
		return;
	if (isdir) { /* a submodule or a nested repository */
		if (is_repo(full) && strlen(rel) + 1 < sizeof(rel)) {
			strcat(rel, "/");
			if (walk_git(w, rel) < 0)
				walk_plain(w, rel, 1);
		}
	} else if (S_ISREG(st.st_mode) && pk_check_ext_ok(w->c, nm))
		found(w, rel);
}

/* In git: tracked and untracked-not-ignored files, one git process per
 * repository. -1: not a work tree (or no git): walk it as plain files. */
static int walk_git(struct walk *w, const char *sub)
{
	char dir[PATH_MAX], p[PATH_MAX];
	size_t len, mark = w->ig.n;
	if (path_of(dir, sizeof(dir), w->root, sub) < 0)
		return -1;
	char *names = git_in(dir, "ls-files -co --exclude-standard -z", 1, &len);
	if (!names)
		return -1;
	if (!*sub)
		ancestor_ignores(w);
	if (path_of(p, sizeof(p), dir, ".probekitignore") == 0)
		pk_ign_add_file(&w->ig, sub, "", p);
	listed_ignores(w, sub, names, len);
	for (size_t i = 0; i < len; i += strlen(names + i) + 1)
		if (names[i])
			listed_entry(w, sub, names + i);
	free(names);
	pk_ign_pop(&w->ig, mark);
	return 0;
}

/* DIR or a directory above it holds .git (no git process outside git) */
static int inside_repo(const char *dir)
{
	char real[PATH_MAX];
	if (!realpath(dir, real))
		return 0;
	for (;;) {
		if (is_repo(real))
			return 1;
		char *slash = strrchr(real, '/');
		if (!slash || slash == real)
			return is_repo("/");
		*slash = '\0';
	}
}

/* the order the plain walk always had: names sorted within each directory */
static int cmp_walk_order(const void *a, const void *b)
{
	const unsigned char *x = *(unsigned char *const *)a, *y = *(unsigned char *const *)b;
	for (; *x && *x == *y; x++, y++)
		;
	unsigned cx = *x == '/' ? 1 : *x, cy = *y == '/' ? 1 : *y;
	return cx < cy ? -1 : cx > cy;
}

static int walk_dir(struct check *c, const char *root)
{
	struct walk w;
	memset(&w, 0, sizeof(w));
	w.c = c;
	w.root = root;
	for (size_t i = 0; i < c->nexcludes; i++)
		pk_ign_add_text(&w.ex, "", "", c->excludes[i]);
	if (c->no_ignore || !inside_repo(root) || walk_git(&w, "") < 0)
		walk_plain(&w, "", 0);
	if (w.nrel > 1)
		qsort(w.rel, w.nrel, sizeof(*w.rel), cmp_walk_order);
	for (size_t i = 0; i < w.nrel; i++) {
		char path[PATH_MAX];
		if (path_of(path, sizeof(path), root, w.rel[i]) == 0)
			pk_check_add_item(c, path);
		free(w.rel[i]);
	}
	free(w.rel);
	pk_ign_pop(&w.ig, 0);
	free(w.ig.f);
	pk_ign_pop(&w.ex, 0);
	free(w.ex.f);
	return w.rc;
}

struct item_id {
	dev_t dev;
	ino_t ino;
	size_t i;
};

static int by_item_id(const void *x, const void *y)
{
	const struct item_id *a = x, *b = y;
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* Several paths given that overlap: a file met twice (named twice, named
 * and found in a directory, found in two directories, or once more through
 * a link) is one item, known by device and inode, read and reported once
 * under the first of its spellings; named when any of them was. */
static void one_item_per_file(struct check *c, size_t from)
{
	size_t n = c->nitems - from, m = 0, w = from;
	struct item_id *id = pk_xcalloc(n + 1, sizeof(*id));
	unsigned char *drop = pk_xcalloc(n + 1, 1);
	for (size_t k = 0; k < n; k++) {
		struct stat st;
		if (strcmp(c->items[from + k].path, "-") && stat(c->items[from + k].path, &st) == 0)
			id[m++] = (struct item_id){st.st_dev, st.st_ino, k};
	}
	qsort(id, m, sizeof(*id), by_item_id);
	for (size_t k = 1, f = 0; k < m; k++) {
		if (id[k].dev != id[f].dev || id[k].ino != id[f].ino) {
			f = k;
			continue;
		}
		drop[id[k].i] = 1;
		c->items[from + id[f].i].named |= c->items[from + id[k].i].named;
	}
	for (size_t k = 0; k < n; k++) {
		if (drop[k])
			free(c->items[from + k].path);
		else
			c->items[w++] = c->items[from + k];
	}
	c->nitems = w;
	free(drop);
	free(id);
}

/* Can two of the N PATHS given meet the same file: the same file or
 * directory twice, or one inside a directory given too? Told from their
 * real paths, so the walks of separate trees cost no stat per file. */
static int paths_overlap(char **paths, int n)
{
	char **real = pk_xcalloc((size_t)n + 1, sizeof(*real));
	int overlap = 0;
	for (int i = 0; i < n; i++)
		real[i] = strcmp(paths[i], "-") ? realpath(paths[i], NULL) : NULL;
	for (int i = 0; i < n && !overlap; i++)
		for (int j = 0; j < n && !overlap && real[i]; j++) {
			if (i == j || !real[j])
				continue;
			size_t l = strlen(real[j]);
			overlap = !strcmp(real[i], real[j]) ||
			          (!strncmp(real[i], real[j], l) && (real[i][l] == '/' || !strcmp(real[j], "/")));
		}
	for (int i = 0; i < n; i++)
		free(real[i]);
	free(real);
	return overlap;
}

int pk_check_collect_paths(struct check *c, char **paths, int n)
{
	int rc = 0;
	size_t from = c->nitems;
	for (int i = 0; i < n; i++) {
		struct stat st;
		if (strcmp(paths[i], "-") && stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			size_t l = strlen(paths[i]);
			char *p = pk_xstrdup(paths[i]);
			while (l > 1 && p[l - 1] == '/')
				p[--l] = '\0';
			if (walk_dir(c, p) < 0)
				rc = -1;
			free(p);
		} else {
			/* named files are checked whatever their extension, ignored or not */
			pk_check_add_item(c, paths[i])->named = 1;
		}
	}
	if (n > 1 && paths_overlap(paths, n))
		one_item_per_file(c, from);
	return rc;
}

/* Read the file at PATH into B, once and without a lock, and say whether
 * it holds a probe marker. Unreadable: yes, with B empty (its loader
 * reports it). Either way the bytes and the state of the file read stay
 * in B: the set adopts them rather than reading the file again (a file
 * with a marker; one without that is also named, see give_to_named). */
static int holds_marker(const char *path, struct pk_buf *b)
{
	char msg[PATH_MAX + 128];
	if (pk_buf_load_msg(b, path, PK_LOAD_ALLOW_NUL, msg, sizeof(msg)) < 0) {
		pk_buf_free(b);
		return 1;
	}
	return memmem(b->data, b->len, "TIMING_PROBE", 12) != NULL;
}

/* An event map (KERNEL.timing.json) is the walk's for probe-check only:
 * probe-list and probe-strip read it beside its kernel, when they need it. */
static int is_event_map(const char *path)
{
	size_t n = strlen(path);
	return n > 12 && !strcmp(path + n - 12, ".timing.json");
}

/* A file named on the command line, known by its identity (device and
 * inode), so that the walk of a directory of the same run that meets it
 * without a marker (under another spelling, or through a link) hands over
 * the bytes it read: the set adopts them for the name, not reading it again. */
struct named {
	struct stat st;
	int there; /* a file, not a directory or standard input */
	int dir;   /* a directory: walked */
	size_t at; /* its index among the paths out */
	struct pk_buf b;
};

static struct named *named_files(char **paths, size_t n)
{
	struct named *nf = pk_xcalloc(n + 1, sizeof(*nf));
	for (size_t i = 0; i < n; i++) {
		nf[i].b.lock_fd = -1;
		if (strcmp(paths[i], "-") && stat(paths[i], &nf[i].st) == 0) {
			nf[i].dir = S_ISDIR(nf[i].st.st_mode);
			nf[i].there = !nf[i].dir;
		}
	}
	return nf;
}

/* B, a walked file without a marker: kept for the first name of the same
 * file still without bytes, or freed. */
static void give_to_named(struct named *nf, size_t n, struct pk_buf *b)
{
	for (size_t k = 0; k < n; k++)
		if (nf[k].there && !nf[k].b.data && nf[k].st.st_dev == b->st.st_dev &&
		    nf[k].st.st_ino == b->st.st_ino) {
			nf[k].b = *b;
			return;
		}
	pk_buf_free(b);
}

/* The bytes the walk kept for named files into their slots of BUFS, under
 * the spelling the user named (OUT). */
static void named_done(struct named *nf, size_t n, char **out, struct pk_buf *bufs)
{
	for (size_t k = 0; k < n; k++) {
		if (!nf[k].b.data)
			continue;
		if (bufs[nf[k].at].data) {
			pk_buf_free(&nf[k].b);
			continue;
		}
		free(nf[k].b.path);
		nf[k].b.path = pk_xstrdup(out[nf[k].at]);
		bufs[nf[k].at] = nf[k].b;
	}
	free(nf);
}

char **pk_check_expand_dirs(char **paths, size_t n, size_t *nout, int *rc, struct pk_buf **pre)
{
	struct check c;
	memset(&c, 0, sizeof(c));
	char *exts = pk_xstrdup(PK_CHECK_EXTS), *save = NULL;
	size_t cap = 0, ocap = 0, pcap = 0;
	for (char *t = strtok_r(exts, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		PK_GROW(c.exts, cap, c.nexts + 1);
		c.exts[c.nexts++] = t;
	}
	char **out = NULL;
	struct pk_buf *bufs = NULL;
	struct named *nf = named_files(paths, n);
	*nout = 0;
	*rc = 0;
	for (size_t i = 0; i < n; i++) {
		struct pk_buf b;
		memset(&b, 0, sizeof(b));
		b.lock_fd = -1;
		if (!nf[i].dir) {
			PK_GROW(out, ocap, *nout + 1);
			PK_GROW(bufs, pcap, *nout + 1);
			bufs[*nout] = b;
			nf[i].at = *nout;
			out[(*nout)++] = pk_xstrdup(paths[i]); /* a named file: always */
			continue;
		}
		size_t first = c.nitems;
		if (pk_check_collect_paths(&c, &paths[i], 1) < 0)
			*rc = -1;
		for (size_t k = first; k < c.nitems; k++) {
			if (is_event_map(c.items[k].path)) {
				free(c.items[k].path);
			} else if (holds_marker(c.items[k].path, &b)) {
				PK_GROW(out, ocap, *nout + 1);
				PK_GROW(bufs, pcap, *nout + 1);
				bufs[*nout] = b;
				out[(*nout)++] = c.items[k].path;
			} else {
				give_to_named(nf, n, &b);
				free(c.items[k].path);
			}
			memset(&b, 0, sizeof(b));
			b.lock_fd = -1;
		}
	}
	named_done(nf, n, out, bufs);
	free(c.items);
	free(c.exts);
	free(exts);
	if (pre)
		*pre = bufs;
	else {
		pk_check_free_pre(bufs, *nout);
		free(bufs);
	}
	return out;
}

void pk_check_free_pre(struct pk_buf *pre, size_t n)
{
	for (size_t i = 0; pre && i < n; i++)
		if (pre[i].data)
			pk_buf_free(&pre[i]);
}

/* ---- a change: --staged, --diff-base ------------------------------------ */

/* a name as git prints it in a patch: raw, or C-quoted "..." */
static char *git_unquote(const char *s)
{
	size_t n = strlen(s);
	if (*s != '"')
		return pk_xstrdup(s);
	char *out = pk_xmalloc(n + 1), *w = out;
	for (const char *p = s + 1; *p && *p != '"'; p++) {
		if (*p != '\\' || !p[1]) {
			*w++ = *p;
			continue;
		}
		p++;
		if (*p >= '0' && *p <= '7') {
			unsigned v = 0;
			for (int k = 0; k < 3 && *p >= '0' && *p <= '7'; k++, p++)
				v = v * 8 + (unsigned)(*p - '0');
			p--;
			*w++ = (char)v;
		} else
			*w++ = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p == 'r' ? '\r' : *p;
	}
	*w = '\0';
	return out;
}

static int cmp_item_path(const void *a, const void *b)
{
	return strcmp(((const struct item *)a)->path, ((const struct item *)b)->path);
}

static struct item *find_item(struct check *c, const char *path)
{
	struct item key;
	key.path = (char *)path;
	return bsearch(&key, c->items, c->nitems, sizeof(*c->items), cmp_item_path);
}

static void add_range(struct item *it, unsigned first, unsigned count)
{
	if (!count)
		return;
	PK_GROW(it->added, it->cap_added, it->nadded + 2);
	it->added[it->nadded++] = first;
	it->added[it->nadded++] = first + count - 1;
}

/* `git diff -U0`: "+++ b/NAME" opens a file, "@@ -a,b +c,d @@" adds lines c..c+d-1 */
static void parse_hunks(struct check *c, char *diff)
{
	struct item *cur = NULL;
	for (char *save = NULL, *line = strtok_r(diff, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "+++ ", 4)) {
			char *name = git_unquote(line + 4);
			cur = !strncmp(name, "b/", 2) ? find_item(c, name + 2) : NULL;
			free(name);
		} else if (cur && !strncmp(line, "@@ ", 3)) {
			char *plus = strstr(line, " +"), *end;
			if (!plus)
				continue;
			unsigned long first = strtoul(plus + 2, &end, 10), count = 1;
			if (*end == ',')
				count = strtoul(end + 1, NULL, 10);
			add_range(cur, (unsigned)first, (unsigned)count);
		}
	}
}

/* NAME (relative to the current directory) as a path from the top */
static char *repo_relative(const char *top, const char *prefix, const char *name)
{
	size_t tl = strlen(top);
	char *joined = pk_xmalloc(strlen(prefix) + strlen(name) + 2);
	if (!strncmp(name, top, tl) && name[tl] == '/')
		strcpy(joined, name + tl + 1);
	else
		sprintf(joined, "%s%s", prefix, name);
	char *out = pk_path_fold(joined);
	free(joined);
	return out;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int staged_blob(const char *top, struct item *it)
{
	char *spec = pk_xmalloc(strlen(it->path) + 32), *q;
	sprintf(spec, ":%s", it->path); /* ':path' names the index version of path */
	q = shell_quote(spec);
	free(spec);
	spec = pk_xmalloc(strlen(q) + 16);
	sprintf(spec, "cat-file blob %s", q);
	it->data = git_in(top, spec, 0, &it->len);
	free(spec);
	free(q);
	return it->data ? 0 : pk_error("%s: cannot read the staged content", it->path);
}

/* the changed files, kept when pre-commit's names (if any) include them */
static int change_names(struct check *c, const char *top, char **given, int ngiven)
{
	char cmd[PATH_MAX + 160], *q = c->diff_base ? shell_quote(c->diff_base) : NULL;
	snprintf(cmd, sizeof(cmd), "diff %s --name-only -z --no-ext-diff --diff-filter=ACMR %s",
	         c->staged ? "--cached" : "", q ? q : "");
	size_t len = 0, l, plen = 0;
	char *names = git_in(top, cmd, 0, &len);
	char *prefix = git_in(".", "rev-parse --show-prefix", 0, &plen);
	if (prefix && plen && prefix[plen - 1] == '\n')
		prefix[--plen] = '\0'; /* keep the trailing '/' */
	char **want = pk_xcalloc((size_t)ngiven + 1, sizeof(char *));
	for (int i = 0; i < ngiven; i++)
		want[i] = repo_relative(top, prefix ? prefix : "", given[i]);
	qsort(want, (size_t)ngiven, sizeof(*want), cmp_str);
	struct pk_ignores ig = {0};
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/.probekitignore", top);
	pk_ign_add_file(&ig, "", "", p);
	for (size_t i = 0; i < c->nexcludes; i++)
		pk_ign_add_text(&ig, "", "", c->excludes[i]);
	for (size_t i = 0; names && i < len; i += l + 1) {
		const char *name = names + i, *key = name;
		l = strlen(name);
		if (!l || !pk_check_ext_ok(c, name) || pk_ign_match_path(&ig, name, 0) ||
		    (ngiven && !bsearch(&key, want, (size_t)ngiven, sizeof(*want), cmp_str)))
			continue;
		struct item *it = pk_check_add_item(c, name);
		it->change = 1;
		if (prefix && *prefix)                              /* run in a subfolder: paths as from there */
			it->shown = pk_path_relative(prefix, name); /* from the top to the current folder */
		if (c->diff_base) {
			it->load = pk_xmalloc(strlen(top) + l + 2);
			sprintf(it->load, "%s/%s", top, name);
		}
	}
	int rc = names ? 0 : pk_error("%s: 'git diff' failed", c->staged ? "--staged" : "--diff-base");
	for (int i = 0; i < ngiven; i++)
		free(want[i]);
	free(want);
	pk_ign_pop(&ig, 0);
	free(ig.f);
	free(prefix);
	free(names);
	free(q);
	return rc;
}

int pk_check_collect_change(struct check *c, char **names, int n)
{
	const char *what = c->staged ? "--staged" : "--diff-base";
	char *top = pk_check_git_toplevel();
	if (!top)
		return pk_error("%s: not inside a git work tree", what);
	int rc = 0;
	size_t len;
	if (c->diff_base) {
		char *q = shell_quote(c->diff_base), cmd[PATH_MAX];
		snprintf(cmd, sizeof(cmd), "rev-parse --verify -q %s^{commit}", q);
		char *ok = c->diff_base[0] == '-' ? NULL : git_in(top, cmd, 0, &len);
		free(q);
		if (!ok) {
			free(top);
			return pk_error(
			    "--diff-base: '%s' is not a commit (give a branch, tag or commit: --diff-base origin/main)",
			    c->diff_base);
		}
		free(ok);
	}
	if (change_names(c, top, names, n) < 0)
		rc = -1;
	if (c->nitems > 1)
		qsort(c->items, c->nitems, sizeof(*c->items), cmp_item_path);
	for (size_t i = 0; c->staged && i < c->nitems; i++)
		if (staged_blob(top, &c->items[i]) < 0)
			rc = -1;
	char cmd[PATH_MAX + 200], *q = c->diff_base ? shell_quote(c->diff_base) : NULL;
	snprintf(cmd, sizeof(cmd),
	         "-c core.quotePath=false diff %s -U0 --no-color --no-ext-diff --no-textconv --src-prefix=a/ "
	         "--dst-prefix=b/ --diff-filter=ACMR %s",
	         c->staged ? "--cached" : "", q ? q : "");
	char *diff = c->nitems ? git_in(top, cmd, 0, &len) : NULL;
	if (c->nitems && !diff)
		rc = pk_error("%s: 'git diff' failed", what);
	if (diff)
		parse_hunks(c, diff);
	free(diff);
	free(q);
	free(top);
	return rc;
}

const char *pk_check_sev_name(enum pk_severity s)
{
	return s == PK_SEV_ERROR ? "error" : s == PK_SEV_WARNING ? "warning" : "note";
}
