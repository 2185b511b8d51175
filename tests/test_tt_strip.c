/* test_tt_strip.c - removing timing-tensor marks restores the original bytes,
 * refuses damaged marks, and leaves text a block removal already takes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "edit.h"
#include "source.h"
#include "timing_strip.h"

/* TEXT as probe-strip holds a file: bytes and scans, made once. */
static void load(struct pk_source *src, const char *text)
{
	memset(src, 0, sizeof(*src));
	pk_buf_from_mem(&src->buf, "t.cpp", strdup(text), strlen(text));
	pk_source_scan(src, 0);
}

/* Strip TEXT; returns the result (malloc'd) or NULL when strip refused. */
static char *strip(const char *text, int *nedits)
{
	struct pk_source src;
	struct pk_plan p;
	load(&src, text);
	pk_plan_init(&p);
	int n = pk_timing_plan_strip(&src, &p);
	if (nedits)
		*nedits = n;
	char *out = NULL;
	size_t len;
	if (n >= 0 && pk_plan_check(&p, src.buf.path, src.buf.len) == 0)
		pk_plan_apply(&p, src.buf.data, src.buf.len, &out, &len);
	pk_plan_free(&p);
	pk_source_free(&src);
	return out;
}

static void inline_mark_restores_awkward_bytes(void **state)
{
	(void)state;
	const char *orig = "a\"b\\c */ d/e\tf\r";
	char *w = pk_timing_wrap(orig, strlen(orig), "NEW", NULL);
	assert_null(strstr(w + 2, "*/ d")); /* the original never closes the comment */
	char text[512];
	snprintf(text, sizeof(text), "int x = %s;\n", w);
	char *out = strip(text, NULL);
	assert_non_null(out);
	char want[512];
	snprintf(want, sizeof(want), "int x = %s;\n", orig);
	assert_string_equal(out, want);
	free(out);
	free(w);
}

static void line_marks_go_whole_with_their_eol(void **state)
{
	(void)state;
	char *out = strip("{\r\n    uint64_t e = 0;  // TIMING_PROBE: @timing entry\r\n    f();\r\n"
	                  "    g();  // TIMING_PROBE: @timing\r\n}\r\n",
	                  NULL);
	assert_non_null(out);
	assert_string_equal(out, "{\r\n    f();\r\n}\r\n");
	free(out);
}

static void index_mark_round_trip(void **state)
{
	(void)state;
	char *w = pk_timing_wrap("3", 1, "4", NULL);
	char text[256];
	snprintf(text, sizeof(text), "int n = args[%s];\n", w);
	int n;
	char *out = strip(text, &n);
	assert_int_equal(n, 1);
	assert_string_equal(out, "int n = args[3];\n");
	free(out);
	free(w);
}

static void damaged_marks_are_refused(void **state)
{
	(void)state;
	int n;
	assert_null(strip("int n = args[/* TIMING_PROBE: @timing-was \"3\" */4];\n", &n));
	assert_int_equal(n, -1);
	assert_null(strip("int n = args[/* TIMING_PROBE: @timing-was \"3 */4/* TIMING_PROBE: @timing-end */];\n", &n));
	assert_int_equal(n, -1);
	assert_null(strip("x(); /* TIMING_PROBE: @timing-end */\n", &n));
	assert_int_equal(n, -1);
	assert_null(strip("x(); // TIMING_PROBE: @timingX\n", &n));
	assert_int_equal(n, -1);
}

static void words_in_strings_are_not_marks(void **state)
{
	(void)state;
	const char *text = "const char *s = \"// TIMING_PROBE: @timing entry\";\n";
	int n;
	char *out = strip(text, &n);
	assert_int_equal(n, 0);
	assert_string_equal(out, text);
	free(out);
}

static void text_a_block_removal_takes_is_left_to_it(void **state)
{
	(void)state;
	const char *text = "#if 1  // TIMING_PROBE: A\n  t = r();  // TIMING_PROBE: @timing event a (drain)\n#endif\n"
	                   "  u();  // TIMING_PROBE: @timing tail\n";
	struct pk_source src;
	struct pk_plan p;
	load(&src, text);
	pk_plan_init(&p);
	size_t block_end = strstr(text, "  u();") - text;
	pk_plan_add(&p, 0, block_end, "", 0); /* what probe-strip does to the block */
	assert_int_equal(pk_timing_plan_strip(&src, &p), 2);
	assert_int_equal(pk_plan_check(&p, src.buf.path, src.buf.len), 0);
	assert_int_equal(p.n, 2); /* the mark inside the block went with it */
	char *out;
	size_t len;
	pk_plan_apply(&p, src.buf.data, src.buf.len, &out, &len);
	assert_string_equal(out, "");
	free(out);
	pk_plan_free(&p);
	pk_source_free(&src);
}

static void marked_only_in_comments(void **state)
{
	(void)state;
	struct pk_source src;
	load(&src, "x(); // TIMING_PROBE: @timing tail\n");
	assert_true(pk_timing_marked(&src.buf));
	pk_source_free(&src);
	load(&src, "const char *s = \"TIMING_PROBE: @timing\";\n");
	assert_false(pk_timing_marked(&src.buf));
	pk_source_free(&src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(inline_mark_restores_awkward_bytes),
	    cmocka_unit_test(line_marks_go_whole_with_their_eol),
	    cmocka_unit_test(index_mark_round_trip),
	    cmocka_unit_test(damaged_marks_are_refused),
	    cmocka_unit_test(words_in_strings_are_not_marks),
	    cmocka_unit_test(text_a_block_removal_takes_is_left_to_it),
	    cmocka_unit_test(marked_only_in_comments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
