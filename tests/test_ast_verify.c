/* test_ast_verify.c - the check of an insertion: what it parses (the
 * planned text with the bodies no edit touches left blank) and what it
 * still refuses (an error the insertion causes, whether it shows at once,
 * in another body, or only when a template is instantiated). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "edit.h"
#include "pk.h"

struct fixture {
	struct pk_buf b;
	struct pk_ast a;
	struct pk_plan p;
};

/* Parse TEXT and plan inserting INS before the first occurrence of AT. */
static void setup(struct fixture *f, const char *text, const char *at, const char *ins, char **extra, int nextra)
{
	pk_buf_from_mem(&f->b, "v.cpp", pk_xstrdup(text), strlen(text));
	struct pk_parse_opts o = {NULL, extra, nextra, NULL};
	assert_int_equal(pk_ast_parse_edit(&f->a, &f->b, &o), 0);
	pk_plan_init(&f->p);
	const char *w = strstr(text, at);
	assert_non_null(w);
	pk_plan_add(&f->p, (size_t)(w - text), (size_t)(w - text), ins, strlen(ins));
	assert_int_equal(pk_plan_check(&f->p, "v.cpp", f->b.len), 0);
}

static void teardown(struct fixture *f)
{
	pk_plan_free(&f->p);
	pk_ast_free(&f->a);
	pk_buf_free(&f->b);
}

static int verify(const char *text, const char *at, const char *ins)
{
	struct fixture f;
	setup(&f, text, at, ins, NULL, 0);
	int rc = pk_ast_verify(&f.a, &f.p, "P");
	teardown(&f);
	return rc;
}

static size_t count_lines(const char *s, size_t n)
{
	size_t l = 0;
	for (size_t i = 0; i < n; i++)
		l += s[i] == '\n';
	return l;
}

/* A body no edit touches is blank, every line kept; the edited body, the
 * declarations, a directive inside a blank body (not a loop hint, which
 * wants its loop) and a value-returning function's reachability stay. */
static void test_blank_bodies(void **state)
{
	(void)state;
	const char *k = "#define N 4\n"
	                "int value(int x) {\n"
	                "\tint y = x * N; // a comment\n"
	                "\treturn y;\n"
	                "}\n"
	                "void side() {\n"
	                "#define SZ 8\n"
	                "\tvalue(1);\n"
	                "#pragma unroll\n"
	                "\tfor (int i = 0; i < 2; i++)\n"
	                "\t\tvalue(i);\n"
	                "#pragma push_macro(\"N\")\n"
	                "}\n"
	                "void edited() {\n"
	                "\tint a[SZ];\n"
	                "\ta[0] = value(2);\n"
	                "}\n";
	struct fixture f;
	setup(&f, k, "\ta[0]", "\tint probe = 0;\n", NULL, 0);
	char *t;
	size_t n;
	int blanked;
	pk_ast_check_text(&f.a, &f.p, &t, &n, &blanked);
	assert_true(blanked);
	assert_int_equal(count_lines(t, n), count_lines(k, strlen(k)) + 1);
	assert_non_null(strstr(t, "int value(int x) {"));
	assert_null(strstr(t, "x * N"));
	assert_null(strstr(t, "a comment"));
	assert_non_null(strstr(t, "__builtin_unreachable();")); /* value() returns an int */
	assert_non_null(strstr(t, "#define SZ 8\n"));
	assert_non_null(strstr(t, "#pragma push_macro(\"N\")\n"));
	assert_null(strstr(t, "#pragma unroll")); /* a loop hint with no loop after it is an error */
	assert_null(strstr(t, "value(1)"));
	assert_non_null(strstr(t, "\tint probe = 0;\n\ta[0] = value(2);\n"));
	/* and the result passes its check */
	assert_int_equal(pk_ast_verify(&f.a, &f.p, "P"), 0);
	free(t);
	teardown(&f);
}

/* Bodies whose text callers see, or whose lines could look like
 * directives, stay whole. */
static void test_bodies_kept(void **state)
{
	(void)state;
	const char *k = "constexpr int twice(int x) { return 2 * x; }\n"
	                "auto deduced() { return 1; }\n"
	                "const char *raw() { return R\"(\n#not a directive\n)\"; }\n"
	                "void edited() {\n"
	                "\tint a[twice(2)];\n"
	                "\ta[0] = deduced();\n"
	                "}\n";
	struct fixture f;
	setup(&f, k, "\ta[0]", "\tint probe = 0;\n", NULL, 0);
	char *t;
	size_t n;
	int blanked;
	pk_ast_check_text(&f.a, &f.p, &t, &n, &blanked);
	assert_false(blanked);
	assert_non_null(strstr(t, "return 2 * x;"));
	assert_non_null(strstr(t, "return 1;"));
	assert_non_null(strstr(t, "#not a directive"));
	assert_int_equal(pk_ast_verify(&f.a, &f.p, "P"), 0);
	free(t);
	teardown(&f);
}

/* Text added outside every body, or a directive other than a conditional,
 * could change another body: the check parses everything. */
static void test_reach_across(void **state)
{
	(void)state;
	const char *k = "void helper(int);\n"
	                "void other() {\n"
	                "\thelper(1u);\n"
	                "}\n"
	                "void edited() {\n"
	                "\tint value = 1;\n"
	                "\t(void)value;\n"
	                "}\n";
	struct fixture f;
	setup(&f, k, "void other", "void helper(long);\n", NULL, 0);
	char *t;
	size_t n;
	int blanked;
	pk_ast_check_text(&f.a, &f.p, &t, &n, &blanked);
	assert_false(blanked);
	free(t);
	teardown(&f);
	/* the new overload makes the call in other() ambiguous */
	assert_int_equal(verify(k, "void other", "void helper(long);\n"), -1);
	/* a #define in one body reaches the next */
	const char *k2 = "void edited() {\n"
	                 "\tint a = 0;\n"
	                 "\t(void)a;\n"
	                 "}\n"
	                 "void later() {\n"
	                 "\tint value = 1;\n"
	                 "\t(void)value;\n"
	                 "}\n";
	assert_int_equal(verify(k2, "\t(void)a", "#if 1\n#define value 0\n#endif\n"), -1);
	/* a conditional block alone blanks the other bodies */
	setup(&f, k2, "\t(void)a", "#if 1\n\tint probe = 0;\n#endif\n", NULL, 0);
	pk_ast_check_text(&f.a, &f.p, &t, &n, &blanked);
	assert_true(blanked);
	assert_null(strstr(t, "int value = 1;"));
	assert_int_equal(pk_ast_verify(&f.a, &f.p, "P"), 0);
	free(t);
	teardown(&f);
}

/* Inserted code that depends on a template parameter fails only when the
 * template is instantiated, here by a body the insertion does not touch:
 * the check parses that body too and refuses. Code that does not depend on
 * it is checked where it stands. */
static void test_instantiation(void **state)
{
	(void)state;
	const char *k = "template <typename T> void body(T t) {\n"
	                "\t(void)t;\n"
	                "}\n"
	                "void caller() {\n"
	                "\tbody(1.0f);\n"
	                "}\n";
	assert_int_equal(verify(k, "\t(void)t", "\tT::missing();\n"), -1);
	assert_int_equal(verify(k, "\t(void)t", "\tt.missing();\n"), -1);
	assert_int_equal(verify(k, "\t(void)t", "\tint probe = 0;\n\t(void)probe;\n"), 0);
	assert_int_equal(verify(k, "\t(void)t", "\tundeclared_call();\n"), -1);
	/* a generic lambda in a plain function, called by a template no probe
	 * touches */
	const char *l = "template <typename F> void apply(F f) {\n"
	                "\tf(1.0f);\n"
	                "}\n"
	                "void user() {\n"
	                "\tapply([](auto x) {\n"
	                "\t\t(void)x;\n"
	                "\t});\n"
	                "}\n";
	assert_int_equal(verify(l, "\t\t(void)x", "\t\tx.missing();\n"), -1);
	assert_int_equal(verify(l, "\t\t(void)x", "\t\tint probe = 0;\n\t\t(void)probe;\n"), 0);
}

/* An error an edit causes on an original line of its own body is still
 * one more error there. */
static void test_new_error_in_edited_body(void **state)
{
	(void)state;
	const char *k = "void edited() {\n"
	                "\tint a = 0;\n"
	                "\t(void)a;\n"
	                "}\n"
	                "void other() {\n"
	                "}\n";
	assert_int_equal(verify(k, "\tint a", "\tint a = 1;\n"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_blank_bodies),
	    cmocka_unit_test(test_bodies_kept),
	    cmocka_unit_test(test_reach_across),
	    cmocka_unit_test(test_instantiation),
	    cmocka_unit_test(test_new_error_in_edited_body),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
