/* tt_script.c - the test script a simpler orchestration is run by, when the
 * command line names none. simpler's test scripts sit in the example's
 * folder, above kernels/orchestration/, and name the orchestration's source
 * in their CALLABLE; the orchestration's expected_arg_count counts the
 * arguments the script builds, so an orchestration edited without its
 * script fails at run time ("arg_count 5 < expected 6"). The scripts are
 * found by the names rules/timing.ini [test_script] gives and read with the
 * one Python reader (tt_pytok.c): a script naming the orchestration's file
 * in a string is the one that builds its arguments. */
#include "tt.h"
#include "pk.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* Does a string of script B end with "/BASE" (or equal BASE)? */
static int names_file(const struct pk_buf *b, const char *base)
{
	struct pyt p;
	memset(&p, 0, sizeof(p));
	if (pyt_scan(&p, b) < 0)
		return 0;
	size_t bl = strlen(base);
	int hit = 0;
	for (size_t i = 0; i < p.n && !hit; i++) {
		if (p.t[i].kind != PYT_STRING)
			continue;
		const char *s = b->data + p.t[i].s, *e = b->data + p.t[i].e;
		while (e > s && (e[-1] == '"' || e[-1] == '\''))
			e--;
		size_t n = (size_t)(e - s);
		hit = n > bl && !memcmp(e - bl, base, bl) &&
		      (e[-(long)bl - 1] == '/' || e[-(long)bl - 1] == '"' || e[-(long)bl - 1] == '\'');
	}
	pyt_free(&p);
	return hit;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The folder above DIR as the user would write it ("." above "a"). */
static char *parent(const char *dir)
{
	const char *slash = strrchr(dir, '/');
	size_t n = strlen(dir);
	if (!strcmp(dir, ".") || (n >= 2 && !strcmp(dir + n - 2, "..")))
		return pk_xasprintf("%s/..", dir);
	return slash ? pk_xstrndup(dir, (size_t)(slash - dir)) : pk_xstrdup(".");
}

size_t tt_scripts_naming(const struct tt_rules *r, const char *host, char ***out)
{
	const char *pre = tt_rule(r, "test_script", "script_prefix"), *suf = tt_rule(r, "test_script", "script_suffix");
	const char *lv = tt_rule(r, "test_script", "script_levels");
	*out = NULL;
	if (!pre || !suf)
		return 0;
	const char *slash = strrchr(host, '/'), *base = slash ? slash + 1 : host;
	char *dir = slash ? pk_xstrndup(host, (size_t)(slash - host)) : pk_xstrdup(".");
	size_t n = 0, levels = lv ? strtoul(lv, NULL, 10) : 0;
	for (size_t l = 0; l <= levels; l++) {
		DIR *d = opendir(dir);
		for (struct dirent *e; d && (e = readdir(d));) {
			size_t nl = strlen(e->d_name), pl = strlen(pre), sl = strlen(suf);
			if (nl <= pl + sl || strncmp(e->d_name, pre, pl) || strcmp(e->d_name + nl - sl, suf))
				continue;
			char *path = strcmp(dir, ".") ? pk_xasprintf("%s/%s", dir, e->d_name) : pk_xstrdup(e->d_name);
			struct pk_buf b;
			memset(&b, 0, sizeof(b));
			char msg[64];
			int hit = pk_buf_load_msg(&b, path, 0, msg, sizeof(msg)) == 0 && names_file(&b, base);
			pk_buf_free(&b);
			if (hit) {
				*out = pk_xrealloc(*out, (n + 1) * sizeof(**out));
				(*out)[n++] = path;
			} else {
				free(path);
			}
		}
		if (d)
			closedir(d);
		char *up = parent(dir);
		free(dir);
		dir = up;
		if (n)
			break; /* the nearest folder holding one */
	}
	free(dir);
	if (n > 1)
		qsort(*out, n, sizeof(**out), by_name);
	return n;
}
