/* test_tt_pytok.c - the Python tokens the timing tensor's Python edits
 * stand on: strings of every form are one token, brackets match, blocks
 * follow Python's indentation rules (tabs included), continuations join
 * lines, and what cannot be read is refused with its line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "tt.h"

static struct pk_buf buf = {.lock_fd = -1};

/* Scan the N bytes of TEXT as t.py; 0 or -1. */
static int scan_n(struct pyt *p, const char *text, size_t n)
{
	pk_buf_free(&buf);
	char *d = malloc(n + 1);
	memcpy(d, text, n);
	d[n] = '\0';
	pk_buf_from_mem(&buf, "t.py", d, n);
	return pyt_scan(p, &buf);
}

static int scan(struct pyt *p, const char *text)
{
	return scan_n(p, text, strlen(text));
}

static size_t count(const struct pyt *p, int kind)
{
	size_t n = 0;
	for (size_t i = 0; i < p->n; i++)
		n += p->t[i].kind == kind;
	return n;
}

/* TEXT is refused with a message holding WHAT. */
static void refused(const char *text, const char *what)
{
	struct pyt p;
	capture_stderr();
	int rc = scan(&p, text);
	char *err = captured();
	if (rc != -1 || !strstr(err, what))
		fail_msg("expected a refusal with '%s' for:\n%s\ngot rc %d, message: %s", what, text, rc, err);
	free(err);
}

static void test_blocks(void **state)
{
	(void)state;
	struct pyt p;
	assert_int_equal(scan(&p, "class A:\n    def f(self):\n        return 1\n\n    X = 2\nY = 3\n"), 0);
	assert_int_equal(count(&p, PYT_INDENT), 2);
	assert_int_equal(count(&p, PYT_DEDENT), 2);
	assert_int_equal(count(&p, PYT_NEWLINE), 5);
	assert_true(pyt_is(&p, p.n - 2, PYT_NUMBER, "3"));
	assert_int_equal(p.t[p.n - 2].level, 0);
	pyt_free(&p);
	/* tabs: one tab and eight spaces are one depth only when the order holds at tab size 1 too */
	assert_int_equal(scan(&p, "if x:\n\tif y:\n\t\tz = 1\n\tw = 2\n"), 0);
	assert_int_equal(count(&p, PYT_INDENT), 2);
	pyt_free(&p);
	refused("if x:\n\tif y:\n        z = 1\n", "tabs and spaces");
	refused("if x:\n        y = 1\n    z = 2\n", "matches no enclosing block");
}

static void test_strings(void **state)
{
	(void)state;
	struct pyt p;
	const char *text = "a = rb'\\'' + f\"{x!r:>{w}} {'q' if y else 'z'}\" + '''class B:\n"
	                   "    def g(self, x(\n''' + Rb\"\"\"x\"\"\" + f'{d[\"k\"]:\"^9}'\n";
	assert_int_equal(scan(&p, text), 0);
	assert_int_equal(count(&p, PYT_STRING), 5);
	assert_int_equal(count(&p, PYT_NAME), 1); /* only `a`: no class, def or call in the string */
	assert_int_equal(count(&p, PYT_INDENT), 0);
	assert_true(p.lf[0] & PYT_LINE_STR);
	assert_true(p.lf[1] & PYT_LINE_STR);
	assert_false(p.lf[2] & PYT_LINE_STR);
	assert_int_equal(p.t[4].line, 0); /* a string that spans lines has the line it starts on */
	pyt_free(&p);
	/* a backslash does not escape a brace of an f-string */
	assert_int_equal(scan(&p, "a = (rf'(\\{{)', f'\\{x}', 1)\n"), 0);
	assert_int_equal(count(&p, PYT_STRING), 2);
	pyt_free(&p);
	refused("x = 1\ny = 'abc\nz = 2\n", "t.py:2: unterminated string");
	refused("x = '''abc\n", "t.py:1: unterminated string");
	refused("x = f'{y\n", "unterminated f-string field");
}

static void test_brackets_and_continuations(void **state)
{
	(void)state;
	struct pyt p;
	assert_int_equal(scan(&p, "def f():\n    return g(\na,\n\tb) + \\\n        1\n"), 0);
	assert_int_equal(count(&p, PYT_INDENT), 1); /* column 0 inside brackets and a continuation: no block */
	assert_int_equal(count(&p, PYT_NEWLINE), 2);
	size_t open = 0;
	while (!pyt_is(&p, open, PYT_OP, "("))
		open++;
	open++; /* g( */
	while (!pyt_is(&p, open, PYT_OP, "("))
		open++;
	assert_true(pyt_is(&p, p.t[open].match, PYT_OP, ")"));
	assert_int_equal(p.t[p.t[open].match].line, 3);
	assert_true(p.lf[1] & PYT_LINE_BRK);
	assert_true(p.lf[3] & PYT_LINE_CONT);
	pyt_free(&p);
	refused("x = f(1,\n      2\n", "t.py:1: bracket not closed");
	refused("x = f(1]\n", "does not match");
	refused("x = 1 + \\", "ends after a line continuation");
	refused("x = 1 \\ 2\n", "backslash outside a string");
}

static void test_cut_files(void **state)
{
	(void)state;
	struct pyt p;
	refused("class A:\n    def f(self):\n", "t.py:2: the file ends with a block's first line");
	refused("x = 1 +\n", "ends inside a statement");
	refused("if x:\ny = 1\n", "t.py:1: a block's first line without an indented body");
	capture_stderr();
	int rc = scan_n(&p, "x = 1\0\n", 7);
	char *err = captured();
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "NUL byte"));
	free(err);
	/* valid endings */
	const char *ok[] = {"from m import *\n", "def f() -> int: ...\n", "\xEF\xBB\xBF\"\"\"doc\"\"\"\n", "x = 1,",
	                    "x = 1;"};
	for (size_t i = 0; i < sizeof(ok) / sizeof(*ok); i++) {
		assert_int_equal(scan(&p, ok[i]), 0);
		pyt_free(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_blocks),
	    cmocka_unit_test(test_strings),
	    cmocka_unit_test(test_brackets_and_continuations),
	    cmocka_unit_test(test_cut_files),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	pk_buf_free(&buf);
	return rc;
}
