/* test_buf_adopt.c - a set some of whose files were read before (a
 * directory's files, read for their probe markers): a file read before and
 * untouched is adopted, its bytes kept and never read again, and locked
 * with the set; one changed since is read again under its lock; a file
 * named again is loaded once; NUL bytes are refused as on any load. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"

struct dir {
	char path[96];
};

static char *in(const struct dir *d, const char *name)
{
	static char buf[4][160];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", d->path, name);
	return buf[k];
}

static void put(const char *path, const char *mode, const char *text, size_t len)
{
	FILE *f = fopen(path, mode);
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

static int setup(void **state)
{
	struct dir *d = calloc(1, sizeof(*d));
	const char *tmp = getenv("TMPDIR");
	snprintf(d->path, sizeof(d->path), "%s/pk-buf-adopt.XXXXXX", tmp && *tmp && strlen(tmp) < 60 ? tmp : "/tmp");
	if (!mkdtemp(d->path))
		return -1;
	put(in(d, "k.cpp"), "w", "int k;\n", 7);
	put(in(d, "h.h"), "w", "int h;\n", 7);
	if (symlink("k.cpp", in(d, "sym.cpp")) < 0)
		return -1;
	*state = d;
	return 0;
}

static int teardown(void **state)
{
	struct dir *d = *state;
	const char *names[] = {"k.cpp", "h.h", "sym.cpp", "k.cpp.timing.json", "bin.cpp"};
	for (size_t i = 0; i < 5; i++)
		unlink(in(d, names[i]));
	rmdir(d->path);
	free(d);
	return 0;
}

/* B[0] read before without a lock, B[1] not read, B[2] the file of B[0]
 * again through a link: loaded for writing, the set locked once */
static void untouched_is_adopted_and_locked(void **state)
{
	struct dir *d = *state;
	struct pk_buf b[3];
	char *p[3];
	size_t first[3];
	char msg[PATH_MAX + 128];
	memset(b, 0, sizeof(b));
	for (int i = 0; i < 3; i++)
		p[i] = strdup(in(d, i == 0 ? "k.cpp" : i == 1 ? "h.h" : "sym.cpp"));
	assert_int_equal(pk_buf_load_msg(&b[0], p[0], 0, msg, sizeof(msg)), 0);
	const char *was = b[0].data;
	struct pk_buf *bp[3] = {&b[0], &b[1], &b[2]};
	assert_int_equal(pk_buf_adopt_set(bp, p, 3, PK_LOAD_FOR_WRITE, first), 0);
	assert_ptr_equal(b[0].data, was); /* the bytes read before: not read again */
	assert_true(b[0].lock_fd >= 0);
	assert_string_equal(b[1].data, "int h;\n");
	assert_true(b[1].lock_fd >= 0);
	assert_int_equal(first[0], 0);
	assert_int_equal(first[1], 1);
	assert_int_equal(first[2], 0); /* the link: the file of B[0], once */
	assert_null(b[2].data);
	for (int i = 0; i < 3; i++) {
		pk_buf_free(&b[i]);
		free(p[i]);
	}
}

static void changed_since_is_read_under_the_lock(void **state)
{
	struct dir *d = *state;
	struct pk_buf b[3];
	char *p[3];
	size_t first[3];
	char msg[PATH_MAX + 128];
	memset(b, 0, sizeof(b));
	for (int i = 0; i < 3; i++)
		p[i] = strdup(in(d, i == 0 ? "k.cpp" : i == 1 ? "h.h" : "sym.cpp"));
	assert_int_equal(pk_buf_load_msg(&b[0], p[0], 0, msg, sizeof(msg)), 0);
	put(p[0], "a", "int more;\n", 10); /* between the first read and the lock */
	struct pk_buf *bp[3] = {&b[0], &b[1], &b[2]};
	assert_int_equal(pk_buf_adopt_set(bp, p, 3, PK_LOAD_FOR_WRITE, first), 0);
	assert_string_equal(b[0].data, "int k;\nint more;\n");
	assert_true(b[0].lock_fd >= 0);
	assert_true(b[1].lock_fd >= 0);
	for (int i = 0; i < 3; i++) {
		pk_buf_free(&b[i]);
		free(p[i]);
	}
}

/* A file named first, then found and read through another name: the first
 * name takes the bytes read, for writing as for reading. */
static void first_name_takes_the_bytes(void **state)
{
	struct dir *d = *state;
	for (int flags = 0; flags <= PK_LOAD_FOR_WRITE; flags += PK_LOAD_FOR_WRITE) {
		struct pk_buf b[3];
		char *p[3] = {strdup(in(d, "h.h")), strdup(in(d, "k.cpp")), strdup(in(d, "sym.cpp"))};
		size_t first[3];
		char msg[PATH_MAX + 128];
		struct pk_buf *bp[3] = {&b[0], &b[1], &b[2]};
		memset(b, 0, sizeof(b));
		assert_int_equal(pk_buf_load_msg(&b[2], p[2], 0, msg, sizeof(msg)), 0);
		const char *was = b[2].data;
		assert_int_equal(pk_buf_adopt_set(bp, p, 3, flags, first), 0);
		assert_int_equal(first[1], 1);
		assert_int_equal(first[2], 1);
		assert_ptr_equal(b[1].data, was);
		assert_string_equal(b[1].path, p[1]);
		assert_null(b[2].data);
		assert_string_equal(b[0].data, "int h;\n");
		assert_true(flags ? b[1].lock_fd >= 0 : b[1].lock_fd < 0);
		for (int i = 0; i < 3; i++) {
			pk_buf_free(&b[i]);
			free(p[i]);
		}
	}
}

/* Without writing: kept as read; a kernel with an event map is held under
 * its shared lock, and read again when it changed meanwhile. */
static void shared_keeps_or_rereads(void **state)
{
	struct dir *d = *state;
	struct pk_buf b[2];
	char *p[2] = {strdup(in(d, "k.cpp")), strdup(in(d, "h.h"))};
	size_t first[2];
	char msg[PATH_MAX + 128];
	struct pk_buf *bp[2] = {&b[0], &b[1]};
	memset(b, 0, sizeof(b));
	assert_int_equal(pk_buf_load_msg(&b[0], p[0], 0, msg, sizeof(msg)), 0);
	const char *was = b[0].data;
	assert_int_equal(pk_buf_adopt_set(bp, p, 2, PK_LOAD_SHARED, first), 0);
	assert_ptr_equal(b[0].data, was);
	assert_true(b[0].lock_fd < 0); /* no event map: no lock kept */
	pk_buf_free(&b[0]);
	pk_buf_free(&b[1]);

	put(in(d, "k.cpp.timing.json"), "w", "{}\n", 3);
	memset(b, 0, sizeof(b));
	assert_int_equal(pk_buf_load_msg(&b[0], p[0], 0, msg, sizeof(msg)), 0);
	was = b[0].data;
	assert_int_equal(pk_buf_adopt_set(bp, p, 2, PK_LOAD_SHARED, first), 0);
	assert_ptr_equal(b[0].data, was); /* untouched: kept */
	assert_true(b[0].lock_fd >= 0);
	pk_buf_free(&b[0]);
	pk_buf_free(&b[1]);

	memset(b, 0, sizeof(b));
	assert_int_equal(pk_buf_load_msg(&b[0], p[0], 0, msg, sizeof(msg)), 0);
	put(p[0], "a", "int more;\n", 10);
	assert_int_equal(pk_buf_adopt_set(bp, p, 2, PK_LOAD_SHARED, first), 0);
	assert_string_equal(b[0].data, "int k;\nint more;\n");
	assert_true(b[0].lock_fd >= 0);
	pk_buf_free(&b[0]);
	pk_buf_free(&b[1]);
	free(p[0]);
	free(p[1]);
}

/* Bytes read before with NUL in them are refused as a load refuses them. */
static void nul_bytes_are_refused(void **state)
{
	struct dir *d = *state;
	struct pk_buf b[1];
	char *p[1] = {strdup(in(d, "bin.cpp"))};
	size_t first[1];
	char msg[PATH_MAX + 128];
	struct pk_buf *bp[1] = {&b[0]};
	put(p[0], "w", "TIMING_PROBE\0x\n", 15);
	memset(b, 0, sizeof(b));
	assert_int_equal(pk_buf_load_msg(&b[0], p[0], PK_LOAD_ALLOW_NUL, msg, sizeof(msg)), 0);
	assert_int_equal(pk_buf_adopt_set(bp, p, 1, PK_LOAD_FOR_WRITE, first), -1);
	assert_int_equal(first[0], PK_LOAD_FAILED);
	assert_null(b[0].data);
	assert_true(b[0].lock_fd < 0);
	pk_buf_free(&b[0]);
	free(p[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(untouched_is_adopted_and_locked, setup, teardown),
	    cmocka_unit_test_setup_teardown(changed_since_is_read_under_the_lock, setup, teardown),
	    cmocka_unit_test_setup_teardown(first_name_takes_the_bytes, setup, teardown),
	    cmocka_unit_test_setup_teardown(shared_keeps_or_rereads, setup, teardown),
	    cmocka_unit_test_setup_teardown(nul_bytes_are_refused, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
