/* embed.c - find a rules/ file: the run-time directory first, then the copy
 * compiled into the binary. */
#include "embed.h"
#include "pk.h"

#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *pk_rules_dir(void)
{
	static char dir[PATH_MAX];
	static int done;
	if (done)
		return dir[0] ? dir : NULL;
	done = 1;
	const char *env = getenv("PROBEKIT_RULES_DIR");
	if (env && *env) {
		snprintf(dir, sizeof(dir), "%s", env);
		return dir;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			int w = snprintf(dir, sizeof(dir), "%.*s/../share/probekit/rules", PATH_MAX - 64, exe);
			if (w > 0 && (size_t)w < sizeof(dir) && is_dir(dir))
				return dir;
		}
	}
	dir[0] = '\0';
	return NULL;
}

const struct pk_embedded *pk_embedded_find(const char *name)
{
	for (const struct pk_embedded *e = pk_embedded_files; e->name; e++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

static int read_file(const char *path, char **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t cap = 4096, n = 0;
	char *p = pk_xmalloc(cap + 1);
	size_t r;
	while ((r = fread(p + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			p = pk_xrealloc(p, cap + 1);
		}
	}
	int err = ferror(f);
	fclose(f);
	if (err) {
		free(p);
		return -1;
	}
	p[n] = '\0';
	*data = p;
	*len = n;
	return 0;
}

/* Where NAME's bytes are found now: the rules folder, else the copy built
 * in. *OWNED when they were read (the caller frees them). */
static int rules_find(const char *name, const char **data, size_t *len, int *owned)
{
	/* names.ini is compiled in (names.h is made from it): a copy elsewhere
	 * would make probe-check look for names the binary does not write */
	const char *dir = strcmp(name, "names.ini") ? pk_rules_dir() : NULL;
	*owned = 0;
	if (dir) {
		char path[PATH_MAX];
		char *buf;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
			return -1;
		if (read_file(path, &buf, len) == 0) {
			*data = buf;
			*owned = 1;
			return 0;
		}
	}
	const struct pk_embedded *e = pk_embedded_find(name);
	if (!e)
		return -1;
	*data = e->data;
	*len = e->len;
	return 0;
}

/* The rules files a process has loaded, each once whichever layer asks
 * (api.ini alone is wanted by the entry rule, the probe API, the async
 * lint and the check rules' cycles): kept until the process ends, so every
 * caller reads the same bytes. A handful of small files. */
static struct rules_cached {
	char *name;
	const char *data;
	size_t len;
} * rules_cache;
static size_t rules_ncache, rules_cap;
static pthread_mutex_t rules_lock = PTHREAD_MUTEX_INITIALIZER;

int pk_rules_file(const char *name, const char **data, size_t *len)
{
	int rc = 0;
	pthread_mutex_lock(&rules_lock);
	size_t i = 0;
	while (i < rules_ncache && strcmp(rules_cache[i].name, name))
		i++;
	if (i == rules_ncache) {
		int own;
		const char *d;
		size_t n;
		if (rules_find(name, &d, &n, &own) < 0) {
			rc = -1;
			goto out;
		}
		char *rname = pk_xasprintf("rules/%s", name);
		pk_note_read(rname, NULL);
		free(rname);
		PK_GROW(rules_cache, rules_cap, rules_ncache + 1);
		rules_cache[rules_ncache++] = (struct rules_cached){pk_xstrdup(name), d, n};
	}
	*data = rules_cache[i].data;
	*len = rules_cache[i].len;
out:
	pthread_mutex_unlock(&rules_lock);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int name_fits(const char *n, const char *prefix, const char *suffix)
{
	size_t ln = strlen(n), lp = strlen(prefix), ls = strlen(suffix);
	return ln >= lp + ls && !strncmp(n, prefix, lp) && !strcmp(n + ln - ls, suffix) && !strchr(n, '/');
}

char **pk_rules_list(const char *prefix, const char *suffix)
{
	char **v = NULL;
	size_t n = 0, cap = 0;
	const char *dir = pk_rules_dir();
	if (dir) {
		DIR *dp = opendir(dir);
		struct dirent *de;
		while (dp && (de = readdir(dp)) != NULL) {
			if (name_fits(de->d_name, prefix, suffix)) {
				PK_GROW(v, cap, n + 1);
				v[n++] = pk_xstrdup(de->d_name);
			}
		}
		if (dp)
			closedir(dp);
	} else {
		for (const struct pk_embedded *e = pk_embedded_files; e->name; e++)
			if (name_fits(e->name, prefix, suffix)) {
				PK_GROW(v, cap, n + 1);
				v[n++] = pk_xstrdup(e->name);
			}
	}
	PK_GROW(v, cap, n + 1);
	v[n] = NULL;
	qsort(v, n, sizeof(*v), cmp_str);
	return v;
}
