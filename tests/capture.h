/* capture.h - capture standard error in a CMocka test so that a message can
 * be checked word for word. Included by tests/test_*.c only. */
#ifndef PK_TEST_CAPTURE_H
#define PK_TEST_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int saved_fd = -1;
static FILE *cap;

static void capture_stderr(void)
{
	fflush(stderr);
	cap = tmpfile();
	assert_non_null(cap);
	saved_fd = dup(2);
	dup2(fileno(cap), 2);
}

/* Stop capturing; the captured text (malloc'd). */
static char *captured(void)
{
	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	long n = ftell(cap);
	char *s = calloc(1, (size_t)n + 1);
	rewind(cap);
	if (n > 0 && fread(s, 1, (size_t)n, cap) != (size_t)n)
		fail_msg("short read of captured stderr");
	fclose(cap);
	return s;
}

#endif
