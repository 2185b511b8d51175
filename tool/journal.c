/* journal.c - finishing a multi-file rewrite that died between two renames:
 * the journal that emit.c writes before the first rename is read back and
 * replayed by the next run that loads a file of that directory for writing. */
#include "emit.h"
#include "pk.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the journal of a multi-file commit ------------------------------
 * Before the first rename of several files, a journal goes into the
 * directory of each: DIR/.probekit-txn.PID.XXXXXX, flock'ed by the writer
 * while it renames, holding NUL-separated records: "T" TMP TARGET for each
 * file, "J" PATH for each copy of the journal, and "E" once complete. Every
 * temporary file is written and synced before, so a journal that is complete
 * and no longer locked (its writer died between two renames) is rolled
 * forward: each TMP still there is renamed over its TARGET, so the set is
 * all new. An incomplete one (died while writing it, before any rename) is
 * rolled back: its temporary files go. Then every copy goes. */
#define JOURNAL_PREFIX ".probekit-txn."
#define JOURNAL_MAGIC  "probekit txn 1\n"

static void journal_replay(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) { /* its writer is at work */
		close(fd);
		return;
	}
	char *d = NULL;
	size_t n = 0;
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		return;
	}
	d = pk_read_all(f, &n);
	size_t ml = strlen(JOURNAL_MAGIC);
	int complete = n > ml + 2 && !memcmp(d, JOURNAL_MAGIC, ml) && !memcmp(d + n - 2, "E", 2);
	for (int pass = 0; pass < 2; pass++) /* the files first, then the copies */
		for (size_t i = n >= ml ? ml : n; i < n;) {
			const char *kind = d + i, *a = kind + strlen(kind) + 1;
			if (*kind == 'E' || a >= d + n)
				break;
			const char *b = a + strlen(a) + 1;
			if (*kind == 'T' && b < d + n) {
				if (pass == 0 && complete)
					rename(a, b);
				else if (pass == 0)
					unlink(a);
				i = (size_t)(b - d) + strlen(b) + 1;
			} else {
				if (pass == 1 && *kind == 'J' &&
				    !strncmp(strrchr(a, '/') ? strrchr(a, '/') + 1 : a, JOURNAL_PREFIX,
				             strlen(JOURNAL_PREFIX)))
					unlink(a);
				i = (size_t)(b - d);
			}
		}
	unlink(path); /* an incomplete one may not list itself yet */
	free(d);
	fclose(f);
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
		    strlen(dead[i] + n) > TEMP_RANDOM + 1 && lstat(dead[i], &st) == 0 && S_ISREG(st.st_mode)) {
			unlink(dead[i]);
			free(dead[i]);
			dead[i] = NULL;
		}
	}
	free(prefix);
}

/* Replay the journals in DIR whose writers are gone, and note the dead
 * writers' temporary files. */
static void journal_recover_dir(const char *dir)
{
	DIR *dp = opendir(dir);
	if (!dp)
		return;
	struct dirent *e;
	while ((e = readdir(dp)) != NULL) {
		char full[PATH_MAX];
		if (!strncmp(e->d_name, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX)) &&
		    (size_t)snprintf(full, sizeof(full), "%s/%s", dir, e->d_name) < sizeof(full))
			journal_replay(full);
	}
	rewinddir(dp); /* after the journals: a journal needs its temporaries */
	while ((e = readdir(dp)) != NULL)
		note_dead_temp(dir, e->d_name);
	closedir(dp);
}

void pk_txn_recover(const char *path)
{
	/* each directory once a run: a set of many files in one directory
	 * must not read it once per file */
	static char **seen;
	static size_t nseen, cap_seen;
	char target[PATH_MAX];
	if (!strcmp(path, "-") || !realpath(path, target))
		return;
	char base[PATH_MAX];
	snprintf(base, sizeof(base), "%s", strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
	char *dir = dirname(target);
	size_t i = nseen;
	while (i-- > 0 && strcmp(seen[i], dir))
		;
	if (i == (size_t)-1) {
		PK_GROW(seen, cap_seen, nseen + 1);
		seen[nseen++] = pk_xstrdup(dir);
		journal_recover_dir(dir);
	}
	remove_dead_temps(dir, base);
}
