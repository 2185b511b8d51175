/* report_json.c - the JSON inputs: the timing-tensor event map (the sidecar
 * the injection writes, or --events) and L2 swimlane records, read
 * with libjansson. A malformed file is an error naming its line and column. */
#include "report.h"

#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const rp_event_names[RP_EV_N] = {"entry", "producer_done", "collective_arrival", "collective_release",
                                             "body_done"};
/* What each default column means. */
static const enum pk_event_kind default_kinds[RP_EV_N] = {PK_EV_ISSUE, PK_EV_PHASE, PK_EV_ARRIVAL, PK_EV_RELEASE,
                                                          PK_EV_PHASE};

static void em_add(struct rp_event_map *em, const char *name, int col, const char *kind)
{
	em->names = pk_xrealloc(em->names, (em->n + 1) * sizeof(char *));
	em->kinds = pk_xrealloc(em->kinds, (em->n + 1) * sizeof(char *));
	em->cols = pk_xrealloc(em->cols, (em->n + 1) * sizeof(int));
	em->names[em->n] = pk_xstrdup(name);
	em->kinds[em->n] = pk_xstrdup(kind ? kind : "");
	em->cols[em->n] = col;
	for (int e = 0; e < RP_EV_N; e++)
		if (!strcmp(name, rp_event_names[e]))
			em->column[e] = col;
	em->n++;
}

static void em_clear(struct rp_event_map *em)
{
	memset(em, 0, sizeof(*em));
	for (int e = 0; e < RP_EV_N; e++)
		em->column[e] = -1;
	em->magic_column = -1;
	em->id_task = em->id_core = em->id_block = em->id_lane = -1;
}

int rp_events_is_identity(const struct rp_event_map *em, long col)
{
	return col >= 0 && (col == em->id_task || col == em->id_core || col == em->id_block || col == em->id_lane);
}

void rp_events_default(struct rp_event_map *em)
{
	em_clear(em);
	for (int e = 0; e < RP_EV_N; e++)
		em_add(em, rp_event_names[e], e, pk_event_kind_names[default_kinds[e]]);
}

void rp_events_free(struct rp_event_map *em)
{
	for (size_t i = 0; i < em->n; i++) {
		free(em->names[i]);
		free(em->kinds[i]);
	}
	free(em->names);
	free(em->kinds);
	free(em->cols);
	free(em->kernel);
	em_clear(em);
}

static json_t *load_json(const char *path)
{
	char *data;
	size_t len;
	if (rp_slurp(path, &data, &len) < 0)
		return NULL;
	json_error_t err;
	json_t *root = json_loadb(data, len, 0, &err);
	free(data);
	if (!root)
		pk_error("%s:%d:%d: malformed JSON: %s", path, err.line, err.column, err.text);
	return root;
}

static int event_entry(json_t *ev, size_t i, const char *path, struct rp_event_map *em)
{
	json_t *name = json_object_get(ev, "name"), *col = json_object_get(ev, "column");
	json_t *kind = json_object_get(ev, "kind");
	if (!json_is_object(ev) || !json_is_string(name) || !json_is_integer(col))
		return pk_error("%s: events[%zu] needs a string \"name\" and an integer \"column\"", path, i);
	if (kind && (!json_is_string(kind) || pk_event_kind_of(json_string_value(kind)) < 0))
		return pk_error("%s: events[%zu]: \"kind\" must be one of issue, drain, phase, arrival, release", path,
		                i);
	json_int_t c = json_integer_value(col);
	if (c < 0 || c > 65535)
		return pk_error("%s: events[%zu]: column %lld is out of range", path, i, (long long)c);
	for (size_t k = 0; k < em->n; k++) {
		if (!strcmp(em->names[k], json_string_value(name)))
			return pk_error("%s: event '%s' is listed twice", path, em->names[k]);
		if (em->cols[k] == (int)c)
			return pk_error("%s: events '%s' and '%s' share column %d", path, em->names[k],
			                json_string_value(name), (int)c);
	}
	em_add(em, json_string_value(name), (int)c, kind ? json_string_value(kind) : NULL);
	return 0;
}

/* Optional "magic" and "magic_column" (written by probe-inject --timing-tensor). */
static int magic_fields(json_t *root, const char *path, struct rp_event_map *em)
{
	json_t *magic = json_object_get(root, "magic"), *col = json_object_get(root, "magic_column");
	if (!magic && !col)
		return 0;
	if (!json_is_integer(magic) || !json_is_integer(col) || json_integer_value(col) < 0 ||
	    json_integer_value(col) > 65535)
		return pk_error("%s: \"magic\" and \"magic_column\" must both be integers", path);
	for (size_t i = 0; i < em->n; i++)
		if (em->cols[i] == (int)json_integer_value(col))
			return pk_error("%s: event '%s' and the magic share column %d", path, em->names[i],
			                em->cols[i]);
	em->magic = (uint64_t)json_integer_value(magic);
	em->magic_column = (int)json_integer_value(col);
	json_t *gen = json_object_get(root, "generation");
	if (gen && !json_is_boolean(gen))
		return pk_error("%s: \"generation\" must be true or false", path);
	em->generation = gen && json_is_true(gen);
	return 0;
}

/* Optional "aiv_per_aic" and "aic_rows": a mixed kernel whose AIC and AIV
 * lanes own rows (AIC: block index; AIV: AIC rows + block * aiv_per_aic +
 * sub-block), per task; aic_rows null when the block count is not known. */
static int lane_fields(json_t *root, const char *path, struct rp_event_map *em)
{
	json_t *ratio = json_object_get(root, "aiv_per_aic"), *aic = json_object_get(root, "aic_rows");
	em->slots_bound = json_is_true(json_object_get(root, "slots_bound"));
	em->conditional = json_is_true(json_object_get(root, "conditional"));
	em->tasks_counted = json_is_integer(json_object_get(root, "tasks"));
	em->row_wrap = json_is_true(json_object_get(root, "row_wrap"));
	if (!ratio)
		return 0;
	if (!json_is_integer(ratio) || json_integer_value(ratio) < 1 || json_integer_value(ratio) > 64 ||
	    (aic && !json_is_null(aic) && (!json_is_integer(aic) || json_integer_value(aic) < 1)))
		return pk_error("%s: \"aiv_per_aic\" must be a count from 1 to 64 and \"aic_rows\" a positive "
		                "count or null",
		                path);
	em->aiv_per_aic = (int)json_integer_value(ratio);
	em->aic_rows = aic && json_is_integer(aic) ? (long)json_integer_value(aic) : 0;
	em->aic_idle = json_is_true(json_object_get(root, "aic_idle"));
	em->task_rows = json_object_get(root, "tasks") != NULL;
	return 0;
}

/* Optional "row_words", "kernel" and "identity": {"task": COL, "core": COL,
 * "block": COL, "lane": COL}, each key optional, a column no event uses. */
static int identity_fields(json_t *root, const char *path, struct rp_event_map *em)
{
	json_t *rw = json_object_get(root, "row_words"), *kernel = json_object_get(root, "kernel");
	if (rw && (!json_is_integer(rw) || json_integer_value(rw) < 8 || json_integer_value(rw) % 8 ||
	           json_integer_value(rw) > 65536))
		return pk_error("%s: \"row_words\" must be a multiple of 8 (one 64-byte line per row)", path);
	em->row_words = rw ? (size_t)json_integer_value(rw) : 0;
	if (json_is_string(kernel))
		em->kernel = pk_xstrdup(json_string_value(kernel));
	json_t *id = json_object_get(root, "identity");
	if (!id || json_is_null(id))
		return 0;
	if (!json_is_object(id))
		return pk_error("%s: \"identity\" must be an object {\"task\": COL, \"core\": COL, \"block\": COL, "
		                "\"lane\": COL}",
		                path);
	static const char *const keys[] = {"task", "core", "block", "lane"};
	int *slot[] = {&em->id_task, &em->id_core, &em->id_block, &em->id_lane};
	const char *key;
	json_t *v;
	json_object_foreach(id, key, v)
	{
		size_t k = 0;
		while (k < 4 && strcmp(key, keys[k]))
			k++;
		if (k == 4)
			return pk_error("%s: identity key '%s' is not one of task, core, block, lane", path, key);
		if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 65535)
			return pk_error("%s: identity '%s' must be a column number", path, key);
		int col = (int)json_integer_value(v);
		for (size_t i = 0; i < em->n; i++)
			if (em->cols[i] == col)
				return pk_error("%s: identity '%s' and event '%s' share column %d", path, key,
				                em->names[i], col);
		if (col == em->magic_column)
			return pk_error("%s: identity '%s' and the magic share column %d", path, key, col);
		for (size_t j = 0; j < 4; j++)
			if (j != k && *slot[j] == col)
				return pk_error("%s: identity '%s' and '%s' share column %d", path, key, keys[j], col);
		*slot[k] = col;
	}
	return 0;
}

void rp_events_lane(const struct rp_event_map *em, size_t slot, char *buf, size_t cap)
{
	buf[0] = '\0';
	if (em->aiv_per_aic < 1 || em->aic_rows < 1)
		return;
	/* aic_idle: no AIC rows, a task's rows are its AIV lanes only */
	size_t aic = em->aic_idle ? 0 : (size_t)em->aic_rows, ratio = (size_t)em->aiv_per_aic,
	       per = aic + (size_t)em->aic_rows * ratio;
	size_t task = slot / per, w = slot % per;
	char where[64];
	if (w < aic)
		snprintf(where, sizeof(where), "AIC %zu", w);
	else
		snprintf(where, sizeof(where), "AIV %zu.%zu", (w - aic) / ratio, (w - aic) % ratio);
	if (em->task_rows)
		snprintf(buf, cap, "task %zu %s", task, where);
	else if (task == 0)
		snprintf(buf, cap, "%s", where);
	else
		snprintf(buf, cap, "past the task's rows");
}

int rp_events_load(const char *path, struct rp_event_map *em)
{
	em_clear(em);
	json_t *root = load_json(path);
	if (!root)
		return -1;
	json_t *events = json_object_get(root, "events");
	int rc = 0;
	if (!json_is_array(events) || json_array_size(events) == 0)
		rc = pk_error("%s: no \"events\" array", path);
	for (size_t i = 0; rc == 0 && i < json_array_size(events); i++)
		rc = event_entry(json_array_get(events, i), i, path, em);
	if (rc == 0)
		rc = magic_fields(root, path, em);
	if (rc == 0)
		rc = lane_fields(root, path, em);
	if (rc == 0)
		rc = identity_fields(root, path, em);
	json_decref(root);
	if (rc < 0)
		rp_events_free(em);
	return rc;
}

/* ---- finding the map of a tensor ---- */

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n > t && !strcmp(s + n - t, tail);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* KERNEL.timing.CASE.npy -> KERNEL.timing.CASE.json, then KERNEL.timing.json:
 * the capture's own name leads to its map (a candidate must end in
 * .timing.json). */
static char *map_by_name(const char *tensor)
{
	const char *slash = strrchr(tensor, '/'), *base = slash ? slash + 1 : tensor, *dot = strrchr(base, '.');
	if (!dot || dot == base)
		return NULL;
	size_t len = (size_t)(dot - tensor);
	for (int round = 0; round < 2; round++) {
		char *cand = pk_xasprintf("%.*s.json", (int)len, tensor);
		if (ends_with(cand, ".timing.json") && access(cand, R_OK) == 0)
			return cand;
		free(cand);
		const char *p = tensor + len;
		while (p > base && p[-1] != '.')
			p--;
		if (p <= base + 1)
			return NULL;
		len = (size_t)(p - 1 - tensor);
	}
	return NULL;
}

int rp_events_find(const char *tensor, char **found)
{
	*found = map_by_name(tensor);
	if (*found)
		return 0;
	const char *slash = strrchr(tensor, '/'), *base = slash ? slash + 1 : tensor, *dot = strrchr(base, '.');
	char *stem =
	    pk_xasprintf("%.*s.timing.json", (int)(dot && dot > base ? dot - tensor : (long)strlen(tensor)), tensor);
	if (access(stem, R_OK) == 0) {
		*found = stem;
		return 0;
	}
	free(stem);
	char *dir = slash ? pk_xstrndup(tensor, (size_t)(slash - tensor)) : pk_xstrdup(".");
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t n = 0, cap = 0;
	for (struct dirent *e; d && (e = readdir(d)) != NULL;)
		if (ends_with(e->d_name, ".timing.json")) {
			PK_GROW(v, cap, n + 1);
			v[n++] = pk_xstrdup(e->d_name);
		}
	if (d)
		closedir(d);
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_name);
	struct pk_sb names = {0};
	for (size_t i = 0; i < n; i++)
		pk_sb_addf(&names, "%s%s", i ? ", " : "", v[i]);
	if (n == 1)
		*found = slash ? pk_xasprintf("%s/%s", dir, v[0]) : pk_xstrdup(v[0]);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	int rc = 0;
	if (n > 1) {
		rc = pk_error("%s: several event maps beside it (%s): name the one of the build that wrote it with "
		              "--events FILE",
		              tensor, names.s);
	} else if (n == 0) {
		/* KERNEL.timing.CASE.npy beside KERNEL: a capture the edited test
		 * script wrote; its map went with the instrumentation */
		const char *t = strstr(base, ".timing.");
		char *kernel = t && t > base ? pk_xstrndup(tensor, (size_t)(t - tensor)) : NULL;
		if (kernel && access(kernel, R_OK) == 0)
			rc = pk_error(
			    "%s: a capture of %s, whose event map %s.timing.json is gone (probe-strip removes it "
			    "with the instrumentation): run probe-inject --timing-tensor on %s again with the same "
			    "--event options to write the same map, or name a copy with --events FILE",
			    tensor, kernel, kernel, kernel);
		free(kernel);
	}
	pk_sb_free(&names);
	free(dir);
	return rc;
}

/* Does row R carry the map's marker (its magic in the high half of the
 * marker word)? A row no task wrote holds whatever the memory held when the
 * runtime does not copy the tensor in, and says nothing about the columns. */
static int row_written(const struct rp_matrix *m, const struct rp_event_map *em, size_t r)
{
	if (em->magic_column < 0 || (size_t)em->magic_column >= m->cols)
		return 1;
	uint64_t w = (uint64_t)m->v[r * m->cols + (size_t)em->magic_column];
	return (w >> 32) == (em->magic >> 32);
}

long rp_events_unnamed_column(const struct rp_matrix *m, const struct rp_event_map *em)
{
	for (size_t c = 0; c < m->cols; c++) {
		int named = (long)c == em->magic_column || rp_events_is_identity(em, (long)c);
		for (size_t i = 0; i < em->n && !named; i++)
			named = em->cols[i] == (int)c;
		for (size_t r = 0; r < m->rows && !named; r++)
			if (m->v[r * m->cols + c] && row_written(m, em, r))
				return (long)c;
	}
	return -1;
}

/* ---- L2 swimlane records ---- */

static int l2_row(json_t *row, size_t i, const char *path, int64_t v[5])
{
	if (!json_is_array(row) || json_array_size(row) < 5)
		return pk_error(
		    "%s: aicore_tasks[%zu] is not [core_id, task_token, reg_task_id, start_cycles, end_cycles]", path,
		    i);
	for (size_t k = 0; k < 5; k++) {
		json_t *x = json_array_get(row, k);
		if (!json_is_integer(x))
			return pk_error("%s: aicore_tasks[%zu][%zu] is not an integer", path, i, k);
		v[k] = (int64_t)json_integer_value(x);
	}
	if (v[4] < v[3])
		return pk_error("%s: aicore_tasks[%zu] ends (%lld) before it starts (%lld)", path, i, (long long)v[4],
		                (long long)v[3]);
	return 0;
}

static int l2_tasks(json_t *tasks, const char *path, int64_t task, struct rp_l2 *l2)
{
	size_t n = json_array_size(tasks);
	l2->core = pk_xcalloc(n + 1, sizeof(int64_t));
	l2->start = pk_xcalloc(n + 1, sizeof(int64_t));
	l2->end = pk_xcalloc(n + 1, sizeof(int64_t));
	l2->token = pk_xcalloc(n + 1, sizeof(int64_t));
	l2->reg = pk_xcalloc(n + 1, sizeof(int64_t));
	for (size_t i = 0; i < n; i++) {
		int64_t v[5];
		if (l2_row(json_array_get(tasks, i), i, path, v) < 0)
			return -1;
		if (task >= 0 && v[2] != task)
			continue;
		l2->core[l2->ntasks] = v[0];
		l2->token[l2->ntasks] = v[1];
		l2->reg[l2->ntasks] = v[2];
		l2->start[l2->ntasks] = v[3];
		l2->end[l2->ntasks] = v[4];
		if (!l2->ntasks || v[3] < l2->m0)
			l2->m0 = v[3];
		if (!l2->ntasks || v[4] > l2->m1)
			l2->m1 = v[4];
		l2->ntasks++;
	}
	if (!l2->ntasks && task >= 0)
		return pk_error("%s: no aicore_tasks row has reg_task_id %lld", path, (long long)task);
	if (!l2->ntasks)
		return pk_error("%s: \"aicore_tasks\" is empty", path);
	return 0;
}

int rp_l2_load(const char *path, int64_t task, struct rp_l2 *l2)
{
	memset(l2, 0, sizeof(*l2));
	json_t *root = load_json(path);
	if (!root)
		return -1;
	int rc = 0;
	json_t *meta = json_object_get(root, "metadata"), *tasks = json_object_get(root, "aicore_tasks");
	json_t *freq = meta ? json_object_get(meta, "clock_freq_hz") : NULL;
	if (!json_is_object(root) || !json_is_array(tasks))
		rc = pk_error("%s: no \"aicore_tasks\" array (not an L2 swimlane file)", path);
	else if (freq && (!json_is_number(freq) || json_number_value(freq) <= 0))
		rc = pk_error("%s: metadata.clock_freq_hz is not a positive number", path);
	else {
		l2->clock_freq_hz = freq ? json_number_value(freq) : 0;
		rc = l2_tasks(tasks, path, task, l2);
		json_t *types = meta ? json_object_get(meta, "core_types") : NULL;
		if (rc == 0 && json_is_array(types)) {
			l2->ncore_types = json_array_size(types);
			l2->core_type = pk_xcalloc(l2->ncore_types + 1, 1);
			for (size_t i = 0; i < l2->ncore_types; i++) {
				const char *t = json_string_value(json_array_get(types, i));
				l2->core_type[i] = !t ? 0 : !strcmp(t, "aic") ? 1 : !strcmp(t, "aiv") ? 2 : 0;
			}
		}
	}
	json_decref(root);
	if (rc < 0)
		rp_l2_free(l2);
	return rc;
}

void rp_l2_free(struct rp_l2 *l2)
{
	free(l2->core);
	free(l2->start);
	free(l2->end);
	free(l2->token);
	free(l2->reg);
	free(l2->core_type);
	memset(l2, 0, sizeof(*l2));
}

/* ---- finding the swimlane of a capture ---- */

static int newer_file(const char *path, const struct stat *than)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_mtime >= than->st_mtime;
}

void rp_swimlane_find(const char *tensor, char **found, char **why)
{
	*why = NULL;
	static const char name[] = "chip_swimlane_records.json";
	*found = NULL;
	struct stat tst;
	if (stat(tensor, &tst) < 0)
		return;
	const char *slash = strrchr(tensor, '/');
	char *dir = slash ? pk_xstrndup(tensor, (size_t)(slash - tensor)) : pk_xstrdup(".");
	char *beside = slash ? pk_xasprintf("%s/%s", dir, name) : pk_xstrdup(name);
	if (access(beside, R_OK) == 0) {
		*found = beside;
		free(dir);
		return;
	}
	free(beside);
	/* the test's output folder: outputs/<case>_<time>/ of the nearest folder
	 * above the capture that has outputs/ */
	for (int up = 0; up < 8 && !*found; up++) {
		char *outs = pk_xasprintf("%s/outputs", dir);
		DIR *od = opendir(outs);
		if (od) {
			char *pick = NULL;
			size_t n = 0;
			for (struct dirent *e; (e = readdir(od)) != NULL;) {
				if (e->d_name[0] == '.')
					continue;
				char *cand = pk_xasprintf("%s/%s/%s", outs, e->d_name, name);
				if (newer_file(cand, &tst)) {
					n++;
					free(pick);
					pick = cand;
				} else {
					free(cand);
				}
			}
			closedir(od);
			if (n == 1)
				*found = pick;
			else {
				free(pick);
				if (n > 1)
					*why = pk_xasprintf(
					    "%zu %s files in %s are not older than the capture: none read (name "
					    "one with "
					    "--swimlane FILE)",
					    n, name, outs);
			}
			free(outs);
			break;
		}
		free(outs);
		char *up_dir = pk_xasprintf("%s/..", dir);
		free(dir);
		dir = up_dir;
	}
	free(dir);
}
