/* util.c - messages and allocation helpers shared by every layer. */
#include "pk.h"

#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *pk_progname = "probe";

/* Messages go to stderr, or to memory while held. */
static FILE *held;
static char *held_text;
static size_t held_len;

static FILE *msg_out(void)
{
	return held ? held : stderr;
}

void pk_msg_hold(void)
{
	if (!held)
		held = open_memstream(&held_text, &held_len);
}

void pk_msg_release(int show)
{
	if (!held)
		return;
	fclose(held);
	held = NULL;
	if (show && held_len)
		fwrite(held_text, 1, held_len, stderr);
	free(held_text);
	held_text = NULL;
	held_len = 0;
}

/* One message line on the message stream: PREFIX, the text, a newline. */
static void message(const char *prefix, const char *fmt, va_list ap)
{
	FILE *out = msg_out();
	fputs(prefix, out);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
}

int pk_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message("probekit: ", fmt, ap);
	va_end(ap);
	return -1;
}

static int verbosity; /* -1 quiet, 0 normal, 1 verbose */

void pk_set_verbosity(int v)
{
	verbosity = v;
}

int pk_verbosity(void)
{
	return verbosity;
}

void pk_warning(const char *fmt, ...)
{
	if (verbosity < 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	message("probekit: warning: ", fmt, ap);
	va_end(ap);
}

void pk_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	message("", fmt, ap);
	va_end(ap);
}

char *pk_xvasprintf(const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	size_t cap = n > 0 ? (size_t)n + 1 : 1;
	char *s = pk_xmalloc(cap);
	vsnprintf(s, cap, fmt, again);
	va_end(again);
	return s;
}

char *pk_xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = pk_xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

static void oom(void)
{
	fputs("probekit: out of memory\n", stderr);
	exit(PK_EXIT_ERROR);
}

void *pk_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *pk_xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);
	if (!p)
		oom();
	return p;
}

void *pk_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *pk_xstrdup(const char *s)
{
	return pk_xstrndup(s, strlen(s));
}

char *pk_xstrndup(const char *s, size_t n)
{
	char *p = pk_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void pk_grow(void **arr, size_t *cap, size_t want, size_t sz)
{
	size_t c = *cap;
	if (want <= c)
		return;
	if (c < 8)
		c = 8;
	while (c < want)
		c *= 2;
	*arr = pk_xrealloc(*arr, c * sz);
	*cap = c;
}

size_t pk_first_at(const void *v, size_t n, size_t size, size_t field, size_t off)
{
	const char *base = v;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, at;
		memcpy(&at, base + mid * size + field, sizeof(at));
		if (at < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

char *pk_read_all(FILE *fp, size_t *len)
{
	char *buf = NULL;
	size_t n = 0, cap = 0, got;
	do {
		PK_GROW(buf, cap, n + 65536);
		got = fread(buf + n, 1, cap - n - 1, fp);
		n += got;
	} while (got > 0);
	memset(buf + n, 0, cap - n); /* defined bytes past the end, see buf.c */
	if (len)
		*len = n;
	return buf;
}

void pk_note_read(const char *path, const struct stat *st)
{
	const char *log = getenv("PROBEKIT_TEST_READS");
	if (!log || !*log)
		return;
	char *line = st ? pk_xasprintf("%ju:%ju %s\n", (uintmax_t)st->st_dev, (uintmax_t)st->st_ino, path)
	                : pk_xasprintf("%s\n", path);
	int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		ssize_t w = write(fd, line, strlen(line)); /* one write: concurrent runs' lines never mix */
		(void)w;
		close(fd);
	}
	free(line);
}

int pk_print_version(void)
{
	printf("%s (probekit) %s\n", pk_progname, PK_VERSION);
	return PK_EXIT_OK;
}

/* Edit distance, case-insensitive (STAGE_b is close to STAGE_B), counting
 * two neighbours swapped as one edit (--hots is one from --host): the
 * optimal string alignment distance, three rows. */
static int same_fold(char x, char y)
{
	return (x | 0x20) == (y | 0x20);
}

size_t pk_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *rows = pk_xmalloc(3 * (lb + 1) * sizeof(*rows));
	size_t *prev2 = rows, *prev = rows + lb + 1, *cur = rows + 2 * (lb + 1);
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t best = prev[j - 1] + !same_fold(a[i - 1], b[j - 1]);
			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && same_fold(a[i - 1], b[j - 2]) && same_fold(a[i - 2], b[j - 1]) &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	size_t d = prev[lb];
	free(rows);
	return d;
}

/* the long options of the command parsing now, for "did you mean" */
static const struct option *cur_longopts;

int pk_getopt_long(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
	cur_longopts = longopts;
	return getopt_long(argc, argv, shortopts, longopts, NULL);
}

/* "unknown option '--stagged'; did you mean '--staged'?" when one is close;
 * an abbreviation of several names them all. */
static void unknown_long(const char *arg)
{
	char *name = pk_xstrdup(arg + 2), *eq = strchr(name, '=');
	if (eq)
		*eq = '\0';
	struct pk_sb all = {0};
	size_t nall = 0;
	for (const struct option *o = cur_longopts; o && o->name && *name; o++)
		if (!strncmp(o->name, name, strlen(name))) {
			pk_sb_addf(&all, "%s'--%s'", nall ? ", " : "", o->name);
			nall++;
		}
	if (nall > 1) {
		pk_error("option '%s' is ambiguous: give more of %s (see --help)", arg, all.s);
		free(all.s);
		free(name);
		return;
	}
	free(all.s);
	const char *best = NULL;
	size_t best_d = (size_t)-1, limit = strlen(name) / 3 > 1 ? strlen(name) / 3 : 1;
	for (const struct option *o = cur_longopts; o && o->name; o++) {
		size_t d = pk_distance(name, o->name);
		if (d < best_d || (d == best_d && !strncmp(o->name, name, strlen(name)))) {
			best_d = d;
			best = o->name;
		}
	}
	if (best && best_d <= limit)
		pk_error("unknown option '%s'; did you mean '--%s'? (see --help)", arg, best);
	else
		pk_error("unknown option '%s' (see --help)", arg);
	free(name);
}

int pk_common_option(int c, char **argv, const char *usage, int *rc)
{
	switch (c) {
	case 'h':
		fputs(usage, stdout);
		*rc = PK_EXIT_OK;
		return 1;
	case PK_OPT_VERSION:
		*rc = pk_print_version();
		return 1;
	case ':':
		pk_error("option '%s' needs a value (see --help)", argv[optind - 1]);
		*rc = PK_EXIT_ERROR;
		return 1;
	case '?':
		if (optopt && optopt < 0x100)
			pk_error("unknown option '-%c' (see --help)", optopt);
		else if (!strncmp(argv[optind - 1], "--", 2))
			unknown_long(argv[optind - 1]);
		else
			pk_error("unknown option '%s' (see --help)", argv[optind - 1]);
		*rc = PK_EXIT_ERROR;
		return 1;
	}
	return 0;
}

int pk_options(int argc, char **argv, const char *shortopts, const struct option *longopts,
               int (*on)(void *user, int c, const char *arg), void *user, const char *usage, int *rc)
{
	opterr = 0;
	optind = 0; /* a full new start: getopt may have run before */
	int c;
	while ((c = pk_getopt_long(argc, argv, shortopts, longopts)) != -1) {
		int r = on(user, c, optarg);
		if (r == PK_OPT_TAKEN)
			continue;
		if (r == PK_OPT_DONE) {
			*rc = PK_EXIT_OK;
		} else if (r == PK_OPT_REFUSED || !pk_common_option(c, argv, usage, rc)) {
			*rc = PK_EXIT_ERROR;
		}
		return 1;
	}
	return 0;
}

const char *const pk_event_kind_names[PK_EV_KINDS] = {"issue", "drain", "phase", "arrival", "release"};

int pk_event_kind_of(const char *name)
{
	for (int k = 0; k < PK_EV_KINDS; k++)
		if (!strcmp(name, pk_event_kind_names[k]))
			return k;
	return -1;
}

void pk_sb_addn(struct pk_sb *sb, const char *s, size_t n)
{
	PK_GROW(sb->s, sb->cap, sb->n + n + 1);
	memcpy(sb->s + sb->n, s, n);
	sb->n += n;
	sb->s[sb->n] = '\0';
}

void pk_sb_add(struct pk_sb *sb, const char *s)
{
	pk_sb_addn(sb, s, strlen(s));
}

void pk_sb_addf(struct pk_sb *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	PK_GROW(sb->s, sb->cap, sb->n + (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(sb->s + sb->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->n += (size_t)n;
}

void pk_sb_free(struct pk_sb *sb)
{
	free(sb->s);
	memset(sb, 0, sizeof(*sb));
}

int pk_word_in(const char *list, const char *word, size_t n)
{
	for (const char *p = list; p && *p;) {
		p += strspn(p, " \t,");
		size_t w = strcspn(p, " \t,");
		if (w && w == n && !strncmp(p, word, n))
			return 1;
		p += w;
	}
	return 0;
}

char *pk_path_relative(const char *dir, const char *path)
{
	size_t common = 0; /* the folders DIR and PATH share */
	for (size_t i = 0; dir[i] && dir[i] == path[i]; i++)
		if (dir[i] == '/')
			common = i + 1;
	struct pk_sb sb = {0};
	for (const char *p = dir + common; *p; p++)
		if (*p == '/')
			pk_sb_add(&sb, "../");
	pk_sb_add(&sb, path + common);
	return sb.s ? sb.s : pk_xstrdup("");
}

/* The part of OUT at [START, END) is "..". */
static int part_is_dots(const char *out, size_t start, size_t end)
{
	return end - start == 2 && out[start] == '.' && out[start + 1] == '.';
}

char *pk_path_fold(const char *path)
{
	size_t len = strlen(path), nparts = 0, root = path[0] == '/';
	char *out = pk_xmalloc(len + 1), *w = out + root;
	size_t *starts = pk_xmalloc((len / 2 + 1) * sizeof(*starts)); /* each kept part's offset */
	out[0] = '/';
	for (const char *r = path; *r; r += strcspn(r, "/") + (r[strcspn(r, "/")] == '/')) {
		size_t n = strcspn(r, "/");
		if (!n || (n == 1 && r[0] == '.'))
			continue; /* "." and "//" add nothing */
		if (n == 2 && r[0] == '.' && r[1] == '.' && nparts &&
		    !part_is_dots(out, starts[nparts - 1], (size_t)(w - out))) {
			w = out + starts[--nparts]; /* "NAME/.." cancels, with NAME's '/' */
			if (nparts)
				w--;
			continue;
		}
		if (nparts)
			*w++ = '/';
		starts[nparts++] = (size_t)(w - out);
		memcpy(w, r, n);
		w += n;
	}
	*w = '\0';
	free(starts);
	return out;
}

/* TARGET as a path from the folder holding FILE (both must exist). */
char *pk_path_from(const char *file, const char *target)
{
	char *base = realpath(file, NULL), *to = realpath(target, NULL), *out = NULL;
	if (base && to) {
		strrchr(base, '/')[1] = '\0'; /* the folder, with its '/' */
		out = pk_path_relative(base, to);
	}
	free(base);
	free(to);
	return out;
}

char *pk_work_tree(const char *path)
{
	char real[PATH_MAX];
	struct stat st;
	if (!realpath(path, real))
		return NULL;
	char *s = strrchr(real, '/');
	if (s && stat(real, &st) == 0 && !S_ISDIR(st.st_mode))
		*s = '\0'; /* a file: from its folder up */
	for (;;) {
		char *git = pk_xasprintf("%s/.git", real);
		int found = lstat(git, &st) == 0;
		free(git);
		if (found)
			return pk_xstrdup(*real ? real : "/");
		if (!(s = strrchr(real, '/')))
			break;
		*s = '\0';
	}
	return realpath(".", real) ? pk_xstrdup(real) : NULL;
}

/* Is PATH, links resolved, inside folder DIR? By device and inode of DIR
 * among the resolved path's folders, never by the spelling of the names. */
int pk_path_within(const char *path, const char *dir)
{
	char real[PATH_MAX];
	struct stat d, st;
	if (stat(dir, &d) < 0 || !realpath(path, real))
		return 0;
	for (;;) {
		if (stat(real, &st) == 0 && st.st_dev == d.st_dev && st.st_ino == d.st_ino)
			return 1;
		char *s = strrchr(real, '/');
		if (!s || s == real)
			break;
		*s = '\0';
	}
	return stat("/", &st) == 0 && st.st_dev == d.st_dev && st.st_ino == d.st_ino;
}

static size_t strset_hash(const char *s)
{
	size_t h = 1469598103934665603u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

long pk_strset_index(const struct pk_strset *set, const char *s)
{
	if (!set->nslots)
		return -1;
	for (size_t h = strset_hash(s) & (set->nslots - 1);; h = (h + 1) & (set->nslots - 1)) {
		size_t v = set->slots[h];
		if (!v)
			return -1;
		if (!strcmp(set->v[v - 1], s))
			return (long)(v - 1);
	}
}

int pk_strset_add(struct pk_strset *set, const char *s)
{
	if (pk_strset_index(set, s) >= 0)
		return 1;
	PK_GROW(set->v, set->cap, set->n + 1);
	set->v[set->n++] = pk_xstrdup(s);
	if (2 * set->n > set->nslots) { /* at most half full */
		free(set->slots);
		set->nslots = set->nslots ? set->nslots * 2 : 64;
		set->slots = pk_xcalloc(set->nslots, sizeof(*set->slots));
		for (size_t i = 0; i < set->n; i++) {
			size_t h = strset_hash(set->v[i]) & (set->nslots - 1);
			while (set->slots[h])
				h = (h + 1) & (set->nslots - 1);
			set->slots[h] = i + 1;
		}
	} else {
		size_t h = strset_hash(s) & (set->nslots - 1);
		while (set->slots[h])
			h = (h + 1) & (set->nslots - 1);
		set->slots[h] = set->n;
	}
	return 0;
}

void pk_strset_clear(struct pk_strset *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->v[i]);
	free(set->v);
	free(set->slots);
	memset(set, 0, sizeof(*set));
}
