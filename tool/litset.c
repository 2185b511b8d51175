/* litset.c - the strings a pattern needs, and one pass that finds which of
 * a set of strings a text holds (litset.h). */
#include "litset.h"
#include "pk.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define PK_HAVE_NIBBLES 1 /* the nibble pass, where the processor has SSSE3 */
#endif

/* How rare each byte is in C/C++ kernel sources: -log2 of its frequency,
 * measured once over 112 MB of them (the Ascend kernel trees bench/README
 * names), 31 for bytes never seen there. A string is looked for by its
 * rarest pair of neighbouring bytes. */
static const unsigned char rarity[256] = {
    31, 31, 31, 31, 31, 31, 31, 31, 31, 12, 6,  31, 31, 11, 31, 31, /* */
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, /* */
    2,  11, 8,  9,  18, 12, 10, 13, 7,  7,  7,  10, 6,  8,  7,  8,  /*  !"#$%&'()*+,-./ */
    8,  7,  7,  8,  9,  10, 8,  12, 9,  12, 7,  7,  8,  7,  8,  14, /* 0-9:;<=>? */
    13, 7,  8,  7,  7,  7,  8,  8,  9,  7,  16, 9,  7,  7,  7,  7,  /* @A-O */
    7,  10, 7,  7,  6,  8,  9,  10, 10, 10, 11, 10, 11, 10, 16, 5,  /* P-Z[\]^_ */
    16, 5,  8,  6,  6,  4,  6,  7,  7,  5,  12, 8,  5,  6,  5,  5,  /* `a-o */
    6,  10, 5,  5,  4,  6,  8,  9,  8,  8,  9,  8,  12, 8,  16, 31, /* p-z{|}~ */
    12, 13, 14, 14, 13, 13, 13, 13, 13, 14, 14, 14, 12, 13, 14, 13, /* UTF-8 */
    13, 15, 15, 14, 13, 13, 14, 13, 14, 15, 13, 14, 13, 14, 14, 14, /* */
    13, 13, 16, 15, 14, 14, 14, 14, 13, 15, 14, 16, 14, 14, 12, 13, /* */
    13, 15, 17, 15, 14, 15, 14, 15, 12, 14, 13, 13, 12, 13, 14, 13, /* */
    31, 31, 14, 19, 26, 31, 31, 31, 31, 31, 26, 31, 24, 31, 21, 20, /* */
    20, 21, 31, 27, 27, 31, 27, 27, 31, 31, 26, 31, 31, 31, 27, 31, /* */
    31, 31, 16, 15, 12, 10, 11, 11, 12, 12, 31, 31, 31, 31, 31, 13, /* */
    19, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, /* */
};

/* ---- the set and its scan --------------------------------------------- */

struct slit {
	char *s;
	size_t n;
	size_t off;   /* where its anchor (the rarest pair, or its one byte) is */
	int searched; /* holds no other string of the set: the pass looks for it */
	size_t base;  /* not searched: a searched string it holds */
};

struct pk_litset {
	struct slit l[PK_LITSET_MAX];
	size_t n;
	int nibbles; /* the nibble pass's byte shuffle: 2 AVX2, 1 SSSE3, 0 none */
};

static int holds(const struct slit *big, const struct slit *small)
{
	return small->n <= big->n && memmem(big->s, big->n, small->s, small->n) != NULL;
}

struct pk_litset *pk_litset_new(const struct pk_lit *lits, size_t n)
{
	if (n > PK_LITSET_MAX)
		return NULL;
	struct pk_litset *s = pk_xcalloc(1, sizeof(*s));
	s->n = n;
	for (size_t i = 0; i < n; i++) {
		struct slit *l = &s->l[i];
		l->n = lits[i].n;
		l->s = pk_xmalloc(l->n + 1);
		memcpy(l->s, lits[i].s, l->n);
		l->s[l->n] = '\0';
		/* the anchor: its rarest three neighbouring bytes (two, one) */
		int best = -1;
		size_t w = l->n < 3 ? l->n : 3;
		for (size_t k = 0; k + w <= l->n; k++) {
			int r = 0;
			for (size_t j = 0; j < w; j++)
				r += rarity[(unsigned char)l->s[k + j]];
			if (r > best) {
				best = r;
				l->off = k;
			}
		}
	}
	/* a string holding another is found when that one is, and then looked
	 * for alone; of two equal strings the first is searched */
	for (size_t i = 0; i < n; i++) {
		s->l[i].searched = 1;
		for (size_t k = 0; k < n && s->l[i].searched; k++) {
			if (k == i || !holds(&s->l[i], &s->l[k]))
				continue;
			if (s->l[k].n == s->l[i].n && k > i)
				continue; /* equal: the first one is searched */
			s->l[i].searched = 0;
		}
	}
	for (size_t i = 0; i < n; i++) /* a searched one it holds (one exists) */
		for (size_t k = 0; k < n && !s->l[i].searched; k++)
			if (k != i && s->l[k].searched && holds(&s->l[i], &s->l[k])) {
				s->l[i].base = k;
				break;
			}
	pk_litset_use(s, -1);
	return s;
}

int pk_litset_use(struct pk_litset *s, int pass)
{
#ifdef PK_HAVE_NIBBLES
	int best = __builtin_cpu_supports("avx2") ? 2 : __builtin_cpu_supports("ssse3") ? 1 : 0;
#else
	int best = 0;
#endif
	s->nibbles = pass < 0 || pass > best ? best : pass;
	return s->nibbles;
}

void pk_litset_free(struct pk_litset *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->l[i].s);
	free(s);
}

/* the strings still looked for, by their anchors */
struct active {
	size_t idx[PK_LITSET_MAX];
	size_t n;
};

/* Does string K of S start at Q - its anchor offset? (Q is where its
 * anchor's first byte may be.) */
static int at_anchor(const struct slit *l, const char *data, size_t len, size_t q)
{
	if (q < l->off || q - l->off + l->n > len)
		return 0;
	return !memcmp(data + q - l->off, l->s, l->n);
}

/* Check position Q against every active string; found ones leave ACT. */
static int check_at(const struct pk_litset *s, struct active *act, const char *data, size_t len, size_t q,
                    uint64_t *found)
{
	int any = 0;
	for (size_t k = 0; k < act->n;) {
		const struct slit *l = &s->l[act->idx[k]];
		if (data[q] == l->s[l->off] && (l->n < 2 || (q + 1 < len && data[q + 1] == l->s[l->off + 1])) &&
		    at_anchor(l, data, len, q)) {
			*found |= (uint64_t)1 << act->idx[k];
			act->idx[k] = act->idx[--act->n];
			any = 1;
		} else
			k++;
	}
	return any;
}

#ifdef PK_HAVE_NIBBLES
/* 16 or 32 places at once by nibble tables (the "Teddy" method of
 * Hyperscan and ripgrep, on the byte shuffle of SSSE3 or AVX2): each
 * string of three bytes or more sits in one of 8 buckets; place q is a
 * candidate for bucket b when each of the three bytes from q has its low
 * and its high nibble among those of b's strings' anchors at that position.
 * The work per block is the same for 1 string or 64. Shorter strings (the
 * NUL byte) are compared as they are. */
struct nibbles {
	unsigned char lo[3][16], hi[3][16];
	size_t bucket[8][PK_LITSET_MAX], nb[8];
	size_t shorts[PK_LITSET_MAX], nshort, nlong;
};

static void nibbles_of(const struct pk_litset *s, const struct active *act, struct nibbles *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t k = 0; k < act->n; k++) {
		const struct slit *l = &s->l[act->idx[k]];
		if (l->n < 3) {
			t->shorts[t->nshort++] = act->idx[k];
			continue;
		}
		size_t b = t->nlong++ % 8;
		t->bucket[b][t->nb[b]++] = act->idx[k];
		for (int j = 0; j < 3; j++) {
			unsigned char c = (unsigned char)l->s[l->off + (size_t)j];
			t->lo[j][c & 15] |= (unsigned char)(1u << b);
			t->hi[j][c >> 4] |= (unsigned char)(1u << b);
		}
	}
}

/* The candidates of one block at P: CAND (bit i: place P+i, its buckets in
 * RB[i]) and SHRT (bit i: a short string may start there). 1 when a string
 * was found (the tables are then made again without it). */
static int nibbles_verify(const struct pk_litset *s, const struct nibbles *t, const char *data, size_t len, size_t p,
                          uint32_t cand, uint32_t shrt, const unsigned char *rb, uint64_t *found)
{
	int changed = 0;
	for (uint32_t m = cand | shrt; m; m &= m - 1) {
		size_t i = (size_t)__builtin_ctz(m), q = p + i;
		for (size_t b = 0; b < 8 && (cand >> i & 1); b++)
			for (size_t k = 0; (rb[i] >> b & 1) && k < t->nb[b]; k++) {
				size_t idx = t->bucket[b][k];
				if (!(*found >> idx & 1) && at_anchor(&s->l[idx], data, len, q)) {
					*found |= (uint64_t)1 << idx;
					changed = 1;
				}
			}
		for (size_t k = 0; k < t->nshort && (shrt >> i & 1); k++) {
			const struct slit *l = &s->l[t->shorts[k]];
			if (!(*found >> t->shorts[k] & 1) && data[q] == l->s[0] &&
			    (l->n < 2 || data[q + 1] == l->s[1])) {
				*found |= (uint64_t)1 << t->shorts[k];
				changed = 1;
			}
		}
	}
	return changed;
}

/* the strings found leave the active ones */
static void drop_found(struct active *act, uint64_t found)
{
	size_t w = 0;
	for (size_t k = 0; k < act->n; k++)
		if (!(found >> act->idx[k] & 1))
			act->idx[w++] = act->idx[k];
	act->n = w;
}

/* The pass itself, written once (litset_nibbles.inc) for both widths: NV_W
 * places a step with the vector type NV_T and the operations below. */
#define NV_W           16
#define NV_T           __m128i
#define NV_TARGET      "ssse3"
#define NV_PASS        nibble_pass16
#define NV_LOAD(q)     _mm_loadu_si128((const __m128i *)(q))
#define NV_TABLE(v)    _mm_loadu_si128((const __m128i *)(v))
#define NV_STORE(q, x) _mm_storeu_si128((__m128i *)(q), x)
#define NV_AND         _mm_and_si128
#define NV_SHUFFLE     _mm_shuffle_epi8
#define NV_HIGH(x)     _mm_srli_epi16(x, 4)
#define NV_SET1        _mm_set1_epi8
#define NV_ZERO        _mm_setzero_si128
#define NV_EQ          _mm_cmpeq_epi8
#define NV_MASK(x)     ((uint32_t)_mm_movemask_epi8(x))
#include "litset_nibbles.inc"

#define NV_W           32
#define NV_T           __m256i
#define NV_TARGET      "avx2"
#define NV_PASS        nibble_pass32
#define NV_LOAD(q)     _mm256_loadu_si256((const __m256i *)(q))
#define NV_TABLE(v)    _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(v)))
#define NV_STORE(q, x) _mm256_storeu_si256((__m256i *)(q), x)
#define NV_AND         _mm256_and_si256
#define NV_SHUFFLE     _mm256_shuffle_epi8
#define NV_HIGH(x)     _mm256_srli_epi16(x, 4)
#define NV_SET1        _mm256_set1_epi8
#define NV_ZERO        _mm256_setzero_si256
#define NV_EQ          _mm256_cmpeq_epi8
#define NV_MASK(x)     ((uint32_t)_mm256_movemask_epi8(x))
#include "litset_nibbles.inc"
#endif

#if defined(__GNUC__)
/* 16 bytes at once with the compiler's generic vectors (SSE2 on x86-64,
 * NEON on AArch64): a position is a candidate when the byte there and the
 * next one are some active string's anchor pair. */
typedef unsigned char pk_v16 __attribute__((vector_size(16)));
typedef signed char pk_m16 __attribute__((vector_size(16)));

static pk_v16 load16(const char *p)
{
	pk_v16 v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static int any16(pk_m16 m)
{
	uint64_t a, b;
	memcpy(&a, &m, 8);
	memcpy(&b, (const char *)&m + 8, 8);
	return (a | b) != 0;
}

static size_t vector_pass(const struct pk_litset *s, struct active *act, const char *data, size_t len, uint64_t *found)
{
	size_t p = 0;
	while (act->n && p + 17 <= len) {
		pk_v16 first[PK_LITSET_MAX], second[PK_LITSET_MAX], single[PK_LITSET_MAX];
		size_t npair = 0, nsingle = 0;
		for (size_t k = 0; k < act->n; k++) {
			const struct slit *l = &s->l[act->idx[k]];
			pk_v16 zero = {0};
			if (l->n < 2) {
				single[nsingle++] = zero + (unsigned char)l->s[0];
			} else {
				first[npair] = zero + (unsigned char)l->s[l->off];
				second[npair++] = zero + (unsigned char)l->s[l->off + 1];
			}
		}
		int changed = 0;
		for (; p + 17 <= len && !changed; p += 16) {
			pk_v16 x0 = load16(data + p), x1 = load16(data + p + 1);
			pk_m16 m = {0};
			for (size_t k = 0; k < npair; k++)
				m |= (pk_m16)((x0 == first[k]) & (x1 == second[k]));
			for (size_t k = 0; k < nsingle; k++)
				m |= (pk_m16)(x0 == single[k]);
			if (!any16(m))
				continue;
			for (size_t j = 0; j < 16; j++)
				if (m[j] && check_at(s, act, data, len, p + j, found))
					changed = 1;
		}
	}
	return p;
}
#else
static size_t vector_pass(const struct pk_litset *s, struct active *act, const char *data, size_t len, uint64_t *found)
{
	(void)s, (void)act, (void)data, (void)len, (void)found;
	return 0;
}
#endif

uint64_t pk_litset_scan(const struct pk_litset *s, const char *data, size_t len)
{
	uint64_t found = 0;
	struct active act;
	act.n = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->l[i].searched && s->l[i].n <= len)
			act.idx[act.n++] = i;
	size_t q;
#ifdef PK_HAVE_NIBBLES
	if (s->nibbles == 2)
		q = nibble_pass16(s, &act, data, len, nibble_pass32(s, &act, data, len, 0, &found), &found);
	else if (s->nibbles == 1)
		q = nibble_pass16(s, &act, data, len, 0, &found);
	else
		q = vector_pass(s, &act, data, len, &found);
#else
	q = vector_pass(s, &act, data, len, &found);
#endif
	for (; act.n && q < len; q++)
		check_at(s, &act, data, len, q, &found);
	for (size_t i = 0; i < s->n; i++) {
		const struct slit *l = &s->l[i];
		if (!l->searched && (found >> l->base & 1) &&
		    (l->n == s->l[l->base].n || memmem(data, len, l->s, l->n)))
			found |= (uint64_t)1 << i;
	}
	return found;
}

/* ---- the literals of a pattern ------------------------------------------ */

/* A set of strings; VALID 0: not known (anything). */
struct sset {
	char **s;
	size_t *len;
	size_t n;
	int valid;
};

/* What a part of a pattern says: EXACT, every match is one of these
 * strings; MUST, every match holds one of these. */
struct info {
	struct sset exact, must;
};

enum { SSET_MAX = 32, STR_MAX = 256 };

static void sset_free(struct sset *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->s[i]);
	free(a->s);
	free(a->len);
	memset(a, 0, sizeof(*a));
}

static void info_free(struct info *i)
{
	sset_free(&i->exact);
	sset_free(&i->must);
}

static void sset_add(struct sset *a, const char *s, size_t n)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->len[i] == n && !memcmp(a->s[i], s, n))
			return;
	a->s = pk_xrealloc(a->s, (a->n + 1) * sizeof(*a->s));
	a->len = pk_xrealloc(a->len, (a->n + 1) * sizeof(*a->len));
	a->s[a->n] = pk_xmalloc(n + 1);
	memcpy(a->s[a->n], s, n);
	a->s[a->n][n] = '\0';
	a->len[a->n++] = n;
}

static struct sset sset_of(const char *s, size_t n)
{
	struct sset a = {NULL, NULL, 0, 1};
	sset_add(&a, s, n);
	return a;
}

static struct sset sset_copy(const struct sset *a)
{
	struct sset c = {NULL, NULL, 0, a->valid};
	for (size_t i = 0; i < a->n; i++)
		sset_add(&c, a->s[i], a->len[i]);
	return c;
}

/* A into *TO (both known), unknown past SSET_MAX strings; A is consumed */
static void sset_union(struct sset *to, struct sset *a)
{
	if (to->valid && a->valid)
		for (size_t i = 0; i < a->n; i++)
			sset_add(to, a->s[i], a->len[i]);
	if (!a->valid || to->n > SSET_MAX) {
		sset_free(to);
		to->valid = 0;
	}
	sset_free(a);
}

/* every string of A followed by every string of B; unknown when too many or too long */
static struct sset sset_cross(const struct sset *a, const struct sset *b)
{
	struct sset c = {NULL, NULL, 0, 0};
	if (!a->valid || !b->valid || a->n * b->n > SSET_MAX)
		return c;
	c.valid = 1;
	for (size_t i = 0; i < a->n; i++)
		for (size_t k = 0; k < b->n; k++) {
			char buf[STR_MAX];
			if (a->len[i] + b->len[k] > STR_MAX) {
				sset_free(&c);
				return c;
			}
			memcpy(buf, a->s[i], a->len[i]);
			memcpy(buf + a->len[i], b->s[k], b->len[k]);
			sset_add(&c, buf, a->len[i] + b->len[k]);
		}
	return c;
}

/* How rare a match of the set is: -log2 of the chance that a place in a
 * text starts one of its strings, from the byte rarities; -1 when the set
 * says nothing (unknown, empty, or holding the empty string). */
static double sset_score(const struct sset *a)
{
	if (!a->valid || !a->n)
		return -1;
	double sum = 0;
	for (size_t i = 0; i < a->n; i++) {
		if (!a->len[i])
			return -1;
		int r = 0;
		for (size_t k = 0; k < a->len[i] && r < 60; k++)
			r += rarity[(unsigned char)a->s[i][k]];
		sum += ldexp(1, -r);
	}
	return -log2(sum);
}

/* keep in *BEST the rarer of *BEST and CAND (CAND copied) */
static void consider(struct sset *best, const struct sset *cand)
{
	if (sset_score(cand) > sset_score(best)) {
		sset_free(best);
		*best = sset_copy(cand);
	}
}

/* the strings a match surely holds: EXACT when known, else MUST */
static struct sset must_of(const struct info *i)
{
	return sset_copy(i->exact.valid ? &i->exact : &i->must);
}

struct rx {
	const char *p;
	int fail; /* a construct this reading does not know, or a case-blind part */
};

static struct info parse_alt(struct rx *x);

static struct info info_exact(const char *s, size_t n)
{
	struct info i = {sset_of(s, n), sset_of(s, n)};
	return i;
}

static struct info info_any(void)
{
	struct info i = {{NULL, NULL, 0, 0}, {NULL, NULL, 0, 0}};
	return i;
}

/* [...]: to its closing bracket */
static void skip_class(struct rx *x)
{
	const char *p = x->p + 1;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	while (*p && *p != ']') {
		if (*p == '\\' && p[1])
			p += 2;
		else if (*p == '[' && p[1] == ':') {
			const char *e = strstr(p + 2, ":]");
			p = e ? e + 2 : p + 1;
		} else
			p++;
	}
	if (!*p)
		x->fail = 1;
	x->p = *p ? p + 1 : p;
}

static int hexval(int c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
	                              : -1;
}

static struct info parse_escape(struct rx *x)
{
	char c = x->p[1];
	if (!c) { /* a '\' ending the pattern */
		x->p++;
		x->fail = 1;
		return info_any();
	}
	x->p += 2;
	if (strchr("bBAzZGK", c))
		return info_exact("", 0);
	if (strchr("dDsSwWhHvVRNXC", c))
		return info_any();
	if (c == 'p' || c == 'P') {
		if (*x->p == '{') {
			const char *e = strchr(x->p, '}');
			x->p = e ? e + 1 : x->p + strlen(x->p);
		} else if (*x->p)
			x->p++;
		return info_any();
	}
	const char *plain = strchr("ntrfea", c);
	if (plain && c) {
		static const char val[] = "\n\t\r\f\x1b\a";
		return info_exact(&val[plain - "ntrfea"], 1);
	}
	if (c == 'x') {
		int v = 0, d;
		if (*x->p == '{') {
			const char *p = x->p + 1;
			for (; (d = hexval(*p)) >= 0 && v < 0x100; p++)
				v = v * 16 + d;
			if (*p != '}' || p == x->p + 1)
				v = 0x100;
			x->p = *p ? p + 1 : p;
		} else {
			for (int k = 0; k < 2 && (d = hexval(*x->p)) >= 0; k++, x->p++)
				v = v * 16 + d;
		}
		if (v > 0 && v < 0x80) {
			char ch = (char)v;
			return info_exact(&ch, 1);
		}
		x->fail = 1; /* NUL, or a character beyond ASCII: not read here */
		return info_any();
	}
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
		x->fail = 1; /* back references, \Q..\E, \c, octal: not read here */
		return info_any();
	}
	return info_exact(&c, 1); /* \[ \( \. \\ ... */
}

/* (?...) and (*...): a group, an assertion, inline options */
static struct info parse_group(struct rx *x)
{
	const char *p = x->p + 1;
	int zero = 0;
	if (*p == '*') {
		x->fail = 1;
		return info_any();
	}
	if (*p == '?') {
		p++;
		if (*p == ':' || *p == '>' || *p == '|')
			p++;
		else if (*p == '=' || *p == '!' || (*p == '<' && (p[1] == '=' || p[1] == '!'))) {
			p += *p == '<' ? 2 : 1;
			zero = 1; /* an assertion: its text is not part of the match */
		} else if (*p == '<' || *p == '\'' || (*p == 'P' && p[1] == '<')) {
			const char *e = *p == '\'' ? strchr(p + 1, '\'') : strchr(p, '>'); /* a named group */
			if (!e) {
				x->fail = 1;
				return info_any();
			}
			p = e + 1;
		} else if (*p == '#') {
			const char *e = strchr(p, ')');
			x->p = e ? e + 1 : p + strlen(p);
			return info_exact("", 0);
		} else {
			/* options: only those that leave the literals as written */
			const char *q = p;
			while (*q && strchr("msnUJ-^", *q))
				q++;
			if (q == p || (*q != ')' && *q != ':')) {
				x->fail = 1; /* (?i), (?x), recursion, conditions, callouts */
				return info_any();
			}
			if (*q == ')') {
				x->p = q + 1;
				return info_exact("", 0);
			}
			p = q + 1;
		}
	}
	x->p = p;
	struct info in = parse_alt(x);
	if (*x->p != ')') {
		x->fail = 1;
		return in;
	}
	x->p++;
	if (zero) {
		info_free(&in);
		return info_exact("", 0);
	}
	return in;
}

static struct info parse_atom(struct rx *x)
{
	const char *p = x->p;
	switch (*p) {
	case '(':
		return parse_group(x);
	case '[':
		skip_class(x);
		return info_any();
	case '.':
		x->p++;
		return info_any();
	case '^':
	case '$':
		x->p++;
		return info_exact("", 0);
	case '\\':
		return parse_escape(x);
	case '*':
	case '+':
	case '?':
		x->fail = 1;
		x->p++;
		return info_any();
	default:
		break;
	}
	size_t n = 1;
	if ((unsigned char)*p >= 0x80) /* one UTF-8 character: its bytes together */
		while ((p[n] & 0xc0) == 0x80)
			n++;
	x->p += n;
	return info_exact(p, n);
}

/* A quantifier at X->p: 1 and its least count in *MIN, *ONCE when it is
 * exactly one ({1}); 0 when there is none. Braces holding only digits,
 * commas and blanks count as one whatever the PCRE2 version reads there
 * (taken as optional, an atom says less, never too much). */
static int quantifier(struct rx *x, long *min, int *once)
{
	const char *p = x->p;
	*once = 0;
	if (*p == '*' || *p == '?')
		*min = 0;
	else if (*p == '+')
		*min = 1;
	else if (*p == '{') {
		const char *q = p + 1;
		while ((*q >= '0' && *q <= '9') || *q == ',' || *q == ' ' || *q == '\t')
			q++;
		if (*q != '}' || q == p + 1)
			return 0; /* a literal '{' */
		*min = p[1] >= '0' && p[1] <= '9' ? strtol(p + 1, NULL, 10) : 0;
		*once = (q - p == 2 && p[1] == '1') || (q - p == 4 && !strncmp(p + 1, "1,1", 3));
		p = q;
	} else
		return 0;
	p++;
	if (*p == '?' || *p == '+') /* lazy, possessive */
		p++;
	x->p = p;
	return 1;
}

static struct info parse_seq(struct rx *x)
{
	struct sset cur = sset_of("", 0), best = {NULL, NULL, 0, 0};
	int broken = 0; /* the sequence is no longer one exact set */
	while (*x->p && *x->p != '|' && *x->p != ')' && !x->fail) {
		struct info a = parse_atom(x);
		long min;
		int once;
		if (quantifier(x, &min, &once)) {
			if (!once) {
				struct sset m = must_of(&a);
				info_free(&a);
				a = info_any();
				if (min >= 1)
					a.must = m;
				else
					sset_free(&m);
			}
		}
		struct sset next = a.exact.valid ? sset_cross(&cur, &a.exact) : (struct sset){NULL, NULL, 0, 0};
		if (next.valid) {
			sset_free(&cur);
			cur = next;
		} else {
			broken = 1;
			consider(&best, &cur);
			sset_free(&cur);
			if (a.exact.valid)
				cur = sset_copy(&a.exact);
			else {
				consider(&best, &a.must);
				cur = sset_of("", 0);
			}
		}
		info_free(&a);
	}
	struct info out = info_any();
	if (!broken) {
		out.must = sset_copy(&cur);
		out.exact = cur;
		sset_free(&best);
		return out;
	}
	consider(&best, &cur);
	sset_free(&cur);
	out.must = best;
	return out;
}

static struct info parse_alt(struct rx *x)
{
	struct info acc = parse_seq(x);
	while (*x->p == '|' && !x->fail) {
		x->p++;
		struct info b = parse_seq(x);
		struct sset ma = must_of(&acc), mb = must_of(&b);
		if (sset_score(&ma) < 0 || sset_score(&mb) < 0) { /* a branch needs nothing */
			sset_free(&ma);
			sset_free(&mb);
			ma.valid = 0;
		} else
			sset_union(&ma, &mb);
		if (acc.exact.valid && b.exact.valid)
			sset_union(&acc.exact, &b.exact);
		else
			sset_free(&acc.exact);
		sset_free(&acc.must);
		acc.must = ma;
		info_free(&b);
	}
	return acc;
}

size_t pk_pattern_literals(const char *pattern, char ***out)
{
	struct rx x = {pattern, 0};
	struct info in = parse_alt(&x);
	struct sset m = must_of(&in);
	info_free(&in);
	*out = NULL;
	size_t n = 0;
	if (!x.fail && !*x.p && sset_score(&m) >= 0) {
		n = m.n; /* no string holds a NUL: \x00 is not read */
		if (n) {
			*out = m.s;
			m.s = NULL;
			m.n = 0;
		}
	}
	sset_free(&m);
	return n;
}
