/* report.h - probe-report's layers (issue #6): the report document, statistics,
 * the printf log parser, the timing-tensor readers, the JSON readers, the
 * partition analysis and the output writers.
 * Included only by tool/report*.c, tool/cmd_report.c and tests/test_report*.c.
 *
 * Data path: read (log stream / tensor / JSON) -> analyse into a struct rp_doc
 * (tables, timeline lanes, notes, warnings) -> render the doc once in the
 * chosen format. Analysis never prints; writers never compute. */
#ifndef PK_REPORT_H
#define PK_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pk.h"

/* ---- statistics (report_stats.c) ---- */
struct rp_stats {
	size_t n;
	int64_t min, max;
	int64_t median_x2; /* twice the median: exact for even counts, no float */
	double mean, stddev; /* stddev over n-1 (0 for one sample) */
	/* the exact sums behind mean and stddev, for merging (exact_sums:
	 * every value fitted int32, so sumsq holds too) */
	__int128 sum;
	unsigned __int128 sumsq;
	int exact_sums;
};
/* Reorders V (selection for the median). Returns 0, or -1 when n == 0. */
int rp_stats_compute(int64_t *v, size_t n, struct rp_stats *out);
/* The same over values spread in parts: N values STRIDE bytes apart from V
 * in each part in turn (e.g. one field of an array of structs). The
 * result equals rp_stats_compute's on their concatenation, without making
 * it (unless the median needs selection). */
enum rp_value_kind {
	RP_V64, /* int64_t values */
	RP_V32, /* int32_t values */
	RP_V16  /* uint16_t values, each BASE more */
};
struct rp_values {
	const void *v;
	size_t n;
	size_t stride; /* bytes from one value to the next */
	enum rp_value_kind kind;
	int64_t base;  /* RP_V16: added to each value (>= 0, fits int32 with it) */
};
/* Value I of PART. */
static inline int64_t rp_value_at(const struct rp_values *part, size_t i)
{
	const char *p = (const char *)part->v + i * part->stride;
	if (part->kind == RP_V16) {
		uint16_t x;
		memcpy(&x, p, sizeof(x));
		return part->base + x;
	}
	if (part->kind == RP_V32) {
		int32_t x;
		memcpy(&x, p, sizeof(x));
		return x;
	}
	int64_t x;
	memcpy(&x, p, sizeof(x));
	return x;
}
int rp_stats_parts(const struct rp_values *parts, size_t nparts, struct rp_stats *out);
/* Everything rp_stats_parts gives but the median (median_x2 is 0). */
int rp_stats_moments(const struct rp_values *parts, size_t nparts, struct rp_stats *out);
/* rp_stats_parts over PARTS, which are the values of K groups whose
 * rp_stats_moments are EACH: the moments merged from theirs when their
 * sums are exact (the same bits as from the values), so that only the
 * median reads the values, and not even that when MEDIAN_X2 (non-NULL)
 * gives it. PARTS may be NULL: then 1 says the values are needed (call
 * again with them). 0, or -1 without values. */
int rp_stats_merge(const struct rp_stats *each, size_t k, const struct rp_values *parts,
		   size_t nparts, const int64_t *median_x2, struct rp_stats *out);
/* The median of OUT's values PARTS (OUT's n, min and max set). */
void rp_stats_median(const struct rp_values *parts, size_t nparts, struct rp_stats *out);
/* The median by counting, in pieces: how many bins N values in [LO, HI]
 * take (0: counting is not for them); add PARTS' values into COUNT (bins
 * from LO); the median (twice) of the N values counted. */
size_t rp_count_bins(size_t n, int64_t lo, int64_t hi);
void rp_count_parts(const struct rp_values *parts, size_t nparts, int64_t lo, uint32_t *count);
int64_t rp_count_median_x2(const uint32_t *count, size_t n, int64_t lo);
/* Median of V (reorders it), times two. V must be non-empty. */
int64_t rp_median_x2(int64_t *v, size_t n);
/* Parse a decimal slot list "0-3,8" into mask[0..nslots); -1 on a bad list
 * or a slot >= nslots (message printed, naming OPT). */
int rp_parse_slot_list(const char *opt, const char *s, unsigned char *mask, size_t nslots);

/* ---- the report document (report_doc.c) ---- */
enum rp_cell_kind { RP_NULL, RP_INT, RP_HALF, RP_REAL, RP_STR };
struct rp_cell {
	enum rp_cell_kind kind;
	int prec;     /* RP_REAL: digits after the point */
	int64_t i;    /* RP_INT; RP_HALF holds twice the value */
	double r;
	char *s;
};
struct rp_table {
	char *name;   /* JSON key and CSV section, e.g. "probes" */
	char *title;  /* text heading */
	size_t ncols;
	char **cols;
	struct rp_cell *cells; /* nrows * ncols */
	size_t nrows, cap;
};
struct rp_span {
	int64_t start, end; /* cycles, on the lane's own origin */
	char *label;
	char *kind; /* what the span is (phase, probe): one colour, one legend entry */
};
struct rp_lane {
	char *group; /* e.g. "run 1", "in-core", "L2" (trace process) */
	char *name;  /* e.g. "STAGE_B", "slot 3" (trace thread, SVG row) */
	struct rp_span *spans;
	size_t nspans, cap;
};
struct rp_doc {
	double freq_hz;          /* 0: unknown, no time columns (S5.3) */
	const char *freq_source; /* "--freq-hz" or the L2 file */
	char *origin;            /* what timeline zero means */
	struct rp_table **tables;
	size_t ntables, tcap;
	struct rp_lane **lanes;
	size_t nlanes, lcap;
	/* the output draws no lanes (text, CSV): a log's timeline makes none,
	 * only its table (a span per series is most of that table's cost) */
	int no_lanes;
	char **notes, **warnings;
	size_t nnotes, ncap, nwarnings, wcap;
};
void rp_doc_init(struct rp_doc *d);
void rp_doc_free(struct rp_doc *d);
/* Record a finding: "probekit: warning: ..." on stderr now, and in the doc. */
void rp_warn(struct rp_doc *d, const char *fmt, ...) PK_PRINTF(2, 3);
/* An explanation that is not a finding (e.g. why sources were not combined). */
void rp_note(struct rp_doc *d, const char *fmt, ...) PK_PRINTF(2, 3);
/* A table with the given column names (NULL-terminated list). */
struct rp_table *rp_table_new(struct rp_doc *d, const char *name, const char *title, ...);
struct rp_table *rp_table_newv(struct rp_doc *d, const char *name, const char *title, size_t ncols,
				const char *const *cols);
/* Start a row; then set cells by column index. Unset cells stay RP_NULL. */
size_t rp_row(struct rp_table *t);
/* Room for NROWS rows in all (a large table's cells in one zeroed
 * allocation, not grown row by row). */
void rp_table_reserve(struct rp_table *t, size_t nrows);
void rp_set_int(struct rp_table *t, size_t row, size_t col, int64_t v);
void rp_set_half(struct rp_table *t, size_t row, size_t col, int64_t x2);
void rp_set_real(struct rp_table *t, size_t row, size_t col, double v, int prec);
void rp_set_str(struct rp_table *t, size_t row, size_t col, const char *s);
/* Time in microseconds for CYCLES when the doc knows a frequency. */
void rp_set_us(const struct rp_doc *d, struct rp_table *t, size_t row, size_t col, double cycles);
struct rp_lane *rp_lane_new(struct rp_doc *d, const char *group, const char *name);
void rp_span_add(struct rp_lane *l, int64_t start, int64_t end, const char *label);
/* The same with a KIND other than the label ("STAGE_B" for "STAGE_B iter 3"). */
void rp_span_add_kind(struct rp_lane *l, int64_t start, int64_t end, const char *label,
		      const char *kind);
/* Format an RP_HALF value ("12", "12.5", "-0.5") into buf (at least 24
 * bytes). */
const char *rp_fmt_half(char *buf, int64_t x2);
/* Decimal V into BUF (at least 24 bytes); returns the length. */
size_t rp_fmt_int(char *buf, int64_t v);
/* V as printf's "%.*f" with PREC formats it, the same bytes, into BUF of N
 * bytes (at least 32); returns the length. Values with at most 52 bits
 * before the rounding place take a short path of integer digits; ties and
 * others go to snprintf (a report has tens of thousands of means). */
size_t rp_fmt_fixed(char *buf, size_t n, double v, int prec);

/* ---- printf probe logs (report_log.c) ---- */
enum rp_line_kind { RP_LINE_OTHER, RP_LINE_TBASE, RP_LINE_PROBE, RP_LINE_GARBLED };
struct rp_line {
	const char *name; /* points into the line */
	size_t name_len;
	int64_t start, end, dur, block, iter, run, tbase;
	int has_block, has_iter, has_run;
};
/* Classify one line (without its newline). A line is a probe line when it
 * holds "[NAME]" followed by start=/end=/dur= fields; other output is
 * RP_LINE_OTHER; a probe line that does not parse completely is GARBLED.
 * S[len] must be readable and not a digit or name character (the newline,
 * or a NUL): the hot loops use it as their stop. Same for rp_log_line and
 * rp_log_classify. */
enum rp_line_kind rp_log_parse_line(const char *s, size_t len, struct rp_line *out);

/* The fast path for the usual shape "[NAME] key=N key=N ..." (keys start,
 * end, dur, block, iter, run, single spaces, the name first, up to 16
 * digits): 1 with OUT as rp_log_parse_line gives it (RP_LINE_PROBE), 0 when
 * the line is not of that shape (rp_log_parse_line decides then). Reads up
 * to RP_FAST_WINDOW bytes from S, whatever LEN: they must be readable. */
#define RP_FAST_WINDOW 128
int rp_log_parse_fast(const char *s, size_t len, struct rp_line *out);

/* One probe line's numbers, wide. */
struct rp_sample {
	int64_t dur, rel_start, rel_end; /* rel_*: RP_NO_REL when the run has no T_BASE yet */
};
#define RP_NO_REL INT64_MIN
/* Compact samples keep int32 values: a sample is compact when rel_end ==
 * rel_start + dur and all three fit int32 (RP_NO_REL32: no relative
 * times). A series keeps them until a sample does not fit, then turns
 * wide (rp_sample). */
#define RP_NO_REL32 INT32_MIN
enum rp_sample_field { RP_DUR, RP_REL_START, RP_REL_END };
/* The samples of one series. Compact durations live in chunks of an arena
 * (struct rp_arena): chunk k holds rp_chunk_cap(k) durations, 64 at most,
 * so that the chunks the lines of a log are filling at any time (one per
 * series, thousands of series visited in turn) lie close together in
 * memory, not a page apart each: storing was bound by TLB misses when each
 * series had an array of its own. Fresh memory is dear (on the bench VM,
 * clearing the pages of 8-byte samples took 14% of the CPU), so samples are
 * kept small:
 * - a chunk holds its durations as 16-bit offsets from a base when they fit
 *   a window of 65,536 cycles (a stage's jitter), else as int32; the first
 *   duration that leaves the window turns the chunk's to int32;
 * - a stage usually starts at one offset from T_BASE run after run: while
 *   every sample of a series has the same relative start (rel0), no start
 *   is kept; the first other one gives the series a chunk of int32 starts
 *   beside each chunk of durations (rels).
 * A wide series has one malloc'd array. */
#define RP_CHUNK32 INT32_MIN /* rp_chunk.base of a chunk of int32 durations */
struct rp_chunk {
	void *v;
	int32_t base; /* uint16_t durations, each BASE (>= 0) more; or RP_CHUNK32 */
};
/* Where a series' next compact sample goes: all that storing one touches
 * (32 bytes: the store stage sweeps thousands of series per run). */
struct rp_put {
	char *put, *end; /* room left in the last chunk (NULL: none, or wide) */
	int32_t *rput;   /* with rels: where the next start goes */
	int32_t rel0;    /* without rels: every sample's start */
	int32_t base;    /* the last chunk's */
};
struct rp_samples {
	struct rp_put w;     /* (report_logpar.c's store stage keeps its own) */
	void *samples;       /* compact: the chunks (struct rp_chunk[cap]);
				wide: rp_sample[cap] */
	int32_t **rels;      /* compact with starts that vary: their chunks
				(cap), else NULL */
	/* nrel: samples with relative times. Compact: n and nrel as of the
	 * last rp_samples_sync (storing does not count) */
	size_t n, cap, nrel;
	size_t norel;        /* with rels: samples without relative times */
	uint32_t nch;        /* compact: chunks in use */
	unsigned char wide;
	unsigned char spilt; /* the last chunk turned int32 */
};
#define RP_CHUNK_MAX 64
static inline size_t rp_chunk_cap(uint32_t k)
{
	return k < 3 ? (size_t)8 << k : RP_CHUNK_MAX;
}
/* Bump allocation of sample chunks (freed all at once). */
struct rp_arena {
	char **regions;
	size_t nregions, rcap;
	char *cur, *end;
};
void *rp_arena_alloc(struct rp_arena *a, size_t bytes); /* 64-byte aligned */
void rp_arena_free(struct rp_arena *a);
/* One (probe, block, iter) across runs; its samples are lg->samples[] at
 * the same index (apart: applying a line reads and writes the series,
 * thousands of them in turn, and should find them in the cache). */
struct rp_series { /* 40 bytes */
	uint32_t probe;
	uint32_t next; /* the series that followed this one last time (prefetch) */
	int64_t block, iter; /* -1 when the line had no such field */
	int64_t last_end;
	/* the run this series saw last: runs follow one another in a log, so a
	 * per-series counter finds repeats without a (run, key) table */
	uint32_t run, run_count;
};
/* A per-run finding on one probe, kept once per (run, probe, kind). */
enum rp_finding_kind { RP_FIND_REPEAT, RP_FIND_OVERLAP };
struct rp_finding {
	uint32_t run, probe, count;
	enum rp_finding_kind kind;
};
struct rp_probe {
	char *name;
	size_t name_len;
	size_t lines, dur_mismatch, with_block, without_block;
	char *first_mismatch_file; /* "FILE:LINE" of the first dur != end - start */
};
struct rp_run {
	char *label;       /* "FILE", "FILE from line N" (--run), then " run=R" */
	int64_t tbase;
	size_t ntbase, nlines;
	uint32_t probes[4]; /* first distinct probes seen (contamination report) */
	size_t nprobes;     /* distinct probes in the run */
	int tbase_late;    /* probe lines came before any T_BASE */
};
struct rp_hash { /* open addressing: 4 x int64 key -> uint32 value */
	int64_t *keys;
	uint32_t *vals;
	size_t cap, n;
};
/* K's value, or UINT32_MAX (which is never a value) when K is absent. */
uint32_t rp_hash_get(const struct rp_hash *h, const int64_t k[4]);
void rp_hash_put(struct rp_hash *h, const int64_t k[4], uint32_t v); /* K absent */
void rp_hash_free(struct rp_hash *h);
/* The key of string S (LEN bytes): (FNV-1a hash, length, collision index
 * 0, 0); on a hit naming another string, try the next collision index. */
void rp_hash_str_key(const char *s, size_t len, int64_t k[4]);
struct rp_hash64 { /* one packed 64-bit key -> uint32: the per-line lookup */
	struct rp_slot64 {
		uint64_t key;
		uint32_t val;
	} *slots;
	size_t cap, n;
};
struct rp_log {
	const char *run_sep; /* --run TEXT, or NULL */
	size_t repeat;       /* lines expected per (probe, block, iter) per run */
	struct rp_probe *probes;
	size_t nprobes, pcap;
	struct rp_series *series;
	size_t nseries, scap;
	struct rp_samples *samples; /* per series */
	size_t samples_cap;
	struct rp_arena arena; /* the series' sample chunks */
	struct rp_finding *findings;
	size_t nfindings, fcap;
	struct rp_run *runs;
	size_t nruns, rcap;
	struct rp_hash series_hash, run_hash, name_hash, finding_hash;
	struct rp_hash run_probes; /* (run, probe) past a run's first four probes */
	struct rp_hash64 series_fast; /* (probe, block, iter) when they fit 16/16/32 bits */
	/* current input position */
	const char *file;
	size_t segment;  /* bumps per file and per --run separator */
	uint32_t seg_run; /* run index of the segment's lines without run= */
	char *seg_label; /* "FILE" or "FILE from line N" */
	int64_t lineno;
	/* counters */
	size_t total_lines, probe_lines, tbase_lines, other_lines, garbled_lines;
	char *garbled_where[5]; /* "FILE:LINE" of the first garbled lines */
	uint32_t recent[4];     /* cache: the probes named last, the previous
				   line's first (most lines repeat it; nested
				   probes' lines alternate between a few) */
	uint32_t last_series;   /* runs repeat one order of series: learn it */
	uint32_t ahead;         /* the series expected a few lines on (prefetch) */
	uint32_t last_run;      /* cache: the run of the previous run=R line */
	size_t last_run_seg;
	int64_t last_run_value;
};
void rp_log_init(struct rp_log *lg, const char *run_sep, size_t repeat);
void rp_log_free(struct rp_log *lg);
/* Begin a new input file (each file is a run). */
void rp_log_begin_file(struct rp_log *lg, const char *name);
/* Feed one line (no newline). */
void rp_log_line(struct rp_log *lg, const char *s, size_t len);
/* The same in three steps, so that classifying (parsing, the costly part)
 * can run on several threads while applying stays in line order, and
 * storing the samples (memory-bound: each line writes to another series)
 * runs beside applying. */
struct rp_rec { /* one cache line: the reader threads hand over millions */
	const char *name;
	uint64_t name_len : 56, kind : 2;
	uint64_t sep : 1;       /* other output holding the --run separator */
	uint64_t same_name : 1; /* the probe of the previous probe line */
	uint64_t spare : 4;     /* 0 */
	int64_t start, end, dur; /* start holds a T_BASE line's value */
	int64_t block, iter, run; /* -1 when absent (parsed values are >= 0) */
};
/* The word holding the bit fields, as the x86-64 ABI lays them out (the
 * first in the lowest bits), for writing it whole. */
static inline uint64_t rp_rec_word(uint64_t name_len, unsigned kind, unsigned sep, unsigned same_name)
{
	return name_len | (uint64_t)kind << 56 | (uint64_t)sep << 58 | (uint64_t)same_name << 59;
}
void rp_log_classify(const char *run_sep, const char *s, size_t len, struct rp_rec *rec);
/* Classify the line at P, which ends at the first newline before END;
 * bytes up to LIMIT (>= END) may be read. Returns the line's length
 * (without the newline), or SIZE_MAX when there is no newline before END
 * (nothing classified). Uses the fast path where it can. */
/* The layout of the last line the fast path took: a line of the same
 * layout (the same bytes but for the digits of its numbers, which must be
 * digits where the other had digits) is read by comparing it with this
 * one, and converting the numbers at the places they are known to be. */
struct rp_fast_tpl {
	/* the name of the stream's last probe line (rec->same_name), or NULL */
	const char *last_name;
	size_t last_name_len;
	/* with last_name set: that line had the template's name (then a line
	 * the template takes names the same probe without comparing) */
	int last_is_tpl;
	size_t len; /* 0: none yet */
	unsigned nchunks, nfields, seen;
	size_t name_len;
	struct {
		unsigned char f, n;
		unsigned short end;
	} fields[6];
	uint64_t mask[6]; /* keeps a field's digits of the word loaded */
	/* the numbers' digits as 8-byte halves, converted four at a time:
	 * half K (0..5) holds the low eight digits of field kind K (start,
	 * end, dur, block, iter, run), half 6 + K the digits above them;
	 * where each is loaded from (the line's byte offset), which of its
	 * bytes are digits (none: the half is 0). ngroups: 3 when one of
	 * halves 8.. has digits, else 2 */
	unsigned ngroups;
	unsigned short half_off[12];
	uint64_t half_mask[12];
	/* added to each kind's value: -1 for a kind the line lacks, else 0
	 * (16-byte aligned: read as three pairs) */
	int64_t kind_bias[6] __attribute__((aligned(16)));
	/* the line and its newline, '0' for a number's digits; a byte fits
	 * where it exceeds this one by at most span (0, 9 for a digit, 0xff
	 * past the newline) */
	unsigned char bytes[RP_FAST_WINDOW];
	unsigned char span[RP_FAST_WINDOW];
};
/* TPL (may be NULL) is the caller's, for consecutive lines (set len and
 * last_name to 0 and NULL to begin, and whenever the lines before move);
 * with it, REC->same_name tells whether the line names the probe of the
 * last probe line. */
size_t rp_log_classify_at(const char *run_sep, const char *p, const char *end, const char *limit,
			  struct rp_fast_tpl *tpl, struct rp_rec *rec);
/* Several layouts at once, for logs whose lines alternate between a few
 * (nested probes, digit counts that change): t[0] also holds the stream's
 * state (last_name, last_name_len; last_is_tpl there is 1 + the layout the
 * last probe line fitted, 0 for none). */
#define RP_NTPL 4
struct rp_fast_tpls {
	struct rp_fast_tpl t[RP_NTPL];
	unsigned char order[RP_NTPL]; /* the most recently fitted first */
};
void rp_fast_tpls_init(struct rp_fast_tpls *tt);
/* Classify lines from P on into RECS, at most MAX of them, stopping at END
 * or before a last line without a newline. Sets *NRECS; returns the bytes
 * consumed (whole lines with their newlines). */
size_t rp_log_classify_many(const char *run_sep, const char *p, const char *end, const char *limit,
			    struct rp_fast_tpls *tt, struct rp_rec *recs, size_t max, size_t *nrecs);
/* Counts REC in and, for a probe line, leaves in it the sample to store:
 * run = the series index, start/end = times relative to T_BASE (or
 * RP_NO_REL), dur. Touches no series' samples, n, cap or nrel. */
void rp_log_apply(struct rp_log *lg, struct rp_rec *rec);
/* Append an applied probe record's sample to lg->samples[rec->run] (lines
 * of one series in line order). */
void rp_log_store(struct rp_log *lg, const struct rp_rec *rec);
/* Append an applied record's sample to SE, whose rp_put is H
 * (report_logpar.c's store stage keeps its own arrays of both while the
 * main thread grows lg->samples); chunks come from A. Leaves SE's counts
 * to rp_samples_count. */
void rp_log_store_ent(struct rp_arena *a, struct rp_put *h, struct rp_samples *se,
		      const struct rp_rec *rec);
/* Store DUR (which fits H's last chunk, with room) and start R. */
static inline void rp_put_now(struct rp_put *h, int64_t dur, int32_t r)
{
	if (h->base != RP_CHUNK32) {
		uint16_t x = (uint16_t)(dur - h->base);
		memcpy(h->put, &x, sizeof(x));
		h->put += sizeof(x);
	} else {
		int32_t d = (int32_t)dur;
		memcpy(h->put, &d, sizeof(d));
		h->put += sizeof(d);
	}
	if (h->rput)
		*h->rput++ = r;
}
/* rp_log_store_ent's usual case, inline: a compact sample into a compact
 * series with room for it (no count changes but by where H points). 1 when
 * stored, else 0 (nothing changed). */
static inline int rp_put_sample(struct rp_put *h, const struct rp_rec *rec)
{
	int64_t dur = rec->dur, s = rec->start, e = rec->end;
	/* dur >= 0 (parsed); RP_NO_REL comes for both or neither. A wide
	 * series has put == end == NULL. */
	if (h->put == h->end ||
	    (s != RP_NO_REL && (s <= INT32_MIN || s > INT32_MAX || e != s + dur)))
		return 0;
	int32_t r = s == RP_NO_REL ? RP_NO_REL32 : (int32_t)s;
	/* a start that is not rel0, or one missing where starts vary (the
	 * slow path counts those: norel) */
	if (h->rput ? r == RP_NO_REL32 : r != h->rel0)
		return 0;
	if (h->base != RP_CHUNK32 ? (uint64_t)dur - (uint64_t)h->base > UINT16_MAX : dur > INT32_MAX)
		return 0;
	rp_put_now(h, dur, r);
	return 1;
}
/* SE's n and nrel from where its samples have got to (H: its rp_put). */
void rp_samples_count(const struct rp_put *h, struct rp_samples *se);
static inline void rp_samples_sync(struct rp_samples *se)
{
	rp_samples_count(&se->w, se);
}
/* Read a regular file through mmap, parsing blocks on several threads and
 * applying them in order (report_logpar.c). Same result as rp_log_read_fd. */
int rp_log_read_mapped(struct rp_log *lg, int fd, const char *name);
/* Stream FD through rp_log_line. Returns 0 or -1 (read error printed). */
int rp_log_read_fd(struct rp_log *lg, int fd, const char *name);
/* Copy one field of SE's samples into OUT (room for se->n); returns how many
 * (relative fields skip samples without T_BASE). */
size_t rp_series_field(const struct rp_samples *se, enum rp_sample_field f, int64_t *out);
/* SE's durations in place, as parts for rp_stats_parts: OUT has room for
 * rp_series_nparts(SE); returns how many parts. */
size_t rp_series_nparts(const struct rp_samples *se);
size_t rp_series_durs(const struct rp_samples *se, struct rp_values *out);
/* The probe named NAME (LEN bytes), or UINT32_MAX when there is none. */
uint32_t rp_log_find_probe(const struct rp_log *lg, const char *name, size_t len);
/* The series of (PROBE, BLOCK, ITER), or UINT32_MAX when there is none. */
uint32_t rp_log_find_series(const struct rp_log *lg, uint32_t probe, int64_t block, int64_t iter);
/* Turn the parsed log into tables, timeline lanes, notes and warnings. */
void rp_log_analyse(struct rp_log *lg, struct rp_doc *d);

/* ---- timing tensors (report_tensor.c) ---- */
struct rp_matrix {
	size_t rows, cols;
	int64_t *v;       /* rows * cols */
	unsigned char *bad; /* per cell: uint64 value above INT64_MAX */
	char dtype[8];    /* "<i8", "<u8", "csv" */
	char **colnames;  /* CSV header fields, or NULL */
};
void rp_matrix_free(struct rp_matrix *m);
/* Parse an in-memory .npy file. PATH names it in messages. */
int rp_npy_parse(const unsigned char *data, size_t len, const char *path, struct rp_matrix *m);
/* Raw little-endian int64 rows of 8k columns: SLOTS rows. */
int rp_bin_parse(const unsigned char *data, size_t len, size_t slots, const char *path,
		 struct rp_matrix *m);
/* Comma-separated integers, one row per line; a first line that is not
 * numeric is a header. Every row must have the same number of fields. */
int rp_csv_parse(const char *data, size_t len, const char *path, struct rp_matrix *m);
/* By extension (.npy, .bin, .csv); SLOTS is 0 when not given. */
int rp_tensor_load(const char *path, size_t slots, struct rp_matrix *m);
/* Read a whole file into memory (NUL-terminated). */
int rp_slurp(const char *path, char **data, size_t *len);

/* ---- event map, L2 records (report_json.c) ---- */
enum rp_event {
	RP_EV_ENTRY, RP_EV_PRODUCER_DONE, RP_EV_ARRIVAL, RP_EV_RELEASE, RP_EV_BODY_DONE, RP_EV_N
};
extern const char *const rp_event_names[RP_EV_N];
struct rp_event_map {
	int column[RP_EV_N]; /* -1 when the map has no such event */
	size_t n;            /* every event in the map, in file order */
	char **names, **kinds;
	int *cols;
	/* stale-row guard from the injection's sidecar: row[magic_column] ==
	 * magic + slot in every slot written by this invocation (S5.9) */
	int magic_column; /* -1: none */
	uint64_t magic;
	/* "generation": true: the marker word is magic + ((generation & 0xFFFF)
	 * << 16) + (slot & 0xFFFF) (probe-inject --generation) */
	int generation;
};
/* The S5.6 order: entry, producer_done, collective_arrival,
 * collective_release, body_done in columns 0..4. */
void rp_events_default(struct rp_event_map *em);
int rp_events_load(const char *path, struct rp_event_map *em);
void rp_events_free(struct rp_event_map *em);

struct rp_l2 {
	double clock_freq_hz; /* 0 when absent */
	size_t ntasks;
	int64_t m0, m1;       /* earliest start, latest end of the chosen rows */
	int64_t *core, *start, *end; /* chosen rows */
};
/* Read chip_swimlane_records.json / l2_swimlane_records.json. TASK >= 0 keeps
 * only rows with that reg_task_id. */
int rp_l2_load(const char *path, int64_t task, struct rp_l2 *l2);
void rp_l2_free(struct rp_l2 *l2);

/* ---- partition and diagnostics (report_part.c) ---- */
struct rp_tensor_opts {
	const char *path;
	const char *active, *producers; /* slot lists or NULL (all) */
	const struct rp_l2 *l2;         /* or NULL */
	const char *l2_path;
	int same_epoch;
	int have_generation; /* --generation G: rows of another generation are stale */
	uint64_t generation;
};
/* Validate, partition and diagnose. Returns 0, or -1 on a usage problem
 * (bad slot list; message printed). */
int rp_tensor_analyse(const struct rp_matrix *m, const struct rp_event_map *em,
		      const struct rp_tensor_opts *o, struct rp_doc *d);
/* Merged vs split pairs from a CSV (report_part.c). */
int rp_pairs_analyse(const struct rp_matrix *m, const char *path, struct rp_doc *d);

/* ---- writers (report_out.c, report_svg.c) ---- */
enum rp_format { RP_FMT_TEXT, RP_FMT_CSV, RP_FMT_JSON, RP_FMT_TRACE, RP_FMT_SVG };
void rp_write_text(FILE *f, const struct rp_doc *d);
void rp_write_csv(FILE *f, const struct rp_doc *d);
void rp_write_json(FILE *f, const struct rp_doc *d);
void rp_write_trace(FILE *f, const struct rp_doc *d);
void rp_write_svg(FILE *f, const struct rp_doc *d);
/* JSON string literal with escapes. */
void rp_json_str(FILE *f, const char *s);

#endif
