/* ast_unit.c - which translation unit a header is parsed in.
 *
 * A header on its own lacks what its includer declares first (the SDK
 * header, the tiling types, the macros of the build), so a helper or wait
 * probe placed in it would be placed on a half-parsed file. It is parsed
 * instead in the translation unit of a source file that includes it, found
 * here: the source files (.cpp, .cc, .cxx, .asc) in the header's directory
 * and the two above it, each followed through its quoted includes (resolved
 * beside the including file) a few levels deep; a file that defines a kernel
 * entry is preferred, then the nearer directory, then the name. */
#include "ast.h"
#include "pk.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DEPTH 4    /* include levels followed below a candidate */
#define MAX_FILES 4000 /* files read in one search, whatever the tree */

static int has_suffix(const char *p, const char *const *sfx)
{
	size_t n = strlen(p);
	for (; *sfx; sfx++) {
		size_t m = strlen(*sfx);
		if (n > m && !strcmp(p + n - m, *sfx))
			return 1;
	}
	return 0;
}

static const char *const source_sfx[] = {".cpp", ".cc", ".cxx", ".c++", ".asc", ".C", NULL};

int pk_ast_is_header(const char *path)
{
	static const char *const sfx[] = {".h",   ".hh",  ".hpp", ".hxx", ".h++", ".inl",
	                                  ".inc", ".ipp", ".tpp", ".cuh", NULL};
	return has_suffix(path, sfx);
}

struct search {
	char **seen; /* real paths already read */
	size_t nseen, cap_seen;
	size_t reads;
	const char *target; /* the header's real path */
};

static char *read_small(const char *path, size_t *len)
{
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > (16 << 20))
		return NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	pk_note_read(path, &st);
	char *d = pk_xmalloc((size_t)st.st_size + 1);
	*len = fread(d, 1, (size_t)st.st_size, f);
	d[*len] = 0;
	fclose(f);
	return d;
}

static int seen_before(struct search *s, const char *real)
{
	for (size_t i = 0; i < s->nseen; i++)
		if (!strcmp(s->seen[i], real))
			return 1;
	PK_GROW(s->seen, s->cap_seen, s->nseen + 1);
	s->seen[s->nseen++] = pk_xstrdup(real);
	return 0;
}

/* The next `#include "NAME"` at or after *pos: NAME copied, or NULL. */
static char *next_quoted_include(const char *d, size_t len, size_t *pos)
{
	for (size_t i = *pos; i < len; i++) {
		if (d[i] != '#' || (i > 0 && d[i - 1] != '\n' && d[i - 1] != ' ' && d[i - 1] != '\t'))
			continue;
		size_t j = i + 1;
		while (j < len && (d[j] == ' ' || d[j] == '\t'))
			j++;
		if (len - j < 7 || strncmp(d + j, "include", 7))
			continue;
		j += 7;
		while (j < len && (d[j] == ' ' || d[j] == '\t'))
			j++;
		if (j >= len || d[j] != '"')
			continue;
		size_t e = j + 1;
		while (e < len && d[e] != '"' && d[e] != '\n')
			e++;
		*pos = e;
		if (e < len && d[e] == '"' && e > j + 1)
			return pk_xstrndup(d + j + 1, e - j - 1);
	}
	*pos = len;
	return NULL;
}

static char *dir_of(const char *path)
{
	const char *sl = strrchr(path, '/');
	return sl ? pk_xstrndup(path, sl == path ? 1 : (size_t)(sl - path)) : pk_xstrdup(".");
}

/* Does FILE reach the target through its quoted includes within DEPTH levels?
 * An include is followed by the path clang would open (beside the file as
 * named, not its real path): in a tree of symbolic links, the file's
 * neighbours are the links, one of which may be a changed copy. */
static int reaches(struct search *s, const char *file, int depth, int *entry)
{
	if (depth > MAX_DEPTH || s->reads >= MAX_FILES)
		return 0;
	size_t len;
	char *d = read_small(file, &len);
	if (!d)
		return 0;
	s->reads++;
	if (entry)
		*entry = pk_entry_rule(d, len, strstr(d, "extern \"C\"") != NULL, NULL);
	char *dir = dir_of(file);
	int found = 0;
	size_t pos = 0;
	char *name;
	while (!found && (name = next_quoted_include(d, len, &pos))) {
		char *p = name[0] == '/' ? pk_xstrdup(name) : pk_xstrdup(dir);
		if (name[0] != '/') {
			size_t n = strlen(p) + strlen(name) + 2;
			p = realloc(p, n);
			strcat(strcat(p, "/"), name);
		}
		char real[PATH_MAX];
		if (realpath(p, real)) {
			if (!strcmp(real, s->target))
				found = 1;
			else if (!seen_before(s, real))
				found = reaches(s, p, depth + 1, NULL);
		}
		free(p);
		free(name);
	}
	free(dir);
	free(d);
	return found;
}

static int cmp_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The source files of DIR, sorted by name. */
static char **sources_of(const char *dir, size_t *n)
{
	char **v = NULL;
	size_t cap = 0;
	*n = 0;
	DIR *dp = opendir(dir);
	if (!dp)
		return NULL;
	struct dirent *e;
	while ((e = readdir(dp)))
		if (e->d_name[0] != '.' && has_suffix(e->d_name, source_sfx)) {
			PK_GROW(v, cap, *n + 1);
			v[(*n)++] = pk_xstrdup(e->d_name);
		}
	closedir(dp);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_name);
	return v;
}

/* The includer found in DIR (an entry kernel first), or NULL. */
static char *includer_in(struct search *s, const char *dir)
{
	size_t n;
	char **names = sources_of(dir, &n);
	char *pick = NULL;
	int pick_entry = 0;
	for (size_t i = 0; i < n; i++) {
		size_t m = strlen(dir) + strlen(names[i]) + 2;
		char *p = pk_xmalloc(m);
		snprintf(p, m, "%s/%s", dir, names[i]);
		/* each candidate starts a fresh walk: a header seen under another
		 * candidate may lead here too */
		for (size_t k = 0; k < s->nseen; k++)
			free(s->seen[k]);
		s->nseen = 0;
		int entry = 0;
		if (!pick_entry && reaches(s, p, 0, &entry) && (!pick || entry)) {
			free(pick);
			pick = p;
			pick_entry = entry;
			p = NULL;
		}
		free(p);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return pick;
}

char *pk_ast_includer(const char *header)
{
	char real[PATH_MAX];
	if (!realpath(header, real))
		return NULL;
	struct search s = {NULL, 0, 0, 0, real};
	char *dir = dir_of(real), *found = NULL;
	for (int up = 0; up < 3 && !found; up++) {
		found = includer_in(&s, dir);
		char *parent = dir_of(dir);
		int top = !strcmp(parent, dir);
		free(dir);
		dir = parent;
		if (top)
			break;
	}
	free(dir);
	for (size_t k = 0; k < s.nseen; k++)
		free(s.seen[k]);
	free(s.seen);
	return found;
}
