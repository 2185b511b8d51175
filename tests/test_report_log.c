/* test_report_log.c - the printf probe log parser and its findings (S1.4,
 * S1.6, S1.7, S3.2, S4): line forms, garbled lines, runs, and the seed's
 * worked example (T_BASE 1048576, STAGE_A relative start 424, gap 1000). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"

static enum rp_line_kind parse(const char *s, struct rp_line *ln)
{
	return rp_log_parse_line(s, strlen(s), ln);
}

static void probe_line(void **state)
{
	(void)state;
	struct rp_line ln;
	assert_int_equal(parse("[STAGE_A] start=1049000 end=1049500 dur=500", &ln), RP_LINE_PROBE);
	assert_int_equal(ln.name_len, 7);
	assert_memory_equal(ln.name, "STAGE_A", 7);
	assert_int_equal(ln.start, 1049000);
	assert_int_equal(ln.end, 1049500);
	assert_int_equal(ln.dur, 500);
	assert_false(ln.has_block);
	assert_int_equal(ln.block, -1);
	assert_int_equal(ln.iter, -1);
}

static void fields_any_order(void **state)
{
	(void)state;
	struct rp_line ln;
	assert_int_equal(parse("[STAGE_B] iter=3 run=2 block=1 start=10 end=30 dur=20\r", &ln),
			 RP_LINE_PROBE);
	assert_true(ln.has_block && ln.has_iter && ln.has_run);
	assert_int_equal(ln.block, 1);
	assert_int_equal(ln.iter, 3);
	assert_int_equal(ln.run, 2);
}

static void harness_prefix(void **state)
{
	(void)state;
	struct rp_line ln;
	assert_int_equal(parse("[INFO] dev0 [aicore 3]: [STAGE_B] start=1 end=2 dur=1", &ln),
			 RP_LINE_PROBE);
	assert_memory_equal(ln.name, "STAGE_B", 7);
}

static void tbase_line(void **state)
{
	(void)state;
	struct rp_line ln;
	assert_int_equal(parse("[T_BASE] 1048576", &ln), RP_LINE_TBASE);
	assert_int_equal(ln.tbase, 1048576);
	assert_int_equal(parse("[T_BASE] run=4 77", &ln), RP_LINE_TBASE);
	assert_int_equal(ln.run, 4);
	assert_int_equal(ln.tbase, 77);
	assert_int_equal(parse("[T_BASE]", &ln), RP_LINE_GARBLED);
	assert_int_equal(parse("[T_BASE] 12x", &ln), RP_LINE_GARBLED);
}

static void other_output(void **state)
{
	(void)state;
	struct rp_line ln;
	assert_int_equal(parse("", &ln), RP_LINE_OTHER);
	assert_int_equal(parse("kernel done in 0.12 ms", &ln), RP_LINE_OTHER);
	assert_int_equal(parse("[INFO] start of phase 2", &ln), RP_LINE_OTHER);
	assert_int_equal(parse("[ RUN      ] Tsort32.Float", &ln), RP_LINE_OTHER);
	assert_int_equal(parse("array[i] = x", &ln), RP_LINE_OTHER);
}

static void garbled_lines(void **state)
{
	(void)state;
	struct rp_line ln;
	assert_int_equal(parse("[STAGE_B] start=1700 end=22", &ln), RP_LINE_GARBLED);  /* truncated */
	assert_int_equal(parse("[STAGE_B] start=x end=1 dur=1", &ln), RP_LINE_GARBLED);
	assert_int_equal(parse("[STAGE_B] start=1 end=2 dur=1 extra", &ln), RP_LINE_GARBLED);
	assert_int_equal(parse("[STAGE_B] start=1 start=1 end=2 dur=1", &ln), RP_LINE_GARBLED);
	assert_int_equal(parse("[STAGE_B] start=1end=2 dur=1", &ln), RP_LINE_GARBLED);
	assert_int_equal(parse("[STAGE_B] start=99999999999999999999 end=2 dur=1", &ln),
			 RP_LINE_GARBLED); /* overflows int64 */
	assert_int_equal(parse("[STAGE_B] start=-1 end=2 dur=1", &ln), RP_LINE_GARBLED);
}

/* The fast path accepts the usual shapes with the general parser's result,
 * and leaves everything else to it. */
static void fast_path_equals_general(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		int fast; /* the fast path takes it */
	} cases[] = {
		{ "[STAGE_B] run=25 block=1 iter=3411 start=251830025 end=251831550 dur=1525", 1 },
		{ "[STAGE_A] start=1049000 end=1049500 dur=500", 1 },
		{ "[x] dur=1 end=2 start=1", 1 },
		{ "[S_1] iter=0 start=12345678 end=123456789 dur=1234567890123456", 1 },
		{ "[S] start=00000001 end=0000000000000002 dur=1", 1 },
		{ "[S] start=1 end=2 dur=12345678901234567", 0 }, /* 17 digits */
		{ "[S] start=1 end=2 dur=99999999999999999999", 0 },
		{ "[S] start=1 end=2 dur=1 ", 0 },
		{ "[S] start=1  end=2 dur=1", 0 },
		{ "[S]  start=1 end=2 dur=1", 0 },
		{ "[S] start=1 end=2 dur=1\r", 0 },
		{ "[S] start=1 start=1 end=2 dur=1", 0 },
		{ "[S] start=1 end=2", 0 },
		{ "[S] start=1 end=2 dur=1x", 0 },
		{ "[S] start=1 end=2 dur=", 0 },
		{ "[S] start=1 end=2 dur=1 extra", 0 },
		{ "[S] start=1 end=2 dur=1 iter=", 0 },
		{ "[S] stop=1 end=2 dur=1", 0 },
		{ "[S] start=1 end:2 dur=1", 0 },
		{ "[T_BASE] 1048576", 0 },
		{ "[T_BASE] run=1 start=1 end=2 dur=1", 0 },
		{ "[] start=1 end=2 dur=1", 0 },
		{ "[INFO] [S] start=1 end=2 dur=1", 0 },
		{ "x[S] start=1 end=2 dur=1", 0 },
		{ "[S]", 0 },
		{ "[S] ", 0 },
		{ "[S] d", 0 },
		{ "[S] start=1 end=2 dur=1 block=1 iter=2 run=3 start=4", 0 },
		{ "[A_VERY_LONG_PROBE_NAME_THAT_GOES_ON_AND_ON_AND_ON_AND_ON_AND_ON_AND_ON] run=1 block=2 iter=3 start=1234567890 end=1234567899 dur=9",
		  0 }, /* too long for the window */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = strlen(cases[i].line);
		char *buf = calloc(n + RP_FAST_WINDOW + 1, 1);
		memcpy(buf, cases[i].line, n);
		buf[n] = '\n';
		struct rp_line f, g;
		memset(&f, 0, sizeof(f));
		memset(&g, 0, sizeof(g));
		int took = rp_log_parse_fast(buf, n, &f);
		enum rp_line_kind kind = rp_log_parse_line(buf, n, &g);
		if (took != cases[i].fast)
			fail_msg("fast path %s '%s'", took ? "took" : "left", cases[i].line);
		if (took) {
			assert_int_equal(kind, RP_LINE_PROBE);
			assert_ptr_equal(f.name, g.name);
			assert_int_equal(f.name_len, g.name_len);
			assert_int_equal(f.start, g.start);
			assert_int_equal(f.end, g.end);
			assert_int_equal(f.dur, g.dur);
			assert_int_equal(f.block, g.block);
			assert_int_equal(f.iter, g.iter);
			assert_int_equal(f.run, g.run);
			assert_int_equal(f.has_block, g.has_block);
			assert_int_equal(f.has_iter, g.has_iter);
			assert_int_equal(f.has_run, g.has_run);
		}
		/* and classify_at, which finds the newline too, agrees */
		struct rp_rec rec;
		assert_int_equal(rp_log_classify_at(NULL, buf, buf + n + 1, buf + n + RP_FAST_WINDOW + 1, NULL, &rec),
				 n);
		assert_int_equal(rec.kind, kind);
		if (kind == RP_LINE_PROBE) {
			assert_int_equal(rec.start, g.start);
			assert_int_equal(rec.end, g.end);
			assert_int_equal(rec.dur, g.dur);
			assert_int_equal(rec.iter, g.iter);
		}
		free(buf);
	}
}

/* Consecutive lines through the template of the previous line: the same
 * records as the general parser, whatever changes from line to line. */
static void template_equals_general(void **state)
{
	(void)state;
	static const char text[] =
		"[STAGE_B] run=1 block=0 iter=10 start=12345678901 end=12345680401 dur=1500\n"
		"[STAGE_B] run=1 block=1 iter=10 start=12345678904 end=12345680404 dur=1500\n"
		"[STAGE_C] run=1 block=1 iter=10 start=12345678904 end=12345680404 dur=1500\n" /* name */
		"[STAGE_C] run=1 block=1 iter=10 start=12345678904 end=12345680404 dur=15x0\n" /* garbled */
		"[STAGE_C] run=1 block=1 iter=10 start=12345678904 end=12345680404 dur=1501\n"
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=1501\n" /* moved */
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=1501 \n"
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=1501\n"
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 dur=12345680404 end=1501\n" /* keys */
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=1501\n"
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=15\n" /* shorter */
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=1501\n"
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=1501\n"
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=150\n1\n" /* newline */
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=1501\n"
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=1501x\n"
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=1501\n"
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=1501\r\n"
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=1501\n"
		"[STAGE_C]_run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=1501\n"
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=9999\n"
		"[STAGE_D]\trun=1 block=1 iter=1 start=123456789045 end=12345680404 dur=9999\n" /* general */
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=9999\n" /* not D */
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=9999\n"
		"other output\n"
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=9999\n"
		"[STAGE_C] run=1 block=1 iter=1 start=123456789045 end=12345680404 dur=9999";
	size_t size = sizeof(text) - 1;
	char *buf = calloc(size + RP_FAST_WINDOW, 1);
	memcpy(buf, text, size);
	struct rp_fast_tpl tpl;
	tpl.len = 0;
	tpl.last_name = NULL;
	const char *p = buf, *end = buf + size;
	size_t lines = 0, n;
	struct rp_rec rec;
	const char *prev_name = NULL; /* the last probe line's */
	size_t prev_len = 0, same = 0;
	while ((n = rp_log_classify_at(NULL, p, end, buf + size + RP_FAST_WINDOW, &tpl, &rec)) != SIZE_MAX) {
		struct rp_line g;
		enum rp_line_kind kind = rp_log_parse_line(p, n, &g);
		assert_ptr_equal(memchr(p, '\n', (size_t)(end - p)), p + n);
		assert_int_equal(rec.kind, kind);
		if (kind == RP_LINE_PROBE) {
			int want = prev_name && prev_len == g.name_len && !memcmp(prev_name, g.name, prev_len);
			assert_int_equal(rec.same_name, want);
			same += want;
			prev_name = g.name;
			prev_len = g.name_len;
			assert_ptr_equal(rec.name, g.name);
			assert_int_equal(rec.name_len, g.name_len);
			assert_int_equal(rec.start, g.start);
			assert_int_equal(rec.end, g.end);
			assert_int_equal(rec.dur, g.dur);
			assert_int_equal(rec.block, g.block);
			assert_int_equal(rec.iter, g.iter);
			assert_int_equal(rec.run, g.run);
		}
		lines++;
		p += n + 1;
	}
	assert_int_equal(lines, 27); /* the last line has no newline: left to the caller */
	assert_int_equal(same, 18);
	free(buf);
}

/* Many lines in six layouts (field order, digit counts 1..16, names; one
 * replaced now and then) that the lines alternate between, with other
 * output among them, through rp_log_classify_many (the templates the
 * threaded reader keeps): every record as the general parser reads its
 * line. */
struct layout {
	unsigned order[6], ndig[6], nf;
	const char *name;
};

static void new_layout(struct layout *l, uint64_t *seed)
{
	static const char *const names[] = { "A", "STAGE_B", "S_2", "STAGE_B_WAIT" };
#define RND() (*seed = *seed * 6364136223846793005ull + 1442695040888963407ull, *seed >> 33)
	l->nf = 3 + (unsigned)(RND() % 4);
	for (unsigned i = 0; i < 6; i++)
		l->order[i] = i;
	for (unsigned i = 5; i > 0; i--) {
		unsigned j = (unsigned)(RND() % (i + 1)), t = l->order[i];
		l->order[i] = l->order[j];
		l->order[j] = t;
	}
	/* start, end and dur must be among the first nf */
	for (unsigned need = 0; need < 3; need++) {
		unsigned at = 0;
		while (l->order[at] != need)
			at++;
		if (at >= l->nf) {
			unsigned j = 0;
			while (l->order[j] < 3)
				j++;
			l->order[at] = l->order[j];
			l->order[j] = need;
		}
	}
	for (unsigned i = 0; i < 6; i++)
		l->ndig[i] = 1 + (unsigned)(RND() % 16);
	l->name = names[RND() % 4];
#undef RND
}

static void template_many_random(void **state)
{
	(void)state;
	static const char *const keys[] = { "start", "end", "dur", "block", "iter", "run" };
	size_t cap = 4 << 20, size = 0, want_lines = 0;
	char *buf = calloc(cap + RP_FAST_WINDOW + 1024, 1);
	uint64_t seed = 12345;
#define RND() (seed = seed * 6364136223846793005ull + 1442695040888963407ull, seed >> 33)
	struct layout lay[6];
	for (unsigned i = 0; i < 6; i++)
		new_layout(&lay[i], &seed);
	while (size + 256 < cap) {
		if (RND() % 64 == 0)
			new_layout(&lay[RND() % 6], &seed);
		if (RND() % 50 == 0) {
			size += (size_t)sprintf(buf + size, "other output\n");
			want_lines++;
			continue;
		}
		/* mostly two layouts in turn, now and then another */
		const struct layout *l = &lay[RND() % 8 < 6 ? want_lines % 2 : RND() % 6];
		size += (size_t)sprintf(buf + size, "[%s]", l->name);
		for (unsigned i = 0; i < l->nf; i++) {
			size += (size_t)sprintf(buf + size, " %s=", keys[l->order[i]]);
			for (unsigned d = 0; d < l->ndig[l->order[i]]; d++)
				buf[size++] = (char)('0' + RND() % 10);
		}
		buf[size++] = '\n';
		want_lines++;
	}
#undef RND
	struct rp_fast_tpls tpl;
	rp_fast_tpls_init(&tpl);
	struct rp_rec *recs = malloc(want_lines * sizeof(*recs));
	size_t n = 0, used = rp_log_classify_many(NULL, buf, buf + size, buf + size + RP_FAST_WINDOW + 1024,
						  &tpl, recs, want_lines, &n);
	assert_int_equal(used, size);
	assert_int_equal(n, want_lines);
	const char *p = buf, *prev = NULL;
	size_t prev_len = 0, probes = 0;
	for (size_t i = 0; i < n; i++) {
		const char *nl = memchr(p, '\n', (size_t)(buf + size - p));
		struct rp_line g;
		enum rp_line_kind kind = rp_log_parse_line(p, (size_t)(nl - p), &g);
		assert_int_equal(recs[i].kind, kind);
		p = nl + 1;
		if (kind != RP_LINE_PROBE)
			continue;
		probes++;
		assert_ptr_equal(recs[i].name, g.name);
		assert_int_equal(recs[i].name_len, g.name_len);
		assert_int_equal(recs[i].start, g.start);
		assert_int_equal(recs[i].end, g.end);
		assert_int_equal(recs[i].dur, g.dur);
		assert_int_equal(recs[i].block, g.block);
		assert_int_equal(recs[i].iter, g.iter);
		assert_int_equal(recs[i].run, g.run);
		assert_int_equal(recs[i].sep, 0);
		int same = prev && prev_len == g.name_len && !memcmp(prev, g.name, g.name_len);
		assert_int_equal(recs[i].same_name, same);
		prev = g.name;
		prev_len = g.name_len;
	}
	assert_true(probes > n * 9 / 10);
	free(recs);
	free(buf);
}

static void feed(struct rp_log *lg, const char *text)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		rp_log_line(lg, text, n);
		text += n + (nl ? 1 : 0);
	}
}

static const struct rp_table *table(const struct rp_doc *d, const char *name)
{
	for (size_t i = 0; i < d->ntables; i++)
		if (!strcmp(d->tables[i]->name, name))
			return d->tables[i];
	return NULL;
}

static const struct rp_cell *cell(const struct rp_table *t, size_t row, const char *col)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (!strcmp(t->cols[c], col))
			return &t->cells[row * t->ncols + c];
	fail_msg("no column %s", col);
	return NULL;
}

/* S4: separate runs (S1.4), each with its T_BASE. */
static void seed_worked_example(void **state)
{
	(void)state;
	struct rp_log lg;
	struct rp_doc d;
	rp_log_init(&lg, NULL, 1);
	rp_doc_init(&d);
	rp_log_begin_file(&lg, "a.log");
	feed(&lg, "[T_BASE] 1048576\n[STAGE_A] start=1049000 end=1049500 dur=500\n");
	rp_log_begin_file(&lg, "b.log");
	feed(&lg, "noise\n[T_BASE] 1048576\n[STAGE_B] start=1050500 end=1051000 dur=500\n");
	rp_log_analyse(&lg, &d);
	assert_int_equal(d.nwarnings, 0);
	const struct rp_table *t = table(&d, "timeline");
	assert_non_null(t);
	assert_int_equal(t->nrows, 2);
	assert_string_equal(cell(t, 0, "probe")->s, "STAGE_A");
	assert_int_equal(cell(t, 0, "rel_start")->i, 2 * 424);
	assert_int_equal(cell(t, 0, "gap")->kind, RP_NULL);
	assert_int_equal(cell(t, 1, "gap")->i, 2 * 1000);
	rp_doc_free(&d);
	rp_log_free(&lg);
}

/* Without lanes (text and CSV draw none) the tables are the same. */
static void no_lanes_same_tables(void **state)
{
	(void)state;
	static const char a[] = "[T_BASE] 1000\n"
				"[STAGE_A] block=0 iter=0 start=1424 end=1924 dur=500\n"
				"[STAGE_A] block=1 iter=0 start=1430 end=1930 dur=500\n";
	static const char b[] = "[T_BASE] 1000\n[STAGE_B] block=0 iter=0 start=2924 end=3424 dur=500\n";
	char *out[2];
	size_t len[2];
	for (int no = 0; no < 2; no++) {
		struct rp_log lg;
		struct rp_doc d;
		rp_log_init(&lg, NULL, 1);
		rp_doc_init(&d);
		d.no_lanes = no;
		rp_log_begin_file(&lg, "a.log");
		feed(&lg, a);
		rp_log_begin_file(&lg, "b.log");
		feed(&lg, b);
		rp_log_analyse(&lg, &d);
		assert_int_equal(d.nwarnings, 0);
		assert_int_equal(d.nlanes, no ? 0 : 3); /* a lane per probe and block */
		assert_int_equal(table(&d, "timeline")->nrows, 3);
		FILE *f = open_memstream(&out[no], &len[no]);
		assert_non_null(f);
		rp_write_text(f, &d);
		rp_write_csv(f, &d);
		fclose(f);
		rp_doc_free(&d);
		rp_log_free(&lg);
	}
	assert_int_equal(len[0], len[1]);
	assert_memory_equal(out[0], out[1], len[0]);
	free(out[0]);
	free(out[1]);
}

/* Negative gaps (overlap) are kept, never clamped (S4.2). */
static void negative_gap_kept(void **state)
{
	(void)state;
	struct rp_log lg;
	struct rp_doc d;
	rp_log_init(&lg, NULL, 1);
	rp_doc_init(&d);
	rp_log_begin_file(&lg, "a.log");
	feed(&lg, "[T_BASE] 0\n[STAGE_A] start=100 end=500 dur=400\n");
	rp_log_begin_file(&lg, "b.log");
	feed(&lg, "[T_BASE] 0\n[STAGE_B] start=450 end=900 dur=450\n");
	rp_log_analyse(&lg, &d);
	assert_int_equal(cell(table(&d, "timeline"), 1, "gap")->i, 2 * -50);
	rp_doc_free(&d);
	rp_log_free(&lg);
}

static void findings(void **state)
{
	(void)state;
	struct rp_log lg;
	struct rp_doc d;
	rp_log_init(&lg, "=== run", 1);
	rp_doc_init(&d);
	rp_log_begin_file(&lg, "x.log");
	feed(&lg, "=== run 1\n[T_BASE] 10\n[STAGE_A] start=20 end=30 dur=10\n[STAGE_B] start=40 end=50 dur=11\n"
		  "=== run 2\n[STAGE_B] start=100 end=200 dur=100\n[STAGE_B] start=101 end=199 dur=98\n"
		  "[STAGE_B] start=1 end=\n");
	assert_int_equal(lg.nruns, 2);
	assert_int_equal(lg.garbled_lines, 1);
	assert_int_equal(lg.probes[1].dur_mismatch, 1);
	rp_log_analyse(&lg, &d);
	/* garbled, two probes in run 1, no T_BASE in run 2, blocks overlap in
	 * run 2, dur mismatch */
	assert_int_equal(d.nwarnings, 5);
	assert_non_null(strstr(d.warnings[1], "2 probes in one run"));
	assert_non_null(strstr(d.warnings[2], "no [T_BASE]"));
	assert_non_null(strstr(d.warnings[3], "overlap"));
	rp_doc_free(&d);
	rp_log_free(&lg);
}

/* run=R splits one file into runs; --repeat bounds lines per run. */
static void run_fields_and_repeat(void **state)
{
	(void)state;
	struct rp_log lg;
	struct rp_doc d;
	rp_log_init(&lg, NULL, 1);
	rp_doc_init(&d);
	rp_log_begin_file(&lg, "x.log");
	feed(&lg, "[T_BASE] run=1 0\n[STAGE_B] run=1 start=5 end=9 dur=4\n"
		  "[T_BASE] run=2 100\n[STAGE_B] run=2 start=106 end=109 dur=3\n");
	assert_int_equal(lg.nruns, 2);
	rp_log_analyse(&lg, &d);
	assert_int_equal(d.nwarnings, 0);
	assert_int_equal(cell(table(&d, "probes"), 0, "median")->i, 7); /* 3.5 */
	rp_doc_free(&d);
	rp_log_free(&lg);

	rp_log_init(&lg, NULL, 2);
	rp_doc_init(&d);
	rp_log_begin_file(&lg, "y.log");
	feed(&lg, "[T_BASE] 0\n[STAGE_B] start=5 end=9 dur=4\n[STAGE_B] start=15 end=19 dur=4\n"
		  "[STAGE_B] start=25 end=29 dur=4\n");
	rp_log_analyse(&lg, &d);
	assert_int_equal(d.nwarnings, 1);
	assert_non_null(strstr(d.warnings[0], "up to 3 'STAGE_B' lines"));
	rp_doc_free(&d);
	rp_log_free(&lg);
}

/* A wait measured before its stage starts is no share of it (S2.3, S4.2). */
static void wait_outside_stage(void **state)
{
	(void)state;
	struct rp_log lg;
	struct rp_doc d;
	rp_log_init(&lg, NULL, 1);
	rp_doc_init(&d);
	rp_log_begin_file(&lg, "b.log");
	feed(&lg, "[T_BASE] 0\n[STAGE_B] start=1000 end=1500 dur=500\n");
	rp_log_begin_file(&lg, "w.log");
	feed(&lg, "[T_BASE] 0\n[STAGE_B_WAIT] start=200 end=900 dur=700\n");
	rp_log_analyse(&lg, &d);
	const struct rp_table *r = table(&d, "ratios");
	assert_string_equal(cell(r, 0, "nested")->s, "no");
	assert_int_equal(cell(r, 0, "ratio")->kind, RP_NULL);
	const struct rp_table *t = table(&d, "timeline");
	assert_string_equal(cell(t, 1, "probe")->s, "STAGE_B");
	assert_int_equal(cell(t, 1, "gap")->i, 2 * 100);
	rp_doc_free(&d);
	rp_log_free(&lg);
}

/* Samples stay 8 bytes while they fit, and turn wide, values kept, when
 * one does not: dur != end - start, or a number beyond 32 bits. */
static void compact_samples(void **state)
{
	(void)state;
	static const char *const widen_by[] = {
		"[S] start=5000 end=5010 dur=11\n",       /* dur mismatch */
		"[S] start=3000000000 end=3000000010 dur=10\n", /* relative start beyond int32 */
		"[S] start=5000 end=4000000000 dur=3999995000\n", /* dur beyond int32 */
	};
	for (size_t k = 0; k < 3; k++) {
		struct rp_log lg;
		rp_log_init(&lg, NULL, 9);
		rp_log_begin_file(&lg, "x.log");
		feed(&lg, "[S] start=1 end=3 dur=2\n[T_BASE] 1000\n[S] start=1100 end=1150 dur=50\n");
		assert_int_equal(lg.nseries, 1);
		assert_false(lg.samples[0].wide);
		feed(&lg, widen_by[k]);
		feed(&lg, "[S] start=1200 end=1207 dur=7\n");
		assert_true(lg.samples[0].wide);
		int64_t v[8];
		assert_int_equal(rp_series_field(&lg.samples[0], RP_DUR, v), 4);
		assert_int_equal(v[0], 2);
		assert_int_equal(v[1], 50);
		assert_int_equal(v[3], 7);
		assert_int_equal(rp_series_field(&lg.samples[0], RP_REL_START, v), 3);
		assert_int_equal(v[0], 100);
		assert_int_equal(v[2], 200);
		int64_t s[3] = { 4000, 3000000000 - 1000, 4000 };
		assert_int_equal(v[1], s[k]);
		assert_int_equal(rp_series_field(&lg.samples[0], RP_REL_END, v), 3);
		assert_int_equal(v[0], 150);
		assert_int_equal(v[2], 207);
		int64_t e[3] = { 4010, 3000000010 - 1000, 4000000000 - 1000 };
		assert_int_equal(v[1], e[k]);
		struct rp_values d[1];
		assert_int_equal(rp_series_nparts(&lg.samples[0]), 1);
		assert_int_equal(rp_series_durs(&lg.samples[0], d), 1);
		struct rp_stats st;
		assert_int_equal(rp_stats_parts(d, 1, &st), 0);
		assert_int_equal(st.n, 4);
		assert_int_equal(st.min, 2);
		rp_log_free(&lg);
	}
	/* negative relative times fit too */
	struct rp_log lg;
	rp_log_init(&lg, NULL, 9);
	rp_log_begin_file(&lg, "y.log");
	feed(&lg, "[T_BASE] 1000\n[S] start=100 end=150 dur=50\n");
	assert_false(lg.samples[0].wide);
	int64_t v[2];
	assert_int_equal(rp_series_field(&lg.samples[0], RP_REL_START, v), 1);
	assert_int_equal(v[0], -900);
	assert_int_equal(rp_series_field(&lg.samples[0], RP_REL_END, v), 1);
	assert_int_equal(v[0], -850);
	rp_log_free(&lg);
}

/* rp_rec_word is the word the record's bit fields make (the fast path
 * writes it whole; x86-64 only). */
static void rec_word(void **state)
{
	(void)state;
#if defined(__x86_64__)
	struct rp_rec r;
	memset(&r, 0, sizeof(r));
	r.name_len = 0x123456789abcdull;
	r.kind = RP_LINE_PROBE;
	r.same_name = 1;
	uint64_t w;
	memcpy(&w, (const char *)&r + offsetof(struct rp_rec, name) + sizeof(r.name), sizeof(w));
	assert_true(w == rp_rec_word(0x123456789abcdull, RP_LINE_PROBE, 0, 1));
	r.sep = 1;
	r.same_name = 0;
	r.kind = RP_LINE_GARBLED;
	memcpy(&w, (const char *)&r + offsetof(struct rp_rec, name) + sizeof(r.name), sizeof(w));
	assert_true(w == rp_rec_word(0x123456789abcdull, RP_LINE_GARBLED, 1, 0));
#else
	skip();
#endif
}

/* Compact samples fill chunks of 8, 16, 32, then 64 samples: a series of
 * 300 keeps every value in order, its durations come as one part per
 * chunk, and it turns wide with all of them kept. */
static void chunked_samples(void **state)
{
	(void)state;
	struct rp_log lg;
	rp_log_init(&lg, NULL, 1000);
	rp_log_begin_file(&lg, "c.log");
	feed(&lg, "[T_BASE] 1000\n");
	char line[96];
	for (int i = 0; i < 300; i++) {
		snprintf(line, sizeof(line), "[S] start=%d end=%d dur=%d\n", 2000 + i, 2000 + 2 * i, i);
		feed(&lg, line);
	}
	assert_int_equal(lg.nseries, 1);
	const struct rp_samples *se = &lg.samples[0];
	assert_false(se->wide);
	assert_int_equal(se->n, 300);
	/* 8 + 16 + 32 + 64 * 4 = 312 >= 300: 7 chunks */
	assert_int_equal(rp_series_nparts(se), 7);
	struct rp_values parts[7];
	assert_int_equal(rp_series_durs(se, parts), 7);
	size_t sizes[7] = { 8, 16, 32, 64, 64, 64, 52 }, k = 0;
	for (size_t p = 0; p < 7; p++) {
		assert_int_equal(parts[p].n, sizes[p]);
		for (size_t i = 0; i < parts[p].n; i++, k++)
			assert_int_equal(rp_value_at(&parts[p], i), (int64_t)k);
	}
	struct rp_stats st;
	assert_int_equal(rp_stats_parts(parts, 7, &st), 0);
	assert_int_equal(st.n, 300);
	assert_int_equal(st.median_x2, 299); /* (149 + 150) */
	int64_t v[320];
	assert_int_equal(rp_series_field(se, RP_REL_START, v), 300);
	assert_int_equal(v[0], 1000);
	assert_int_equal(v[299], 1299);
	feed(&lg, "[S] start=5000000000 end=5000000001 dur=1\n"); /* beyond int32: wide */
	se = &lg.samples[0];
	assert_true(se->wide);
	assert_int_equal(rp_series_field(se, RP_REL_END, v), 301);
	for (int i = 0; i < 300; i++)
		assert_int_equal(v[i], 1000 + 2 * i);
	assert_int_equal(v[300], 5000000001 - 1000);
	assert_int_equal(rp_series_nparts(se), 1);
	rp_log_free(&lg);
}

/* SE's relative starts and ends read back as WANT_S and WANT_E (N each). */
static void check_rel(const struct rp_samples *se, size_t n, const int64_t *want_s,
		      const int64_t *want_e)
{
	int64_t *v = malloc((se->n + 1) * sizeof(*v));
	assert_int_equal(rp_series_field(se, RP_REL_START, v), n);
	assert_memory_equal(v, want_s, n * sizeof(*v));
	assert_int_equal(rp_series_field(se, RP_REL_END, v), n);
	assert_memory_equal(v, want_e, n * sizeof(*v));
	free(v);
}

/* A series whose samples all start at one offset from T_BASE keeps only
 * their durations; the first other start (mid-chunk) gives it starts of
 * its own, the earlier ones kept as that offset; samples of a run without
 * T_BASE come first here, and every field reads back as fed, compact and
 * after turning wide. */
static void samples_start_once(void **state)
{
	(void)state;
	struct rp_log lg;
	rp_log_init(&lg, NULL, 1000);
	rp_log_begin_file(&lg, "s.log");
	char line[96];
	int64_t want_s[200], want_e[200], v[256];
	size_t nw = 0;
	for (int i = 0; i < 3; i++) { /* no T_BASE yet: no relative times */
		snprintf(line, sizeof(line), "[S] start=%d end=%d dur=%d\n", 50 + i, 60 + 2 * i, 10 + i);
		feed(&lg, line);
	}
	const struct rp_samples *se = &lg.samples[0];
	assert_null(se->rels);
	assert_int_equal(se->nrel, 0);
	feed(&lg, "[T_BASE] 1000\n");
	for (int i = 0; i < 100; i++) { /* one start: 424 */
		snprintf(line, sizeof(line), "[S] start=1424 end=%d dur=%d\n", 1424 + 7 * i, 7 * i);
		feed(&lg, line);
		want_s[nw] = 424;
		want_e[nw++] = 424 + 7 * i;
	}
	se = &lg.samples[0];
	assert_non_null(se->rels); /* the run without T_BASE came first */
	assert_int_equal(se->n, 103);
	assert_int_equal(se->nrel, 100);
	check_rel(se, 100, want_s, want_e);
	assert_int_equal(rp_series_field(se, RP_DUR, v), 103);
	assert_int_equal(v[2], 12);
	assert_int_equal(v[102], 7 * 99);
	rp_log_free(&lg);

	rp_log_init(&lg, NULL, 1000);
	rp_log_begin_file(&lg, "s.log");
	feed(&lg, "[T_BASE] 1000\n");
	nw = 0;
	for (int i = 0; i < 100; i++) {
		snprintf(line, sizeof(line), "[S] start=1424 end=%d dur=%d\n", 1424 + 7 * i, 7 * i);
		feed(&lg, line);
		want_s[nw] = 424;
		want_e[nw++] = 424 + 7 * i;
	}
	se = &lg.samples[0];
	assert_null(se->rels);
	assert_int_equal(se->n, 100);
	assert_int_equal(se->nrel, 100);
	check_rel(se, 100, want_s, want_e);
	/* sample 100 lies in the fourth chunk (8 + 16 + 32 + 64), at 44 */
	for (int i = 0; i < 50; i++) {
		int st = 1424 + (i % 3), d = 5 + i;
		snprintf(line, sizeof(line), "[S] start=%d end=%d dur=%d\n", st, st + d, d);
		feed(&lg, line);
		want_s[nw] = st - 1000;
		want_e[nw++] = st - 1000 + d;
	}
	se = &lg.samples[0];
	assert_non_null(se->rels);
	assert_false(se->wide);
	assert_int_equal(se->n, 150);
	assert_int_equal(se->nrel, 150);
	check_rel(se, 150, want_s, want_e);
	struct rp_values parts[8];
	size_t np = rp_series_durs(se, parts), k = 0;
	assert_int_equal(np, 5);
	for (size_t p = 0; p < np; p++)
		for (size_t i = 0; i < parts[p].n; i++, k++)
			assert_int_equal(rp_value_at(&parts[p], i), want_e[k] - want_s[k]);
	assert_int_equal(k, 150);
	feed(&lg, "[S] start=5000001000 end=5000001003 dur=3\n"); /* beyond int32: wide */
	want_s[nw] = 5000000000;
	want_e[nw++] = 5000000003;
	se = &lg.samples[0];
	assert_true(se->wide);
	assert_null(se->rels);
	check_rel(se, 151, want_s, want_e);
	rp_log_free(&lg);

	/* one start throughout, then wide: the starts come from rel0 */
	rp_log_init(&lg, NULL, 1000);
	rp_log_begin_file(&lg, "s.log");
	feed(&lg, "[T_BASE] 1000\n[S] start=1424 end=1430 dur=6\n[S] start=1424 end=1433 dur=9\n"
		  "[S] start=1424 end=3000001424 dur=3000000000\n");
	se = &lg.samples[0];
	assert_true(se->wide);
	assert_int_equal(rp_series_field(se, RP_REL_END, v), 3);
	assert_int_equal(v[0], 430);
	assert_int_equal(v[1], 433);
	assert_int_equal(v[2], 3000000424);
	assert_int_equal(rp_series_field(se, RP_REL_START, v), 3);
	assert_int_equal(v[0] + v[1] + v[2], 3 * 424);
	rp_log_free(&lg);
}

/* Chunks keep 16-bit offsets while their durations fit a window: a
 * duration out of it mid-chunk turns that chunk int32 (and the next one
 * starts int32), long durations take a window around the first, one near
 * INT32_MAX an int32 chunk; every duration and start reads back, the
 * statistics equal those of the plain values, and so after turning wide. */
static void samples_sixteen_bits(void **state)
{
	(void)state;
	enum { N = 400 };
	int64_t want[N + 1], ws[N + 1], v[N + 1];
	for (int i = 0; i < N; i++)
		want[i] = 100 + i;                           /* chunk 0 (8): 16-bit from 0 */
	want[8 + 5] = 70000;                                 /* chunk 1 (16) turns int32 */
	want[24] = 70001;                                    /* chunk 2 (32): int32 */
	for (int i = 56; i < 120; i++)                       /* chunk 3 (64): around 1e6 */
		want[i] = 1000000 + (i % 2 ? 16000 : -16000);
	want[120] = 5;                                       /* chunk 4: 16-bit from 0 ... */
	want[150] = INT32_MAX - 3;                           /* ... then int32 */
	/* chunk 5 (184..247): int32, as the last one turned */
	want[248] = 65535;                                   /* chunk 6: [0, 65535] */
	want[249] = 0;
	for (int i = 312; i < 376; i++)                      /* chunk 7: no window fits */
		want[i] = INT32_MAX - (i % 7);
	/* chunk 8 (376..439): 16-bit again */
	struct rp_log lg;
	rp_log_init(&lg, NULL, 1000);
	rp_log_begin_file(&lg, "h.log");
	feed(&lg, "[T_BASE] 1000\n");
	char line[128];
	for (int i = 0; i < N; i++) {
		ws[i] = 400 + i % 3;
		snprintf(line, sizeof(line), "[S] start=%lld end=%lld dur=%lld\n", (long long)(1000 + ws[i]),
			 (long long)(1000 + ws[i] + want[i]), (long long)want[i]);
		feed(&lg, line);
	}
	const struct rp_samples *se = &lg.samples[0];
	assert_false(se->wide);
	assert_int_equal(se->n, N);
	struct rp_values parts[9];
	assert_int_equal(rp_series_nparts(se), 9);
	assert_int_equal(rp_series_durs(se, parts), 9);
	const enum rp_value_kind kinds[9] = { RP_V16, RP_V32, RP_V32, RP_V16, RP_V32,
					      RP_V32, RP_V16, RP_V32, RP_V16 };
	const int64_t bases[9] = { 0, 0, 0, 1000000 - 16000 - 32768, 0, 0, 0, 0, 0 };
	size_t k = 0;
	for (size_t p = 0; p < 9; p++) {
		assert_int_equal(parts[p].kind, kinds[p]);
		assert_int_equal(parts[p].base, bases[p]);
		for (size_t i = 0; i < parts[p].n; i++, k++)
			assert_int_equal(rp_value_at(&parts[p], i), want[k]);
	}
	assert_int_equal(k, N);
	assert_int_equal(rp_series_field(se, RP_DUR, v), N);
	assert_memory_equal(v, want, N * sizeof(*v));
	assert_int_equal(rp_series_field(se, RP_REL_START, v), N);
	assert_memory_equal(v, ws, N * sizeof(*v));
	struct rp_stats a, b;
	assert_int_equal(rp_stats_parts(parts, 9, &a), 0);
	memcpy(v, want, N * sizeof(*v));
	assert_int_equal(rp_stats_compute(v, N, &b), 0);
	assert_int_equal(a.n, b.n);
	assert_int_equal(a.min, b.min);
	assert_int_equal(a.max, b.max);
	assert_int_equal(a.median_x2, b.median_x2);
	assert_true(a.sum == b.sum);
	assert_memory_equal(&a.stddev, &b.stddev, sizeof(a.stddev));
	/* beyond int32: wide, with every value kept */
	want[N] = (int64_t)INT32_MAX + 1;
	ws[N] = 400;
	snprintf(line, sizeof(line), "[S] start=1400 end=%lld dur=%lld\n", (long long)(1400 + want[N]),
		 (long long)want[N]);
	feed(&lg, line);
	se = &lg.samples[0];
	assert_true(se->wide);
	assert_int_equal(rp_series_field(se, RP_DUR, v), N + 1);
	assert_memory_equal(v, want, (N + 1) * sizeof(*v));
	assert_int_equal(rp_series_field(se, RP_REL_START, v), N + 1);
	assert_memory_equal(v, ws, (N + 1) * sizeof(*v));
	rp_log_free(&lg);
}

/* Several MB through the threaded reader: the same result as one sequential
 * pass, a run separator and a truncated last line included, and series of
 * every storage kind: starts that vary, runs without T_BASE among those
 * with, durations that leave a 16-bit window, a duration beyond int32. */
static void mapped_equals_sequential(void **state)
{
	(void)state;
	char path[] = "/tmp/pk-test-report-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	for (int run = 0; run < 40; run++) {
		fprintf(f, "== run %d\n", run);
		if (run != 7 && run != 20)
			fprintf(f, "[T_BASE] %d\n", run * 100000);
		for (int i = 0; i < 2000; i++) {
			long long st = run * 100000LL + i * 40 + (i % 4 == 1 ? run % 3 : 0);
			long long d = i % 10 == 3 ? 30 + run * 3000LL : 30 + (i * run) % 7;
			if (i == 17 && run == 33)
				d = 5000000000LL;
			fprintf(f, "[STAGE_B] block=%d iter=%d start=%lld end=%lld dur=%lld\nnoise %d\n", i % 2,
				i / 2, st, st + d, d, i);
		}
	}
	fputs("[STAGE_B] block=0 iter=0 start=5 end=", f); /* truncated, no newline */
	fclose(f);

	struct rp_log a, b;
	rp_log_init(&a, "== run", 1);
	rp_log_init(&b, "== run", 1);
	int fa = open(path, O_RDONLY), fb = open(path, O_RDONLY);
	assert_int_equal(rp_log_read_mapped(&a, fa, "x.log"), 0);
	assert_int_equal(rp_log_read_fd(&b, fb, "x.log"), 0);
	close(fa);
	close(fb);
	unlink(path);
	assert_int_equal(a.total_lines, b.total_lines);
	assert_int_equal(a.total_lines, 40 * 4002 - 2 + 1);
	assert_int_equal(a.probe_lines, b.probe_lines);
	assert_int_equal(a.garbled_lines, 1);
	assert_string_equal(a.garbled_where[0], b.garbled_where[0]);
	assert_int_equal(a.nruns, 40);
	assert_int_equal(a.nseries, b.nseries);
	int64_t va[64], vb[64];
	for (size_t i = 0; i < a.nseries; i++) {
		assert_int_equal(a.samples[i].n, b.samples[i].n);
		assert_int_equal(a.samples[i].n, 40);
		assert_int_equal(a.samples[i].wide, b.samples[i].wide);
		assert_int_equal(a.samples[i].nrel, b.samples[i].nrel);
		assert_int_equal(a.samples[i].nrel, 38);
		assert_int_equal(a.samples[i].wide, i == 17);
		assert_int_equal(a.samples[i].rels != NULL, i != 17); /* run 7 has no T_BASE */
		for (int f = RP_DUR; f <= RP_REL_END; f++) {
			size_t n = rp_series_field(&a.samples[i], (enum rp_sample_field)f, va);
			assert_int_equal(n, rp_series_field(&b.samples[i], (enum rp_sample_field)f, vb));
			assert_memory_equal(va, vb, n * sizeof(*va));
		}
	}
	rp_log_free(&a);
	rp_log_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(probe_line),        cmocka_unit_test(fields_any_order),
		cmocka_unit_test(harness_prefix),    cmocka_unit_test(tbase_line),
		cmocka_unit_test(other_output),      cmocka_unit_test(garbled_lines),
		cmocka_unit_test(fast_path_equals_general), cmocka_unit_test(template_equals_general),
		cmocka_unit_test(template_many_random),
		cmocka_unit_test(compact_samples),
		cmocka_unit_test(chunked_samples),
		cmocka_unit_test(samples_start_once),
		cmocka_unit_test(samples_sixteen_bits),
		cmocka_unit_test(rec_word),
		cmocka_unit_test(seed_worked_example), cmocka_unit_test(no_lanes_same_tables), cmocka_unit_test(negative_gap_kept),
		cmocka_unit_test(findings),          cmocka_unit_test(run_fields_and_repeat),
		cmocka_unit_test(wait_outside_stage), cmocka_unit_test(mapped_equals_sequential),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
