/* report_log.c - the printf probe log parser (S1.3, S1.6, S1.7, S4.1).
 * Streams a log once; keeps per (probe, block, iter) only the int64 numbers
 * the statistics need, and per (probe, block, iter, run) a line count, so
 * memory grows with probe lines, never with the other output. */
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NO_RUN UINT32_MAX

/* ---- a small open-addressing hash: 4 x int64 -> uint32 ---- */

static uint64_t mix(const int64_t k[4])
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 4; i++) {
		h ^= (uint64_t)k[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
		h *= 0xff51afd7ed558ccdull;
	}
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
		if (h->vals[i] == NO_RUN ||
		    (x[0] == k[0] && x[1] == k[1] && x[2] == k[2] && x[3] == k[3]))
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
		if (old.vals[i] == NO_RUN)
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
	if (!h->cap)
		return NO_RUN;
	return h->vals[hash_slot(h, k)];
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

/* Packed-key table for the common case: one compare, 16 bytes a slot.
 * The slot is the top bits of a Fibonacci product, which every key bit
 * reaches (its middle bits miss the key's top ones: the probe, so a log
 * of thousands of probes put them all in a few clusters). */
static size_t slot64(const struct rp_hash64 *h, uint64_t key)
{
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - __builtin_ctzll(h->cap)));
	while (h->slots[i].val != NO_RUN && h->slots[i].key != key)
		i = (i + 1) & (h->cap - 1);
	return i;
}

static uint32_t hash64_get(const struct rp_hash64 *h, uint64_t key)
{
	return h->cap ? h->slots[slot64(h, key)].val : NO_RUN;
}

static void hash64_put(struct rp_hash64 *h, uint64_t key, uint32_t val)
{
	if (2 * (h->n + 1) > h->cap) {
		struct rp_hash64 old = *h;
		h->cap = old.cap ? old.cap * 2 : 1024;
		h->slots = pk_xmalloc(h->cap * sizeof(*h->slots));
		for (size_t i = 0; i < h->cap; i++)
			h->slots[i].val = NO_RUN;
		for (size_t i = 0; i < old.cap; i++)
			if (old.slots[i].val != NO_RUN)
				h->slots[slot64(h, old.slots[i].key)] = old.slots[i];
		free(old.slots);
	}
	size_t i = slot64(h, key);
	h->slots[i].key = key;
	h->slots[i].val = val;
	h->n++;
}

/* ---- line parsing ---- */

/* [A-Za-z0-9_] as a table: one load per byte of each probe name. */
#define NAME_ROW(c0) [c0] = 1, [c0 + 1] = 1, [c0 + 2] = 1, [c0 + 3] = 1, [c0 + 4] = 1
static const unsigned char name_chars[256] = {
	NAME_ROW('0'), NAME_ROW('5'),
	NAME_ROW('A'), NAME_ROW('F'), NAME_ROW('K'), NAME_ROW('P'), NAME_ROW('U'), ['Z'] = 1,
	NAME_ROW('a'), NAME_ROW('f'), NAME_ROW('k'), NAME_ROW('p'), NAME_ROW('u'), ['z'] = 1,
	['_'] = 1,
};
#undef NAME_ROW

static inline int is_name_char(char c)
{
	return name_chars[(unsigned char)c];
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Up to eight ASCII digits at once (the SWAR method simdjson popularised):
 * find the first byte that is not a digit, shift the digits to the top so
 * the bytes below are leading zeros, and combine them in three multiplies.
 * Numbers are the parser's hot spot: cycle stamps have 8-12 digits, run,
 * iter and dur fields 1-5. Returns how many digits (8: maybe more follow). */
static inline unsigned leading_digits(const char *s, uint64_t *out)
{
	uint64_t v;
	memcpy(&v, s, 8);
	/* per byte: 0 for a digit (high nibble 3, and still 3 after adding 6).
	 * A carry out of a byte >= 0xFA only disturbs the bytes after it. */
	uint64_t other = ((v & 0xF0F0F0F0F0F0F0F0ull) |
			  (((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) ^
			 0x3333333333333333ull;
	unsigned n = other ? (unsigned)__builtin_ctzll(other) >> 3 : 8;
	if (n == 0)
		return 0;
	v <<= 8 * (8 - n);
	v = (v & 0x0F0F0F0F0F0F0F0Full) * 2561 >> 8;
	v = (v & 0x00FF00FF00FF00FFull) * 6553601 >> 16;
	*out = (v & 0x0000FFFF0000FFFFull) * 42949672960001ull >> 32;
	return n;
}
#else
static inline unsigned leading_digits(const char *s, uint64_t *out)
{
	(void)s;
	(void)out;
	return 0;
}
#endif

/* Unsigned decimal that fits int64; *p advances past it. The byte after a
 * line is never a digit (see rp_log_parse_line), so the digit loop needs no
 * bounds test; only numbers longer than 18 digits pay for overflow tests. */
static inline int parse_u63(const char **p, const char *end, int64_t *out)
{
	const char *s = *p;
	uint64_t v = 0, head;
	unsigned d, n;
	static const uint64_t pow10[9] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
					   100000000 };
	/* two rounds: cycle stamps have 9-12 digits */
	for (int round = 0; round < 2 && end - s >= 8 && (n = leading_digits(s, &head)) != 0;
	     round++) {
		v = v * pow10[n] + head;
		s += n;
		if (n < 8) { /* the byte at s is not a digit */
			*p = s;
			*out = (int64_t)v;
			return 0;
		}
	}
	while ((d = (unsigned)(unsigned char)*s - '0') < 10) {
		v = v * 10 + d;
		s++;
	}
	if (s == *p)
		return -1;
	if (s - *p > 18) {
		v = 0;
		for (s = *p; (d = (unsigned)(unsigned char)*s - '0') < 10; s++) {
			if (v > ((uint64_t)INT64_MAX - d) / 10)
				return -1;
			v = v * 10 + d;
		}
	}
	*p = s;
	*out = (int64_t)v;
	return 0;
}

static inline const char *skip_blank(const char *s, const char *end)
{
	if (s + 1 < end && s[0] == ' ' && s[1] > ' ') /* the usual single space */
		return s + 1;
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	return s;
}

enum field { F_START, F_END, F_DUR, F_BLOCK, F_ITER, F_RUN, F_NONE };

/* A probe line's record from its field values and which fields it had
 * (volatile: the fast paths keep their values in memory on purpose). */
static inline void set_fields(struct rp_line *out, const volatile int64_t *v, unsigned seen)
{
	out->start = v[F_START];
	out->end = v[F_END];
	out->dur = v[F_DUR];
	out->has_block = !!(seen & (1u << F_BLOCK));
	out->has_iter = !!(seen & (1u << F_ITER));
	out->has_run = !!(seen & (1u << F_RUN));
	out->block = out->has_block ? v[F_BLOCK] : -1;
	out->iter = out->has_iter ? v[F_ITER] : -1;
	out->run = out->has_run ? v[F_RUN] : -1;
}
static const struct {
	const char *key;
	size_t len;
} fields[] = { { "start=", 6 }, { "end=", 4 }, { "dur=", 4 },
	       { "block=", 6 }, { "iter=", 5 }, { "run=", 4 } };

/* The field at S, if any. One switch and a few byte compares: this runs
 * for each field of each probe line. */
static inline __attribute__((always_inline)) enum field field_at(const char *s, const char *end)
{
	size_t room = (size_t)(end - s);
	if (room < 4)
		return F_NONE;
	switch (s[0]) {
	case 's':
		return room >= 6 && s[1] == 't' && s[2] == 'a' && s[3] == 'r' && s[4] == 't' && s[5] == '='
			       ? F_START : F_NONE;
	case 'e':
		return s[1] == 'n' && s[2] == 'd' && s[3] == '=' ? F_END : F_NONE;
	case 'd':
		return s[1] == 'u' && s[2] == 'r' && s[3] == '=' ? F_DUR : F_NONE;
	case 'b':
		return room >= 6 && s[1] == 'l' && s[2] == 'o' && s[3] == 'c' && s[4] == 'k' && s[5] == '='
			       ? F_BLOCK : F_NONE;
	case 'i':
		return room >= 5 && s[1] == 't' && s[2] == 'e' && s[3] == 'r' && s[4] == '=' ? F_ITER : F_NONE;
	case 'r':
		return s[1] == 'u' && s[2] == 'n' && s[3] == '=' ? F_RUN : F_NONE;
	default:
		return F_NONE;
	}
}

/* After "[NAME]" of a probe: key=value fields, all of start, end, dur. */
static enum rp_line_kind parse_fields(const char *s, const char *end, struct rp_line *out)
{
	int64_t v[F_NONE] = { 0 };
	unsigned seen = 0;
	s = skip_blank(s, end);
	if (field_at(s, end) == F_NONE)
		return RP_LINE_OTHER;
	while (s < end) {
		enum field f = field_at(s, end);
		if (f == F_NONE || (seen & (1u << f)))
			return RP_LINE_GARBLED;
		s += fields[f].len;
		if (parse_u63(&s, end, &v[f]) < 0)
			return RP_LINE_GARBLED;
		seen |= 1u << f;
		const char *next = skip_blank(s, end);
		if (next == s && s < end)
			return RP_LINE_GARBLED;
		s = next;
	}
	if ((seen & 7u) != 7u)
		return RP_LINE_GARBLED;
	set_fields(out, v, seen);
	return RP_LINE_PROBE;
}

/* "[T_BASE] N", optionally with run=R before N. */
static enum rp_line_kind parse_tbase(const char *s, const char *end, struct rp_line *out)
{
	s = skip_blank(s, end);
	out->has_run = 0;
	out->run = -1;
	if (field_at(s, end) == F_RUN) {
		s += fields[F_RUN].len;
		if (parse_u63(&s, end, &out->run) < 0)
			return RP_LINE_GARBLED;
		out->has_run = 1;
		s = skip_blank(s, end);
	}
	if (parse_u63(&s, end, &out->tbase) < 0)
		return RP_LINE_GARBLED;
	return skip_blank(s, end) == end ? RP_LINE_TBASE : RP_LINE_GARBLED;
}

enum rp_line_kind rp_log_parse_line(const char *s, size_t len, struct rp_line *out)
{
	const char *end = s + len, *p = s;
	enum rp_line_kind kind = RP_LINE_OTHER;
	/* The probe may follow a harness prefix ("[INFO] dev0: [STAGE_B] ..."). */
	for (;;) {
		if (*p != '[' && !(p = memchr(p, '[', (size_t)(end - p))))
			break; /* (a probe line usually starts with it: no call) */
		const char *name = ++p;
		while (is_name_char(*p)) /* stops at the byte after the line at the latest */
			p++;
		if (p == name || p == end || *p != ']')
			continue;
		out->name = name;
		out->name_len = (size_t)(p - name);
		p++;
		if (out->name_len == 6 && !memcmp(name, "T_BASE", 6))
			return parse_tbase(p, end, out);
		kind = parse_fields(p, end, out);
		if (kind != RP_LINE_OTHER)
			return kind;
	}
	return RP_LINE_OTHER;
}

/* ---- the fast path: the usual probe line shape ---- */

#if defined(__x86_64__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#include <emmintrin.h>
#define HAVE_FAST 1

/* Which bytes of S[0..64) equal C: bit i for byte i (SSE2, x86-64's base). */
static inline uint64_t eq_mask64(const char *s, __m128i c)
{
	uint64_t m = 0;
	for (int i = 0; i < 4; i++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * i));
		m |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, c)) << (16 * i);
	}
	return m;
}

/* The keys as little-endian words: the bytes of "start=" and a mask of them. */
#define W2(a, b) ((uint64_t)(unsigned char)(a) | (uint64_t)(unsigned char)(b) << 8)
#define W4(a, b, c, d) (W2(a, b) | W2(c, d) << 16)
static const struct {
	uint64_t word, mask;
	unsigned len;
} fast_keys[F_NONE] = {
	[F_START] = { W4('s', 't', 'a', 'r') | W2('t', '=') << 32, 0xffffffffffffull, 6 },
	[F_END] = { W4('e', 'n', 'd', '='), 0xffffffffull, 4 },
	[F_DUR] = { W4('d', 'u', 'r', '='), 0xffffffffull, 4 },
	[F_BLOCK] = { W4('b', 'l', 'o', 'c') | W2('k', '=') << 32, 0xffffffffffffull, 6 },
	[F_ITER] = { W4('i', 't', 'e', 'r') | (uint64_t)'=' << 32, 0xffffffffffull, 5 },
	[F_RUN] = { W4('r', 'u', 'n', '='), 0xffffffffull, 4 },
};
#undef W2
#undef W4
/* first byte of a key -> its field + 1 */
static const unsigned char fast_key_of[256] = {
	['s'] = F_START + 1, ['e'] = F_END + 1, ['d'] = F_DUR + 1,
	['b'] = F_BLOCK + 1, ['i'] = F_ITER + 1, ['r'] = F_RUN + 1,
};

/* Per byte of V: 0 for an ASCII digit (see leading_digits). */
static inline uint64_t not_digits(uint64_t v)
{
	return ((v & 0xF0F0F0F0F0F0F0F0ull) | (((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) ^
	       0x3333333333333333ull;
}

/* Eight digit bytes (the first the most significant) to their value. */
static inline uint64_t eight_digits(uint64_t v)
{
	v = (v & 0x0F0F0F0F0F0F0F0Full) * 2561 >> 8;
	v = (v & 0x00FF00FF00FF00FFull) * 6553601 >> 16;
	return (v & 0x0000FFFF0000FFFFull) * 42949672960001ull >> 32;
}

/* The N (1..16) bytes before E as a decimal number; 0 when one is not a
 * digit. Reads the 16 bytes before E at most (the caller makes sure they
 * belong to the line). Independent of the other fields' lengths, so the
 * fields of a line are converted in parallel. */
static inline int tail_digits(const char *e, unsigned n, uint64_t *out)
{
	uint64_t lo, hi;
	memcpy(&lo, e - 8, 8);
	if (n <= 8) {
		unsigned drop = 8 * (8 - n);
		if (n < 8 && (not_digits(lo) >> drop) != 0)
			return 0;
		if (n == 8 && not_digits(lo))
			return 0;
		*out = eight_digits(n < 8 ? lo & ~0ull << drop : lo);
		return 1;
	}
	memcpy(&hi, e - 16, 8);
	unsigned drop = 8 * (16 - n);
	if (not_digits(lo) || (n < 16 ? not_digits(hi) >> drop : not_digits(hi)))
		return 0;
	*out = eight_digits(n < 16 ? hi & ~0ull << drop : hi) * 100000000u + eight_digits(lo);
	return 1;
}


/* Remember line S (taken by the fast path) as the template: a byte X of a
 * later line fits where (unsigned char)(X - bytes[i]) <= span[i], i.e. the
 * same byte (span 0), a digit where a number's digit is ('0', span 9), or
 * anything past the newline (span 0xff). */
static void tpl_set(struct rp_fast_tpl *t, const char *s, size_t len)
{
	t->len = len;
	t->nchunks = (unsigned)((len + 1 + 15) / 16);
	memset(t->bytes, 0, sizeof(t->bytes));
	memcpy(t->bytes, s, len + 1);
	memset(t->span, 0, len + 1);
	memset(t->span + len + 1, 0xff, RP_FAST_WINDOW - len - 1);
	for (unsigned i = 0; i < t->nfields; i++) {
		memset(t->bytes + t->fields[i].end - t->fields[i].n, '0', t->fields[i].n);
		memset(t->span + t->fields[i].end - t->fields[i].n, 9, t->fields[i].n);
		unsigned n = t->fields[i].n;
		t->mask[i] = ~0ull << (8 * (n <= 8 ? 8 - n : 16 - n));
	}
	/* half K: the low eight digits of field kind K, half 6 + K the ones
	 * above them (see struct rp_fast_tpl); halves without digits are 0 */
	for (unsigned k = 0; k < 12; k++) {
		t->half_off[k] = 0;
		t->half_mask[k] = 0;
	}
	for (unsigned k = 0; k < F_NONE; k++)
		t->kind_bias[k] = -1;
	t->ngroups = 2;
	for (unsigned i = 0; i < t->nfields; i++) {
		unsigned e = t->fields[i].end, k = t->fields[i].f;
		t->kind_bias[k] = 0;
		t->half_off[k] = (unsigned short)(e - 8);
		if (t->fields[i].n > 8) {
			t->half_mask[k] = ~0ull;
			t->half_off[6 + k] = (unsigned short)(e - 16);
			t->half_mask[6 + k] = t->mask[i];
			if (6 + k >= 8)
				t->ngroups = 3;
		} else {
			t->half_mask[k] = t->mask[i];
		}
	}
}

/* Halves H and H + 1 of the line at S: their digits' values, 0 elsewhere. */
static inline __m128i tpl_halves(const char *s, const struct rp_fast_tpl *t, unsigned h)
{
	uint64_t a, b;
	memcpy(&a, s + t->half_off[h], 8);
	memcpy(&b, s + t->half_off[h + 1], 8);
	__m128i x = _mm_sub_epi8(_mm_set_epi64x((long long)b, (long long)a), _mm_set1_epi8('0'));
	__m128i m = _mm_loadu_si128((const __m128i *)(const void *)&t->half_mask[h]);
	return _mm_and_si128(x, m);
}

/* Two halves of eight digit values (bytes) to four 4-digit values, in
 * the 32-bit lanes (SSE2: pmaddwd on the digits widened to 16 bits). */
static inline __m128i tpl_quads(__m128i x)
{
	const __m128i zero = _mm_setzero_si128();
	const __m128i m10 = _mm_set1_epi32(1 << 16 | 10); /* lanes: 10, 1 */
	const __m128i m100 = _mm_set1_epi32(1 << 16 | 100);
	__m128i a = _mm_madd_epi16(_mm_unpacklo_epi8(x, zero), m10);
	__m128i b = _mm_madd_epi16(_mm_unpackhi_epi8(x, zero), m10);
	return _mm_madd_epi16(_mm_packs_epi32(a, b), m100);
}

/* Halves 4G..4G+3 of the line at S: their values in the 32-bit lanes. */
static inline __m128i tpl_group(const char *s, const struct rp_fast_tpl *t, unsigned g)
{
	const __m128i m10000 = _mm_set1_epi32(1 << 16 | 10000);
	__m128i p = tpl_quads(tpl_halves(s, t, 4 * g));
	__m128i q = tpl_quads(tpl_halves(s, t, 4 * g + 2));
	/* 4-digit values fit int16: pack, then hi * 10000 + lo */
	return _mm_madd_epi16(_mm_packs_epi32(p, q), m10000);
}

_Static_assert(offsetof(struct rp_rec, end) == offsetof(struct rp_rec, start) + 8 &&
		       offsetof(struct rp_rec, dur) == offsetof(struct rp_rec, start) + 16 &&
		       offsetof(struct rp_rec, block) == offsetof(struct rp_rec, start) + 24 &&
		       offsetof(struct rp_rec, iter) == offsetof(struct rp_rec, start) + 32 &&
		       offsetof(struct rp_rec, run) == offsetof(struct rp_rec, start) + 40,
	       "rp_rec's numbers in field-kind order");
/* The line at S laid out like T: its start and end, dur and block, iter
 * and run, as pairs of int64 (-1 for a field the line lacks), in the
 * order of struct rp_rec's fields (asserted above), so stored as they
 * come. Not inlined: inlined into the template loop, the bench logs took
 * 3-5% longer (16 rotated rounds each). */
static __attribute__((noinline)) void tpl_values(const char *s, const struct rp_fast_tpl *t, __m128i out[3])
{
	const __m128i zero = _mm_setzero_si128();
	const __m128i e8 = _mm_set1_epi64x(100000000);
	__m128i lo = tpl_group(s, t, 0); /* start, end, dur, block: low digits */
	__m128i mid = tpl_group(s, t, 1); /* iter, run low; start, end high */
	__m128i hi = t->ngroups > 2 ? tpl_group(s, t, 2) : zero; /* dur ... run high */
	const __m128i *bias = (const __m128i *)(const void *)t->kind_bias;
	out[0] = _mm_add_epi64(_mm_add_epi64(_mm_unpacklo_epi32(lo, zero),
					     _mm_mul_epu32(_mm_unpackhi_epi32(mid, zero), e8)),
			       _mm_loadu_si128(bias));
	out[1] = _mm_add_epi64(_mm_add_epi64(_mm_unpackhi_epi32(lo, zero),
					     _mm_mul_epu32(_mm_unpacklo_epi32(hi, zero), e8)),
			       _mm_loadu_si128(bias + 1));
	out[2] = _mm_add_epi64(_mm_add_epi64(_mm_unpacklo_epi32(mid, zero),
					     _mm_mul_epu32(_mm_unpackhi_epi32(hi, zero), e8)),
			       _mm_loadu_si128(bias + 2));
}

/* Per byte of chunk C of S: 0xff where it fits T (see tpl_set). */
static inline __m128i tpl_chunk_ok(const char *s, const struct rp_fast_tpl *t, unsigned c)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * c));
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(t->bytes + 16 * c));
	__m128i span = _mm_loadu_si128((const __m128i *)(const void *)(t->span + 16 * c));
	__m128i d = _mm_sub_epi8(x, b);
	return _mm_cmpeq_epi8(_mm_min_epu8(d, span), d);
}

/* Whether the line at S (ending before END) is laid out like T. */
static inline int tpl_fits(const char *s, const char *end, const struct rp_fast_tpl *t)
{
	/* a line of another length first (lines alternating between layouts
	 * whose numbers differ in length try the wrong template often) */
	if ((size_t)(end - s) <= t->len || s[t->len] != '\n')
		return 0;
	__m128i acc = tpl_chunk_ok(s, t, 0);
	for (unsigned c = 1; c < t->nchunks; c++)
		acc = _mm_and_si128(acc, tpl_chunk_ok(s, t, c));
	return _mm_movemask_epi8(acc) == 0xffff;
}

/* Line S in the layout of T: 1 with OUT filled, else 0. */
static inline __attribute__((always_inline)) int parse_tpl(const char *s, const char *end,
							    const struct rp_fast_tpl *t, struct rp_line *out)
{
	if (!tpl_fits(s, end, t))
		return 0;
	int64_t v[F_NONE];
	__m128i x[3];
	tpl_values(s, t, x);
	for (unsigned k = 0; k < 3; k++)
		_mm_storeu_si128((__m128i *)(void *)&v[2 * k], x[k]);
	out->name = s + 1;
	out->name_len = t->name_len;
	set_fields(out, v, t->seen);
	return 1;
}

static inline __attribute__((always_inline)) int parse_fast(const char *s, size_t len, struct rp_line *out,
							     struct rp_fast_tpl *tpl)
{
	if (len + 8 >= RP_FAST_WINDOW || s[0] != '[')
		return 0;
	const __m128i space = _mm_set1_epi8(' ');
	uint64_t sp0 = eq_mask64(s, space);
	uint64_t sp1 = len > 64 ? eq_mask64(s + 64, space) : 0;
	size_t q = 1;
	while (is_name_char(s[q])) /* s[len] stops it at the latest */
		q++;
	/* "[NAME] " and a field: the name ends the line's first word */
	if (q == 1 || q + 3 >= len || s[q] != ']' || s[q + 1] != ' ')
		return 0;
	if (q == 7 && !memcmp(s + 1, "T_BASE", 6))
		return 0;
	volatile int64_t v[F_NONE]; /* see parse_tpl */
	unsigned seen = 0;
	size_t a = q + 2; /* the current field */
	struct {
		unsigned char f, n;
		unsigned short end;
	} fl[F_NONE]; /* for the template */
	unsigned nf = 0;
	for (;;) {
		/* its end: the next space, or the line's end */
		uint64_t m0 = a < 64 ? sp0 & (~0ull << a) : 0;
		uint64_t m1 = a < 64 ? sp1 : sp1 & (~0ull << (a - 64));
		size_t b = m0 ? (size_t)__builtin_ctzll(m0) : m1 ? 64 + (size_t)__builtin_ctzll(m1) : len;
		if (b > len)
			b = len; /* a space past the line: not this line's */
		unsigned f = fast_key_of[(unsigned char)s[a]];
		if (!f--)
			return 0;
		uint64_t w;
		memcpy(&w, s + a, 8); /* within the window */
		size_t n = b - a - fast_keys[f].len; /* digits */
		if (((w ^ fast_keys[f].word) & fast_keys[f].mask) || b - a <= fast_keys[f].len ||
		    n > 16 || (seen & (1u << f)))
			return 0;
		uint64_t x;
		if (!tail_digits(s + b, (unsigned)n, &x))
			return 0;
		v[f] = (int64_t)x;
		fl[nf].f = (unsigned char)f;
		fl[nf].n = (unsigned char)n;
		fl[nf].end = (unsigned short)b;
		nf++;
		seen |= 1u << f;
		if (b == len)
			break;
		a = b + 1;
	}
	if ((seen & 7u) != 7u)
		return 0;
	if (tpl) {
		tpl->seen = seen;
		tpl->name_len = q - 1;
		tpl->nfields = nf;
		memcpy(tpl->fields, fl, nf * sizeof(fl[0]));
		tpl_set(tpl, s, len);
	}
	out->name = s + 1;
	out->name_len = q - 1;
	set_fields(out, v, seen);
	return 1;
}

int rp_log_parse_fast(const char *s, size_t len, struct rp_line *out)
{
	return parse_fast(s, len, out, NULL);
}

/* Where the newline ending the line at S is, if within the window. */
static inline size_t newline_in_window(const char *s)
{
	const __m128i nl = _mm_set1_epi8('\n');
	uint64_t m = eq_mask64(s, nl);
	if (m)
		return (size_t)__builtin_ctzll(m);
	m = eq_mask64(s + 64, nl);
	return m ? 64 + (size_t)__builtin_ctzll(m) : SIZE_MAX;
}
#else
int rp_log_parse_fast(const char *s, size_t len, struct rp_line *out)
{
	(void)s;
	(void)len;
	(void)out;
	return 0;
}
#endif

/* ---- aggregation ---- */

void rp_log_init(struct rp_log *lg, const char *run_sep, size_t repeat)
{
	memset(lg, 0, sizeof(*lg));
	lg->run_sep = run_sep && *run_sep ? run_sep : NULL;
	lg->repeat = repeat ? repeat : 1;
	lg->seg_run = NO_RUN;
	for (size_t i = 0; i < 4; i++)
		lg->recent[i] = NO_RUN;
	lg->last_run = NO_RUN;
	lg->last_series = NO_RUN;
	lg->ahead = NO_RUN;
}

void rp_log_free(struct rp_log *lg)
{
	for (size_t i = 0; i < lg->nprobes; i++) {
		free(lg->probes[i].name);
		free(lg->probes[i].first_mismatch_file);
	}
	for (size_t i = 0; i < lg->nseries; i++) {
		free(lg->samples[i].samples);
		free(lg->samples[i].rels);
	}
	for (size_t i = 0; i < lg->nruns; i++)
		free(lg->runs[i].label);
	for (size_t i = 0; i < 5; i++)
		free(lg->garbled_where[i]);
	free(lg->probes);
	free(lg->series);
	free(lg->samples);
	rp_arena_free(&lg->arena);
	free(lg->findings);
	free(lg->runs);
	free(lg->seg_label);
	rp_hash_free(&lg->finding_hash);
	rp_hash_free(&lg->series_hash);
	free(lg->series_fast.slots);
	rp_hash_free(&lg->run_hash);
	rp_hash_free(&lg->name_hash);
	rp_hash_free(&lg->run_probes);
	memset(lg, 0, sizeof(*lg));
}

static void new_segment(struct rp_log *lg, char *label)
{
	free(lg->seg_label);
	lg->seg_label = label;
	lg->segment++;
	lg->seg_run = NO_RUN;
}

void rp_log_begin_file(struct rp_log *lg, const char *name)
{
	lg->file = name;
	lg->lineno = 0;
	new_segment(lg, pk_xstrdup(name));
}

static uint32_t new_run(struct rp_log *lg, const char *label)
{
	PK_GROW(lg->runs, lg->rcap, lg->nruns + 1);
	struct rp_run *r = &lg->runs[lg->nruns];
	memset(r, 0, sizeof(*r));
	r->label = pk_xstrdup(label);
	return (uint32_t)lg->nruns++;
}

/* The run a line belongs to: its segment, refined by a run=R field. */
static inline uint32_t run_of(struct rp_log *lg, int64_t run_field)
{
	if (run_field < 0) {
		if (lg->seg_run == NO_RUN)
			lg->seg_run = new_run(lg, lg->seg_label);
		return lg->seg_run;
	}
	if (lg->last_run != NO_RUN && lg->last_run_seg == lg->segment && lg->last_run_value == run_field)
		return lg->last_run;
	int64_t k[4] = { (int64_t)lg->segment, run_field, 0, 0 };
	uint32_t r = rp_hash_get(&lg->run_hash, k);
	if (r == NO_RUN) {
		char label[64];
		snprintf(label, sizeof(label), " run=%lld", (long long)run_field);
		char *full = pk_xmalloc(strlen(lg->seg_label) + strlen(label) + 1);
		strcpy(full, lg->seg_label);
		strcat(full, label);
		r = new_run(lg, full);
		free(full);
		rp_hash_put(&lg->run_hash, k, r);
	}
	lg->last_run_seg = lg->segment;
	lg->last_run_value = run_field;
	return lg->last_run = r;
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

/* memcmp for probe names of a few bytes, without the call. */
static inline int same_bytes(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* The probe named NAME, or NO_RUN with K the key it would take (the
 * first free collision index). */
static uint32_t probe_find(const struct rp_log *lg, const char *name, size_t len, int64_t k[4])
{
	for (rp_hash_str_key(name, len, k);; k[2]++) {
		uint32_t p = rp_hash_get(&lg->name_hash, k);
		if (p == NO_RUN || (lg->probes[p].name_len == len && !memcmp(lg->probes[p].name, name, len)))
			return p;
	}
}

uint32_t rp_log_find_probe(const struct rp_log *lg, const char *name, size_t len)
{
	int64_t k[4];
	return probe_find(lg, name, len, k);
}

/* The probe named NAME, made when new. */
static uint32_t probe_lookup(struct rp_log *lg, const char *name, size_t len)
{
	int64_t k[4];
	uint32_t p = probe_find(lg, name, len, k);
	if (p != NO_RUN)
		return p;
	PK_GROW(lg->probes, lg->pcap, lg->nprobes + 1);
	memset(&lg->probes[lg->nprobes], 0, sizeof(struct rp_probe));
	lg->probes[lg->nprobes].name = pk_xstrndup(name, len);
	lg->probes[lg->nprobes].name_len = len;
	rp_hash_put(&lg->name_hash, k, (uint32_t)lg->nprobes);
	return (uint32_t)lg->nprobes++;
}

static uint32_t probe_of(struct rp_log *lg, const char *name, size_t len)
{
	for (size_t i = 0; i < 4 && lg->recent[i] != NO_RUN; i++) {
		uint32_t p = lg->recent[i];
		const struct rp_probe *pr = &lg->probes[p];
		if (pr->name_len == len && same_bytes(pr->name, name, len)) {
			for (; i > 0; i--) /* to the front */
				lg->recent[i] = lg->recent[i - 1];
			lg->recent[0] = p;
			return p;
		}
	}
	uint32_t p = probe_lookup(lg, name, len);
	memmove(&lg->recent[1], &lg->recent[0], 3 * sizeof(lg->recent[0]));
	lg->recent[0] = p;
	return p;
}

/* The keys of series (PROBE, BLOCK, ITER): 1 with *FAST the packed key
 * when the numbers fit 16/16/32 bits (lg->series_fast), else 0 (K, for
 * lg->series_hash). */
static int series_key(uint32_t probe, int64_t block, int64_t iter, uint64_t *fast, int64_t k[4])
{
	/* block and iter are -1 when absent, hence the +1 (unsigned: a value
	 * of INT64_MAX does not fit, but must not overflow either) */
	*fast = (uint64_t)probe << 48 | ((uint64_t)block + 1) << 32 | ((uint64_t)iter + 1);
	k[0] = probe;
	k[1] = block;
	k[2] = iter;
	k[3] = 0;
	return probe < 0xffff && block < 0xfffe && iter < 0xfffffffeLL;
}

uint32_t rp_log_find_series(const struct rp_log *lg, uint32_t probe, int64_t block, int64_t iter)
{
	uint64_t fast;
	int64_t k[4];
	return series_key(probe, block, iter, &fast, k) ? hash64_get(&lg->series_fast, fast)
							 : rp_hash_get(&lg->series_hash, k);
}

static uint32_t series_of(struct rp_log *lg, uint32_t probe, int64_t block, int64_t iter)
{
	uint32_t s = rp_log_find_series(lg, probe, block, iter);
	if (s != NO_RUN)
		return s;
	uint64_t fast;
	int64_t k[4];
	int fits = series_key(probe, block, iter, &fast, k);
	PK_GROW(lg->series, lg->scap, lg->nseries + 1);
	PK_GROW(lg->samples, lg->samples_cap, lg->nseries + 1);
	memset(&lg->samples[lg->nseries], 0, sizeof(*lg->samples));
	struct rp_series *se = &lg->series[lg->nseries];
	memset(se, 0, sizeof(*se));
	se->probe = probe;
	se->block = block;
	se->iter = iter;
	se->run = NO_RUN;
	se->next = NO_RUN;
	if (fits)
		hash64_put(&lg->series_fast, fast, (uint32_t)lg->nseries);
	else
		rp_hash_put(&lg->series_hash, k, (uint32_t)lg->nseries);
	return (uint32_t)lg->nseries++;
}

/* Record (or raise the count of) one finding per (run, probe, kind). */
static void add_finding(struct rp_log *lg, uint32_t run, uint32_t probe, enum rp_finding_kind kind,
			uint32_t count)
{
	int64_t k[4] = { run, probe, kind, 0 };
	uint32_t f = rp_hash_get(&lg->finding_hash, k);
	if (f == NO_RUN) {
		PK_GROW(lg->findings, lg->fcap, lg->nfindings + 1);
		f = (uint32_t)lg->nfindings++;
		lg->findings[f] = (struct rp_finding){ run, probe, 0, kind };
		rp_hash_put(&lg->finding_hash, k, f);
	}
	if (count > lg->findings[f].count)
		lg->findings[f].count = count;
}

/* Count PROBE among the distinct probes of run RUN: the first four are
 * kept for the report, the rest found through lg->run_probes. */
static void note_probe_in_run(struct rp_log *lg, uint32_t run, uint32_t probe)
{
	struct rp_run *r = &lg->runs[run];
	for (size_t i = 0; i < r->nprobes && i < 4; i++)
		if (r->probes[i] == probe)
			return;
	if (r->nprobes < 4) {
		r->probes[r->nprobes++] = probe;
		return;
	}
	int64_t k[4] = { run, probe, 0, 0 };
	if (rp_hash_get(&lg->run_probes, k) != NO_RUN)
		return;
	rp_hash_put(&lg->run_probes, k, 0);
	r->nprobes++;
}

static char *where(const struct rp_log *lg)
{
	char buf[32];
	snprintf(buf, sizeof(buf), ":%lld", (long long)lg->lineno);
	char *s = pk_xmalloc(strlen(lg->file) + strlen(buf) + 1);
	strcpy(s, lg->file);
	strcat(s, buf);
	return s;
}

/* How many lines ahead to fetch a series struct: a log with thousands of
 * series (loop iterations x blocks) visits each once per cycle of them.
 * 32 against 16: 0.903-0.961 wall, 0.944-0.979 CPU on the bench logs
 * (three rotated comparisons of 12-16 rounds); 64 was no better. */
#define AHEAD 32

/* Keep lg->ahead AHEAD series further along the learnt order than S, and
 * fetch that series' successor. ON_CHAIN: S was the guess, so lg->ahead
 * only moves one step. */
static void look_ahead(struct rp_log *lg, uint32_t s, int on_chain)
{
	if (lg->series[s].next == s + 1) {
		/* the usual order: series made in the order the lines come (the
		 * chain is only one step ahead of a fetch from memory) */
		if (s + AHEAD < lg->nseries)
			__builtin_prefetch(&lg->series[s + AHEAD]);
		lg->ahead = NO_RUN;
		return;
	}
	uint32_t a = lg->ahead;
	if (on_chain && a != NO_RUN) {
		a = lg->series[a].next;
	} else {
		a = s;
		for (int i = 0; i < AHEAD && a != NO_RUN; i++)
			a = lg->series[a].next;
	}
	lg->ahead = a;
	if (a == NO_RUN)
		return;
	const struct rp_series *x = &lg->series[a];
	if (x->next != NO_RUN)
		__builtin_prefetch(&lg->series[x->next]);
}

/* The series of a line. Repeats and runs print their lines in one order, so
 * each series remembers its successor: a correct guess skips the hash, and
 * the learnt order tells what to fetch ahead (look_ahead). */
static uint32_t series_of_line(struct rp_log *lg, uint32_t probe, const struct rp_rec *ln)
{
	uint32_t s = lg->last_series == NO_RUN ? NO_RUN : lg->series[lg->last_series].next;
	int on_chain = s != NO_RUN && lg->series[s].probe == probe && lg->series[s].block == ln->block &&
		       lg->series[s].iter == ln->iter;
	if (!on_chain)
		s = series_of(lg, probe, ln->block, ln->iter); /* may move lg->series */
	if (lg->last_series != NO_RUN)
		lg->series[lg->last_series].next = s;
	look_ahead(lg, s, on_chain);
	return s;
}

static void add_probe_line(struct rp_log *lg, struct rp_rec *ln)
{
	uint32_t run = run_of(lg, ln->run);
	/* the previous probe line's probe is recent[0] */
	uint32_t probe = ln->same_name && lg->recent[0] != NO_RUN ? lg->recent[0]
								  : probe_of(lg, ln->name, ln->name_len);
	uint32_t series = series_of_line(lg, probe, ln);
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
		 * intervals of one key mean several blocks print (S1.6). */
		add_finding(lg, run, probe, RP_FIND_OVERLAP, 1);
	}
	if (++se->run_count > lg->repeat)
		add_finding(lg, run, probe, RP_FIND_REPEAT, se->run_count);
	se->last_end = ln->end;
	r->nlines++;
	if (r->nprobes == 0 || r->probes[0] != probe)
		note_probe_in_run(lg, run, probe);
	if (ln->end - ln->start != ln->dur && !p->dur_mismatch++)
		p->first_mismatch_file = where(lg);
	/* the sample for rp_log_store; start - tbase > INT64_MIN = RP_NO_REL */
	if (r->ntbase) {
		ln->start -= r->tbase;
		ln->end -= r->tbase;
	} else {
		ln->start = ln->end = RP_NO_REL;
		r->tbase_late = 1;
	}
	ln->run = series;
	lg->last_series = series;
}

/* ---- sample storage ---- */

#define REGION_BYTES ((size_t)16 << 20)

void *rp_arena_alloc(struct rp_arena *a, size_t bytes)
{
	bytes = (bytes + 63) & ~(size_t)63;
	if ((size_t)(a->end - a->cur) < bytes) {
		size_t n = bytes > REGION_BYTES ? bytes : REGION_BYTES;
		char *r = pk_xmalloc(n + 63);
		PK_GROW(a->regions, a->rcap, a->nregions + 1);
		a->regions[a->nregions++] = r;
		a->cur = r + (-(uintptr_t)r & 63);
		a->end = a->cur + n;
	}
	void *p = a->cur;
	a->cur += bytes;
	return p;
}

void rp_arena_free(struct rp_arena *a)
{
	for (size_t i = 0; i < a->nregions; i++)
		free(a->regions[i]);
	free(a->regions);
	memset(a, 0, sizeof(*a));
}

/* Samples before chunk K: 8, 16, 32, then 64 a chunk. */
static inline size_t before_chunk(uint32_t k)
{
	return k < 3 ? (((size_t)8 << k) - 8) : 56 + (size_t)(k - 3) * RP_CHUNK_MAX;
}

/* Chunk K of compact SE and how many samples it holds. */
static inline const struct rp_chunk *chunk(const struct rp_samples *se, uint32_t k, size_t *n)
{
	size_t left = se->n - before_chunk(k), cap = rp_chunk_cap(k);
	*n = left < cap ? left : cap;
	return &((const struct rp_chunk *)se->samples)[k];
}

/* Bytes a duration takes in a chunk of BASE. */
static inline size_t dur_width(int32_t base)
{
	return base == RP_CHUNK32 ? sizeof(int32_t) : sizeof(uint16_t);
}

/* Duration I of chunk C. */
static inline int64_t dur_at(const struct rp_chunk *c, size_t i)
{
	if (c->base == RP_CHUNK32)
		return ((const int32_t *)c->v)[i];
	return (int64_t)c->base + ((const uint16_t *)c->v)[i];
}

/* The relative start of sample I of chunk K of compact SE. */
static inline int32_t rel_at(const struct rp_samples *se, uint32_t k, size_t i)
{
	return se->rels ? se->rels[k][i] : se->w.rel0;
}

void rp_samples_count(const struct rp_put *h, struct rp_samples *se)
{
	if (se->wide) /* counted as stored */
		return;
	size_t n = 0;
	if (se->nch) {
		n = before_chunk(se->nch - 1) + rp_chunk_cap(se->nch - 1) -
		    (size_t)(h->end - h->put) / dur_width(h->base);
	}
	se->n = n;
	se->nrel = se->rels ? n - se->norel : h->rel0 != RP_NO_REL32 ? n : 0;
}

/* Turn SE's samples wide (a sample that does not fit 32 bits came; SE
 * counted). Its chunks stay in the arena, unused. */
static void widen(struct rp_put *h, struct rp_samples *se)
{
	size_t cap = se->n + se->n / 2 + 8, j = 0;
	struct rp_sample *w = pk_xmalloc(cap * sizeof(*w));
	se->w.rel0 = h->rel0;
	for (uint32_t k = 0; k < se->nch; k++) {
		size_t m;
		const struct rp_chunk *c = chunk(se, k, &m);
		for (size_t i = 0; i < m; i++, j++) {
			int32_t r = rel_at(se, k, i);
			int64_t d = dur_at(c, i);
			if (r == RP_NO_REL32)
				w[j] = (struct rp_sample){ d, RP_NO_REL, RP_NO_REL };
			else
				w[j] = (struct rp_sample){ d, r, r + d };
		}
	}
	free(se->samples);
	free(se->rels);
	se->samples = w;
	se->rels = NULL;
	se->cap = cap;
	memset(h, 0, sizeof(*h));
	se->nch = 0;
	se->wide = 1;
}

/* The starts of compact SE (counted) stop being all one: a chunk of them
 * beside each chunk of durations, those stored so far rel0. */
static void vary(struct rp_arena *a, struct rp_put *h, struct rp_samples *se)
{
	se->rels = pk_xmalloc(se->cap * sizeof(*se->rels));
	se->norel = h->rel0 == RP_NO_REL32 ? se->n : 0;
	for (uint32_t k = 0; k < se->nch; k++) {
		size_t m;
		chunk(se, k, &m);
		se->rels[k] = rp_arena_alloc(a, rp_chunk_cap(k) * sizeof(int32_t));
		for (size_t i = 0; i < m; i++)
			se->rels[k][i] = h->rel0;
		h->rput = se->rels[k] + m;
	}
}

/* The base of a chunk whose first duration is DUR: a window of 65,536
 * around it (from 0 for short ones), or int32 when that would pass
 * INT32_MAX or the series' last chunk left its window. */
static int32_t chunk_base(const struct rp_samples *se, int64_t dur)
{
	if (se->spilt)
		return RP_CHUNK32;
	if (dur <= UINT16_MAX)
		return 0;
	return dur - 32768 + UINT16_MAX <= INT32_MAX ? (int32_t)(dur - 32768) : RP_CHUNK32;
}

/* A new last chunk for compact SE (the last one is full, or there is none),
 * its first duration DUR. */
static void new_chunk(struct rp_arena *a, struct rp_put *h, struct rp_samples *se, int64_t dur)
{
	struct rp_chunk *ch = se->samples;
	size_t cap = se->cap;
	PK_GROW(ch, se->cap, (size_t)se->nch + 1);
	se->samples = ch;
	if (se->rels && se->cap != cap)
		se->rels = pk_xrealloc(se->rels, se->cap * sizeof(*se->rels));
	size_t m = rp_chunk_cap(se->nch);
	h->base = chunk_base(se, dur);
	se->spilt = 0;
	size_t width = dur_width(h->base);
	ch[se->nch] = (struct rp_chunk){ rp_arena_alloc(a, m * width), h->base };
	h->put = ch[se->nch].v;
	h->end = h->put + m * width;
	if (se->rels)
		se->rels[se->nch] = h->rput = rp_arena_alloc(a, m * sizeof(int32_t));
	se->nch++;
}

/* The last chunk of SE turns int32 (a duration left its window). Its
 * 16-bit room stays in the arena, unused. */
static void spill(struct rp_arena *a, struct rp_put *h, struct rp_samples *se)
{
	struct rp_chunk *c = &((struct rp_chunk *)se->samples)[se->nch - 1];
	size_t m = rp_chunk_cap(se->nch - 1), used = m - (size_t)(h->end - h->put) / sizeof(uint16_t);
	int32_t *w = rp_arena_alloc(a, m * sizeof(int32_t));
	for (size_t i = 0; i < used; i++)
		w[i] = (int32_t)dur_at(c, i);
	*c = (struct rp_chunk){ w, RP_CHUNK32 };
	h->base = RP_CHUNK32;
	se->spilt = 1;
	h->put = (char *)(w + used);
	h->end = (char *)(w + m);
}

void rp_log_store_ent(struct rp_arena *a, struct rp_put *h, struct rp_samples *se,
		      const struct rp_rec *rec)
{
	if (rp_put_sample(h, rec))
		return;
	int64_t dur = rec->dur, s = rec->start, e = rec->end;
	rp_samples_count(h, se);
	if (!se->wide) {
		/* dur >= 0 (parsed); RP_NO_REL comes for both or neither */
		int fits = dur <= INT32_MAX &&
			   (s == RP_NO_REL || (s > INT32_MIN && s <= INT32_MAX && e == s + dur));
		if (fits) {
			int32_t r = s == RP_NO_REL ? RP_NO_REL32 : (int32_t)s;
			if (se->n == 0)
				h->rel0 = r;
			else if (!se->rels && r != h->rel0)
				vary(a, h, se);
			if (h->put == h->end)
				new_chunk(a, h, se, dur);
			else if (h->base != RP_CHUNK32 && (uint64_t)dur - (uint64_t)h->base > UINT16_MAX)
				spill(a, h, se);
			rp_put_now(h, dur, r);
			/* (rp_put_sample leaves missing starts to this count) */
			se->norel += h->rput && r == RP_NO_REL32;
			return;
		}
		widen(h, se);
	}
	if (se->n == se->cap) {
		struct rp_sample *w = se->samples;
		PK_GROW(w, se->cap, se->n + 1);
		se->samples = w;
	}
	struct rp_sample *sm = (struct rp_sample *)se->samples + se->n++;
	sm->dur = dur;
	sm->rel_start = s;
	sm->rel_end = e;
	se->nrel += s != RP_NO_REL;
}

void rp_log_store(struct rp_log *lg, const struct rp_rec *rec)
{
	struct rp_samples *se = &lg->samples[rec->run];
	rp_log_store_ent(&lg->arena, &se->w, se, rec);
	rp_samples_sync(se);
}

size_t rp_series_field(const struct rp_samples *sp, enum rp_sample_field f, int64_t *out)
{
	size_t n = 0;
	if (!sp->wide) {
		int64_t with_dur = f == RP_REL_END;
		for (uint32_t k = 0; k < sp->nch; k++) {
			size_t m;
			const struct rp_chunk *c = chunk(sp, k, &m);
			if (f == RP_DUR) {
				for (size_t i = 0; i < m; i++)
					out[n++] = dur_at(c, i);
				continue;
			}
			for (size_t i = 0; i < m; i++) {
				int32_t r = rel_at(sp, k, i);
				if (r != RP_NO_REL32)
					out[n++] = r + with_dur * dur_at(c, i);
			}
		}
		return n;
	}
	const struct rp_sample *w = sp->samples;
	if (f == RP_DUR) {
		for (size_t i = 0; i < sp->n; i++)
			out[i] = w[i].dur;
		return sp->n;
	}
	for (size_t i = 0; i < sp->n; i++)
		if (w[i].rel_start != RP_NO_REL)
			out[n++] = f == RP_REL_START ? w[i].rel_start : w[i].rel_end;
	return n;
}

size_t rp_series_nparts(const struct rp_samples *sp)
{
	return sp->wide ? 1 : sp->nch;
}

/* Where SE's durations are, for rp_stats_parts. */
size_t rp_series_durs(const struct rp_samples *sp, struct rp_values *out)
{
	if (sp->wide) {
		out[0] = (struct rp_values){ &((const struct rp_sample *)sp->samples)->dur, sp->n,
					     sizeof(struct rp_sample), RP_V64, 0 };
		return 1;
	}
	for (uint32_t k = 0; k < sp->nch; k++) {
		size_t m;
		const struct rp_chunk *c = chunk(sp, k, &m);
		if (c->base == RP_CHUNK32)
			out[k] = (struct rp_values){ c->v, m, sizeof(int32_t), RP_V32, 0 };
		else
			out[k] = (struct rp_values){ c->v, m, sizeof(uint16_t), RP_V16, c->base };
	}
	return sp->nch;
}

void rp_log_classify(const char *run_sep, const char *s, size_t len, struct rp_rec *rec)
{
	struct rp_line ln;
	enum rp_line_kind kind = rp_log_parse_line(s, len, &ln);
	rec->kind = kind;
	rec->same_name = 0;
	rec->sep = kind == RP_LINE_OTHER && run_sep && memmem(s, len, run_sep, strlen(run_sep));
	if (kind == RP_LINE_PROBE) {
		rec->name = ln.name;
		rec->name_len = ln.name_len;
		rec->start = ln.start;
		rec->end = ln.end;
		rec->dur = ln.dur;
		rec->block = ln.block;
		rec->iter = ln.iter;
		rec->run = ln.run;
	} else if (kind == RP_LINE_TBASE) {
		rec->start = ln.tbase;
		rec->run = ln.run;
	}
}

/* The record of a probe line, written whole: assigning the bit fields one
 * by one would read the record's cache line first (a line the other
 * threads wrote last), and a record built on the stack and copied would
 * be read back before its stores complete. So the bit-field word is made
 * in a register: x86-64's ABI puts the first bit field in the lowest bits
 * (checked by the test rec_word). */
static inline void rec_head(struct rp_rec *rec, const char *name, size_t len, int same)
{
	uint64_t word = rp_rec_word(len, RP_LINE_PROBE, 0, (unsigned)same);
	rec->name = name;
	memcpy((char *)rec + offsetof(struct rp_rec, name) + sizeof(rec->name), &word, sizeof(word));
}

/* A probe line's record from LN (the fast path's). */
static inline void fast_rec(struct rp_rec *rec, const struct rp_line *ln, struct rp_fast_tpl *tpl,
			    int by_tpl)
{
	const char *a = tpl ? tpl->last_name : NULL;
	size_t k = 0, n = ln->name_len;
	if (a && by_tpl && tpl->last_is_tpl) {
		k = n; /* the template's name, like the last probe line's */
	} else if (a && tpl->last_name_len == n) {
		while (k < n && a[k] == ln->name[k])
			k++;
	}
	if (tpl) {
		tpl->last_name = ln->name;
		tpl->last_name_len = n;
		tpl->last_is_tpl = 1; /* this line is the template, or fits it */
	}
	rec_head(rec, ln->name, n, a && k == n);
	rec->start = ln->start;
	rec->end = ln->end;
	rec->dur = ln->dur;
	rec->block = ln->block;
	rec->iter = ln->iter;
	rec->run = ln->run;
}

/* REC (a probe line's) names the probe TPL's last probe line named. */
static inline void same_name(struct rp_fast_tpl *tpl, struct rp_rec *rec)
{
	if (!tpl || rec->kind != RP_LINE_PROBE)
		return;
	const char *a = tpl->last_name, *c = rec->name;
	size_t n = rec->name_len, k = 0;
	if (a && tpl->last_name_len == n)
		while (k < n && a[k] == c[k]) /* a few bytes: no call */
			k++;
	rec->same_name = a && k == n;
	tpl->last_name = c;
	tpl->last_name_len = n;
	tpl->last_is_tpl = 0;
}

size_t rp_log_classify_at(const char *run_sep, const char *p, const char *end, const char *limit,
			  struct rp_fast_tpl *tpl, struct rp_rec *rec)
{
#ifdef HAVE_FAST
	if (limit - p >= RP_FAST_WINDOW) {
		struct rp_line ln;
		if (limit - p >= RP_FAST_WINDOW + 1024)
			__builtin_prefetch(p + 1024); /* the file, a few lines on */
		if (tpl && tpl->len && parse_tpl(p, end, tpl, &ln)) {
			fast_rec(rec, &ln, tpl, 1);
			return tpl->len;
		}
		size_t n = newline_in_window(p);
		if (n < (size_t)(end - p)) {
			if (parse_fast(p, n, &ln, tpl)) {
				fast_rec(rec, &ln, tpl, 0);
			} else {
				rp_log_classify(run_sep, p, n, rec);
				same_name(tpl, rec);
			}
			return n;
		}
	}
#else
	(void)limit;
#endif
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl)
		return SIZE_MAX;
	rp_log_classify(run_sep, p, (size_t)(nl - p), rec);
	same_name(tpl, rec);
	return (size_t)(nl - p);
}

#ifdef HAVE_FAST
/* A line laid out like template J of TT, straight into its record (the
 * common case, in a loop of its own: no call, no rp_line between). */
static inline __attribute__((always_inline)) int tpl_rec(const char *s, const char *end,
							  struct rp_fast_tpls *tt, unsigned j,
							  struct rp_rec *rec)
{
	const struct rp_fast_tpl *t = &tt->t[j];
	struct rp_fast_tpl *st = &tt->t[0]; /* the stream's state */
	if (!tpl_fits(s, end, t))
		return 0;
	__m128i x[3];
	tpl_values(s, t, x);
	/* as fast_rec: the template's name, like the last probe line's when
	 * that one fitted the same template */
	int same = st->last_name && st->last_is_tpl == (int)j + 1;
	if (!same && st->last_name && st->last_name_len == t->name_len)
		same = same_bytes(st->last_name, s + 1, t->name_len);
	st->last_name = s + 1;
	st->last_name_len = t->name_len;
	st->last_is_tpl = (int)j + 1;
	rec_head(rec, s + 1, t->name_len, same);
	_mm_storeu_si128((__m128i *)(void *)&rec->start, x[0]);
	_mm_storeu_si128((__m128i *)(void *)&rec->dur, x[1]);
	_mm_storeu_si128((__m128i *)(void *)&rec->iter, x[2]);
	return 1;
}
#endif

void rp_fast_tpls_init(struct rp_fast_tpls *tt)
{
	for (unsigned j = 0; j < RP_NTPL; j++) {
		tt->t[j].len = 0;
		tt->t[j].last_name = NULL;
		tt->t[j].last_is_tpl = 0;
		tt->order[j] = (unsigned char)j;
	}
}

/* Template J of TT to the front of its order. */
static void tpl_to_front(struct rp_fast_tpls *tt, unsigned j)
{
	unsigned i = 0;
	while (tt->order[i] != j)
		i++;
	for (; i > 0; i--)
		tt->order[i] = tt->order[i - 1];
	tt->order[0] = (unsigned char)j;
}

/* One line the templates did not take: through rp_log_classify_at with the
 * least recently fitted template, which a fast-path line replaces. */
static size_t classify_other(const char *run_sep, const char *p, const char *end, const char *limit,
			     struct rp_fast_tpls *tt, struct rp_rec *rec)
{
	unsigned v = tt->order[RP_NTPL - 1];
	struct rp_fast_tpl *t = &tt->t[v], *st = &tt->t[0];
	/* the stream's state in, as a single template sees it */
	t->last_name = st->last_name;
	t->last_name_len = st->last_name_len;
	t->last_is_tpl = st->last_is_tpl == (int)v + 1;
	size_t len = rp_log_classify_at(run_sep, p, end, limit, t, rec);
	st->last_name = t->last_name;
	st->last_name_len = t->last_name_len;
	st->last_is_tpl = t->last_is_tpl ? (int)v + 1 : 0;
	if (t->last_is_tpl) /* a fast-path line: its layout is the template now */
		tpl_to_front(tt, v);
	return len;
}

size_t rp_log_classify_many(const char *run_sep, const char *p, const char *end, const char *limit,
			    struct rp_fast_tpls *tt, struct rp_rec *recs, size_t max, size_t *nrecs)
{
	const char *start = p;
	size_t n = 0;
	while (n < max && p < end) {
#ifdef HAVE_FAST
		if (limit - p >= RP_FAST_WINDOW + 1024) {
			__builtin_prefetch(p + 1024); /* the file, a few lines on */
			unsigned i = 0, j = 0;
			for (; i < RP_NTPL; i++) {
				j = tt->order[i];
				if (tt->t[j].len && tpl_rec(p, end, tt, j, &recs[n]))
					break;
			}
			if (i < RP_NTPL) {
				if (i)
					tpl_to_front(tt, j);
				p += tt->t[j].len + 1;
				n++;
				continue;
			}
		}
#endif
		size_t len = classify_other(run_sep, p, end, limit, tt, &recs[n]);
		if (len == SIZE_MAX)
			break;
		p += len + 1;
		n++;
	}
	*nrecs = n;
	return (size_t)(p - start);
}

void rp_log_apply(struct rp_log *lg, struct rp_rec *rec)
{
	lg->lineno++;
	lg->total_lines++;
	switch (rec->kind) {
	case RP_LINE_PROBE:
		add_probe_line(lg, rec);
		return;
	case RP_LINE_TBASE: {
		uint32_t run = run_of(lg, rec->run); /* may move lg->runs */
		struct rp_run *r = &lg->runs[run];
		lg->tbase_lines++;
		r->tbase = rec->start;
		r->ntbase++;
		return;
	}
	case RP_LINE_GARBLED:
		if (lg->garbled_lines < 5)
			lg->garbled_where[lg->garbled_lines] = where(lg);
		lg->garbled_lines++;
		return;
	case RP_LINE_OTHER:
		lg->other_lines++;
		if (rec->sep) {
			char buf[32];
			snprintf(buf, sizeof(buf), " from line %lld", (long long)lg->lineno);
			char *label = pk_xmalloc(strlen(lg->file) + strlen(buf) + 1);
			strcpy(label, lg->file);
			strcat(label, buf);
			new_segment(lg, label);
		}
		return;
	}
}

void rp_log_line(struct rp_log *lg, const char *s, size_t len)
{
	struct rp_rec rec;
	rp_log_classify(lg->run_sep, s, len, &rec);
	rp_log_apply(lg, &rec);
	if (rec.kind == RP_LINE_PROBE)
		rp_log_store(lg, &rec);
}

int rp_log_read_fd(struct rp_log *lg, int fd, const char *name)
{
	/* zero bytes after the buffer: the fast paths may look that far past
	 * a line's start (the templates need RP_FAST_WINDOW + 1024) */
	enum { PAD = RP_FAST_WINDOW + 1024, NREC = 1024 };
	size_t cap = 1 << 20, have = 0;
	char *buf = pk_xcalloc(cap + PAD, 1);
	struct rp_fast_tpls tpl;
	struct rp_rec *recs = pk_xmalloc(NREC * sizeof(*recs));
	rp_log_begin_file(lg, name);
	for (;;) {
		if (have == cap) { /* one line longer than the buffer */
			buf = pk_xrealloc(buf, 2 * cap + PAD);
			memset(buf + cap + PAD, 0, cap);
			cap *= 2;
		}
		ssize_t got = read(fd, buf + have, cap - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(recs);
			free(buf);
			return pk_error("%s: %s", name, strerror(errno));
		}
		if (got == 0)
			break;
		have += (size_t)got;
		char *p = buf, *end = buf + have;
		rp_fast_tpls_init(&tpl); /* the lines moved */
		for (size_t k = NREC; k == NREC;) {
			p += rp_log_classify_many(lg->run_sep, p, end, buf + cap + PAD, &tpl, recs, NREC, &k);
			for (size_t i = 0; i < k; i++) {
				rp_log_apply(lg, &recs[i]);
				if (recs[i].kind == RP_LINE_PROBE)
					rp_log_store(lg, &recs[i]);
			}
		}
		have = (size_t)(end - p);
		memmove(buf, p, have);
	}
	if (have) { /* last line without a newline: still a line (maybe truncated) */
		buf[have] = '\n'; /* the stop byte rp_log_parse_line relies on */
		rp_log_line(lg, buf, have);
	}
	free(recs);
	free(buf);
	return 0;
}
