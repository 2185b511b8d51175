/* report_stats.c - integer statistics over cycle counts and slot lists. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void swap(int64_t *a, int64_t *b)
{
	int64_t t = *a;
	*a = *b;
	*b = t;
}

/* Quickselect: afterwards v[k] holds the k-th smallest, smaller values
 * before it, larger after. Median-of-three pivots; O(n) expected. */
static void select_kth(int64_t *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	while (hi > lo) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < v[lo])
			swap(&v[mid], &v[lo]);
		if (v[hi] < v[lo])
			swap(&v[hi], &v[lo]);
		if (v[hi] < v[mid])
			swap(&v[hi], &v[mid]);
		int64_t pivot = v[mid];
		size_t i = lo, j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				swap(&v[i], &v[j]);
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

rp_x2 rp_median_x2(int64_t *v, size_t n)
{
	size_t k = n / 2;
	select_kth(v, n, k);
	if (n % 2)
		return 2 * (rp_x2)v[k];
	int64_t below = v[0]; /* the (k-1)-th: the largest of v[0..k) */
	for (size_t i = 1; i < k; i++)
		if (v[i] > below)
			below = v[i];
	return (rp_x2)below + v[k];
}

#define BIT31 ((int64_t)1 << 31)

/* Mean and standard deviation from exact integer sums (no precision lost
 * on 1e11-cycle stamps); values beyond int32 take the squared deviations
 * from the exact mean instead. */
static void moments(const int64_t *v, size_t n, struct rp_stats *out)
{
	__int128 sum = 0;
	unsigned __int128 sumsq = 0;
	int small = n <= UINT32_MAX;
	for (size_t i = 0; i < n; i++) {
		int64_t x = v[i];
		sum += x;
		out->min = x < out->min ? x : out->min;
		out->max = x > out->max ? x : out->max;
		if (x >= -BIT31 && x < BIT31) /* x * x <= 2^62 */
			sumsq += (uint64_t)(x * x);
		else
			small = 0;
	}
	int64_t whole = (int64_t)(sum / (__int128)n);
	double frac = (double)(sum % (__int128)n) / (double)n, m2 = 0;
	out->mean = (double)whole + frac;
	out->mean_whole = whole;
	out->mean_frac = frac;
	if (n == 1)
		return;
	if (small) { /* n m2 = n sumsq - sum^2 exactly: |sum| <= n 2^31, sumsq <= n 2^62 */
		unsigned __int128 abs_sum = (unsigned __int128)(sum < 0 ? -sum : sum);
		unsigned __int128 nm2 = (unsigned __int128)n * sumsq - abs_sum * abs_sum;
		out->stddev = sqrt((double)nm2 / ((double)n * (double)(n - 1)));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		double dev = (double)(v[i] - whole) - frac;
		m2 += dev * dev;
	}
	out->stddev = sqrt(m2 / (double)(n - 1));
}

int rp_stats_compute(int64_t *v, size_t n, struct rp_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return -1;
	out->n = n;
	out->min = INT64_MAX;
	out->max = INT64_MIN;
	moments(v, n, out);
	out->median_x2 = out->min == out->max ? 2 * (rp_x2)out->min : rp_median_x2(v, n);
	return 0;
}

static int parse_slot(const char **p, size_t *out)
{
	char *end;
	if (**p < '0' || **p > '9')
		return -1;
	unsigned long long v = strtoull(*p, &end, 10);
	*p = end;
	*out = (size_t)v;
	return 0;
}

int rp_parse_slot_list(const char *opt, const char *s, unsigned char *mask, size_t nslots)
{
	memset(mask, 0, nslots);
	const char *p = s;
	while (*p) {
		size_t lo, hi;
		if (parse_slot(&p, &lo) < 0)
			return pk_error("%s: '%s' is not a slot list like 0-3,8", opt, s);
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_slot(&p, &hi) < 0 || hi < lo)
				return pk_error("%s: '%s' is not a slot list like 0-3,8", opt, s);
		}
		if (hi >= nslots)
			return pk_error("%s: slot %zu is out of range (the tensor has %zu slots)", opt, hi, nslots);
		for (size_t i = lo; i <= hi; i++)
			mask[i] = 1;
		if (*p == ',')
			p++;
		else if (*p)
			return pk_error("%s: '%s' is not a slot list like 0-3,8", opt, s);
	}
	return 0;
}
