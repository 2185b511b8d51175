/* report_stats.c - integer statistics over cycle counts (S3.5) and slot lists. */
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

/* Compact durations: int32 values or 16-bit offsets one after another (a
 * chunk of a series), the usual parts; loops of their own, without rp_value_at()'s
 * choice per value. */
static inline int packed32(const struct rp_values *part)
{
	return part->kind == RP_V32 && part->stride == sizeof(int32_t);
}

static inline int packed16(const struct rp_values *part)
{
	return part->kind == RP_V16 && part->stride == sizeof(uint16_t);
}

static inline int32_t at32(const struct rp_values *part, size_t i)
{
	return ((const int32_t *)part->v)[i];
}

static inline uint16_t at16(const struct rp_values *part, size_t i)
{
	return ((const uint16_t *)part->v)[i];
}

/* Cycle counts of one probe mostly lie in a narrow band (a few hundred
 * cycles of jitter around millions of samples): there a histogram finds the
 * median in one pass, where selection takes several. 0 when the values are
 * too wide for that (or too few for it to be worth it). */
#define COUNT_MIN_N 256
#define COUNT_MAX_RANGE (1u << 16)
size_t rp_count_bins(size_t n, int64_t lo, int64_t hi)
{
	uint64_t range = (uint64_t)hi - (uint64_t)lo; /* hi >= lo: no overflow */
	if (n < COUNT_MIN_N || n > UINT32_MAX || range >= COUNT_MAX_RANGE || range >= n)
		return 0;
	return (size_t)range + 1;
}

void rp_count_parts(const struct rp_values *parts, size_t nparts, int64_t lo, uint32_t *count)
{
	for (size_t p = 0; p < nparts; p++) {
		if (packed32(&parts[p])) {
			for (size_t i = 0; i < parts[p].n; i++)
				count[(uint64_t)(int64_t)at32(&parts[p], i) - (uint64_t)lo]++;
			continue;
		}
		if (packed16(&parts[p])) { /* values >= lo: base - lo + x >= 0 */
			uint32_t *c = count + (parts[p].base - lo);
			for (size_t i = 0; i < parts[p].n; i++)
				c[at16(&parts[p], i)]++;
			continue;
		}
		for (size_t i = 0; i < parts[p].n; i++)
			count[(uint64_t)rp_value_at(&parts[p], i) - (uint64_t)lo]++;
	}
}

int64_t rp_count_median_x2(const uint32_t *count, size_t n, int64_t lo)
{
	/* the k-th smallest (0-based, k = n/2) and, for even n, the (k-1)-th */
	size_t k = n / 2, seen = 0, j = 0;
	int64_t below = 0;
	for (;; j++) {
		if (n % 2 == 0 && seen <= k - 1 && k - 1 < seen + count[j])
			below = lo + (int64_t)j;
		seen += count[j];
		if (seen > k)
			break;
	}
	int64_t at = lo + (int64_t)j;
	return n % 2 ? 2 * at : below + at;
}

static int median_by_count(const struct rp_values *parts, size_t nparts, size_t n,
			   int64_t lo, int64_t hi, int64_t *x2)
{
	size_t bins = rp_count_bins(n, lo, hi);
	if (!bins)
		return 0;
	uint32_t *count = pk_xcalloc(bins, sizeof(*count));
	rp_count_parts(parts, nparts, lo, count);
	*x2 = rp_count_median_x2(count, n, lo);
	free(count);
	return 1;
}

/* The K-th smallest of V[0..n) plus, for even N, the (K-1)-th (reordered):
 * twice the median when K = N/2. */
static int64_t select_median_x2(int64_t *v, size_t n, size_t k, int even)
{
	select_kth(v, n, k);
	if (!even)
		return 2 * v[k];
	int64_t below = v[0]; /* the (k-1)-th: the largest of v[0..k) */
	for (size_t i = 1; i < k; i++)
		if (v[i] > below)
			below = v[i];
	return below + v[k];
}

/* Values too wide for counting each: count them by their top bits (at most
 * N buckets), then select only among the values of the one or two buckets
 * that hold the middle ranks. Random durations of a few hundred samples
 * leave a few values there, where selecting among all of them makes
 * several passes of unpredictable branches. */
#define BUCKET_MIN_N 64
#define BUCKET_STACK 2048
struct buckets {
	unsigned shift;
	size_t bins;
	uint32_t *count, stack[BUCKET_STACK];
};

static void buckets_init(struct buckets *bk, size_t n, int64_t lo, int64_t hi)
{
	uint64_t range = (uint64_t)hi - (uint64_t)lo; /* hi >= lo: no overflow */
	bk->shift = 0;
	while ((range >> bk->shift) >= n)
		bk->shift++;
	bk->bins = (size_t)(range >> bk->shift) + 1; /* <= n */
	bk->count = bk->bins <= BUCKET_STACK ? bk->stack : pk_xmalloc(bk->bins * sizeof(*bk->count));
	memset(bk->count, 0, bk->bins * sizeof(*bk->count));
}

/* The buckets [*B0, *B1] of ranks k - 1 (for even N) and k = N/2, and how
 * many values lie before them; frees the counts. */
static void buckets_middle(struct buckets *bk, size_t n, size_t *b0, size_t *b1, size_t *before)
{
	const uint32_t *count = bk->count;
	size_t k = n / 2, first = n % 2 ? k : k - 1, seen = 0, b = 0;
	while (seen + count[b] <= first)
		seen += count[b++];
	*b0 = b;
	*before = seen;
	while (seen + count[b] <= k)
		seen += count[b++];
	*b1 = b;
	if (bk->count != bk->stack)
		free(bk->count);
}

static int64_t median_x2_buckets(int64_t *v, size_t n, int64_t lo, int64_t hi)
{
	struct buckets bk;
	buckets_init(&bk, n, lo, hi);
	for (size_t i = 0; i < n; i++)
		bk.count[((uint64_t)v[i] - (uint64_t)lo) >> bk.shift]++;
	size_t b0, b, before;
	buckets_middle(&bk, n, &b0, &b, &before);
	/* those buckets' values to the front: every value swapped with v[m],
	 * M moved on past those that belong (no branch to mispredict) */
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t x = v[i];
		uint64_t at = ((uint64_t)x - (uint64_t)lo) >> bk.shift;
		v[i] = v[m];
		v[m] = x;
		m += at - b0 <= b - b0;
	}
	return select_median_x2(v, m, n / 2 - before, n % 2 == 0);
}

/* The same over PARTS (N values in [LO, HI]) where they lie: no copy of
 * them all, only of the middle buckets' (a series' chunks hold 16-bit
 * offsets; a copy would be four times their size). */
static int64_t median_x2_parts_buckets(const struct rp_values *parts, size_t nparts, size_t n,
				       int64_t lo, int64_t hi)
{
	struct buckets bk;
	buckets_init(&bk, n, lo, hi);
	for (size_t p = 0; p < nparts; p++) {
		const struct rp_values *pt = &parts[p];
		if (packed16(pt)) { /* (base - lo) + x >= 0 */
			uint64_t off = (uint64_t)pt->base - (uint64_t)lo;
			for (size_t i = 0; i < pt->n; i++)
				bk.count[(off + at16(pt, i)) >> bk.shift]++;
		} else {
			for (size_t i = 0; i < pt->n; i++)
				bk.count[((uint64_t)rp_value_at(pt, i) - (uint64_t)lo) >> bk.shift]++;
		}
	}
	size_t b0, b, before, m = 0;
	buckets_middle(&bk, n, &b0, &b, &before);
	size_t cap = 64;
	int64_t *v = pk_xmalloc(cap * sizeof(*v));
	for (size_t p = 0; p < nparts; p++)
		for (size_t i = 0; i < parts[p].n; i++) {
			int64_t x = rp_value_at(&parts[p], i);
			if ((((uint64_t)x - (uint64_t)lo) >> bk.shift) - b0 > b - b0)
				continue;
			if (m == cap)
				PK_GROW(v, cap, m + 1);
			v[m++] = x;
		}
	int64_t x2 = select_median_x2(v, m, n / 2 - before, n % 2 == 0);
	free(v);
	return x2;
}

/* The median of V (reordered), whose values lie in [lo, hi]. */
static int64_t median_x2_bounded(int64_t *v, size_t n, int64_t lo, int64_t hi)
{
	int64_t x2;
	const struct rp_values all = { v, n, sizeof(*v), RP_V64, 0 };
	if (lo == hi) /* e.g. a stage's start relative to T_BASE, run after run */
		return 2 * lo;
	if (median_by_count(&all, 1, n, lo, hi, &x2))
		return x2;
	if (n >= BUCKET_MIN_N && n <= UINT32_MAX)
		return median_x2_buckets(v, n, lo, hi);
	return select_median_x2(v, n, n / 2, n % 2 == 0);
}

int64_t rp_median_x2(int64_t *v, size_t n)
{
	int64_t lo = v[0], hi = v[0];
	for (size_t i = 1; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	return median_x2_bounded(v, n, lo, hi);
}

/* Sums over values that fit int32: the exact sum and sum of squares,
 * with which the variance needs no second pass. */
struct sums {
	__int128 sum;
	unsigned __int128 sumsq;
	int64_t lo, hi;
	int small; /* every value fits int32 so far: sumsq is exact */
};

#define BIT31 ((int64_t)1 << 31)

/* PART into S. */
static void part_sums(const struct rp_values *part, struct sums *s)
{
	if (packed16(part)) {
		/* sums of the offsets X (runs short enough for uint64), then
		 * those of base + X: n b, 2 b sum(X) + n b^2 (exact, 128 bits) */
		unsigned __int128 b = (unsigned __int128)part->base;
		for (size_t r = 0; r < part->n; r += (size_t)1 << 20) {
			size_t e = part->n - r > ((size_t)1 << 20) ? r + ((size_t)1 << 20) : part->n;
			uint64_t sum = 0, sumsq = 0;
			uint16_t lo = UINT16_MAX, hi = 0;
			for (size_t i = r; i < e; i++) {
				uint16_t x = at16(part, i);
				sum += x;
				sumsq += (uint64_t)x * x; /* < 2^52 a run */
				lo = x < lo ? x : lo;
				hi = x > hi ? x : hi;
			}
			s->sum += (__int128)(sum + (e - r) * b);
			s->sumsq += sumsq + 2 * b * sum + (e - r) * b * b;
			s->lo = part->base + lo < s->lo ? part->base + lo : s->lo;
			s->hi = part->base + hi > s->hi ? part->base + hi : s->hi;
		}
		return;
	}
	if (packed32(part)) {
		/* the sum in runs short enough for an int64 */
		for (size_t b = 0; b < part->n; b += (size_t)1 << 20) {
			size_t e = part->n - b > ((size_t)1 << 20) ? b + ((size_t)1 << 20) : part->n;
			int64_t sum = 0;
			int32_t lo = INT32_MAX, hi = INT32_MIN;
			for (size_t i = b; i < e; i++) {
				int32_t x = at32(part, i);
				sum += x;
				s->sumsq += (uint64_t)((int64_t)x * x); /* <= 2^62 */
				lo = x < lo ? x : lo;
				hi = x > hi ? x : hi;
			}
			s->sum += sum;
			s->lo = lo < s->lo ? lo : s->lo;
			s->hi = hi > s->hi ? hi : s->hi;
		}
		return;
	}
	for (size_t i = 0; i < part->n; i++) {
		int64_t x = rp_value_at(part, i);
		s->sum += x;
		s->lo = x < s->lo ? x : s->lo;
		s->hi = x > s->hi ? x : s->hi;
		if (x >= -BIT31 && x < BIT31) /* int32: x * x <= 2^62 */
			s->sumsq += (uint64_t)(x * x);
		else
			s->small = 0;
	}
}

/* Mean and stddev of OUT (n >= 1) from its exact sums: 1, or 0 when the
 * sums do not allow it (mean set, stddev left). */
static int from_sums(struct rp_stats *out)
{
	size_t n = out->n;
	int64_t whole = (int64_t)(out->sum / (__int128)n);
	double frac = (double)(out->sum % (__int128)n) / (double)n;
	out->mean = (double)whole + frac;
	if (n == 1) {
		out->stddev = 0;
		return 1;
	}
	if (!out->exact_sums || n > UINT32_MAX)
		return 0;
	/* n * m2 = n * sumsq - sum^2 exactly: |sum| <= n 2^31, sumsq <= n 2^62 */
	unsigned __int128 abs_sum = (unsigned __int128)(out->sum < 0 ? -out->sum : out->sum);
	unsigned __int128 nm2 = (unsigned __int128)n * out->sumsq - abs_sum * abs_sum;
	out->stddev = sqrt((double)nm2 / ((double)n * (double)(n - 1)));
	return 1;
}

/* Everything but the median; 0, or -1 without values. */
int rp_stats_moments(const struct rp_values *parts, size_t nparts, struct rp_stats *out)
{
	memset(out, 0, sizeof(*out));
	size_t n = 0;
	for (size_t p = 0; p < nparts; p++)
		n += parts[p].n;
	if (n == 0)
		return -1;
	out->n = n;
	/* Exact integer sums: no precision lost on 1e11-cycle stamps. */
	struct sums s = { 0, 0, INT64_MAX, INT64_MIN, 1 };
	for (size_t p = 0; p < nparts; p++)
		part_sums(&parts[p], &s);
	out->min = s.lo;
	out->max = s.hi;
	out->sum = s.sum;
	out->sumsq = s.sumsq;
	out->exact_sums = s.small;
	if (from_sums(out))
		return 0;
	int64_t whole = (int64_t)(s.sum / (__int128)n);
	double frac = (double)(s.sum % (__int128)n) / (double)n, m2 = 0;
	/* wide values: squared deviations from the exact mean */
	for (size_t p = 0; p < nparts; p++)
		for (size_t i = 0; i < parts[p].n; i++) {
			double dev = (double)(rp_value_at(&parts[p], i) - whole) - frac;
			m2 += dev * dev;
		}
	out->stddev = sqrt(m2 / (double)(n - 1));
	return 0;
}

int rp_stats_compute(int64_t *v, size_t n, struct rp_stats *out)
{
	const struct rp_values all = { v, n, sizeof(*v), RP_V64, 0 };
	if (rp_stats_moments(&all, 1, out) < 0)
		return -1;
	out->median_x2 = median_x2_bounded(v, n, out->min, out->max);
	return 0;
}

int rp_stats_parts(const struct rp_values *parts, size_t nparts, struct rp_stats *out)
{
	if (rp_stats_moments(parts, nparts, out) < 0)
		return -1;
	rp_stats_median(parts, nparts, out);
	return 0;
}

int rp_stats_merge(const struct rp_stats *each, size_t k, const struct rp_values *parts,
		   size_t nparts, const int64_t *median_x2, struct rp_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->min = INT64_MAX;
	out->max = INT64_MIN;
	out->exact_sums = 1;
	for (size_t i = 0; i < k; i++) {
		if (!each[i].n)
			continue;
		out->n += each[i].n;
		out->sum += each[i].sum;
		out->sumsq += each[i].sumsq;
		out->exact_sums &= each[i].exact_sums;
		out->min = each[i].min < out->min ? each[i].min : out->min;
		out->max = each[i].max > out->max ? each[i].max : out->max;
	}
	if (out->n == 0)
		return -1;
	int exact = from_sums(out);
	if ((!exact || !median_x2) && !parts)
		return 1;
	if (!exact)
		return rp_stats_parts(parts, nparts, out);
	if (median_x2)
		out->median_x2 = *median_x2;
	else
		rp_stats_median(parts, nparts, out);
	return 0;
}

void rp_stats_median(const struct rp_values *parts, size_t nparts, struct rp_stats *out)
{
	if (out->min == out->max) {
		out->median_x2 = 2 * out->min;
		return;
	}
	if (median_by_count(parts, nparts, out->n, out->min, out->max, &out->median_x2))
		return;
	if (out->n >= BUCKET_MIN_N && out->n <= UINT32_MAX) {
		out->median_x2 = median_x2_parts_buckets(parts, nparts, out->n, out->min, out->max);
		return;
	}
	int64_t *v = pk_xmalloc(out->n * sizeof(*v)); /* few values: select on a copy */
	size_t k = 0;
	for (size_t p = 0; p < nparts; p++)
		for (size_t i = 0; i < parts[p].n; i++)
			v[k++] = rp_value_at(&parts[p], i);
	out->median_x2 = median_x2_bounded(v, out->n, out->min, out->max);
	free(v);
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
