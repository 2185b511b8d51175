/* test_report_log.c - the printf probe log parser and its findings (several
 * probes in one run, several blocks printing, no T_BASE, leaked warmup output;
 * see docs/method.md): line forms (the cases of tests/report_lines.test),
 * runs, and a worked example (T_BASE 1048576, STAGE_A relative
 * start 424, gap 1000). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* LINE with its escapes (\r \t \e \\) undone, in place; its length. */
static size_t unescape(char *line)
{
	char *w = line;
	for (const char *r = line; *r; r++) {
		if (*r != '\\' || !r[1]) {
			*w++ = *r;
			continue;
		}
		r++;
		*w++ = *r == 'r' ? '\r' : *r == 't' ? '\t' : *r == 'e' ? '\033' : *r;
	}
	*w = '\0';
	return (size_t)(w - line);
}

/* What rp_log_parse_line makes of S (LEN bytes), in the words of the
 * answers of tests/report_lines.test. */
static void describe(const char *s, size_t len, char *out, size_t n)
{
	static const char *const kinds[] = {"other", "tbase", "probe", "garbled"};
	struct rp_line ln;
	char *copy = malloc(len + 1);
	memcpy(copy, s, len);
	copy[len] = '\n'; /* the stop byte the parser may read */
	enum rp_line_kind k = rp_log_parse_line(copy, len, &ln);
	int m = snprintf(out, n, "%s", kinds[k]);
	if (k == RP_LINE_TBASE)
		m += snprintf(out + m, n - (size_t)m, " %lld", (long long)ln.tbase);
	if (k == RP_LINE_PROBE)
		m += snprintf(out + m, n - (size_t)m, " %.*s start=%lld end=%lld dur=%lld", (int)ln.name_len, ln.name,
		              (long long)ln.start, (long long)ln.end, (long long)ln.dur);
	if (k == RP_LINE_PROBE && ln.block >= 0)
		m += snprintf(out + m, n - (size_t)m, " block=%lld", (long long)ln.block);
	if (k == RP_LINE_PROBE && ln.iter >= 0)
		m += snprintf(out + m, n - (size_t)m, " iter=%lld", (long long)ln.iter);
	if ((k == RP_LINE_PROBE || k == RP_LINE_TBASE) && ln.run >= 0)
		snprintf(out + m, n - (size_t)m, " run=%lld", (long long)ln.run);
	free(copy);
}

/* Every case of tests/report_lines.test: a line, then the answer. */
static void line_cases(void **state)
{
	(void)state;
	FILE *f = fopen(PK_SOURCE_DIR "/tests/report_lines.test", "r");
	assert_non_null(f);
	char buf[2][512], got[512];
	size_t have = 0, ncases = 0, failed = 0, lineno = 0, at = 0;
	while (fgets(buf[have], sizeof(buf[have]), f)) {
		lineno++;
		buf[have][strcspn(buf[have], "\n")] = '\0';
		if (!buf[have][0] || !strncmp(buf[have], "# ", 2))
			continue;
		if (have == 0) {
			at = lineno;
			have = 1;
			continue;
		}
		have = 0;
		ncases++;
		size_t len = unescape(buf[0]);
		describe(buf[0], len, got, sizeof(got));
		if (strcmp(got, buf[1])) {
			fprintf(stderr, "report_lines.test:%zu: want '%s', got '%s'\n", at, buf[1], got);
			failed++;
		}
	}
	fclose(f);
	assert_int_equal(have, 0);
	assert_true(ncases >= 20);
	assert_int_equal(failed, 0);
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

/* Separate runs, one probe each, each with its T_BASE. */
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
	assert_int_equal((int64_t)cell(t, 0, "rel_start")->h, 2 * 424);
	assert_int_equal(cell(t, 0, "gap")->kind, RP_NULL);
	assert_int_equal((int64_t)cell(t, 1, "gap")->h, 2 * 1000);
	rp_doc_free(&d);
	rp_log_free(&lg);
}

/* Negative gaps (overlap) are kept, never clamped. */
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
	assert_int_equal((int64_t)cell(table(&d, "timeline"), 1, "gap")->h, 2 * -50);
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
	assert_int_equal((int64_t)cell(table(&d, "probes"), 0, "median")->h, 7); /* 3.5 */
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

/* A wait measured before its stage starts is no share of it. */
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
	assert_int_equal((int64_t)cell(t, 1, "gap")->h, 2 * 100);
	rp_doc_free(&d);
	rp_log_free(&lg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(line_cases), cmocka_unit_test(seed_worked_example),   cmocka_unit_test(negative_gap_kept),
	    cmocka_unit_test(findings),   cmocka_unit_test(run_fields_and_repeat), cmocka_unit_test(wait_outside_stage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
