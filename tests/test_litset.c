/* test_litset.c - the literals probe-check reads a file for (tool/litset.h):
 * those a pattern needs, as proved from its text (and none where they
 * cannot be), and the one pass that says which of a set a text holds, at
 * every place and block boundary, against a plain memmem, and that every
 * default rule's literals hold for what the rule matches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litset.h"
#include "pk.h"
#include "rules.h"

/* the literals of PATTERN, sorted and joined with '|' ("" for none) */
static char *lits_of(const char *pattern)
{
	char **l;
	size_t n = pk_pattern_literals(pattern, &l);
	for (size_t i = 1; i < n; i++) /* insertion sort: a few strings */
		for (size_t k = i; k > 0 && strcmp(l[k - 1], l[k]) > 0; k--) {
			char *t = l[k];
			l[k] = l[k - 1];
			l[k - 1] = t;
		}
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(l[i]) + 1;
	char *out = calloc(1, len);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(out, "|");
		strcat(out, l[i]);
		free(l[i]);
	}
	free(l);
	return out;
}

static void expect_lits(const char *pattern, const char *want)
{
	char *got = lits_of(pattern);
	if (strcmp(got, want))
		fail_msg("pattern %s: literals '%s', expected '%s'", pattern, got, want);
	free(got);
}

static void test_pattern_literals(void **state)
{
	(void)state;
	expect_lits("TIMING_PROBE_BRACE:", "TIMING_PROBE_BRACE:");
	expect_lits("\\bTIMING_PROBE\\b(?!:\\s*@timing)", "TIMING_PROBE");
	expect_lits("\\b(?:GetSystemCycle|get_sys_cnt|read_cycle)\\s*\\(", "GetSystemCycle|get_sys_cnt|read_cycle");
	expect_lits("\\b(?:probeStart_\\w+|probeEnd_\\w+|probeBase_\\w+)", "probeBase_|probeEnd_|probeStart_");
	expect_lits("\\[[A-Za-z_]\\w*\\][^\"\\n]{0,40}?\\bstart=%", "start=%");
	expect_lits("\\[T_BASE\\]\\s*%", "[T_BASE]");
	expect_lits("(?m)^\\s*\"magic_rule\"\\s*:\\s*\"row\\[magic_column\\]", "\"magic_rule\"");
	expect_lits("ab(?:cd|ef)gh", "abcdgh|abefgh");
	expect_lits("x(?<tag>dcci)+y", "dcci");
	expect_lits("\\x41BC\\.d", "ABC.d");
	/* an optional part says nothing; a branch that needs nothing, neither */
	expect_lits("(?:GetSystemCycle)?\\s*\\(", "(");
	expect_lits("dcci|\\w+", "");
	expect_lits("a{0,3}", "");
	expect_lits("(?:abc){2,}", "abc");
	expect_lits("abc{,3}d", "ab");
	/* what is not read here: nothing, every text is matched */
	expect_lits("(?i)timing", "");
	expect_lits("(?x) t i m i n g", "");
	expect_lits("(a)\\1", "");
	expect_lits("\\Qa.b\\E", "");
	expect_lits("[abc", "");
	expect_lits("", "");
	expect_lits(".*", "");
	expect_lits("abc\\", "");
	expect_lits("abc(?<=x", "");
	expect_lits("(?P<n>abc)(?#note)d", "abcd");
}

/* which of LITS occur in TEXT, by memmem */
static uint64_t plain(const struct pk_lit *lits, size_t n, const char *text, size_t len)
{
	uint64_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (memmem(text, len, lits[i].s, lits[i].n))
			m |= (uint64_t)1 << i;
	return m;
}

static void scan_every_place(int pass)
{
	static const struct pk_lit lits[] = {
	    {"TIMING_PROBE", 12},
	    {"", 1},
	    {"TIMING_PROBE_BRACE:", 19},
	    {"timing", 6},
	    {"@timing-was", 11},
	    {"row", 3},
	    {"dcci", 4},
	    {"start=%", 7},
	    {"ab", 2},
	    {"timing", 6},
	};
	size_t n = sizeof(lits) / sizeof(lits[0]);
	struct pk_litset *s = pk_litset_new(lits, n);
	assert_non_null(s);
	if (pk_litset_use(s, pass) != pass)
		goto out; /* a pass this processor lacks */
	char text[200];
	/* each literal alone, at every offset of a text of every length up to 90 */
	for (size_t i = 0; i < n; i++)
		for (size_t len = lits[i].n; len < 90; len += 7)
			for (size_t at = 0; at + lits[i].n <= len; at++) {
				memset(text, 'x', sizeof(text));
				memcpy(text + at, lits[i].s, lits[i].n);
				uint64_t want = plain(lits, n, text, len), got = pk_litset_scan(s, text, len);
				if (want != got)
					fail_msg("pass %d, literal %zu at %zu of %zu: %llx, expected %llx", pass, i, at,
					         len, (unsigned long long)got, (unsigned long long)want);
			}
	/* a literal cut by the end of the text is not found */
	memcpy(text, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxTIMING_PROB", 40);
	assert_int_equal(pk_litset_scan(s, text, 40), 0);
	/* several, and pieces of them */
	const char *mix = "row dcci@timing-wa start=% TIMING_PROBE_BRACE: ab";
	assert_int_equal(pk_litset_scan(s, mix, strlen(mix)), plain(lits, n, mix, strlen(mix)));
out:
	pk_litset_free(s);
}

static void test_scan_every_place(void **state)
{
	(void)state;
	for (int pass = 0; pass <= 2; pass++)
		scan_every_place(pass);
}

static void scan_random(int pass)
{
	static const struct pk_lit lits[] = {{"ab", 2}, {"abc", 3}, {"ba", 2}, {"ccc", 3}, {"", 1}, {"cab", 3}};
	size_t n = sizeof(lits) / sizeof(lits[0]);
	struct pk_litset *s = pk_litset_new(lits, n);
	if (pk_litset_use(s, pass) != pass) {
		pk_litset_free(s);
		return; /* a pass this processor lacks */
	}
	unsigned seed = 7;
	char text[300];
	for (int round = 0; round < 20000; round++) {
		size_t len = (size_t)(round % 300);
		for (size_t k = 0; k < len; k++) {
			seed = seed * 1103515245u + 12345u;
			text[k] = "abcx\0"[(seed >> 16) % (round % 3 ? 4 : 5)];
		}
		uint64_t want = plain(lits, n, text, len), got = pk_litset_scan(s, text, len);
		if (want != got)
			fail_msg("pass %d, round %d: %llx, expected %llx", pass, round, (unsigned long long)got,
			         (unsigned long long)want);
	}
	pk_litset_free(s);
}

static void test_scan_random(void **state)
{
	(void)state;
	for (int pass = 0; pass <= 2; pass++)
		scan_random(pass);
}

/* every default rule whose pattern matches a text holds one of its literals */
static void test_default_rules_literals_hold(void **state)
{
	(void)state;
	struct pk_ruleset rs = {0};
	assert_int_equal(pk_rules_load_defaults(&rs), 0);
	assert_int_equal(pk_rules_compile(&rs), 0);
	static const char *const texts[] = {
	    "uint64_t t = GetSystemCycle();",
	    "x = get_sys_cnt ();",
	    "uint64_t probeStart_X = 0;",
	    "printf(\"[S] start=%lu\", a);",
	    "printf(\"[T_BASE] %lu\", a);",
	    "dcci(row_ptr + 1);",
	    "// TIMING_PROBE: @timing",
	    "GM_ADDR pk_tt_timing,",
	    "pk_tt2_slot = 3;",
	    "row[3] = cycle;",
	    "  \"magic_rule\": \"row[magic_column]",
	    "make_timing_tensor(",
	    "/* TIMING_PROBE_BRACE: X */",
	};
	size_t with = 0;
	for (size_t i = 0; i < rs.n; i++) {
		const struct pk_rule *r = &rs.r[i];
		if (!r->re)
			continue;
		with += r->nlits > 0;
		pcre2_match_data *md = pcre2_match_data_create_from_pattern(r->re, NULL);
		for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
			if (pcre2_match(r->re, (PCRE2_SPTR)texts[t], strlen(texts[t]), 0, 0, md, NULL) < 0)
				continue;
			int holds = !r->nlits;
			for (size_t k = 0; k < r->nlits && !holds; k++)
				holds = strstr(texts[t], r->lits[k]) != NULL;
			if (!holds)
				fail_msg("rule %s matches '%s' without any of its literals", r->id, texts[t]);
		}
		pcre2_match_data_free(md);
	}
	assert_true(with >= 15); /* every default pattern rule has some */
	pk_rules_free(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pattern_literals),
	    cmocka_unit_test(test_scan_every_place),
	    cmocka_unit_test(test_scan_random),
	    cmocka_unit_test(test_default_rules_literals_hold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
