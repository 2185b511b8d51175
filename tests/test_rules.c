/* test_rules.c - the probe-check rule loader (tool/rules.h): the default
 * rules, overrides from --rules files, every error a rule file can hold
 * (named by file:line), INI comments, and the allow(rule-id) comment as
 * probe-check applies it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pk.h"
#include "embed.h"
#include "rules.h"

/* ---- capture a standard stream --------------------------------------- */

struct capture {
	int fd, saved;
	FILE *tmp;
};

static void capture_start(struct capture *c, int fd)
{
	fflush(fd == 1 ? stdout : stderr);
	c->fd = fd;
	c->tmp = tmpfile();
	assert_non_null(c->tmp);
	c->saved = dup(fd);
	dup2(fileno(c->tmp), fd);
}

static char *capture_end(struct capture *c)
{
	fflush(c->fd == 1 ? stdout : stderr);
	dup2(c->saved, c->fd);
	close(c->saved);
	long n = ftell(c->tmp);
	char *s = calloc(1, (size_t)n + 1);
	rewind(c->tmp);
	if (n > 0 && fread(s, 1, (size_t)n, c->tmp) != (size_t)n)
		fail_msg("short read of a captured stream");
	fclose(c->tmp);
	return s;
}

/* ---- helpers ----------------------------------------------------------- */

static const struct pk_rule *rule(const struct pk_ruleset *rs, const char *id)
{
	for (size_t i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].id, id))
			return &rs->r[i];
	return NULL;
}

/* Load TEXT as ORIGIN and compile; returns the rc and the stderr text. */
static int load_and_compile(struct pk_ruleset *rs, const char *origin, const char *text, char **err)
{
	struct capture c;
	capture_start(&c, 2);
	int rc = pk_rules_load_text(rs, origin, text, strlen(text));
	if (rc == 0)
		rc = pk_rules_compile(rs);
	*err = capture_end(&c);
	return rc;
}

static int matches(const struct pk_rule *r, const char *subject)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(r->re, NULL);
	int rc = pcre2_match(r->re, (PCRE2_SPTR)subject, strlen(subject), 0, 0, md, NULL);
	pcre2_match_data_free(md);
	return rc >= 0;
}

/* One bad rule file: exit -1 and exactly the message WANT on stderr. */
static void refused(const char *text, const char *want)
{
	struct pk_ruleset rs = {0};
	char *err;
	int rc = load_and_compile(&rs, "team.ini", text, &err);
	if (strcmp(err, want))
		print_error("rule file:\n%s\nwant: %sgot:  %s", text, want, err);
	assert_int_equal(rc, -1);
	assert_string_equal(err, want);
	free(err);
	pk_rules_free(&rs);
}

/* ---- defaults ----------------------------------------------------------- */

static void defaults_load_and_compile(void **state)
{
	(void)state;
	struct pk_ruleset rs = {0};
	assert_int_equal(pk_rules_load_defaults(&rs), 0);
	assert_int_equal(pk_rules_compile(&rs), 0);
	static const char *const ids[] = {"enabled-probe", "malformed-probe", "disabled-probe",
	                                  "cycle-read",    "probe-printf",    "stray-marker"};
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		print_message("rule %s\n", ids[i]);
		assert_non_null(rule(&rs, ids[i]));
	}
	assert_int_equal(rule(&rs, "enabled-probe")->match, PK_MATCH_ENABLED_PROBE);
	assert_int_equal(rule(&rs, "disabled-probe")->match, PK_MATCH_DISABLED_PROBE);
	assert_true(rule(&rs, "disabled-probe")->strict_only);
	assert_false(rule(&rs, "enabled-probe")->strict_only);
	assert_int_equal(rule(&rs, "malformed-probe")->match, PK_MATCH_MALFORMED_PROBE);
	for (size_t i = 0; i < rs.n; i++)
		if (rs.r[i].enabled && rs.r[i].match == PK_MATCH_PATTERN)
			assert_non_null(rs.r[i].re);
	pk_rules_free(&rs);
}

static void default_patterns_match_what_they_say(void **state)
{
	(void)state;
	struct pk_ruleset rs = {0};
	assert_int_equal(pk_rules_load_defaults(&rs), 0);
	assert_int_equal(pk_rules_compile(&rs), 0);
	const struct pk_rule *cyc = rule(&rs, "cycle-read"), *pr = rule(&rs, "probe-printf");
	assert_true(matches(cyc, "uint64_t t = GetSystemCycle();"));
	assert_true(matches(cyc, "t = get_sys_cnt ();"));
	assert_false(matches(cyc, "MyGetSystemCycleX();"));
	assert_false(matches(cyc, "GetSystemCycle_table"));
	assert_true(matches(pr, "printf(\"[STAGE_B] start=%lu end=%lu\\n\", s, e);"));
	assert_false(matches(pr, "printf(\"sorted %d items\\n\", n);"));
	const struct pk_rule *st = rule(&rs, "stray-marker");
	assert_true(st->in_comments);
	assert_true(matches(st, "// TIMING_PROBE: X"));
	pk_rules_free(&rs);
}

/* ---- overrides ---------------------------------------------------------- */

static void override_one_key_keeps_the_rest(void **state)
{
	(void)state;
	struct pk_ruleset rs = {0};
	assert_int_equal(pk_rules_load_defaults(&rs), 0);
	size_t n = rs.n;
	const struct pk_rule *before = rule(&rs, "cycle-read");
	char *pattern = pk_xstrdup(before->pattern), *origin = pk_xstrdup(before->origin);
	unsigned line = before->pattern_line;
	char *err;
	assert_int_equal(load_and_compile(&rs, "team.ini", "[cycle-read]\nseverity = warning\n", &err), 0);
	assert_string_equal(err, "");
	free(err);
	const struct pk_rule *r = rule(&rs, "cycle-read");
	assert_int_equal(rs.n, n); /* overridden, not added */
	assert_int_equal(r->severity, PK_SEV_WARNING);
	assert_string_equal(r->pattern, pattern);
	assert_string_equal(r->origin, origin); /* a bad pattern is still reported where it was set */
	assert_int_equal(r->pattern_line, line);
	assert_true(matches(r, "GetSystemCycle()"));
	free(pattern);
	free(origin);
	pk_rules_free(&rs);
}

static void override_pattern_moves_origin(void **state)
{
	(void)state;
	struct pk_ruleset rs = {0};
	assert_int_equal(pk_rules_load_defaults(&rs), 0);
	char *err;
	const char *text = "; ours\n[cycle-read]\n\npattern = \\bread_tsc\\s*\\(\n";
	assert_int_equal(load_and_compile(&rs, "team.ini", text, &err), 0);
	free(err);
	const struct pk_rule *r = rule(&rs, "cycle-read");
	assert_string_equal(r->origin, "team.ini");
	assert_int_equal(r->pattern_line, 4);
	assert_true(matches(r, "x = read_tsc();"));
	assert_false(matches(r, "x = GetSystemCycle();"));
	pk_rules_free(&rs);
}

static void new_rule_and_later_file_wins(void **state)
{
	(void)state;
	struct pk_ruleset rs = {0};
	char *err;
	assert_int_equal(load_and_compile(&rs, "a.ini",
	                                  "[no-sleep]\npattern = usleep\nseverity = error\n"
	                                  "message = no sleeping in kernels\n",
	                                  &err),
	                 0);
	free(err);
	assert_int_equal(
	    load_and_compile(&rs, "b.ini", "[no-sleep]\nseverity = warning\nmessage = {name} naps\n", &err), 0);
	free(err);
	assert_int_equal(rs.n, 1);
	const struct pk_rule *r = rule(&rs, "no-sleep");
	assert_int_equal(r->severity, PK_SEV_WARNING);
	char *m = pk_rule_message(r, "STAGE_B");
	assert_string_equal(m, "STAGE_B naps");
	free(m);
	m = pk_rule_message(r, NULL);
	assert_string_equal(m, "{name} naps");
	free(m);
	pk_rules_free(&rs);
}

/* a suggested command runs as written: {file} names the file of the finding */
static void message_names_the_file(void **state)
{
	(void)state;
	struct pk_ruleset rs = {0};
	char *err;
	assert_int_equal(
	    load_and_compile(&rs, "f.ini",
	                     "[on]\nmatch = enabled-probe\nmessage = '{name}' on: probe-inject --disable-all "
	                     "{file}\n",
	                     &err),
	    0);
	free(err);
	char *m = pk_rule_message_in(rule(&rs, "on"), "STAGE_B", "src/k.cpp");
	assert_string_equal(m, "'STAGE_B' on: probe-inject --disable-all src/k.cpp");
	free(m);
	pk_rules_free(&rs);
}

static void disabled_rule_is_not_compiled(void **state)
{
	(void)state;
	struct pk_ruleset rs = {0};
	char *err;
	assert_int_equal(load_and_compile(&rs, "t.ini", "[old]\npattern = (broken\nenabled = no\n", &err), 0);
	assert_string_equal(err, "");
	free(err);
	assert_null(rule(&rs, "old")->re);
	pk_rules_free(&rs);
}

static void message_defaults_to_id(void **state)
{
	(void)state;
	struct pk_ruleset rs = {0};
	char *err;
	assert_int_equal(load_and_compile(&rs, "t.ini", "[quiet-rule]\npattern = x\n", &err), 0);
	free(err);
	char *m = pk_rule_message(rule(&rs, "quiet-rule"), NULL);
	assert_string_equal(m, "quiet-rule");
	free(m);
	assert_int_equal(rule(&rs, "quiet-rule")->severity, PK_SEV_ERROR);
	pk_rules_free(&rs);
}

static void ini_comments_and_blank_lines(void **state)
{
	(void)state;
	struct pk_ruleset rs = {0};
	char *err;
	const char *text = "; a comment\n# another comment\n\n[r1]\n  ; indented comment\npattern = a+b\n\n"
	                   "[r2]\r\npattern = c\r\nseverity = warning\r\n";
	assert_int_equal(load_and_compile(&rs, "t.ini", text, &err), 0);
	assert_string_equal(err, "");
	free(err);
	assert_int_equal(rs.n, 2);
	assert_string_equal(rule(&rs, "r1")->pattern, "a+b");
	assert_string_equal(rule(&rs, "r2")->pattern, "c");
	assert_int_equal(rule(&rs, "r2")->severity, PK_SEV_WARNING);
	pk_rules_free(&rs);
}

/* ---- errors, each named by file:line ----------------------------------- */

static void bad_regex_names_file_and_line(void **state)
{
	(void)state;
	refused("[ok]\npattern = foo\n\n; next one is broken\n[broken]\nseverity = error\npattern = (unclosed\n",
	        "probekit: team.ini:7: rule 'broken': bad pattern at offset 9: missing closing parenthesis\n");
	refused("[b]\npattern = a{2,1}\n",
	        "probekit: team.ini:2: rule 'b': bad pattern at offset 5: numbers out of order in {} quantifier\n");
}

static void unknown_key(void **state)
{
	(void)state;
	refused("[x]\npattern = foo\nbogus = 1\n", "probekit: team.ini:3: rule 'x': unknown key 'bogus'\n");
}

static void key_outside_section(void **state)
{
	(void)state;
	refused("pattern = foo\n", "probekit: team.ini:1: 'pattern' outside a [rule-id] section\n");
}

static void bad_values(void **state)
{
	(void)state;
	refused("[x]\nseverity = fatal\n",
	        "probekit: team.ini:2: rule 'x': severity must be 'error' or 'warning', not 'fatal'\n");
	refused("[x]\npattern = a\nstrict = maybe\n",
	        "probekit: team.ini:3: rule 'x': 'strict' must be yes or no, not 'maybe'\n");
	refused("[x]\nmatch = everything\n",
	        "probekit: team.ini:2: rule 'x': unknown matcher 'everything' (enabled-probe, disabled-probe, "
	        "malformed-probe)\n");
}

static void not_ini(void **state)
{
	(void)state;
	refused("[x]\nthis is not ini\n",
	        "probekit: team.ini:2: not a valid INI line (expected '[rule-id]' or 'key = value')\n");
}

static void no_pattern_no_match(void **state)
{
	(void)state;
	refused("[x]\nseverity = error\n", "probekit: rule 'x': neither 'pattern' nor 'match' is set\n");
}

static void line_too_long(void **state)
{
	(void)state;
	size_t n = 100000;
	char *text = malloc(n + 64);
	strcpy(text, "[x]\npattern = ");
	size_t l = strlen(text);
	memset(text + l, 'a', n);
	strcpy(text + l + n, "\n");
	struct pk_ruleset rs = {0};
	char *err;
	assert_int_equal(load_and_compile(&rs, "team.ini", text, &err), -1);
	assert_non_null(strstr(err, "probekit: team.ini:2: line too long for a rule file"));
	free(err);
	free(text);
	pk_rules_free(&rs);
}

/* Every rules file (check, async, timing) is read by pk_ini_parse: each key
 * comes with its own line, blank lines and comments counted. */
struct seen {
	char keys[8][32];
	unsigned lines[8];
	int n;
};

static int note_key(void *user, const char *section, const char *key, const char *value, unsigned line)
{
	(void)section;
	(void)value;
	struct seen *s = user;
	if (s->n == 8)
		return -1;
	snprintf(s->keys[s->n], sizeof(s->keys[0]), "%s", key);
	s->lines[s->n++] = line;
	return 0;
}

static void ini_lines_count_blank_and_comment_lines(void **state)
{
	(void)state;
	const char *text = "; head\n\n[a]\nx = 1\n\n\n# note\ny = 2\n[b]\r\n\r\nz = 3\n\n\nnot a key\n";
	struct seen s = {0};
	struct capture c;
	capture_start(&c, 2);
	int rc = pk_ini_parse("t.ini", "'[section]' or 'key = value'", text, strlen(text), note_key, &s);
	char *err = capture_end(&c);
	assert_int_equal(rc, -1);
	assert_string_equal(err, "probekit: t.ini:14: not a valid INI line (expected '[section]' or 'key = value')\n");
	free(err);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.keys[0], "x");
	assert_int_equal(s.lines[0], 4);
	assert_string_equal(s.keys[1], "y");
	assert_int_equal(s.lines[1], 8);
	assert_string_equal(s.keys[2], "z");
	assert_int_equal(s.lines[2], 11);
}

static void missing_file(void **state)
{
	(void)state;
	struct pk_ruleset rs = {0};
	struct capture c;
	capture_start(&c, 2);
	int rc = pk_rules_load_file(&rs, "/nonexistent/team.ini");
	char *err = capture_end(&c);
	assert_int_equal(rc, -1);
	assert_string_equal(err, "probekit: /nonexistent/team.ini: No such file or directory\n");
	free(err);
	pk_rules_free(&rs);
}

/* ---- allow(rule-id), as probe-check applies it ------------------------- */

static char *run_check(const char *source, int *rc)
{
	char dir[] = "/tmp/pk-test-rules-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof(path), "%s/k.cpp", dir);
	FILE *f = fopen(path, "wb");
	fputs(source, f);
	fclose(f);
	char *argv[] = {"probe-check", path, NULL};
	struct capture out, err;
	capture_start(&out, 1);
	capture_start(&err, 2);
	optind = 0; /* getopt starts afresh for every call */
	*rc = cmd_check(2, argv);
	char *e = capture_end(&err);
	char *o = capture_end(&out);
	assert_string_equal(e, "");
	free(e);
	unlink(path);
	rmdir(dir);
	/* drop the directory so the findings read "k.cpp:..." */
	size_t dl = strlen(dir) + 1;
	char *w = o;
	for (char *r = o; *r;) {
		if (!strncmp(r, dir, dl - 1) && r[dl - 1] == '/')
			r += dl;
		*w++ = *r++;
	}
	*w = '\0';
	return o;
}

static void allow_comment(void **state)
{
	(void)state;
	int rc;
	char *o = run_check("void f()\n{\n"
	                    "    probeStart_a = GetSystemCycle(); // probe-check: allow(cycle-read)\n"
	                    "    probeStart_b = GetSystemCycle(); /* probe-check: allow(probe-printf, cycle-read) */\n"
	                    "    probeStart_c = GetSystemCycle(); // probe-check: allow(probe-printf)\n"
	                    "    probeStart_d = GetSystemCycle(); // probe-check: allow(cycle)\n"
	                    "    probeStart_e = GetSystemCycle(); // probe-check: allow(cycle-read-x)\n"
	                    "    // probe-check: allow(cycle-read) on the line above does not count\n"
	                    "    probeStart_f = GetSystemCycle();\n"
	                    "}\n",
	                    &rc);
	const char *msg = "error: cycle read outside a probe block (timing instrumentation left behind) [cycle-read]\n";
	char want[1024];
	snprintf(want, sizeof(want), "k.cpp:5:20: %sk.cpp:6:20: %sk.cpp:7:20: %sk.cpp:9:20: %s", msg, msg, msg, msg);
	assert_string_equal(o, want);
	assert_int_equal(rc, PK_EXIT_FINDINGS);
	free(o);
}

static void allow_silences_the_marker_rule(void **state)
{
	(void)state;
	int rc;
	char *o = run_check("int a; // TIMING_PROBE: OLD probe-check: allow(stray-marker)\n", &rc);
	assert_string_equal(o, "");
	assert_int_equal(rc, PK_EXIT_OK);
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(defaults_load_and_compile),
	    cmocka_unit_test(default_patterns_match_what_they_say),
	    cmocka_unit_test(override_one_key_keeps_the_rest),
	    cmocka_unit_test(override_pattern_moves_origin),
	    cmocka_unit_test(new_rule_and_later_file_wins),
	    cmocka_unit_test(disabled_rule_is_not_compiled),
	    cmocka_unit_test(message_names_the_file),
	    cmocka_unit_test(message_defaults_to_id),
	    cmocka_unit_test(ini_comments_and_blank_lines),
	    cmocka_unit_test(bad_regex_names_file_and_line),
	    cmocka_unit_test(unknown_key),
	    cmocka_unit_test(key_outside_section),
	    cmocka_unit_test(bad_values),
	    cmocka_unit_test(not_ini),
	    cmocka_unit_test(no_pattern_no_match),
	    cmocka_unit_test(line_too_long),
	    cmocka_unit_test(missing_file),
	    cmocka_unit_test(ini_lines_count_blank_and_comment_lines),
	    cmocka_unit_test(allow_comment),
	    cmocka_unit_test(allow_silences_the_marker_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
