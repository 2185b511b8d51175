/* test_check_ignore.c - the gitignore glob of probe-check's walk: what it
 * matches, and that pathological stars cost a polynomial number of steps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "check_ignore.h"

static void matches(void **state)
{
	(void)state;
	assert_true(pk_glob_match("*.cpp", "kernel.cpp"));
	assert_false(pk_glob_match("*.cpp", "dir/kernel.cpp"));
	assert_true(pk_glob_match("**/k.cpp", "a/b/k.cpp"));
	assert_true(pk_glob_match("**/k.cpp", "k.cpp"));
	assert_true(pk_glob_match("a/**", "a/b/c"));
	assert_true(pk_glob_match("a/**/z", "a/z"));
	assert_true(pk_glob_match("a/**/z", "a/b/c/z"));
	assert_false(pk_glob_match("a/**/z", "a/b/c/y"));
	assert_true(pk_glob_match("k?rnel.[ch]", "kernel.h"));
	assert_false(pk_glob_match("k?rnel.[!ch]", "kernel.h"));
	assert_true(pk_glob_match("\\*x", "*x"));
	assert_false(pk_glob_match("\\*x", "ax"));
	assert_true(pk_glob_match("*a*b*c", "xxaxxbxxc"));
	assert_false(pk_glob_match("*a*b*c", "xxaxxcxxb"));
	assert_true(pk_glob_match("*", ""));
	assert_false(pk_glob_match("?", ""));
}

/* "*a" STARS times, then "b", against N letters 'a': never a match. */
static size_t steps_for(int stars, size_t n, size_t *np)
{
	char pat[256], name[256];
	size_t k = 0;
	for (int i = 0; i < stars; i++) {
		pat[k++] = '*';
		pat[k++] = 'a';
	}
	pat[k++] = 'b';
	pat[k] = '\0';
	memset(name, 'a', n);
	name[n] = '\0';
	size_t steps = 0;
	assert_false(pk_glob_match_steps(pat, name, &steps));
	*np = k;
	return steps;
}

static void stars_are_polynomial(void **state)
{
	(void)state;
	size_t np = 0, n = 40;
	size_t s12 = steps_for(12, n, &np);
	/* each (pattern offset, name offset) pair is worked out once */
	size_t bound = (np + 1) * (n + 1) * (n + 2);
	assert_true(s12 <= bound);
	/* a star more costs a little more, not a multiple: the old matcher
	 * took about n/stars times as many steps per star added */
	size_t s13 = steps_for(13, n, &np);
	assert_true(s13 < s12 + s12 / 2);
	size_t s24 = steps_for(24, 80, &np);
	assert_true(s24 <= (np + 1) * 81 * 82);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(matches),
	    cmocka_unit_test(stars_are_polynomial),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
