/* report.h - probe-report's layers: the report document, statistics,
 * the printf log parser, the timing-tensor readers, the JSON readers, the
 * partition analysis and the output writers.
 * Included only by tool/report*.c, tool/cmd_report.c, tool/cmd_sweep.c (which
 * reads its reports back) and tests/test_report*.c.
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
/* Twice a median or time: a half-integer of int64 values, exact, with room
 * for the sum of two (and the difference of two such) without overflow. */
typedef __int128 rp_x2;

struct rp_stats {
	size_t n;
	int64_t min, max;
	rp_x2 median_x2;     /* twice the median: exact for even counts, no float */
	double mean, stddev; /* stddev over n-1 (0 for one sample) */
	int64_t mean_whole;  /* the mean as mean_whole + mean_frac, exactly */
	double mean_frac;    /* in (-1, 1) */
};
/* Reorders V (selection for the median). Returns 0, or -1 when n == 0. */
int rp_stats_compute(int64_t *v, size_t n, struct rp_stats *out);
/* Median of V (reorders it), times two. V must be non-empty. */
rp_x2 rp_median_x2(int64_t *v, size_t n);
/* Parse a decimal slot list "0-3,8" into mask[0..nslots); -1 on a bad list
 * or a slot >= nslots (message printed, naming OPT). */
int rp_parse_slot_list(const char *opt, const char *s, unsigned char *mask, size_t nslots);

/* ---- a hash table (report_log.c): 4 x int64 key -> uint32 value ---- */
struct rp_hash { /* open addressing */
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

/* ---- the report document (report_doc.c) ---- */
enum rp_cell_kind { RP_NULL, RP_INT, RP_HALF, RP_REAL, RP_STR };
struct rp_cell {
	enum rp_cell_kind kind;
	int prec;  /* RP_REAL: digits after the point */
	int64_t i; /* RP_INT */
	rp_x2 h;   /* RP_HALF: twice the value */
	double r;
	char *s;
};
struct rp_table {
	char *name;  /* JSON key and CSV section, e.g. "probes" */
	char *title; /* text heading */
	size_t ncols;
	char **cols;
	struct rp_cell *cells; /* nrows * ncols */
	size_t nrows, cap;
};
struct rp_span {
	int64_t start, end; /* cycles, on the lane's own origin */
	char *label;
	char *kind; /* what the span is (phase, probe): one colour, one legend entry */
	/* a span of medians (a log's series): each run's start and end, in pairs */
	int64_t *runs;
	size_t nruns;
};
struct rp_lane {
	char *group; /* e.g. "run 1", "in-core", "L2" (trace process) */
	char *name;  /* e.g. "STAGE_B", "slot 3" (trace thread, SVG row) */
	struct rp_span *spans;
	size_t nspans, cap;
	int medians; /* spans run from a median start to a median end */
};
struct rp_doc {
	double freq_hz;          /* 0: unknown, no time columns */
	const char *freq_source; /* "--freq-hz" or the L2 file */
	char *origin;            /* what timeline zero means */
	struct rp_table **tables;
	size_t ntables, tcap;
	struct rp_lane **lanes;
	size_t nlanes, lcap;
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
void rp_set_half(struct rp_table *t, size_t row, size_t col, rp_x2 x2);
/* The mean of S with one digit: exact where a double holds every integer,
 * else to the nearest half, so that it never leaves [min, max]. */
void rp_set_mean(struct rp_table *t, size_t row, size_t col, const struct rp_stats *s);
void rp_set_real(struct rp_table *t, size_t row, size_t col, double v, int prec);
void rp_set_str(struct rp_table *t, size_t row, size_t col, const char *s);
/* Time in microseconds for CYCLES when the doc knows a frequency. */
void rp_set_us(const struct rp_doc *d, struct rp_table *t, size_t row, size_t col, double cycles);
struct rp_lane *rp_lane_new(struct rp_doc *d, const char *group, const char *name);
void rp_span_add(struct rp_lane *l, int64_t start, int64_t end, const char *label);
/* The same with a KIND other than the label ("STAGE_B" for "STAGE_B iter 3"). */
void rp_span_add_kind(struct rp_lane *l, int64_t start, int64_t end, const char *label, const char *kind);
/* Give the last span of L its runs: N (start, end) pairs from PAIRS. */
void rp_span_runs(struct rp_lane *l, const int64_t *pairs, size_t n);
/* Format an RP_HALF value ("12", "12.5", "-0.5") into buf (at least 48
 * bytes). */
const char *rp_fmt_half(char *buf, rp_x2 x2);
/* Decimal V into BUF (at least 24 bytes); returns the length. */
size_t rp_fmt_int(char *buf, int64_t v);

/* ---- printf probe logs (report_log.c reads, report_logsum.c analyses) ---- */
enum rp_line_kind { RP_LINE_OTHER, RP_LINE_TBASE, RP_LINE_PROBE, RP_LINE_GARBLED };
struct rp_line {
	const char *name; /* points into the line */
	size_t name_len;
	int64_t start, end, dur, tbase;
	int64_t block, iter, run; /* -1 when absent */
	int past_int64;           /* garbled by a value past INT64_MAX that fits uint64 */
};
/* Classify one line (without its newline). A line is a probe line when it
 * holds "[NAME]" followed by start=/end=/dur= fields; other output is
 * RP_LINE_OTHER; a probe line that does not parse completely is GARBLED.
 * S[len] must be readable and not a digit or name character (the newline,
 * or a NUL): the loops use it as their stop. Same for rp_log_line. */
enum rp_line_kind rp_log_parse_line(const char *s, size_t len, struct rp_line *out);

#define RP_NO_REL INT64_MIN
/* One (probe, block, iter) across runs. */
struct rp_series {
	uint32_t probe;
	int64_t block, iter; /* -1 when the lines have no such field */
	/* the run this series saw last and its lines there: runs follow one
	 * another in a log, so this finds repeats without a (run, key) table */
	uint32_t run, run_count;
	uint32_t next; /* the series of the line after this one's last line */
	int64_t last_end;
	/* three values a sample: dur, then start and end relative to the run's
	 * T_BASE (RP_NO_REL when the run has none yet); nrel: samples with them */
	int64_t *v;
	size_t n, cap, nrel;
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
	char *label; /* "FILE", "FILE from line N" (--run), then " run=R" */
	int64_t tbase;
	size_t ntbase, nlines;
	uint32_t probes[4]; /* first distinct probes seen (contamination report) */
	size_t nprobes;     /* distinct probes in the run */
	int tbase_late;     /* probe lines came before any T_BASE */
};
struct rp_log {
	const char *run_sep; /* --run TEXT, or NULL */
	size_t repeat;       /* lines expected per (probe, block, iter) per run */
	struct rp_probe *probes;
	size_t nprobes, pcap;
	struct rp_series *series;
	size_t nseries, scap;
	struct rp_finding *findings;
	size_t nfindings, fcap;
	struct rp_run *runs;
	size_t nruns, rcap;
	/* every lookup: names, series, runs, findings, (run, probe) pairs */
	struct rp_hash map;
	/* current input position */
	const char *file;
	size_t segment;                             /* bumps per file and per --run separator */
	uint32_t seg_run;                           /* run index of the segment's lines without run= */
	char *seg_label;                            /* "FILE" or "FILE from line N" */
	uint32_t last_run, last_probe, last_series; /* of the line before, or UINT32_MAX */
	size_t last_run_seg;
	int64_t last_run_value;
	int64_t lineno;
	/* counters */
	size_t total_lines, probe_lines, tbase_lines, other_lines;
	/* garbled lines: past_int64 those with an unsigned value past int64,
	 * garbled_lines the others; "FILE:LINE" of the first five of each */
	size_t garbled_lines, past_int64_lines;
	char *garbled_where[5], *past_int64_where[5];
	char *clean; /* the line without its colour sequences */
	size_t clean_cap;
};
void rp_log_init(struct rp_log *lg, const char *run_sep, size_t repeat);
void rp_log_free(struct rp_log *lg);
/* Begin a new input file (each file is a run). */
void rp_log_begin_file(struct rp_log *lg, const char *name);
/* Feed one line (no newline; see rp_log_parse_line for S[len]). */
void rp_log_line(struct rp_log *lg, const char *s, size_t len);
/* Stream FD through rp_log_line. Returns 0 or -1 (read error printed). */
int rp_log_read_fd(struct rp_log *lg, int fd, const char *name);
/* The probe named NAME (LEN bytes), or UINT32_MAX when there is none. */
uint32_t rp_log_find_probe(const struct rp_log *lg, const char *name, size_t len);
/* The series of (PROBE, BLOCK, ITER), or UINT32_MAX when there is none. */
uint32_t rp_log_find_series(const struct rp_log *lg, uint32_t probe, int64_t block, int64_t iter);
/* Whether run RUN has a finding of KIND on PROBE. */
int rp_log_has_finding(const struct rp_log *lg, uint32_t run, uint32_t probe, enum rp_finding_kind kind);
/* Turn the parsed log into tables, timeline lanes, notes and warnings. */
void rp_log_analyse(const struct rp_log *lg, struct rp_doc *d);

/* ---- timing tensors (report_tensor.c) ---- */
struct rp_matrix {
	size_t rows, cols;
	int64_t *v;         /* rows * cols */
	unsigned char *bad; /* per cell: uint64 value above INT64_MAX */
	char dtype[8];      /* "<i8", "<u8", "csv" */
	char **colnames;    /* CSV header fields, or NULL */
};
void rp_matrix_free(struct rp_matrix *m);
/* Parse an in-memory .npy file. PATH names it in messages. */
int rp_npy_parse(const unsigned char *data, size_t len, const char *path, struct rp_matrix *m);
/* Raw little-endian int64 rows of 8k columns: SLOTS rows. */
int rp_bin_parse(const unsigned char *data, size_t len, size_t slots, const char *path, struct rp_matrix *m);
/* Comma-separated integers, one row per line; a first line that is not
 * numeric is a header. Every row must have the same number of fields. */
int rp_csv_parse(const char *data, size_t len, const char *path, struct rp_matrix *m);
/* By extension (.npy, .bin, .csv, .pt); SLOTS is 0 when not given.
 * ROW_WORDS (0: not known) is the event map's row width: it shapes a 1-D
 * .npy, counts the rows of a .bin without SLOTS and of a torch .pt. A
 * reshape is said in *NOTE (malloc'd, NULL when none): a note for the report. */
int rp_tensor_load(const char *path, size_t slots, size_t row_words, struct rp_matrix *m, char **note);
/* The int64 storage of a torch .pt file (a zip holding one stored int64
 * storage), ROW_WORDS values a row. */
int rp_pt_parse(const unsigned char *data, size_t len, size_t row_words, const char *path, struct rp_matrix *m);
/* Read a whole file into memory (NUL-terminated). */
int rp_slurp(const char *path, char **data, size_t *len);

/* ---- event map, L2 records (report_json.c) ---- */
enum rp_event { RP_EV_ENTRY, RP_EV_PRODUCER_DONE, RP_EV_ARRIVAL, RP_EV_RELEASE, RP_EV_BODY_DONE, RP_EV_N };
extern const char *const rp_event_names[RP_EV_N];
struct rp_event_map {
	int column[RP_EV_N]; /* -1 when the map has no such event */
	size_t n;            /* every event in the map, in file order */
	char **names, **kinds;
	int *cols;
	/* stale-row guard from the injection's sidecar: row[magic_column] ==
	 * magic + slot in every slot written by this invocation */
	int magic_column; /* -1: none */
	uint64_t magic;
	/* "generation": true: the marker word is magic + ((generation & 0xFFFF)
	 * << 16) + (slot & 0xFFFF) (probe-inject --generation) */
	int generation;
	/* a mixed kernel's lanes own rows: per task, aic_rows AIC rows (block
	 * index), then aic_rows * aiv_per_aic AIV rows; 0 when not said */
	int aiv_per_aic;
	long aic_rows;
	int aic_idle;      /* no task runs the kernel on its AIC lane: the rows are its AIV lanes only */
	int task_rows;     /* several tasks: aic_rows * (1 + aiv_per_aic) rows each */
	int slots_bound;   /* the tool could not count the rows: "slots" is --slots, room for them */
	int conditional;   /* a branch or a predicate chooses whether some tasks run: their rows may stay unwritten */
	int tasks_counted; /* "tasks" is a number: the rows were counted, a branch's at most */
	/* "row_wrap": true: in that room the marker keeps the run row (blocks,
	 * then tasks, from 0), written at row run_row % rows */
	int row_wrap;
	size_t row_words; /* "row_words" of the map, 0 when absent */
	/* "identity": the row columns naming the task instance, core, block
	 * and lane (0 AIC, 1.. AIV sub-block + 1) that wrote the row; -1: none */
	int id_task, id_core, id_block, id_lane;
	char *kernel; /* "kernel": the instrumented function, or NULL */
};
/* Is column COL of the map an identity column? */
int rp_events_is_identity(const struct rp_event_map *em, long col);
/* The lane that owns row SLOT ("AIC 0", "AIV 1.0", "task 2 AIV 0.1") into
 * BUF; "" when the map does not say. */
void rp_events_lane(const struct rp_event_map *em, size_t slot, char *buf, size_t cap);
/* The default column order of a timing row: entry, producer_done, collective_arrival,
 * collective_release, body_done in columns 0..4. */
void rp_events_default(struct rp_event_map *em);
int rp_events_load(const char *path, struct rp_event_map *em);
void rp_events_free(struct rp_event_map *em);
/* The event map of TENSOR when --events is not given: STEM.timing.json
 * beside it (TENSOR without its extension), else the only *.timing.json in
 * its folder. *FOUND is NULL when there is none; -1 (message printed) when
 * several could be it. */
int rp_events_find(const char *tensor, char **found);
/* The first column of M that holds a nonzero value in some row and is
 * neither an event of EM nor its magic column; -1 when none. */
long rp_events_unnamed_column(const struct rp_matrix *m, const struct rp_event_map *em);

struct rp_l2 {
	double clock_freq_hz; /* 0 when absent */
	size_t ntasks;
	int64_t m0, m1;              /* earliest start, latest end of the chosen rows */
	int64_t *core, *start, *end; /* chosen rows */
	int64_t *token, *reg;        /* task_token_raw ((ring << 32) | local) and reg_task_id */
	unsigned char *core_type;    /* metadata.core_types by core id: 1 aic, 2 aiv, 0 not said */
	size_t ncore_types;
};
/* chip_swimlane_records.json beside TENSOR, else in the outputs/ folder of
 * the nearest folder above it that has one, when exactly one such file is
 * not older than the tensor. *FOUND NULL when none; *WHY (malloc'd) says
 * why none was read when several could be it. */
void rp_swimlane_find(const char *tensor, char **found, char **why);
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
	const struct rp_l2 *swim; /* --swimlane: tasks whose bars hold the rows' phases, or NULL */
	const char *swim_path;
	const char *map_path; /* the event map read, or NULL (its kernel source is beside it) */
};

/* ---- phases, rows by task and core, the swimlane merge (report_phase.c) ---- */
/* The rows of a tensor as the analysis left them. */
struct rp_rows {
	const struct rp_matrix *m;
	const struct rp_event_map *em;
	const unsigned char *valid, *producer;
	/* per row, the task token of the swimlane dispatch it was joined to
	 * (RP_NO_TASK: none), when the map names no task column; or NULL */
	const int64_t *joined_task;
	const int64_t *joined_core; /* and its core, with joined_task */
};
#define RP_NO_TASK INT64_MIN
/* "task r0t3 AIV 1.0 core 12" (identity columns), "task 1 AIV 0.1" (lane
 * arithmetic) or "" into BUF. */
void rp_row_label(const struct rp_rows *r, size_t row, char *buf, size_t cap);
/* Does the row say its task? *TASK is it. */
int rp_row_task(const struct rp_rows *r, size_t row, int64_t *task);
/* The phases between the consecutive global boundaries of every event of
 * the map, per row and per task; the slowest phase; hints for arrival and
 * release stamps; with a swimlane, the rows joined to their tasks and one
 * timeline of tasks holding phases. Lanes from ORIGIN unless the swimlane
 * merge sets its own (then *ORIGIN_SET is 1). */
void rp_phase_analyse(const struct rp_rows *r, const struct rp_tensor_opts *o, struct rp_doc *d, int64_t origin);
/* Validate, partition and diagnose. Returns 0, or -1 on a usage problem
 * (bad slot list; message printed). */
int rp_tensor_analyse(const struct rp_matrix *m, const struct rp_event_map *em, const struct rp_tensor_opts *o,
                      struct rp_doc *d);
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
