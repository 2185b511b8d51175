/* report_log.c - the printf probe log parser (S1.3, S1.6, S1.7, S4.1).
 * Streams a log once; keeps per (probe, block, iter) only the int64 numbers
 * the statistics need, and per (probe, block, iter, run) a line count, so
 * memory grows with probe lines, never with the other output. */
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NO_RUN UINT32_MAX

/* ---- a small open-addressing hash: 4 x int64 -> uint32 ---- */

static uint64_t mix(const int64_t k[4])
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 4; i++) {
		h ^= (uint64_t)k[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
		h *= 0xff51afd7ed558ccdull;
	}
	return h ^ (h >> 33);
}

static void hash_free(struct rp_hash *h)
{
	free(h->keys);
	free(h->vals);
	memset(h, 0, sizeof(*h));
}

/* Slot of K: its own, or the empty one where it belongs. */
static size_t hash_slot(const struct rp_hash *h, const int64_t k[4])
{
	size_t i = mix(k) & (h->cap - 1);
	for (;; i = (i + 1) & (h->cap - 1)) {
		const int64_t *x = &h->keys[4 * i];
		if (h->vals[i] == NO_RUN ||
		    (x[0] == k[0] && x[1] == k[1] && x[2] == k[2] && x[3] == k[3]))
			return i;
	}
}

static void hash_grow(struct rp_hash *h)
{
	struct rp_hash old = *h;
	h->cap = old.cap ? old.cap * 2 : 64;
	h->keys = pk_xmalloc(h->cap * 4 * sizeof(int64_t));
	h->vals = pk_xmalloc(h->cap * sizeof(uint32_t));
	memset(h->vals, 0xff, h->cap * sizeof(uint32_t));
	for (size_t i = 0; i < old.cap; i++) {
		if (old.vals[i] == NO_RUN)
			continue;
		size_t j = hash_slot(h, &old.keys[4 * i]);
		memcpy(&h->keys[4 * j], &old.keys[4 * i], 4 * sizeof(int64_t));
		h->vals[j] = old.vals[i];
	}
	free(old.keys);
	free(old.vals);
}

static uint32_t hash_get(const struct rp_hash *h, const int64_t k[4])
{
	if (!h->cap)
		return NO_RUN;
	return h->vals[hash_slot(h, k)];
}

static void hash_put(struct rp_hash *h, const int64_t k[4], uint32_t v)
{
	if (2 * (h->n + 1) > h->cap)
		hash_grow(h);
	size_t i = hash_slot(h, k);
	memcpy(&h->keys[4 * i], k, 4 * sizeof(int64_t));
	h->vals[i] = v;
	h->n++;
}

/* ---- line parsing ---- */

static int is_name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* Unsigned decimal that fits int64; *p advances past it. */
static int parse_u63(const char **p, const char *end, int64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	if (s >= end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (v > (uint64_t)(INT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	*out = (int64_t)v;
	return 0;
}

static const char *skip_blank(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	return s;
}

enum field { F_START, F_END, F_DUR, F_BLOCK, F_ITER, F_RUN, F_NONE };
static const struct {
	const char *key;
	size_t len;
} fields[] = { { "start=", 6 }, { "end=", 4 }, { "dur=", 4 },
	       { "block=", 6 }, { "iter=", 5 }, { "run=", 4 } };

static enum field field_at(const char *s, const char *end)
{
	enum field f;
	if (s >= end)
		return F_NONE;
	switch (*s) { /* one candidate per first letter: this runs per field */
	case 's': f = F_START; break;
	case 'e': f = F_END; break;
	case 'd': f = F_DUR; break;
	case 'b': f = F_BLOCK; break;
	case 'i': f = F_ITER; break;
	case 'r': f = F_RUN; break;
	default: return F_NONE;
	}
	if ((size_t)(end - s) < fields[f].len)
		return F_NONE;
	for (size_t i = 1; i < fields[f].len; i++)
		if (s[i] != fields[f].key[i])
			return F_NONE;
	return f;
}

/* After "[NAME]" of a probe: key=value fields, all of start, end, dur. */
static enum rp_line_kind parse_fields(const char *s, const char *end, struct rp_line *out)
{
	int64_t v[F_NONE] = { 0 };
	unsigned seen = 0;
	s = skip_blank(s, end);
	if (field_at(s, end) == F_NONE)
		return RP_LINE_OTHER;
	while (s < end) {
		enum field f = field_at(s, end);
		if (f == F_NONE || (seen & (1u << f)))
			return RP_LINE_GARBLED;
		s += fields[f].len;
		if (parse_u63(&s, end, &v[f]) < 0)
			return RP_LINE_GARBLED;
		seen |= 1u << f;
		const char *next = skip_blank(s, end);
		if (next == s && s < end)
			return RP_LINE_GARBLED;
		s = next;
	}
	if ((seen & 7u) != 7u)
		return RP_LINE_GARBLED;
	out->start = v[F_START];
	out->end = v[F_END];
	out->dur = v[F_DUR];
	out->has_block = !!(seen & (1u << F_BLOCK));
	out->has_iter = !!(seen & (1u << F_ITER));
	out->has_run = !!(seen & (1u << F_RUN));
	out->block = out->has_block ? v[F_BLOCK] : -1;
	out->iter = out->has_iter ? v[F_ITER] : -1;
	out->run = out->has_run ? v[F_RUN] : -1;
	return RP_LINE_PROBE;
}

/* "[T_BASE] N", optionally with run=R before N. */
static enum rp_line_kind parse_tbase(const char *s, const char *end, struct rp_line *out)
{
	s = skip_blank(s, end);
	out->has_run = 0;
	out->run = -1;
	if (field_at(s, end) == F_RUN) {
		s += fields[F_RUN].len;
		if (parse_u63(&s, end, &out->run) < 0)
			return RP_LINE_GARBLED;
		out->has_run = 1;
		s = skip_blank(s, end);
	}
	if (parse_u63(&s, end, &out->tbase) < 0)
		return RP_LINE_GARBLED;
	return skip_blank(s, end) == end ? RP_LINE_TBASE : RP_LINE_GARBLED;
}

enum rp_line_kind rp_log_parse_line(const char *s, size_t len, struct rp_line *out)
{
	const char *end = s + len, *p = s;
	enum rp_line_kind kind = RP_LINE_OTHER;
	/* The probe may follow a harness prefix ("[INFO] dev0: [STAGE_B] ..."). */
	while ((p = memchr(p, '[', (size_t)(end - p)))) {
		const char *name = ++p;
		while (p < end && is_name_char(*p))
			p++;
		if (p == name || p == end || *p != ']')
			continue;
		out->name = name;
		out->name_len = (size_t)(p - name);
		p++;
		if (out->name_len == 6 && !memcmp(name, "T_BASE", 6))
			return parse_tbase(p, end, out);
		kind = parse_fields(p, end, out);
		if (kind != RP_LINE_OTHER)
			return kind;
	}
	return RP_LINE_OTHER;
}

/* ---- aggregation ---- */

void rp_log_init(struct rp_log *lg, const char *run_sep, size_t repeat)
{
	memset(lg, 0, sizeof(*lg));
	lg->run_sep = run_sep && *run_sep ? run_sep : NULL;
	lg->repeat = repeat ? repeat : 1;
	lg->seg_run = NO_RUN;
	lg->last_probe = NO_RUN;
}

void rp_log_free(struct rp_log *lg)
{
	for (size_t i = 0; i < lg->nprobes; i++) {
		free(lg->probes[i].name);
		free(lg->probes[i].first_mismatch_file);
	}
	for (size_t i = 0; i < lg->nseries; i++) {
		rp_vec_free(&lg->series[i].dur);
		rp_vec_free(&lg->series[i].rel_start);
		rp_vec_free(&lg->series[i].rel_end);
	}
	for (size_t i = 0; i < lg->nruns; i++)
		free(lg->runs[i].label);
	for (size_t i = 0; i < 5; i++)
		free(lg->garbled_where[i]);
	free(lg->probes);
	free(lg->series);
	free(lg->findings);
	free(lg->runs);
	free(lg->seg_label);
	hash_free(&lg->finding_hash);
	hash_free(&lg->series_hash);
	hash_free(&lg->run_hash);
	hash_free(&lg->name_hash);
	memset(lg, 0, sizeof(*lg));
}

static void new_segment(struct rp_log *lg, char *label)
{
	free(lg->seg_label);
	lg->seg_label = label;
	lg->segment++;
	lg->seg_run = NO_RUN;
}

void rp_log_begin_file(struct rp_log *lg, const char *name)
{
	lg->file = name;
	lg->lineno = 0;
	new_segment(lg, pk_xstrdup(name));
}

static uint32_t new_run(struct rp_log *lg, const char *label)
{
	PK_GROW(lg->runs, lg->rcap, lg->nruns + 1);
	struct rp_run *r = &lg->runs[lg->nruns];
	memset(r, 0, sizeof(*r));
	r->label = pk_xstrdup(label);
	return (uint32_t)lg->nruns++;
}

/* The run a line belongs to: its segment, refined by a run=R field. */
static uint32_t run_of(struct rp_log *lg, const struct rp_line *ln)
{
	if (!ln->has_run) {
		if (lg->seg_run == NO_RUN)
			lg->seg_run = new_run(lg, lg->seg_label);
		return lg->seg_run;
	}
	int64_t k[4] = { (int64_t)lg->segment, ln->run, 0, 0 };
	uint32_t r = hash_get(&lg->run_hash, k);
	if (r == NO_RUN) {
		char label[64];
		snprintf(label, sizeof(label), " run=%lld", (long long)ln->run);
		char *full = pk_xmalloc(strlen(lg->seg_label) + strlen(label) + 1);
		strcpy(full, lg->seg_label);
		strcat(full, label);
		r = new_run(lg, full);
		free(full);
		hash_put(&lg->run_hash, k, r);
	}
	return r;
}

static uint64_t fnv(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

static uint32_t probe_of(struct rp_log *lg, const char *name, size_t len)
{
	if (lg->last_probe != NO_RUN) {
		const char *last = lg->probes[lg->last_probe].name;
		if (!strncmp(last, name, len) && last[len] == '\0')
			return lg->last_probe;
	}
	/* Key on (hash, length, collision index) and compare the bytes. */
	for (int64_t c = 0;; c++) {
		int64_t k[4] = { (int64_t)fnv(name, len), (int64_t)len, c, 0 };
		uint32_t p = hash_get(&lg->name_hash, k);
		if (p == NO_RUN) {
			PK_GROW(lg->probes, lg->pcap, lg->nprobes + 1);
			memset(&lg->probes[lg->nprobes], 0, sizeof(struct rp_probe));
			lg->probes[lg->nprobes].name = pk_xstrndup(name, len);
			hash_put(&lg->name_hash, k, (uint32_t)lg->nprobes);
			return lg->last_probe = (uint32_t)lg->nprobes++;
		}
		if (!strncmp(lg->probes[p].name, name, len) && lg->probes[p].name[len] == '\0')
			return lg->last_probe = p;
	}
}

static uint32_t series_of(struct rp_log *lg, uint32_t probe, int64_t block, int64_t iter)
{
	int64_t k[4] = { probe, block, iter, 0 };
	uint32_t s = hash_get(&lg->series_hash, k);
	if (s != NO_RUN)
		return s;
	PK_GROW(lg->series, lg->scap, lg->nseries + 1);
	struct rp_series *se = &lg->series[lg->nseries];
	memset(se, 0, sizeof(*se));
	se->probe = probe;
	se->block = block;
	se->iter = iter;
	se->run = NO_RUN;
	hash_put(&lg->series_hash, k, (uint32_t)lg->nseries);
	return (uint32_t)lg->nseries++;
}

/* Record (or raise the count of) one finding per (run, probe, kind). */
static void add_finding(struct rp_log *lg, uint32_t run, uint32_t probe, enum rp_finding_kind kind,
			uint32_t count)
{
	int64_t k[4] = { run, probe, kind, 0 };
	uint32_t f = hash_get(&lg->finding_hash, k);
	if (f == NO_RUN) {
		PK_GROW(lg->findings, lg->fcap, lg->nfindings + 1);
		f = (uint32_t)lg->nfindings++;
		lg->findings[f] = (struct rp_finding){ run, probe, 0, kind };
		hash_put(&lg->finding_hash, k, f);
	}
	if (count > lg->findings[f].count)
		lg->findings[f].count = count;
}

static void note_probe_in_run(struct rp_run *r, uint32_t probe)
{
	for (size_t i = 0; i < r->nprobes && i < 4; i++)
		if (r->probes[i] == probe)
			return;
	if (r->nprobes < 4)
		r->probes[r->nprobes] = probe;
	r->nprobes++;
}

static char *where(const struct rp_log *lg)
{
	char buf[32];
	snprintf(buf, sizeof(buf), ":%lld", (long long)lg->lineno);
	char *s = pk_xmalloc(strlen(lg->file) + strlen(buf) + 1);
	strcpy(s, lg->file);
	strcat(s, buf);
	return s;
}

static void add_probe_line(struct rp_log *lg, const struct rp_line *ln)
{
	uint32_t run = run_of(lg, ln);
	uint32_t probe = probe_of(lg, ln->name, ln->name_len);
	uint32_t series = series_of(lg, probe, ln->block, ln->iter); /* may move lg->series */
	struct rp_series *se = &lg->series[series];
	struct rp_probe *p = &lg->probes[probe];
	struct rp_run *r = &lg->runs[run];

	lg->probe_lines++;
	p->lines++;
	if (ln->has_block)
		p->with_block++;
	else
		p->without_block++;
	if (se->run != run) {
		se->run = run;
		se->run_count = 0;
	} else if (!ln->has_block && ln->start < se->last_end) {
		/* Lines of one block run one after another; overlapping
		 * intervals of one key mean several blocks print (S1.6). */
		add_finding(lg, run, probe, RP_FIND_OVERLAP, 1);
	}
	if (++se->run_count > lg->repeat)
		add_finding(lg, run, probe, RP_FIND_REPEAT, se->run_count);
	se->last_end = ln->end;
	r->nlines++;
	if (r->nprobes == 0 || r->probes[0] != probe)
		note_probe_in_run(r, probe);
	if (ln->end - ln->start != ln->dur && !p->dur_mismatch++)
		p->first_mismatch_file = where(lg);
	rp_vec_push(&se->dur, ln->dur);
	if (r->ntbase) {
		rp_vec_push(&se->rel_start, ln->start - r->tbase);
		rp_vec_push(&se->rel_end, ln->end - r->tbase);
	} else {
		r->tbase_late = 1;
	}
}

void rp_log_line(struct rp_log *lg, const char *s, size_t len)
{
	struct rp_line ln;
	lg->lineno++;
	lg->total_lines++;
	switch (rp_log_parse_line(s, len, &ln)) {
	case RP_LINE_PROBE:
		add_probe_line(lg, &ln);
		return;
	case RP_LINE_TBASE: {
		uint32_t run = run_of(lg, &ln); /* may move lg->runs */
		struct rp_run *r = &lg->runs[run];
		lg->tbase_lines++;
		r->tbase = ln.tbase;
		r->ntbase++;
		return;
	}
	case RP_LINE_GARBLED:
		if (lg->garbled_lines < 5)
			lg->garbled_where[lg->garbled_lines] = where(lg);
		lg->garbled_lines++;
		return;
	case RP_LINE_OTHER:
		lg->other_lines++;
		if (lg->run_sep && memmem(s, len, lg->run_sep, strlen(lg->run_sep))) {
			char buf[32];
			snprintf(buf, sizeof(buf), " from line %lld", (long long)lg->lineno);
			char *label = pk_xmalloc(strlen(lg->file) + strlen(buf) + 1);
			strcpy(label, lg->file);
			strcat(label, buf);
			new_segment(lg, label);
		}
		return;
	}
}

int rp_log_read_fd(struct rp_log *lg, int fd, const char *name)
{
	size_t cap = 1 << 20, have = 0;
	char *buf = pk_xmalloc(cap);
	rp_log_begin_file(lg, name);
	for (;;) {
		if (have == cap) /* one line longer than the buffer */
			buf = pk_xrealloc(buf, cap *= 2);
		ssize_t got = read(fd, buf + have, cap - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			return pk_error("%s: %s", name, strerror(errno));
		}
		if (got == 0)
			break;
		have += (size_t)got;
		char *p = buf, *end = buf + have, *nl;
		while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
			rp_log_line(lg, p, (size_t)(nl - p));
			p = nl + 1;
		}
		have = (size_t)(end - p);
		memmove(buf, p, have);
	}
	if (have) /* last line without a newline: still a line (maybe truncated) */
		rp_log_line(lg, buf, have);
	free(buf);
	return 0;
}
