/* report_stats.c - integer statistics over cycle counts (S3.5) and slot lists. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rp_vec_push(struct rp_vec *a, int64_t x)
{
	if (a->n == a->cap)
		PK_GROW(a->v, a->cap, a->n + 1);
	a->v[a->n++] = x;
}

void rp_vec_free(struct rp_vec *a)
{
	free(a->v);
	memset(a, 0, sizeof(*a));
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

int64_t rp_median_x2(int64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_i64);
	if (n % 2)
		return 2 * v[n / 2];
	return v[n / 2 - 1] + v[n / 2];
}

int rp_stats_compute(int64_t *v, size_t n, struct rp_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return -1;
	out->n = n;
	out->median_x2 = rp_median_x2(v, n);
	out->min = v[0];
	out->max = v[n - 1];
	/* Welford: a plain sum of squares loses precision on 1e9-cycle values. */
	double mean = 0, m2 = 0;
	for (size_t i = 0; i < n; i++) {
		double x = (double)v[i], delta = x - mean;
		mean += delta / (double)(i + 1);
		m2 += delta * (x - mean);
	}
	out->mean = mean;
	out->stddev = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0.0;
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
			return pk_error("%s: slot %zu is out of range (the tensor has %zu slots)", opt, hi,
					nslots);
		for (size_t i = lo; i <= hi; i++)
			mask[i] = 1;
		if (*p == ',')
			p++;
		else if (*p)
			return pk_error("%s: '%s' is not a slot list like 0-3,8", opt, s);
	}
	return 0;
}
