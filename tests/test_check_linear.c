/* test_check_linear.c - probe-check's work grows linearly with the number
 * of cycle reads it judges: the work counter of the function check (bytes
 * scanned, findings and blocks looked at) for 16k reads stays within a small
 * factor of eight times that for 2k reads. Counting work, not time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pk.h"

/* A file of N cycle reads: SHARED ones all in one function, the others one
 * per function; none with a probe beside it, so every one is judged. */
static void write_kernel(const char *path, size_t n, int shared)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("#include <cstdint>\nextern uint64_t GetSystemCycle();\n", f);
	if (shared)
		fputs("void spin() {\n", f);
	for (size_t i = 0; i < n; i++) {
		if (!shared)
			fprintf(f, "static uint64_t t%zu() {\n", i);
		fprintf(f, "\tuint64_t c%zu = GetSystemCycle(); /* \"{\" */\n", i);
		if (!shared)
			fprintf(f, "\treturn c%zu;\n}\n", i);
	}
	if (shared)
		fputs("}\n", f);
	fclose(f);
}

/* The work one probe-check run of PATH does; its findings go to /dev/null. */
static size_t work_of(const char *path)
{
	fflush(stdout);
	int keep = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY);
	dup2(null, STDOUT_FILENO);
	close(null);
	size_t before = pk_check_sign_work();
	char *argv[] = {(char *)"probe-check", (char *)"-j", (char *)"1", (char *)path, NULL};
	optind = 0;
	int rc = cmd_check(4, argv);
	fflush(stdout);
	dup2(keep, STDOUT_FILENO);
	close(keep);
	assert_int_equal(rc, 0); /* bare cycle reads: notes only */
	return pk_check_sign_work() - before;
}

static void ratio(int shared)
{
	char dir[] = "/tmp/pk_linear_XXXXXX", small[64], big[64];
	assert_non_null(mkdtemp(dir));
	snprintf(small, sizeof(small), "%s/small.cpp", dir);
	snprintf(big, sizeof(big), "%s/big.cpp", dir);
	write_kernel(small, 2000, shared);
	write_kernel(big, 16000, shared);
	size_t ws = work_of(small), wb = work_of(big);
	print_message("work: 2k reads %zu, 16k reads %zu, ratio %.2f (linear: about 8)\n", ws, wb,
	              (double)wb / (double)ws);
	assert_true(ws > 0);
	assert_true(wb <= 10 * ws); /* quadratic would be about 64 */
	unlink(small);
	unlink(big);
	rmdir(dir);
}

static void one_function_each(void **state)
{
	(void)state;
	ratio(0);
}

static void all_in_one_function(void **state)
{
	(void)state;
	ratio(1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(one_function_each),
	    cmocka_unit_test(all_in_one_function),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
