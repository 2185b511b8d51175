/* test_tt_rules.c - rules/check-timing.ini: every rule fires on the leftover
 * it is named for, and none fires on a clean kernel; rules/timing.ini reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embed.h"
#include "pk.h"
#include "rules.h"
#include "tt.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *s = malloc((size_t)n + 1);
	assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = '\0';
	fclose(f);
	return s;
}

static struct pk_ruleset rs;

static int setup(void **state)
{
	(void)state;
	char *text = slurp(PK_SOURCE_DIR "/rules/check-timing.ini");
	memset(&rs, 0, sizeof(rs));
	int rc = pk_rules_load_text(&rs, "check-timing.ini", text, strlen(text));
	free(text);
	return rc || pk_rules_compile(&rs);
}

static int teardown(void **state)
{
	(void)state;
	pk_rules_free(&rs);
	return 0;
}

static int fires(const char *id, const char *text)
{
	for (size_t i = 0; i < rs.n; i++) {
		if (strcmp(rs.r[i].id, id))
			continue;
		pcre2_match_data *md = pcre2_match_data_create_from_pattern(rs.r[i].re, NULL);
		int rc = pcre2_match(rs.r[i].re, (PCRE2_SPTR)text, strlen(text), 0, 0, md, NULL);
		pcre2_match_data_free(md);
		return rc > 0;
	}
	fail_msg("no rule '%s'", id);
	return 0;
}

static void each_rule_fires_on_its_leftover(void **state)
{
	(void)state;
	assert_true(fires("timing-marker", "x();  // TIMING_PROBE: @timing tail"));
	assert_true(fires("timing-shifted-index", "args[/* TIMING_PROBE: @timing-was \"2\" */3/* x */]"));
	assert_true(fires("timing-parameter", "void k(GM_ADDR x, GM_ADDR pk_tt_timing)"));
	assert_true(fires("timing-parameter", "__gm__ int64_t *timing = (__gm__ int64_t *)args[4];"));
	assert_true(fires("timing-sample", "uint64_t pk_tt_entry = pk_tt_read_cycle();"));
	assert_true(fires("timing-row-write", "pk_tt_tail(pk_tt_out, pk_tt_entry, pk_tt_read_cycle());"));
	assert_true(fires("timing-row-write", "row[4] = body_done_cycle;"));
	assert_true(fires("timing-row-writeback",
	                  "dcci(reinterpret_cast<__gm__ void *>(row), cache_line_t::SINGLE_CACHE_LINE, x);"));
	assert_true(fires("timing-host-output", "task.add_output(task.make_timing_tensor(8, 8));"));
	assert_true(fires("timing-generated-name", "const uint64_t pk_tt_slot = static_cast<uint64_t>(x);"));
	assert_true(fires("timing-generated-name", "params.add_scalar(static_cast<uint64_t>(pk_tt3_task++));"));
	assert_true(fires("timing-event-map", "{\n  \"magic_rule\": \"row[magic_column] == magic + slot\",\n"));
}

/* The check rules take the generated-name prefix from rules/names.ini, the
 * setting the generator is built with: a prefix changed there moves both. */
static void generated_names_follow_the_generator_prefix(void **state)
{
	(void)state;
	struct pk_ruleset own;
	memset(&own, 0, sizeof(own));
	const char *text = "[x]\npattern = \\b{names.ini:timing.prefix}\\d*_\\w+\n";
	assert_int_equal(pk_rules_load_text(&own, "t.ini", text, strlen(text)), 0);
	char want[64];
	snprintf(want, sizeof(want), "\\b%s\\d*_\\w+", PK_NAME_TIMING_PREFIX);
	assert_string_equal(own.r[0].pattern, want);
	const char *missing = "[y]\npattern = {names.ini:timing.no_such_key}\n";
	struct pk_ruleset bad;
	memset(&bad, 0, sizeof(bad));
	assert_int_equal(pk_rules_load_text(&bad, "t.ini", missing, strlen(missing)), -1);
	pk_rules_free(&bad);
	pk_rules_free(&own);
}

static void no_rule_fires_on_clean_code(void **state)
{
	(void)state;
	static const char *clean[] = {
	    "__gm__ float *x = reinterpret_cast<__gm__ float *>(args[0]);",
	    "int32_t n = static_cast<int32_t>(args[3]);",
	    "task.add_output(y);",
	    "dst[4] = value;",
	    "row[1] = col;",
	    "// TIMING_PROBE: STAGE_A",
	};
	static const char *ids[] = {"timing-marker",      "timing-shifted-index",  "timing-parameter",
	                            "timing-sample",      "timing-row-write",      "timing-row-writeback",
	                            "timing-host-output", "timing-generated-name", "timing-event-map"};
	for (size_t i = 0; i < sizeof(clean) / sizeof(clean[0]); i++)
		for (size_t j = 0; j < sizeof(ids) / sizeof(ids[0]); j++)
			if (fires(ids[j], clean[i]))
				fail_msg("rule '%s' fires on clean line '%s'", ids[j], clean[i]);
}

static void timing_ini_has_what_the_injector_needs(void **state)
{
	(void)state;
	char *text = slurp(PK_SOURCE_DIR "/rules/timing.ini");
	struct tt_rules r;
	memset(&r, 0, sizeof(r));
	assert_int_equal(tt_rules_parse(&r, "timing.ini", text), 0);
	static const char *need[][2] = {{"code", "api"},
	                                {"code", "qualifiers"},
	                                {"code", "magic"},
	                                {"code", "tensor_type"},
	                                {"slot", "aiv"},
	                                {"slot", "mix_aiv"},
	                                {"kinds", "producer_done"},
	                                {"host", "orchestration"},
	                                {"host", "packed_element"},
	                                {"host", "simpler_task_counter"},
	                                {"host", "simpler_task_value"},
	                                {"host", "simpler_task_advance"},
	                                {"host", "simpler_task_rows"},
	                                {"host", "simpler_task_rows_mixed"},
	                                {"simpler", "block_getters"},
	                                {"target.simpler", "task_slot"}};
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!tt_rule(&r, need[i][0], need[i][1]))
			fail_msg("rules/timing.ini lacks [%s] %s", need[i][0], need[i][1]);
	assert_string_equal(tt_rule(&r, "kinds", "collective_arrival"), "arrival");
	assert_int_equal(tt_rules_check(&r, "rules/timing.ini"), 0);
	/* a template writes the word the tool looks for: one entry serves both */
	assert_non_null(strstr(tt_rule(&r, "host", "simpler_add"), r.w.add_output));
	assert_non_null(strstr(tt_rule(&r, "python", "test_tensorarg"), tt_rule(&r, "test_script", "tensorarg")));
	assert_null(strstr(tt_rule(&r, "host", "simpler_add"), "{simpler."));
	tt_rules_free(&r);
	free(text);
}

/* {SECTION.KEY} in a value is that entry's word, filled in once when the
 * rules are read (a later setting wins, as for every key); a reference to
 * a key the file does not set in a section it has is refused, naming it;
 * the templates' own placeholders, and braces naming no section, stay. */
static void a_value_takes_another_entrys_word(void **state)
{
	(void)state;
	struct tt_rules r;
	memset(&r, 0, sizeof(r));
	assert_int_equal(tt_rules_parse(&r, "t.ini",
	                                "[simpler]\nadd_output = add_first\n[host]\n"
	                                "simpler_add = {recv}.{simpler.add_output}({prefix}timing);\n"
	                                "[simpler]\nadd_output = add_out\n"),
	                 0);
	assert_string_equal(tt_rule(&r, "host", "simpler_add"), "{recv}.add_out({prefix}timing);");
	assert_string_equal(r.w.add_output, "add_out");
	assert_string_equal(r.w.add_inout, ""); /* left out: no word, and the schema refuses the file */
	assert_int_equal(tt_rules_check(&r, "t.ini"), -1);
	tt_rules_free(&r);
	memset(&r, 0, sizeof(r));
	assert_int_equal(
	    tt_rules_parse(&r, "t.ini",
	                   "[simpler]\nadd_output = o\n[host]\nsimpler_add = {recv}.{simpler.add_outptu}(x);\n"),
	    -1);
	tt_rules_free(&r);
	memset(&r, 0, sizeof(r)); /* braces of C++ naming no section of the file: text */
	assert_int_equal(tt_rules_parse(&r, "t.ini", "[host]\nx = Pair p{a.first};\n"), 0);
	assert_string_equal(tt_rule(&r, "host", "x"), "Pair p{a.first};");
	tt_rules_free(&r);
}

static int on_kinds(void *user, const char *section, const char *key, const char *value, unsigned line)
{
	(void)line;
	if (!strcmp(section, "kinds") && (!strcmp(key, "order") || !strcmp(key, "fallback")))
		pk_sb_addf(user, "%s ", value);
	return 0;
}

static int fires_in(const struct pk_ruleset *set, const char *id, const char *text)
{
	for (size_t i = 0; i < set->n; i++) {
		if (strcmp(set->r[i].id, id))
			continue;
		pcre2_match_data *md = pcre2_match_data_create_from_pattern(set->r[i].re, NULL);
		int rc = pcre2_match(set->r[i].re, (PCRE2_SPTR)text, strlen(text), 0, 0, md, NULL);
		pcre2_match_data_free(md);
		return rc > 0;
	}
	fail_msg("no rule '%s'", id);
	return 0;
}

/* Every cycle read and row writeback the tool generates, for every kind of
 * rules/api.ini, is flagged by the built-in check rules. */
static void check_rules_flag_every_generated_spelling(void **state)
{
	(void)state;
	struct pk_ruleset def;
	memset(&def, 0, sizeof(def));
	assert_int_equal(pk_rules_load_defaults(&def), 0);
	assert_int_equal(pk_rules_compile(&def), 0);
	struct pk_sb kinds = {0};
	assert_int_equal(pk_ini_parse_rules("api.ini", on_kinds, &kinds), 0);
	int n = 0;
	for (char *save = NULL, *k = strtok_r(kinds.s, " ", &save); k; k = strtok_r(NULL, " ", &save), n++) {
		struct pk_api a;
		assert_int_equal(pk_api_load(k, &a), 0);
		const char *reads[] = {a.cycle, a.sim_cycle};
		for (size_t i = 0; i < 2; i++) {
			if (!*reads[i])
				continue;
			char *call = pk_api_call(&a, reads[i], 1, "args");
			char *line = pk_xasprintf("uint64_t t = %s;", call);
			if (!fires_in(&def, "cycle-read", line))
				fail_msg("[%s]: probe-check does not flag '%s'", k, line);
			free(line);
			free(call);
		}
		const char *names[] = {"line"}, *vals[] = {"row + 0"};
		char *wb = pk_api_fill(a.writeback, names, vals, 1);
		if (!fires("timing-row-writeback", wb))
			fail_msg("[%s]: probe-check does not flag '%s'", k, wb);
		free(wb);
		pk_api_free(&a);
	}
	assert_true(n >= 3);
	pk_sb_free(&kinds);
	pk_rules_free(&def);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(each_rule_fires_on_its_leftover),
	    cmocka_unit_test(no_rule_fires_on_clean_code),
	    cmocka_unit_test(timing_ini_has_what_the_injector_needs),
	    cmocka_unit_test(check_rules_flag_every_generated_spelling),
	    cmocka_unit_test(generated_names_follow_the_generator_prefix),
	    cmocka_unit_test(a_value_takes_another_entrys_word),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
