/* report_log.c - the printf probe log reader: lines into runs, probes and
 * series. Streams a log once through read(); keeps per (probe, block, iter)
 * the int64 numbers the statistics need, so memory grows with probe lines,
 * never with the other output. */
#include "names.h"
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NONE UINT32_MAX

/* ---- the hash table ---- */

static uint64_t mix(const int64_t k[4])
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 4; i++) {
		h ^= (uint64_t)k[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
		h *= 0xff51afd7ed558ccdull;
	}
	h ^= h >> 33; /* every key bit reaches the low bits, which pick the slot */
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

void rp_hash_free(struct rp_hash *h)
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
		if (h->vals[i] == NONE || (x[0] == k[0] && x[1] == k[1] && x[2] == k[2] && x[3] == k[3]))
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
		if (old.vals[i] == NONE)
			continue;
		size_t j = hash_slot(h, &old.keys[4 * i]);
		memcpy(&h->keys[4 * j], &old.keys[4 * i], 4 * sizeof(int64_t));
		h->vals[j] = old.vals[i];
	}
	free(old.keys);
	free(old.vals);
}

uint32_t rp_hash_get(const struct rp_hash *h, const int64_t k[4])
{
	return h->cap ? h->vals[hash_slot(h, k)] : NONE;
}

void rp_hash_put(struct rp_hash *h, const int64_t k[4], uint32_t v)
{
	if (2 * (h->n + 1) > h->cap)
		hash_grow(h);
	size_t i = hash_slot(h, k);
	memcpy(&h->keys[4 * i], k, 4 * sizeof(int64_t));
	h->vals[i] = v;
	h->n++;
}

void rp_hash_str_key(const char *s, size_t len, int64_t k[4])
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	k[0] = (int64_t)h;
	k[1] = (int64_t)len;
	k[2] = k[3] = 0;
}

/* What a key of lg->map keys: its last element. */
enum { K_NAME, K_SERIES, K_RUN, K_FINDING, K_RUN_PROBE };

/* ---- line parsing ---- */

static int is_name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* Unsigned decimal that fits int64; *p advances past it. -1 when there is
 * none or it passes uint64, -2 when it fits uint64 but not int64 (what
 * "%lu" prints of a negative difference). The byte after a line is never a
 * digit (see rp_log_parse_line): no bounds test. */
static int parse_u63(const char **p, int64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	unsigned d;
	for (; (d = (unsigned)(unsigned char)*s - '0') < 10; s++) {
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (s == *p)
		return -1;
	if (v > (uint64_t)INT64_MAX)
		return -2;
	*p = s;
	*out = (int64_t)v;
	return 0;
}

/* A number at *P into *OUT, or why the line is garbled (in LN). */
static int number(const char **p, int64_t *out, struct rp_line *ln)
{
	int rc = parse_u63(p, out);
	ln->past_int64 = rc == -2;
	return rc;
}

static const char *skip_blank(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	return s;
}

enum field { F_START, F_END, F_DUR, F_BLOCK, F_ITER, F_RUN, F_NONE };

/* The field at S, if any; *LEN: its key's length. The keys are
 * rules/names.ini [log], in the order of enum field. */
static enum field field_at(const char *s, const char *end, size_t *len)
{
	static const char *const keys[] = {PK_NAME_LOG_START, PK_NAME_LOG_END,  PK_NAME_LOG_DUR,
	                                   PK_NAME_LOG_BLOCK, PK_NAME_LOG_ITER, PK_NAME_LOG_RUN};
	for (size_t f = 0; f < sizeof(keys) / sizeof(keys[0]); f++) {
		size_t l = strlen(keys[f]);
		if ((size_t)(end - s) >= l && !memcmp(s, keys[f], l)) {
			*len = l;
			return (enum field)f;
		}
	}
	return F_NONE;
}

/* After "[NAME]" of a probe: key=value fields, all of start, end, dur. */
static enum rp_line_kind parse_fields(const char *s, const char *end, struct rp_line *out)
{
	int64_t v[F_NONE] = {0, 0, 0, -1, -1, -1};
	unsigned seen = 0;
	size_t klen;
	s = skip_blank(s, end);
	if (field_at(s, end, &klen) == F_NONE)
		return RP_LINE_OTHER;
	while (s < end) {
		enum field f = field_at(s, end, &klen);
		if (f == F_NONE || (seen & (1u << f)))
			return RP_LINE_GARBLED;
		s += klen;
		if (number(&s, &v[f], out) < 0)
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
	out->block = v[F_BLOCK];
	out->iter = v[F_ITER];
	out->run = v[F_RUN];
	return RP_LINE_PROBE;
}

/* "[T_BASE] N", optionally with run=R before N. */
static enum rp_line_kind parse_tbase(const char *s, const char *end, struct rp_line *out)
{
	size_t klen;
	s = skip_blank(s, end);
	out->run = -1;
	if (field_at(s, end, &klen) == F_RUN) {
		s += klen;
		if (number(&s, &out->run, out) < 0)
			return RP_LINE_GARBLED;
		s = skip_blank(s, end);
	}
	if (number(&s, &out->tbase, out) < 0)
		return RP_LINE_GARBLED;
	return skip_blank(s, end) == end ? RP_LINE_TBASE : RP_LINE_GARBLED;
}

enum rp_line_kind rp_log_parse_line(const char *s, size_t len, struct rp_line *out)
{
	const char *end = s + len, *p = s;
	enum rp_line_kind none = RP_LINE_OTHER;
	size_t klen;
	out->past_int64 = 0;
	/* The probe may follow a harness prefix ("[INFO] dev0: [STAGE_B] ..."). */
	while ((p = memchr(p, '[', (size_t)(end - p)))) {
		const char *name = ++p;
		while (is_name_char(*p)) /* stops at the byte after the line at the latest */
			p++;
		if (p > name && p < end && *p != ']' && field_at(skip_blank(p, end), end, &klen) == F_START)
			none = RP_LINE_GARBLED; /* "[STAGE_A start=5 end=": its ']' lost */
		if (p == name || p == end || *p != ']')
			continue;
		out->name = name;
		out->name_len = (size_t)(p - name);
		p++;
		if (out->name_len == strlen(PK_NAME_PROBE_BASE) && !memcmp(name, PK_NAME_PROBE_BASE, out->name_len))
			return parse_tbase(p, end, out);
		enum rp_line_kind kind = parse_fields(p, end, out);
		if (kind != RP_LINE_OTHER)
			return kind;
	}
	return none;
}

/* ---- runs, probes, series ---- */

void rp_log_init(struct rp_log *lg, const char *run_sep, size_t repeat)
{
	memset(lg, 0, sizeof(*lg));
	lg->run_sep = run_sep && *run_sep ? run_sep : NULL;
	lg->repeat = repeat ? repeat : 1;
	lg->seg_run = lg->last_run = lg->last_probe = lg->last_series = NONE;
}

void rp_log_free(struct rp_log *lg)
{
	for (size_t i = 0; i < lg->nprobes; i++) {
		free(lg->probes[i].name);
		free(lg->probes[i].first_mismatch_file);
	}
	for (size_t i = 0; i < lg->nseries; i++)
		free(lg->series[i].v);
	for (size_t i = 0; i < lg->nruns; i++)
		free(lg->runs[i].label);
	for (size_t i = 0; i < 5; i++) {
		free(lg->garbled_where[i]);
		free(lg->past_int64_where[i]);
	}
	free(lg->clean);
	free(lg->probes);
	free(lg->series);
	free(lg->findings);
	free(lg->runs);
	free(lg->seg_label);
	rp_hash_free(&lg->map);
	memset(lg, 0, sizeof(*lg));
}

static void new_segment(struct rp_log *lg, char *label)
{
	free(lg->seg_label);
	lg->seg_label = label;
	lg->segment++;
	lg->seg_run = NONE;
}

void rp_log_begin_file(struct rp_log *lg, const char *name)
{
	lg->file = name;
	lg->lineno = 0;
	new_segment(lg, pk_xstrdup(name));
}

/* STR followed by what FMT makes of N, in a new string. */
static char *with_number(const char *str, const char *fmt, int64_t n)
{
	char buf[48];
	snprintf(buf, sizeof(buf), fmt, (long long)n);
	char *s = pk_xmalloc(strlen(str) + strlen(buf) + 1);
	strcpy(s, str);
	strcat(s, buf);
	return s;
}

static uint32_t new_run(struct rp_log *lg, char *label)
{
	PK_GROW(lg->runs, lg->rcap, lg->nruns + 1);
	struct rp_run *r = &lg->runs[lg->nruns];
	memset(r, 0, sizeof(*r));
	r->label = label;
	return (uint32_t)lg->nruns++;
}

/* The run a line belongs to: its segment, refined by a run=R field. */
static uint32_t run_of(struct rp_log *lg, int64_t run_field)
{
	if (run_field < 0) {
		if (lg->seg_run == NONE)
			lg->seg_run = new_run(lg, pk_xstrdup(lg->seg_label));
		return lg->seg_run;
	}
	if (lg->last_run != NONE && lg->last_run_seg == lg->segment && lg->last_run_value == run_field)
		return lg->last_run; /* the usual case: a run's lines come together */
	int64_t k[4] = {(int64_t)lg->segment, run_field, 0, K_RUN};
	uint32_t r = rp_hash_get(&lg->map, k);
	if (r == NONE) {
		r = new_run(lg, with_number(lg->seg_label, " " PK_NAME_LOG_RUN "%lld", run_field));
		rp_hash_put(&lg->map, k, r);
	}
	lg->last_run_seg = lg->segment;
	lg->last_run_value = run_field;
	return lg->last_run = r;
}

/* The probe named NAME, or NONE with K the key it would take (the first
 * free collision index). */
static uint32_t probe_find(const struct rp_log *lg, const char *name, size_t len, int64_t k[4])
{
	rp_hash_str_key(name, len, k); /* k[3] = 0 = K_NAME */
	for (;; k[2]++) {
		uint32_t p = rp_hash_get(&lg->map, k);
		if (p == NONE || (lg->probes[p].name_len == len && !memcmp(lg->probes[p].name, name, len)))
			return p;
	}
}

uint32_t rp_log_find_probe(const struct rp_log *lg, const char *name, size_t len)
{
	int64_t k[4];
	return probe_find(lg, name, len, k);
}

static int same_bytes(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* The probe named NAME, made when new. */
static uint32_t probe_of(struct rp_log *lg, const char *name, size_t len)
{
	int64_t k[4];
	uint32_t p = lg->last_probe; /* most lines name the probe of the line before */
	if (p != NONE && lg->probes[p].name_len == len && same_bytes(lg->probes[p].name, name, len))
		return p;
	p = probe_find(lg, name, len, k);
	if (p != NONE)
		return lg->last_probe = p;
	PK_GROW(lg->probes, lg->pcap, lg->nprobes + 1);
	memset(&lg->probes[lg->nprobes], 0, sizeof(struct rp_probe));
	lg->probes[lg->nprobes].name = pk_xstrndup(name, len);
	lg->probes[lg->nprobes].name_len = len;
	rp_hash_put(&lg->map, k, (uint32_t)lg->nprobes);
	return lg->last_probe = (uint32_t)lg->nprobes++;
}

uint32_t rp_log_find_series(const struct rp_log *lg, uint32_t probe, int64_t block, int64_t iter)
{
	int64_t k[4] = {probe, block, iter, K_SERIES};
	return rp_hash_get(&lg->map, k);
}

static uint32_t new_series(struct rp_log *lg, uint32_t probe, int64_t block, int64_t iter);

static uint32_t series_of(struct rp_log *lg, uint32_t probe, int64_t block, int64_t iter)
{
	/* runs repeat one order of lines: first try the series that followed
	 * the last line's series the last time */
	uint32_t s = lg->last_series == NONE ? NONE : lg->series[lg->last_series].next;
	if (s == NONE || lg->series[s].probe != probe || lg->series[s].block != block || lg->series[s].iter != iter)
		s = rp_log_find_series(lg, probe, block, iter);
	if (s == NONE)
		s = new_series(lg, probe, block, iter);
	if (lg->last_series != NONE)
		lg->series[lg->last_series].next = s;
	return lg->last_series = s;
}

static uint32_t new_series(struct rp_log *lg, uint32_t probe, int64_t block, int64_t iter)
{
	int64_t k[4] = {probe, block, iter, K_SERIES};
	PK_GROW(lg->series, lg->scap, lg->nseries + 1);
	struct rp_series *se = &lg->series[lg->nseries];
	memset(se, 0, sizeof(*se));
	se->probe = probe;
	se->block = block;
	se->iter = iter;
	se->run = se->next = NONE;
	rp_hash_put(&lg->map, k, (uint32_t)lg->nseries);
	return (uint32_t)lg->nseries++;
}

/* Record (or raise the count of) one finding per (run, probe, kind). */
static void add_finding(struct rp_log *lg, uint32_t run, uint32_t probe, enum rp_finding_kind kind, uint32_t count)
{
	int64_t k[4] = {run, probe, kind, K_FINDING};
	uint32_t f = rp_hash_get(&lg->map, k);
	if (f == NONE) {
		PK_GROW(lg->findings, lg->fcap, lg->nfindings + 1);
		f = (uint32_t)lg->nfindings++;
		lg->findings[f] = (struct rp_finding){run, probe, 0, kind};
		rp_hash_put(&lg->map, k, f);
	}
	if (count > lg->findings[f].count)
		lg->findings[f].count = count;
}

int rp_log_has_finding(const struct rp_log *lg, uint32_t run, uint32_t probe, enum rp_finding_kind kind)
{
	int64_t k[4] = {run, probe, kind, K_FINDING};
	return rp_hash_get(&lg->map, k) != NONE;
}

/* Count PROBE among the distinct probes of run RUN (the first four kept
 * for the report). */
static void note_probe_in_run(struct rp_log *lg, uint32_t run, uint32_t probe)
{
	struct rp_run *r = &lg->runs[run];
	for (size_t i = 0; i < r->nprobes && i < 4; i++)
		if (r->probes[i] == probe)
			return;
	int64_t k[4] = {run, probe, 0, K_RUN_PROBE};
	if (r->nprobes >= 4 && rp_hash_get(&lg->map, k) != NONE)
		return;
	rp_hash_put(&lg->map, k, 0);
	if (r->nprobes < 4)
		r->probes[r->nprobes] = probe;
	r->nprobes++;
}

static void add_sample(struct rp_series *se, int64_t dur, int64_t rel_start, int64_t rel_end)
{
	PK_GROW(se->v, se->cap, 3 * (se->n + 1));
	int64_t *v = &se->v[3 * se->n++];
	v[0] = dur;
	v[1] = rel_start;
	v[2] = rel_end;
	se->nrel += rel_start != RP_NO_REL;
}

static void add_probe_line(struct rp_log *lg, const struct rp_line *ln)
{
	uint32_t run = run_of(lg, ln->run);
	uint32_t probe = probe_of(lg, ln->name, ln->name_len);
	uint32_t series = series_of(lg, probe, ln->block, ln->iter); /* may move lg->series */
	struct rp_series *se = &lg->series[series];
	struct rp_probe *p = &lg->probes[probe];
	struct rp_run *r = &lg->runs[run];

	lg->probe_lines++;
	p->lines++;
	if (ln->block >= 0)
		p->with_block++;
	else
		p->without_block++;
	if (se->run != run) {
		se->run = run;
		se->run_count = 0;
	} else if (ln->block < 0 && ln->start < se->last_end) {
		/* Lines of one block run one after another; overlapping
		 * intervals of one key mean several blocks print. */
		add_finding(lg, run, probe, RP_FIND_OVERLAP, 1);
	}
	if (++se->run_count > lg->repeat)
		add_finding(lg, run, probe, RP_FIND_REPEAT, se->run_count);
	se->last_end = ln->end;
	r->nlines++;
	note_probe_in_run(lg, run, probe);
	if (ln->end - ln->start != ln->dur && !p->dur_mismatch++)
		p->first_mismatch_file = with_number(lg->file, ":%lld", lg->lineno);
	if (r->ntbase) { /* start - tbase > INT64_MIN = RP_NO_REL */
		add_sample(se, ln->dur, ln->start - r->tbase, ln->end - r->tbase);
	} else {
		add_sample(se, ln->dur, RP_NO_REL, RP_NO_REL);
		r->tbase_late = 1;
	}
}

/* S without its ANSI SGR sequences (ESC [ digits and semicolons m: colour
 * and bold), in lg->clean with a stop byte after it; *LEN its length. */
static const char *strip_sgr(struct rp_log *lg, const char *s, size_t *len)
{
	size_t n = 0;
	PK_GROW(lg->clean, lg->clean_cap, *len + 1);
	for (size_t i = 0; i < *len; i++) {
		if (s[i] == '\033' && i + 1 < *len && s[i + 1] == '[') {
			size_t j = i + 2;
			while (j < *len && ((s[j] >= '0' && s[j] <= '9') || s[j] == ';'))
				j++;
			if (j < *len && s[j] == 'm') {
				i = j;
				continue;
			}
		}
		lg->clean[n++] = s[i];
	}
	lg->clean[n] = '\n';
	*len = n;
	return lg->clean;
}

/* A garbled line: its place kept among the first five of its kind. */
static void add_garbled(struct rp_log *lg, const struct rp_line *ln)
{
	size_t *n = ln->past_int64 ? &lg->past_int64_lines : &lg->garbled_lines;
	char **where = ln->past_int64 ? lg->past_int64_where : lg->garbled_where;
	if (*n < 5)
		where[*n] = with_number(lg->file, ":%lld", lg->lineno);
	++*n;
}

void rp_log_line(struct rp_log *lg, const char *s, size_t len)
{
	struct rp_line ln;
	if (memchr(s, '\033', len))
		s = strip_sgr(lg, s, &len);
	lg->lineno++;
	lg->total_lines++;
	if (lg->run_sep && memmem(s, len, lg->run_sep, strlen(lg->run_sep)))
		new_segment(lg, with_number(lg->file, " from line %lld", lg->lineno));
	switch (rp_log_parse_line(s, len, &ln)) {
	case RP_LINE_PROBE:
		add_probe_line(lg, &ln);
		return;
	case RP_LINE_TBASE: {
		uint32_t run = run_of(lg, ln.run); /* may move lg->runs */
		struct rp_run *r = &lg->runs[run];
		lg->tbase_lines++;
		r->tbase = ln.tbase;
		r->ntbase++;
		return;
	}
	case RP_LINE_GARBLED:
		add_garbled(lg, &ln);
		return;
	case RP_LINE_OTHER:
		lg->other_lines++;
		return;
	}
}

int rp_log_read_fd(struct rp_log *lg, int fd, const char *name)
{
	size_t cap = 1 << 20, have = 0;
	char *buf = pk_xmalloc(cap + 1); /* + 1: the newline after a last line */
	rp_log_begin_file(lg, name);
	for (;;) {
		if (have == cap) { /* one line longer than the buffer */
			cap *= 2;
			buf = pk_xrealloc(buf, cap + 1);
		}
		ssize_t got = read(fd, buf + have, cap - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			return pk_error("%s: %s", name, strerror(errno));
		}
		if (got == 0)
			break;
		char *p = buf, *end = buf + have + got, *nl;
		while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
			rp_log_line(lg, p, (size_t)(nl - p));
			p = nl + 1;
		}
		have = (size_t)(end - p);
		memmove(buf, p, have);
	}
	if (have) {               /* last line without a newline: still a line (maybe truncated) */
		buf[have] = '\n'; /* the stop byte rp_log_parse_line relies on */
		rp_log_line(lg, buf, have);
	}
	free(buf);
	return 0;
}
