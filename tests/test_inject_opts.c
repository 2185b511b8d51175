/* test_inject_opts.c - probe-inject's one option parser (tool/inject.h): the
 * form comes from the parsed options, every form's options land in one
 * struct, options of another form are refused with a message naming the form
 * they go with, and the help text documents what the parser takes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inject.h"
#include "capture.h"
#include "pk.h"
#include "scan.h"

/* Parse the words of LINE (split at blanks, no quoting) as probe-inject's
 * arguments into O; the result, with *err the messages (malloc'd). */
static enum pk_inject_parsed parse_line(const char *line, struct pk_inject_opts *o, int *rc, char **err)
{
	static char buf[1024];
	static char *argv[64];
	snprintf(buf, sizeof(buf), "%s", line);
	int argc = 0;
	argv[argc++] = "probe-inject";
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	capture_stderr();
	enum pk_inject_parsed r = pk_inject_parse(argc, argv, o, rc);
	*err = captured();
	return r;
}

/* LINE is refused with exactly MESSAGE (one line, "probekit: " added). */
static void refused(const char *line, const char *message)
{
	struct pk_inject_opts o;
	int rc;
	char *err;
	assert_int_equal(parse_line(line, &o, &rc, &err), PK_INJECT_EXIT);
	assert_int_equal(rc, PK_EXIT_ERROR);
	char want[512];
	snprintf(want, sizeof(want), "probekit: %s\n", message);
	assert_string_equal(err, want);
	free(err);
	pk_inject_opts_free(&o);
}

static void run_ok(const char *line, struct pk_inject_opts *o)
{
	int rc;
	char *err;
	enum pk_inject_parsed r = parse_line(line, o, &rc, &err);
	if (r != PK_INJECT_RUN)
		fail_msg("'%s' refused: %s", line, err);
	assert_string_equal(err, "");
	assert_int_equal(rc, PK_EXIT_OK);
	free(err);
}

static void test_blocks(void **state)
{
	(void)state;
	struct pk_inject_opts o;
	run_ok("--probe STAGE_A --no-base a.cpp b.cpp -- c.cpp", &o);
	assert_int_equal(o.form, PK_INJECT_BLOCKS);
	assert_int_equal(o.action, PK_BLOCK_ENABLE);
	assert_string_equal(o.name, "STAGE_A");
	assert_true(o.no_base);
	assert_false(o.allow_multiple);
	/* no compiler here: the words after -- are files too */
	assert_int_equal(o.nfiles, 3);
	assert_string_equal(o.files[2], "c.cpp");
	assert_int_equal(o.abi, PK_INJECT_ABI);
	assert_int_equal(o.size, sizeof(o));
	pk_inject_opts_free(&o);
	run_ok("--disable-all --check k.cpp", &o);
	assert_int_equal(o.action, PK_BLOCK_DISABLE_ALL);
	assert_int_equal(o.emit.mode, PK_EMIT_CHECK);
	pk_inject_opts_free(&o);
}

static void test_placement(void **state)
{
	(void)state;
	struct pk_inject_opts o;
	run_ok("--probe X --begin after:A --end before:B#2 --off -p build k.cpp -- -DN=1 -Iinc", &o);
	assert_int_equal(o.form, PK_INJECT_PLACE);
	assert_int_equal(o.place, PK_PLACE_RANGE);
	assert_string_equal(o.begin, "after:A");
	assert_string_equal(o.end, "before:B#2");
	assert_true(o.off);
	assert_string_equal(o.build_dir, "build");
	assert_int_equal(o.nfiles, 1);
	assert_string_equal(o.files[0], "k.cpp");
	assert_int_equal(o.nextra, 2); /* after --: the compiler's */
	assert_string_equal(o.extra[1], "-Iinc");
	pk_inject_opts_free(&o);
	/* --base names the probe T_BASE unless told otherwise */
	run_ok("--base=kern -o out.cpp k.cpp", &o);
	assert_int_equal(o.place, PK_PLACE_BASE);
	assert_string_equal(o.base_func, "kern");
	assert_string_equal(o.name, PK_BASE_PROBE);
	assert_int_equal(o.emit.mode, PK_EMIT_OUTFILE);
	pk_inject_opts_free(&o);
}

static void test_timing(void **state)
{
	(void)state;
	struct pk_inject_opts o;
	run_ok("k.cpp --timing-tensor --event a:issue=after:F#2@Helper --event b=line:9 --edit h.h --slots=24 "
	       "--func-id 3 --generation gen --host-by-hand -o out.cpp",
	       &o);
	assert_int_equal(o.form, PK_INJECT_TIMING);
	assert_string_equal(o.files[0], "k.cpp");
	assert_int_equal(o.nevents, 2);
	assert_string_equal(o.events[0].name, "a");
	assert_string_equal(o.events[0].kind, "issue");
	assert_string_equal(o.events[0].place, "after:F#2");
	assert_string_equal(o.events[0].func, "Helper");
	assert_null(o.events[1].kind);
	assert_null(o.events[1].func);
	assert_string_equal(o.events[1].place, "line:9");
	assert_int_equal(o.nedit, 1);
	assert_string_equal(o.slots, "24");
	assert_int_equal(o.func_id, 3);
	assert_string_equal(o.generation, "gen");
	pk_inject_opts_free(&o);
	run_ok("--timing-tensor --host-by-hand k.cpp", &o);
	assert_int_equal(o.host_by_hand, 1);
	assert_int_equal(o.func_id, -1);
	assert_int_equal(o.nfunc_twins, 0);
	pk_inject_opts_free(&o);
	run_ok("--timing-tensor --func-id 11,12,14 --diff k.cpp", &o);
	assert_int_equal(o.func_id, 11);
	assert_int_equal(o.nfunc_twins, 2);
	assert_int_equal(o.func_twins[0], 12);
	assert_int_equal(o.func_twins[1], 14);
	pk_inject_opts_free(&o);
}

static void test_refusals(void **state)
{
	(void)state;
	refused("--probe X --slots 4 k.cpp", "option '--slots' goes with --timing-tensor (see --help)");
	refused("--probe X --off k.cpp",
	        "option '--off' goes with a placement option (--begin/--end, --around, --wait, --base) (see --help)");
	refused("--timing-tensor --probe X k.cpp", "option '--probe' does not go with --timing-tensor (see --help)");
	refused("--around F --disable-all k.cpp", "option '--disable-all' does not go with a placement option "
	                                          "(--begin/--end, --around, --wait, --base) (see --help)");
	refused("--timing-tensor --around F k.cpp",
	        "--timing-tensor does not go with a placement option (--begin/--end, --around, --wait, --base): "
	        "give one form (see --help)");
	refused("--probe X --around F --wait G k.cpp", "give one placement: --begin/--end, --around, --wait or --base");
	refused("--probe A --disable B k.cpp", "give one of --probe, --disable, --disable-all");
	refused("k.cpp", "nothing to do: give --probe NAME, --disable NAME or --disable-all (see --help)");
	refused("-p build --probe X k.cpp", "'-p BUILD_DIR' goes with a placement option (--begin, --end, --around, "
	                                    "--wait, --base) or --timing-tensor; to enable a probe use --probe NAME");
	refused("--probe X --begin after:A k.cpp", "--begin and --end go together");
	refused("--probe X --around F a.cpp b.cpp", "placement works on one file at a time");
	refused("--timing-tensor k.cpp", "--timing-tensor changes the kernel's arguments (one more tensor): name the "
	                                 "host file that passes them with --host FILE (and the simpler test script "
	                                 "with --test-script), or say you change it yourself with --host-by-hand; "
	                                 "nothing was written");
	refused("--timing-tensor --host h.cpp --host-by-hand k.cpp",
	        "--host and --host-by-hand: the tool changes the host, or you do; choose one");
	refused("--timing-tensor a.cpp b.cpp", "--timing-tensor takes one kernel file ('a.cpp', 'b.cpp')");
	refused("--timing-tensor", "--timing-tensor needs a kernel file");
	refused("--timing-tensor --event x k.cpp", "--event 'x': expected NAME[:KIND]=PLACE");
	refused("--timing-tensor --event 9x=line:3 k.cpp", "--event '9x=line:3': '9x' is not a valid event name");
	refused("--timing-tensor --event x=line:3@ k.cpp", "--event 'x=line:3@': '' after '@' is not a function name");
	refused("--timing-tensor --func-id -1 k.cpp", "--func-id '-1': expected a kernel id (0, 1, ...), or the ids "
	                                              "one source is built under (11,12; at most 9)");
	refused("--timing-tensor --func-id 3,,4 k.cpp", "--func-id '3,,4': expected a kernel id (0, 1, ...), or the "
	                                                "ids one source is built under (11,12; at most 9)");
	refused("--timing-tensor --invocation= k.cpp", "--invocation needs a host expression");
	refused("--timing-tensor --invocation i k.cpp", "--invocation EXPR and --invocations K go together");
	refused("--timing-tensor --host h.cpp --stdout k.cpp",
	        "--host cannot go to --stdout: two files would be mixed; use -o and --host-out");
	refused("--timing-tensor -o a --stdout k.cpp", "-o, --stdout, --diff and --check exclude each other");
	refused("--bogus k.cpp", "unknown option '--bogus' (see --help)");
	refused("--probe", "option '--probe' needs a value (see --help)");
}

/* The help of FORM as text (malloc'd). */
static char *usage_of(enum pk_inject_form form)
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);
	pk_inject_usage(f, form);
	fclose(f);
	return text;
}

/* Every option the whole help names is one the parser takes (no "unknown
 * option"), and each form's help is a part of the whole one. */
static void test_help(void **state)
{
	(void)state;
	char *all = usage_of(PK_INJECT_FORMS);
	assert_int_equal(strncmp(all, "usage: probe-inject ", 20), 0);
	for (const char *p = all; (p = strstr(p, "--"));) {
		size_t n = 2;
		while ((p[n] >= 'a' && p[n] <= 'z') || p[n] == '-')
			n++;
		if (n > 2) {
			char line[128];
			snprintf(line, sizeof(line), "%.*s", (int)n, p);
			struct pk_inject_opts o;
			int rc;
			char *err;
			parse_line(line, &o, &rc, &err);
			if (strstr(err, "unknown option"))
				fail_msg("the help names %s, which the parser does not take", line);
			free(err);
			pk_inject_opts_free(&o);
		}
		p += n;
	}
	for (int f = 0; f < PK_INJECT_FORMS; f++) {
		char *one = usage_of((enum pk_inject_form)f);
		assert_int_equal(strncmp(one, "usage: probe-inject ", 20), 0);
		assert_non_null(strstr(one, "\nexit: 0"));
		assert_true(strlen(one) < strlen(all));
		free(one);
	}
	free(all);
}

/* --help answers with the help of the form asked about so far. */
static void test_help_per_form(void **state)
{
	(void)state;
	struct pk_inject_opts o;
	int rc;
	char *err;
	fflush(stdout);
	int saved = dup(1);
	FILE *out = tmpfile();
	dup2(fileno(out), 1);
	assert_int_equal(parse_line("--timing-tensor --help", &o, &rc, &err), PK_INJECT_EXIT);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	assert_int_equal(rc, PK_EXIT_OK);
	free(err);
	pk_inject_opts_free(&o);
	char text[64] = "";
	rewind(out);
	if (!fgets(text, sizeof(text), out))
		fail_msg("no help printed");
	fclose(out);
	assert_int_equal(strncmp(text, "usage: probe-inject --timing-tensor", 35), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_blocks),   cmocka_unit_test(test_placement), cmocka_unit_test(test_timing),
	    cmocka_unit_test(test_refusals), cmocka_unit_test(test_help),      cmocka_unit_test(test_help_per_form),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
