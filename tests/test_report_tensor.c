/* test_report_tensor.c - timing-tensor readers (.npy v1-v3, .bin, CSV) and
 * what probe-report derives from a tensor: validation per slot, the
 * partition and its identity, the collective diagnostics, L2 ordering, and
 * the merged vs split pairs (docs/method.md, "The partition"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* A partition example: slots 0-1 produce, 2-3 only take part in the collective. */
static const int64_t example[4][8] = {
    {1000, 1500, 1600, 2000, 2600},
    {1010, 1550, 1700, 2005, 2500},
    {1005, 0, 1650, 2010, 2700},
    {1020, 0, 1620, 2002, 2650},
};

static size_t npy(unsigned char *out, int version, const char *descr, const char *shape, const int64_t *v, size_t n)
{
	char hdr[256];
	size_t pre = version == 1 ? 10 : 12;
	int len = snprintf(hdr, sizeof(hdr), "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape);
	while ((pre + (size_t)len + 1) % 64)
		hdr[len++] = ' ';
	hdr[len++] = '\n';
	memcpy(out, "\x93NUMPY", 6);
	out[6] = (unsigned char)version;
	out[7] = 0;
	out[8] = (unsigned char)(len & 0xff);
	out[9] = (unsigned char)(len >> 8);
	if (version > 1)
		out[10] = out[11] = 0;
	memcpy(out + pre, hdr, (size_t)len);
	unsigned char *p = out + pre + len;
	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 8; b++)
			*p++ = (unsigned char)((uint64_t)v[i] >> (8 * b));
	return (size_t)(p - out);
}

static void npy_versions(void **state)
{
	(void)state;
	unsigned char buf[1024];
	struct rp_matrix m;
	for (int v = 1; v <= 3; v++) {
		size_t n = npy(buf, v, "<i8", "(4, 8)", &example[0][0], 32);
		assert_int_equal(rp_npy_parse(buf, n, "t.npy", &m), 0);
		assert_int_equal(m.rows, 4);
		assert_int_equal(m.cols, 8);
		assert_int_equal(m.v[1 * 8 + 1], 1550);
		assert_string_equal(m.dtype, "<i8");
		rp_matrix_free(&m);
	}
}

static void npy_uint64_above_int64(void **state)
{
	(void)state;
	unsigned char buf[512];
	int64_t row[8] = {-1, 5}; /* 0xffff... as uint64 */
	size_t n = npy(buf, 1, "<u8", "(1, 8)", row, 8);
	struct rp_matrix m;
	assert_int_equal(rp_npy_parse(buf, n, "t.npy", &m), 0);
	assert_int_equal(m.bad[0], 1);
	assert_int_equal(m.bad[1], 0);
	rp_matrix_free(&m);
}

static void npy_refusals(void **state)
{
	(void)state;
	unsigned char buf[1024];
	struct rp_matrix m;
	int64_t z[16] = {0};
	size_t n = npy(buf, 1, ">i8", "(1, 8)", z, 8);
	assert_int_equal(rp_npy_parse(buf, n, "t.npy", &m), -1); /* big-endian */
	n = npy(buf, 1, "<f8", "(1, 8)", z, 8);
	assert_int_equal(rp_npy_parse(buf, n, "t.npy", &m), -1);
	n = npy(buf, 1, "<i8", "(1, 2, 8)", z, 16);
	assert_int_equal(rp_npy_parse(buf, n, "t.npy", &m), -1);
	n = npy(buf, 1, "<i8", "(2, 4)", z, 8);
	assert_int_equal(rp_npy_parse(buf, n, "t.npy", &m), -1); /* not 8k columns */
	n = npy(buf, 1, "<i8", "(0, 8)", z, 0);
	assert_int_equal(rp_npy_parse(buf, n, "t.npy", &m), -1); /* no slots */
	n = npy(buf, 1, "<i8", "(2, 8)", z, 16);
	assert_int_equal(rp_npy_parse(buf, n - 8, "t.npy", &m), -1); /* truncated */
	assert_int_equal(rp_npy_parse((const unsigned char *)"PK\3\4", 4, "t.npy", &m), -1);
	buf[6] = 4;
	assert_int_equal(rp_npy_parse(buf, n, "t.npy", &m), -1); /* version 4 */
}

static void bin_and_csv(void **state)
{
	(void)state;
	unsigned char raw[256];
	for (size_t i = 0; i < 32; i++)
		for (int b = 0; b < 8; b++)
			raw[8 * i + (size_t)b] = (unsigned char)((uint64_t)(&example[0][0])[i] >> (8 * b));
	struct rp_matrix m;
	assert_int_equal(rp_bin_parse(raw, 256, 4, "t.bin", &m), 0);
	assert_int_equal(m.v[3 * 8 + 4], 2650);
	rp_matrix_free(&m);
	assert_int_equal(rp_bin_parse(raw, 256, 3, "t.bin", &m), -1); /* wrong size */
	assert_int_equal(rp_bin_parse(raw, 256, 0, "t.bin", &m), -1); /* needs --slots */

	const char *csv = "a,b,c\n1, 2 ,3\r\n\n4,5,6\n";
	assert_int_equal(rp_csv_parse(csv, strlen(csv), "t.csv", &m), 0);
	assert_int_equal(m.rows, 2);
	assert_int_equal(m.cols, 3);
	assert_string_equal(m.colnames[2], "c");
	assert_int_equal(m.v[4], 5);
	rp_matrix_free(&m);
	const char *ragged = "1,2,3\n4,5\n";
	assert_int_equal(rp_csv_parse(ragged, strlen(ragged), "t.csv", &m), -1);
	const char *word = "1,2\n4,x\n";
	assert_int_equal(rp_csv_parse(word, strlen(word), "t.csv", &m), -1);
}

static struct rp_matrix matrix(const int64_t (*rows)[8], size_t n)
{
	struct rp_matrix m = {0};
	m.rows = n;
	m.cols = 8;
	m.v = malloc(n * 8 * sizeof(int64_t));
	memcpy(m.v, rows, n * 8 * sizeof(int64_t));
	m.bad = calloc(n * 8, 1);
	strcpy(m.dtype, "<i8");
	return m;
}

static const struct rp_table *table(const struct rp_doc *d, const char *name)
{
	for (size_t i = 0; i < d->ntables; i++)
		if (!strcmp(d->tables[i]->name, name))
			return d->tables[i];
	return NULL;
}

/* Value in column 1/2 of the row whose first cell is KEY. */
static int64_t lookup(const struct rp_doc *d, const char *tname, const char *key, size_t col)
{
	const struct rp_table *t = table(d, tname);
	assert_non_null(t);
	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(t->cells[r * t->ncols].s, key))
			return t->cells[r * t->ncols + col].i;
	fail_msg("no row %s in %s", key, tname);
	return 0;
}

static void analyse(const int64_t (*rows)[8], size_t n, const char *producers, const struct rp_l2 *l2, int same_epoch,
                    struct rp_doc *d)
{
	struct rp_matrix m = matrix(rows, n);
	struct rp_event_map em;
	struct rp_tensor_opts o = {
	    .path = "t.npy", .producers = producers, .l2 = l2, .l2_path = "l2.json", .same_epoch = same_epoch};
	rp_events_default(&em);
	rp_doc_init(d);
	assert_int_equal(rp_tensor_analyse(&m, &em, &o, d), 0);
	rp_events_free(&em);
	rp_matrix_free(&m);
}

static void partition_identity(void **state)
{
	(void)state;
	struct rp_doc d;
	analyse(example, 4, "0-1", NULL, 0, &d);
	assert_int_equal(d.nwarnings, 0);
	assert_int_equal(lookup(&d, "boundaries", "E", 2), 1000);
	assert_int_equal(lookup(&d, "boundaries", "R", 2), 1550); /* producers only */
	assert_int_equal(lookup(&d, "boundaries", "B", 2), 1700);
	assert_int_equal(lookup(&d, "boundaries", "A", 2), 2000);
	assert_int_equal(lookup(&d, "boundaries", "F", 2), 2700);
	int64_t sum = lookup(&d, "intervals", "R-E", 1) + lookup(&d, "intervals", "B-R", 1) +
	              lookup(&d, "intervals", "A-B", 1) + lookup(&d, "intervals", "F-A", 1);
	assert_int_equal(sum, lookup(&d, "intervals", "F-E", 1));
	assert_int_equal(sum, 1700);
	int holds = 0;
	for (size_t i = 0; i < d.nnotes; i++)
		holds |= strstr(d.notes[i], "= F-E = 1700 cycles holds") != NULL;
	assert_true(holds);
	rp_doc_free(&d);
}

static void collective_diagnostics(void **state)
{
	(void)state;
	struct rp_doc d;
	analyse(example, 4, "0-1", NULL, 0, &d);
	assert_int_equal(lookup(&d, "collective", "arrival skew", 2), 100);
	assert_int_equal(lookup(&d, "collective", "first-release service", 2), 300);
	assert_int_equal(lookup(&d, "collective", "release skew", 2), 10);
	assert_int_equal(lookup(&d, "collective", "full-release tail", 2), 310);
	assert_int_equal(lookup(&d, "collective", "early-core residence", 2), 400);
	rp_doc_free(&d);
}

/* Invalid rows are reported by slot and kept out of every boundary. */
static void invalid_slots_excluded(void **state)
{
	(void)state;
	int64_t rows[5][8];
	memcpy(rows, example, sizeof(example));
	memset(rows[4], 0, sizeof(rows[4])); /* never written */
	rows[1][2] = 1400;                   /* arrival before producer_done */
	struct rp_doc d;
	analyse((const int64_t(*)[8])rows, 5, "0-1", NULL, 0, &d);
	assert_int_equal(d.nwarnings, 2);
	assert_non_null(strstr(d.warnings[0], "slot 1: 'collective_arrival' (1400) is before 'producer_done'"));
	assert_non_null(strstr(d.warnings[1], "slot 4: not written"));
	assert_int_equal(lookup(&d, "boundaries", "R", 2), 1500); /* slot 1 excluded */
	assert_int_equal(lookup(&d, "boundaries", "F", 2), 2700);
	rp_doc_free(&d);
}

static void l2_ordering(void **state)
{
	(void)state;
	int64_t core[2] = {0, 1}, start[2] = {900, 905}, end[2] = {2750, 2800};
	struct rp_l2 l2 = {50e6, 2, 900, 2800, core, start, end, NULL, NULL, NULL, 0};
	struct rp_doc d;
	analyse(example, 4, "0-1", &l2, 1, &d);
	assert_int_equal(d.nwarnings, 0);
	assert_int_equal(lookup(&d, "intervals", "E-M0", 1), 100);
	assert_int_equal(lookup(&d, "intervals", "M1-F", 1), 100);
	assert_int_equal(lookup(&d, "intervals", "M1-M0", 1), 1900);
	rp_doc_free(&d);

	l2.m0 = 5000; /* another epoch: M0 > E */
	l2.m1 = 9000;
	analyse(example, 4, "0-1", &l2, 1, &d);
	assert_int_equal(d.nwarnings, 1);
	assert_non_null(strstr(d.warnings[0], "M0 (5000) > E (1000)"));
	assert_non_null(table(&d, "sources")); /* falls back to durations per source */
	rp_doc_free(&d);

	analyse(example, 4, "0-1", &l2, 0, &d); /* not combined without --same-epoch */
	assert_int_equal(d.nwarnings, 0);
	assert_int_equal(lookup(&d, "sources", "L2 tasks", 2), 4000);
	assert_int_equal(lookup(&d, "sources", "in-core", 2), 1700);
	rp_doc_free(&d);
}

static void merged_vs_split(void **state)
{
	(void)state;
	const char *csv = "pair,M0,B,A,M1,P0,P1,C0,C1\n1,0,600,700,1500,0,650,600,1700\n"
	                  "2,0,605,700,1495,0,700,650,690\n";
	struct rp_matrix m;
	struct rp_doc d;
	assert_int_equal(rp_csv_parse(csv, strlen(csv), "p.csv", &m), 0);
	rp_doc_init(&d);
	assert_int_equal(rp_pairs_analyse(&m, "p.csv", &d), 0);
	const struct rp_table *t = table(&d, "pairs");
	assert_int_equal(t->cells[0 * t->ncols + 6].i, -50);  /* split gap kept negative */
	assert_int_equal(t->cells[0 * t->ncols + 8].i, 1700); /* chain total C1 - P0 */
	assert_int_equal(t->cells[0 * t->ncols + 10].i, 200); /* delta */
	assert_int_equal(t->cells[1 * t->ncols + 8].i, 700);  /* envelope: P1 > C1 */
	assert_string_equal(t->cells[1 * t->ncols + 9].s, "envelope");
	rp_doc_free(&d);
	rp_matrix_free(&m);
}

/* The lane of each row of a mixed kernel: per task aic_rows AIC rows, then
 * aic_rows * aiv_per_aic AIV rows (block-major, sub-block minor). */
static void mixed_lanes(void **state)
{
	(void)state;
	struct rp_event_map em;
	char buf[64];
	rp_events_default(&em);
	rp_events_lane(&em, 0, buf, sizeof(buf));
	assert_string_equal(buf, ""); /* the map does not say */
	em.aiv_per_aic = 2;
	em.aic_rows = 2;
	static const char *const one[] = {
	    "AIC 0", "AIC 1", "AIV 0.0", "AIV 0.1", "AIV 1.0", "AIV 1.1", "past the task's rows"};
	for (size_t s = 0; s < 7; s++) {
		rp_events_lane(&em, s, buf, sizeof(buf));
		assert_string_equal(buf, one[s]);
	}
	em.task_rows = 1;
	rp_events_lane(&em, 7, buf, sizeof(buf));
	assert_string_equal(buf, "task 1 AIC 1");
	rp_events_lane(&em, 11, buf, sizeof(buf));
	assert_string_equal(buf, "task 1 AIV 1.1");
	em.aic_rows = 0; /* a block count read at run time: no lane named */
	rp_events_lane(&em, 3, buf, sizeof(buf));
	assert_string_equal(buf, "");
	rp_events_free(&em);
}

/* Rows labelled from the map's identity columns: task token as rRtL, the
 * lane (0 AIC, 1.. AIV sub-block + 1) with the block, the core. */
static void identity_labels(void **state)
{
	(void)state;
	struct rp_event_map em;
	rp_events_default(&em);
	em.id_task = 8;
	em.id_block = 10;
	em.id_lane = 11;
	em.id_core = 9;
	int64_t v[2 * 16] = {0};
	v[8] = 0, v[9] = 3, v[10] = 1, v[11] = 0;                                           /* AIC of block 1 */
	v[16 + 8] = ((int64_t)1 << 32) | 3, v[16 + 9] = 13, v[16 + 10] = 0, v[16 + 11] = 2; /* AIV 0.1 */
	struct rp_matrix m = {2, 16, v, NULL, "<i8", NULL};
	unsigned char valid[2] = {1, 1};
	struct rp_rows r = {&m, &em, valid, valid, NULL, NULL};
	char buf[96];
	rp_row_label(&r, 0, buf, sizeof(buf));
	assert_string_equal(buf, "task r0t0 AIC 1 core 3");
	rp_row_label(&r, 1, buf, sizeof(buf));
	assert_string_equal(buf, "task r1t3 AIV 0.1 core 13");
	int64_t task;
	assert_true(rp_row_task(&r, 1, &task));
	assert_int_equal(task, ((int64_t)1 << 32) | 3);
	em.id_core = em.id_block = em.id_lane = -1;
	rp_row_label(&r, 1, buf, sizeof(buf));
	assert_string_equal(buf, "task r1t3");
	em.id_task = -1; /* no identity: the lane arithmetic, which says nothing here */
	rp_row_label(&r, 1, buf, sizeof(buf));
	assert_string_equal(buf, "");
	assert_false(rp_row_task(&r, 1, &task));
	rp_events_free(&em);
}

/* A torch file is refused, never read past its end, when its zip is cut
 * anywhere or its directory points outside the file. */
static void torch_damaged(void **state)
{
	(void)state;
	/* a stored zip of two entries, ARCHIVE/data.pkl and ARCHIVE/data/0 */
	static const char pkl[] = "ctorch\nLongStorage\n";
	unsigned char z[1024];
	size_t n = 0, offs[2];
	const char *names[2] = {"a/data.pkl", "a/data/0"};
	unsigned char payload[128] = {1};
	const unsigned char *datas[2] = {(const unsigned char *)pkl, payload};
	size_t sizes[2] = {sizeof(pkl) - 1, sizeof(payload)};
	payload[64] = 2; /* the second row of 8 words */
	for (int e = 0; e < 2; e++) {
		offs[e] = n;
		unsigned char h[30] = {0x50, 0x4b, 3, 4};
		h[18] = h[22] = (unsigned char)sizes[e];
		h[26] = (unsigned char)strlen(names[e]);
		memcpy(z + n, h, 30);
		n += 30;
		memcpy(z + n, names[e], strlen(names[e]));
		n += strlen(names[e]);
		memcpy(z + n, datas[e], sizes[e]);
		n += sizes[e];
	}
	size_t cd = n;
	for (int e = 0; e < 2; e++) {
		unsigned char h[46] = {0x50, 0x4b, 1, 2};
		h[20] = h[24] = (unsigned char)sizes[e];
		h[28] = (unsigned char)strlen(names[e]);
		h[42] = (unsigned char)offs[e];
		memcpy(z + n, h, 46);
		n += 46;
		memcpy(z + n, names[e], strlen(names[e]));
		n += strlen(names[e]);
	}
	unsigned char eocd[22] = {0x50, 0x4b, 5, 6};
	eocd[8] = eocd[10] = 2;
	eocd[12] = (unsigned char)(n - cd);
	eocd[16] = (unsigned char)cd;
	memcpy(z + n, eocd, 22);
	n += 22;
	struct rp_matrix m;
	assert_int_equal(rp_pt_parse(z, n, 8, "t.pt", &m), 0);
	assert_int_equal(m.rows, 2);
	assert_int_equal(m.v[0], 1);
	assert_int_equal(m.v[8], 2);
	rp_matrix_free(&m);
	assert_int_equal(rp_pt_parse(z, n, 0, "t.pt", &m), -1); /* no row width */
	assert_int_equal(rp_pt_parse(z, n, 16, "t.pt", &m), 0);
	rp_matrix_free(&m);
	for (size_t cut = 0; cut < n; cut++) /* every truncation: refused, in bounds */
		if (rp_pt_parse(z, cut, 8, "t.pt", &m) == 0)
			rp_matrix_free(&m);
	z[cd + 42] = 0xff; /* the first entry's local header outside the file */
	z[cd + 43] = 0xff;
	assert_int_equal(rp_pt_parse(z, n, 8, "t.pt", &m), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(npy_versions),           cmocka_unit_test(npy_uint64_above_int64),
	    cmocka_unit_test(npy_refusals),           cmocka_unit_test(bin_and_csv),
	    cmocka_unit_test(partition_identity),     cmocka_unit_test(collective_diagnostics),
	    cmocka_unit_test(invalid_slots_excluded), cmocka_unit_test(l2_ordering),
	    cmocka_unit_test(merged_vs_split),        cmocka_unit_test(mixed_lanes),
	    cmocka_unit_test(identity_labels),        cmocka_unit_test(torch_damaged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
