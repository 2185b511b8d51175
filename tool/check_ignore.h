/* check_ignore.h - gitignore-syntax pattern sets (.gitignore outside git,
 * .probekitignore, --exclude) for probe-check's walk. */
#ifndef PK_CHECK_IGNORE_H
#define PK_CHECK_IGNORE_H

#include <stddef.h>

struct pk_ign_rule {
	char *pat;
	int neg;      /* '!': re-include */
	int dir_only; /* trailing '/' */
	int anchored; /* holds a '/': relative to the file's directory */
};

struct pk_ign_file {
	char *base; /* its directory, relative to the walk's root: "" or "dir/sub/" */
	char *up;   /* for a file above the root: the root's path from it, "a/b/" */
	struct pk_ign_rule *r;
	size_t nr;
};

struct pk_ignores { /* later files (deeper directories) decide last */
	struct pk_ign_file *f;
	size_t n, cap;
};

/* gitignore glob: '*' and '?' stay within a name, '**' crosses '/', [...]. */
int pk_glob_match(const char *pat, const char *s);
/* The same, counting its steps in *STEPS (when not NULL): each pair of a
 * pattern offset and a name offset is tried once, so the count stays under a
 * small multiple of (strlen(PAT) + 1) * (strlen(S) + 1) squared at worst. */
int pk_glob_match_steps(const char *pat, const char *s, size_t *steps);
void pk_ign_add_text(struct pk_ignores *ig, const char *base, const char *up, const char *text);
/* Returns 1 when PATH was read, 0 when it does not exist. */
int pk_ign_add_file(struct pk_ignores *ig, const char *base, const char *up, const char *path);
/* Drop the files added after the first TO. */
void pk_ign_pop(struct pk_ignores *ig, size_t to);
/* REL (relative to the root) is ignored, by its own name only. */
int pk_ign_match(const struct pk_ignores *ig, const char *rel, int is_dir);
/* REL or one of its directories is ignored. */
int pk_ign_match_path(const struct pk_ignores *ig, const char *rel, int is_dir);

#endif
