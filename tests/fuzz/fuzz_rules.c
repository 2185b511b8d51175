/* fuzz_rules.c - libFuzzer target: the probe-check rule loader (INI via
 * libinih, patterns via PCRE2 with JIT). Built by
 * bench/fuzz.sh with clang -fsanitize=fuzzer,address,undefined.
 *
 * Each input is a --rules file loaded over the default rules. Properties:
 *   - rule ids stay unique (a section of a known id overrides, never adds)
 *   - a rule whose pattern came from the input names the input as its
 *     origin and a line that exists in it
 *   - after a clean compile every enabled pattern rule has compiled code,
 *     and matching it on a kernel line (with a match limit) is safe
 *   - {name} expansion always gives a string */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "pk.h"
#include "rules.h"

#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROPERTY(cond)                                                                                                 \
	do {                                                                                                           \
		if (!(cond)) {                                                                                         \
			fprintf(stderr, "fuzz_rules: property failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__);       \
			abort();                                                                                       \
		}                                                                                                      \
	} while (0)

#ifndef FUZZ_RULES_DIR
#error "build with -DFUZZ_RULES_DIR=\"<source>/rules\" (bench/fuzz.sh does)"
#endif

static pcre2_match_context *mctx;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("PROBEKIT_RULES_DIR", FUZZ_RULES_DIR, 1);
	struct pk_ruleset rs = {0};
	if (pk_rules_load_defaults(&rs) < 0 || pk_rules_compile(&rs) < 0) {
		fprintf(stderr, "fuzz_rules: the default rules in %s do not load\n", FUZZ_RULES_DIR);
		abort();
	}
	pk_rules_free(&rs);
	mctx = pcre2_match_context_create(NULL);
	pcre2_set_match_limit(mctx, 20000);
	pcre2_set_depth_limit(mctx, 2000);
	return 0;
}

static const char subject[] = "    uint64_t probeStart = GetSystemCycle(); // [STAGE_B] start=%lu TIMING_PROBE: X\n"
                              "    printf(\"[T_BASE] %lu\\n\", c); dcci(rowPtr + 8); \xe4\xb8\xad\xe6\x96\x87\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk_ruleset rs = {0};
	PROPERTY(pk_rules_load_defaults(&rs) == 0);
	size_t ndefault = rs.n;
	int rc = pk_rules_load_text(&rs, "fuzz.ini", (const char *)data, size);
	PROPERTY(rc == 0 || rc == -1);
	PROPERTY(rs.n >= ndefault);
	size_t lines = 1;
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	for (size_t i = 0; i < rs.n; i++) {
		const struct pk_rule *r = &rs.r[i];
		PROPERTY(r->id && r->id[0]);
		for (size_t j = 0; j < i; j++)
			PROPERTY(strcmp(rs.r[j].id, r->id) != 0);
		if (r->origin && !strcmp(r->origin, "fuzz.ini"))
			PROPERTY(r->pattern && r->pattern_line >= 1 && r->pattern_line <= lines);
	}
	if (rc == 0 && pk_rules_compile(&rs) == 0) {
		for (size_t i = 0; i < rs.n; i++) {
			const struct pk_rule *r = &rs.r[i];
			if (!r->enabled || r->match != PK_MATCH_PATTERN)
				continue;
			PROPERTY(r->re != NULL);
			pcre2_match_data *md = pcre2_match_data_create_from_pattern(r->re, NULL);
			int m = pcre2_match(r->re, (PCRE2_SPTR)subject, sizeof(subject) - 1, 0, 0, md, mctx);
			if (m >= 0) {
				PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
				PROPERTY(ov[0] <= sizeof(subject) - 1);
			}
			pcre2_match_data_free(md);
		}
	}
	for (size_t i = 0; i < rs.n; i++) {
		char *m = pk_rule_message(&rs.r[i], "STAGE_B");
		PROPERTY(m != NULL);
		free(m);
	}
	pk_rules_free(&rs);
	return 0;
}
