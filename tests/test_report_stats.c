/* test_report_stats.c - probe-report's statistics (min, median, mean, max, spread): exact medians in
 * integer cycles, the selection behind them, mean and spread, slot lists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "report.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static void median_odd_even(void **state)
{
	(void)state;
	int64_t odd[] = {500, 100, 300};
	assert_int_equal(rp_median_x2(odd, 3), 600);
	int64_t even[] = {1510, 1480, 1700, 1500, 1490, 1530};
	assert_int_equal(rp_median_x2(even, 6), 3010); /* 1505 */
	int64_t neg[] = {-3, 2};
	assert_int_equal(rp_median_x2(neg, 2), -1); /* -0.5: a negative gap kept */
	int64_t one[] = {7};
	assert_int_equal(rp_median_x2(one, 1), 14);
}

static void half_formatting(void **state)
{
	(void)state;
	char b[32];
	assert_string_equal(rp_fmt_half(b, 3010), "1505");
	assert_string_equal(rp_fmt_half(b, 3011), "1505.5");
	assert_string_equal(rp_fmt_half(b, -1), "-0.5");
	assert_string_equal(rp_fmt_half(b, -3), "-1.5");
	assert_string_equal(rp_fmt_half(b, -2000), "-1000");
}

static void int_formatting(void **state)
{
	(void)state;
	char b[24];
	assert_int_equal(rp_fmt_int(b, INT64_MIN), 20);
	assert_string_equal(b, "-9223372036854775808");
	assert_int_equal(rp_fmt_int(b, 0), 1);
	assert_string_equal(b, "0");
}

/* rp_median_x2 of V[0..n) against sorting a copy; frees V. */
static void check_median(int64_t *v, size_t n)
{
	int64_t *w = malloc(n * sizeof(*w));
	memcpy(w, v, n * sizeof(*v));
	qsort(w, n, sizeof(*w), cmp_i64);
	int64_t want = n % 2 ? 2 * w[n / 2] : w[n / 2 - 1] + w[n / 2];
	assert_int_equal(rp_median_x2(v, n), want);
	free(v);
	free(w);
}

/* Selection must agree with sorting on every size and many duplicates. */
static void median_matches_sort(void **state)
{
	(void)state;
	uint64_t seed = 12345;
	for (size_t n = 1; n < 300; n++) {
		int64_t *v = malloc(n * sizeof(*v));
		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			v[i] = (int64_t)(seed >> 33) % (int64_t)(n % 7 == 0 ? 3 : 1000) - 50;
		}
		check_median(v, n);
	}
}

/* Wide values: random, crowded around one value with far outliers, and
 * spanning +-2^61; against sorting. */
static void median_buckets_wide(void **state)
{
	(void)state;
	uint64_t seed = 777;
	const size_t sizes[] = {64, 65, 257, 810, 811, 2048, 2049, 5000, 5001};
	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		size_t n = sizes[z];
		for (int shape = 0; shape < 4; shape++) {
			int64_t *v = malloc(n * sizeof(*v));
			for (size_t i = 0; i < n; i++) {
				seed = seed * 6364136223846793005ull + 1442695040888963407ull;
				int64_t r = (int64_t)(seed >> 20);
				switch (shape) {
				case 0: /* random durations, 4 or 5 digits */
					v[i] = 1000 + r % 40000;
					break;
				case 1: /* one crowded value, rare outliers either way */
					v[i] = i % 97 == 0 ? (r % 2 ? INT64_MAX / 3 : -((int64_t)1 << 40))
					                   : 123456789 + r % 3;
					break;
				case 2: /* spanning +-2^61 (twice the median fits int64) */
					v[i] = (int64_t)(seed ^ (seed >> 29)) / 4;
					if (i == 0)
						v[i] = INT64_MIN / 4;
					if (i == 1)
						v[i] = INT64_MAX / 4;
					break;
				default: /* a few distinct wide values, many duplicates */
					v[i] = (r % 5) * 1000003 - 2000000;
					break;
				}
			}
			check_median(v, n);
		}
	}
}

static void stats_of_runs(void **state)
{
	(void)state;
	int64_t v[] = {1500, 1480, 1530, 1490, 1700, 1510};
	struct rp_stats s;
	assert_int_equal(rp_stats_compute(v, 6, &s), 0);
	assert_int_equal(s.n, 6);
	assert_int_equal(s.min, 1480);
	assert_int_equal(s.max, 1700);
	assert_int_equal(s.median_x2, 3010);
	assert_true(s.mean > 1534.999 && s.mean < 1535.001);
	assert_true(s.stddev > 82.64 && s.stddev < 82.65); /* sqrt(34150 / 5) */
	int64_t one[] = {42};
	assert_int_equal(rp_stats_compute(one, 1, &s), 0);
	assert_true(s.stddev == 0.0);
	assert_int_equal(rp_stats_compute(one, 0, &s), -1);
}

/* Large absolute cycle counts keep their precision. */
static void stats_large_values(void **state)
{
	(void)state;
	int64_t v[] = {4000000000000001, 4000000000000003};
	struct rp_stats s;
	rp_stats_compute(v, 2, &s);
	assert_int_equal(s.median_x2, 8000000000000004);
	assert_true(s.stddev > 1.41 && s.stddev < 1.42);
}

/* Values near the ends of int64: the median and the mean exact, neither
 * outside [min, max], no overflow on the way. */
static void stats_int64_ends(void **state)
{
	(void)state;
	char b[64];
	int64_t top[] = {INT64_MAX, INT64_MAX - 1, INT64_MAX, INT64_MAX - 1};
	struct rp_stats s;
	assert_int_equal(rp_stats_compute(top, 4, &s), 0);
	assert_string_equal(rp_fmt_half(b, s.median_x2), "9223372036854775806.5");
	assert_true(s.mean_whole == INT64_MAX - 1);
	assert_true(s.mean_frac > 0.49 && s.mean_frac < 0.51);
	int64_t odd[] = {INT64_MAX, INT64_MAX, INT64_MAX - 2};
	assert_string_equal(rp_fmt_half(b, rp_median_x2(odd, 3)), "9223372036854775807");
	int64_t low[] = {INT64_MIN, INT64_MIN + 1};
	assert_string_equal(rp_fmt_half(b, rp_median_x2(low, 2)), "-9223372036854775807.5");
	/* the mean as the table shows it, at most the max */
	struct rp_doc d;
	rp_doc_init(&d);
	struct rp_table *t = rp_table_new(&d, "t", "t", "mean", NULL);
	size_t r = rp_row(t);
	rp_stats_compute(top, 4, &s);
	rp_set_mean(t, r, 0, &s);
	assert_int_equal(t->cells[0].kind, RP_HALF);
	assert_string_equal(rp_fmt_half(b, t->cells[0].h), "9223372036854775806.5");
	rp_doc_free(&d);
	/* the difference of two doubled medians at the two ends */
	assert_string_equal(rp_fmt_half(b, rp_median_x2(odd, 3) - rp_median_x2(low, 2)), "18446744073709551614.5");
}

/* The standard deviation from exact integer sums (int32 values) agrees
 * with squared deviations summed in long double, int32 extremes included. */
static void stddev_exact(void **state)
{
	(void)state;
	size_t n = 100003;
	int64_t *v = malloc(n * sizeof(*v));
	for (int k = 0; k < 3; k++) {
		uint64_t seed = 7 + (uint64_t)k;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			v[i] = k == 0   ? 1500 + (int64_t)((seed >> 33) % 61)
			       : k == 1 ? (int64_t)(int32_t)(seed >> 32)
			                : (i % 2 ? INT32_MAX : INT32_MIN);
		}
		long double mean = 0, m2 = 0;
		for (size_t i = 0; i < n; i++)
			mean += v[i];
		mean /= n;
		for (size_t i = 0; i < n; i++)
			m2 += (v[i] - mean) * (v[i] - mean);
		double want = (double)sqrtl(m2 / (n - 1));
		struct rp_stats a;
		assert_int_equal(rp_stats_compute(v, n, &a), 0);
		assert_true(fabs(a.stddev - want) <= 1e-12 * want);
	}
	free(v);
}

static void slot_lists(void **state)
{
	(void)state;
	unsigned char m[10];
	assert_int_equal(rp_parse_slot_list("--active", "0-3,8", m, 10), 0);
	const unsigned char want[10] = {1, 1, 1, 1, 0, 0, 0, 0, 1, 0};
	assert_memory_equal(m, want, 10);
	assert_int_equal(rp_parse_slot_list("--active", "9", m, 10), 0);
	assert_int_equal(m[9], 1);
	assert_int_equal(rp_parse_slot_list("--active", "10", m, 10), -1);
	assert_int_equal(rp_parse_slot_list("--active", "3-1", m, 10), -1);
	assert_int_equal(rp_parse_slot_list("--active", "a", m, 10), -1);
	assert_int_equal(rp_parse_slot_list("--active", "1;2", m, 10), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(median_odd_even),     cmocka_unit_test(half_formatting),
	    cmocka_unit_test(int_formatting),      cmocka_unit_test(median_matches_sort),
	    cmocka_unit_test(median_buckets_wide), cmocka_unit_test(stats_of_runs),
	    cmocka_unit_test(stats_large_values),  cmocka_unit_test(stats_int64_ends),
	    cmocka_unit_test(slot_lists),          cmocka_unit_test(stddev_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
