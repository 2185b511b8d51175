/* test_tt_files.c - the files of a timing-tensor run: a file named twice,
 * through a symbolic link or a hard link, is one entry with every role it
 * was named in, read once and locked once; a file found later joins the
 * entry it has; one read before the locks and changed since is told. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "tt.h"

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

static int setup(void **state)
{
	struct dir *d = calloc(1, sizeof(*d));
	const char *tmp = getenv("TMPDIR");
	snprintf(d->path, sizeof(d->path), "%s/pk-tt-files.XXXXXX", tmp && *tmp && strlen(tmp) < 60 ? tmp : "/tmp");
	if (!mkdtemp(d->path))
		return -1;
	FILE *f = fopen(in(d, "k.cpp"), "w");
	fputs("int k;\n", f);
	fclose(f);
	f = fopen(in(d, "t.py"), "w");
	fputs("x = 1\n", f);
	fclose(f);
	f = fopen(in(d, "h.h"), "w");
	fputs("int h;\n", f);
	fclose(f);
	if (symlink("k.cpp", in(d, "sym.cpp")) < 0 || link(in(d, "t.py"), in(d, "hard.py")) < 0)
		return -1;
	*state = d;
	return 0;
}

static int teardown(void **state)
{
	struct dir *d = *state;
	const char *names[] = {"k.cpp", "t.py", "sym.cpp", "hard.py", "h.h"};
	for (size_t i = 0; i < 5; i++)
		unlink(in(d, names[i]));
	rmdir(d->path);
	free(d);
	return 0;
}

/* Named four times, two files: the kernel also as --edit through a link,
 * the test script also through a hard link. Read without locks, then, with
 * a header found later, locked for writing, each once: a second lock of one
 * file would wait for ever. */
static void one_entry_per_file_with_every_role(void **state)
{
	struct dir *d = *state;
	char *k = strdup(in(d, "k.cpp")), *sym = strdup(in(d, "sym.cpp"));
	char *t = strdup(in(d, "t.py")), *hard = strdup(in(d, "hard.py"));
	struct tt_named nm[] = {
	    {k, TT_ROLE_KERNEL}, {t, TT_ROLE_TEST}, {sym, TT_ROLE_EDIT}, {hard, TT_ROLE_CALLER}, {k, TT_ROLE_HOST}};
	struct tt_file *at[5];
	struct tt_files fs = {0};
	assert_int_equal(tt_files_load(&fs, nm, 5, PK_LOAD_FOR_WRITE, at), 0);
	assert_int_equal(fs.n, 2);
	assert_ptr_equal(at[0], at[2]);
	assert_ptr_equal(at[0], at[4]);
	assert_ptr_equal(at[1], at[3]);
	assert_int_equal(at[0]->roles, TT_ROLE_KERNEL | TT_ROLE_EDIT | TT_ROLE_HOST);
	assert_int_equal(at[1]->roles, TT_ROLE_TEST | TT_ROLE_CALLER);
	assert_string_equal(at[0]->b.path, k); /* the first name the run gives it */
	assert_string_equal(at[0]->b.data, "int k;\n");
	assert_true(at[0]->b.lock_fd < 0); /* not before every file is named */
	/* found later through another name: the entry the set has */
	assert_ptr_equal(tt_files_find(&fs, sym), at[0]);
	assert_ptr_equal(tt_files_name(&fs, sym, TT_ROLE_SIDE), at[0]);
	assert_true(at[0]->roles & TT_ROLE_SIDE);
	struct tt_file *h = tt_files_name(&fs, in(d, "h.h"), TT_ROLE_SIDE);
	assert_int_equal(fs.n, 3);
	assert_null(h->b.data);
	assert_int_equal(tt_files_lock(&fs), 0);
	assert_true(at[0]->b.lock_fd >= 0);
	assert_true(at[1]->b.lock_fd >= 0);
	assert_true(h->b.lock_fd >= 0);
	assert_string_equal(h->b.data, "int h;\n");
	assert_null(tt_files_find(&fs, in(d, "missing.h")));
	assert_string_equal(tt_role_name(TT_ROLE_EDIT | TT_ROLE_SIDE), "--edit");
	tt_files_free(&fs);
	free(k);
	free(sym);
	free(t);
	free(hard);
}

/* A file read before the locks and written meanwhile: the lock says so
 * (the run reads again) and keeps nothing. */
static void a_file_changed_since_read_is_told(void **state)
{
	struct dir *d = *state;
	char *k = strdup(in(d, "k.cpp"));
	struct tt_named nm[] = {{k, TT_ROLE_KERNEL}};
	struct tt_file *at[1];
	struct tt_files fs = {0};
	assert_int_equal(tt_files_load(&fs, nm, 1, PK_LOAD_FOR_WRITE, at), 0);
	FILE *f = fopen(k, "a");
	fputs("int more;\n", f);
	fclose(f);
	assert_int_equal(tt_files_lock(&fs), 1);
	assert_true(at[0]->b.lock_fd < 0);
	assert_string_equal(at[0]->b.data, "int k;\n"); /* not read again */
	tt_files_free(&fs);
	free(k);
}

/* A file that cannot be read fails the load, naming it; the others load. */
static void a_missing_file_fails_the_set(void **state)
{
	struct dir *d = *state;
	char *k = strdup(in(d, "k.cpp")), *m = strdup(in(d, "missing.py"));
	struct tt_named nm[] = {{k, TT_ROLE_KERNEL}, {m, TT_ROLE_TEST}};
	struct tt_file *at[2];
	struct tt_files fs = {0};
	assert_int_equal(tt_files_load(&fs, nm, 2, 0, at), -1);
	assert_non_null(at[0]);
	assert_null(at[1]);
	assert_int_equal(fs.n, 1);
	tt_files_free(&fs);
	free(k);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(one_entry_per_file_with_every_role, setup, teardown),
	    cmocka_unit_test_setup_teardown(a_file_changed_since_read_is_told, setup, teardown),
	    cmocka_unit_test_setup_teardown(a_missing_file_fails_the_set, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
