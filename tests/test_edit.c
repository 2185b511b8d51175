/* test_edit.c - the edit plan (tool/edit.h): edits are byte ranges against
 * the original, sorted and checked once, applied once; and the unified diff
 * printed from a plan (tool/emit.h), compared with GNU diff -u. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "edit.h"
#include "emit.h"
#include "capture.h"
#include "pk.h"

static size_t off(const char *text, const char *needle, int nth)
{
	const char *p = text;
	for (;;) {
		p = strstr(p, needle);
		assert_non_null(p);
		if (nth-- == 0)
			return (size_t)(p - text);
		p++;
	}
}

/* Apply P to ORIG (checking first) and compare with WANT. */
static void apply_is(struct pk_plan *p, const char *orig, const char *want)
{
	assert_int_equal(pk_plan_check(p, "t.cpp", strlen(orig)), 0);
	char *out;
	size_t n;
	pk_plan_apply(p, orig, strlen(orig), &out, &n);
	assert_int_equal(n, strlen(want));
	assert_string_equal(out, want);
	free(out);
}

static void empty_plan_is_identity(void **state)
{
	(void)state;
	struct pk_plan p;
	pk_plan_init(&p);
	apply_is(&p, "", "");
	apply_is(&p, "int a;\r\n\xef\xbb\xbf", "int a;\r\n\xef\xbb\xbf");
	pk_plan_free(&p);
}

static void replace_delete_insert(void **state)
{
	(void)state;
	const char *o = "#if 0  // TIMING_PROBE: A\nx();\n#endif\n";
	struct pk_plan p;
	pk_plan_init(&p);
	pk_plan_add(&p, 4, 5, "1", 1);                                    /* enable */
	pk_plan_add(&p, off(o, "x();", 0), off(o, "#endif", 0), NULL, 0); /* delete "x();\n" */
	pk_plan_add(&p, strlen(o), strlen(o), "y;\n", 3);                 /* append */
	apply_is(&p, o, "#if 1  // TIMING_PROBE: A\n#endif\ny;\n");
	pk_plan_free(&p);
}

static void edits_added_out_of_order(void **state)
{
	(void)state;
	struct pk_plan p;
	pk_plan_init(&p);
	pk_plan_add(&p, 8, 9, "I", 1);
	pk_plan_add(&p, 0, 1, "A", 1);
	pk_plan_add(&p, 4, 5, "E", 1);
	apply_is(&p, "abcdefghij", "AbcdEfghIj");
	pk_plan_free(&p);
}

static void adjacent_edits_are_fine(void **state)
{
	(void)state;
	struct pk_plan p;
	pk_plan_init(&p);
	pk_plan_add(&p, 2, 4, "XY", 2);
	pk_plan_add(&p, 0, 2, NULL, 0);
	pk_plan_add(&p, 4, 6, "", 0);
	apply_is(&p, "abcdef", "XY");
	pk_plan_free(&p);
}

static void insertion_before_replacement_at_same_byte(void **state)
{
	(void)state;
	struct pk_plan p;
	pk_plan_init(&p);
	pk_plan_add(&p, 2, 3, "C", 1); /* replace 'c' */
	pk_plan_add(&p, 2, 2, "<", 1); /* insert before it, added later */
	apply_is(&p, "abcd", "ab<Cd");
	pk_plan_free(&p);
}

static void same_offset_insertions_keep_their_order(void **state)
{
	(void)state;
	struct pk_plan p;
	pk_plan_init(&p);
	const char *parts[] = {"1", "2", "3", "4", "5", "6", "7", "8", "9"};
	for (size_t i = 0; i < 9; i++) {
		pk_plan_add(&p, 1, 1, parts[i], 1);
		pk_plan_add(&p, 0, 0, parts[8 - i], 1); /* interleave another offset */
	}
	apply_is(&p, "ab", "987654321a123456789b");
	pk_plan_free(&p);
}

static void text_is_copied(void **state)
{
	(void)state;
	struct pk_plan p;
	pk_plan_init(&p);
	char buf[8];
	strcpy(buf, "new");
	pk_plan_add(&p, 0, 3, buf, 3);
	strcpy(buf, "XXX");
	apply_is(&p, "old!", "new!");
	pk_plan_free(&p);
}

static void embedded_nul_in_text(void **state)
{
	(void)state;
	struct pk_plan p;
	pk_plan_init(&p);
	pk_plan_add(&p, 1, 1, "x\0y", 3);
	assert_int_equal(pk_plan_check(&p, "t.cpp", 2), 0);
	char *out;
	size_t n;
	pk_plan_apply(&p, "ab", 2, &out, &n);
	assert_int_equal(n, 5);
	assert_memory_equal(out, "ax\0yb", 5);
	assert_int_equal(out[5], '\0');
	free(out);
	pk_plan_free(&p);
}

static void overlap_is_refused(void **state)
{
	(void)state;
	static const size_t ranges[][4] = {
	    {0, 4, 2, 6}, /* partial overlap */
	    {0, 6, 2, 3}, /* containment */
	    {2, 4, 2, 4}, /* the same range twice */
	    {2, 4, 3, 3}, /* an insertion strictly inside a replacement */
	};
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		struct pk_plan p;
		pk_plan_init(&p);
		pk_plan_add(&p, ranges[i][2], ranges[i][3], "z", 1);
		pk_plan_add(&p, ranges[i][0], ranges[i][1], "y", 1);
		capture_stderr();
		int rc = pk_plan_check(&p, "k.cpp", 10);
		char *msg = captured();
		assert_int_equal(rc, -1);
		assert_non_null(strstr(msg, "probekit: k.cpp: internal error: overlapping edits"));
		free(msg);
		pk_plan_free(&p);
	}
}

/* The plan check's one rule: what lies wholly inside a removed range goes
 * with it, whoever planned it and in whatever order. */
static void edits_inside_a_removal_are_dropped(void **state)
{
	(void)state;
	struct pk_plan p;
	pk_plan_init(&p);
	pk_plan_add(&p, 3, 5, "x", 1);  /* a replacement inside, planned first */
	pk_plan_add(&p, 4, 4, "i", 1);  /* an insertion strictly inside */
	pk_plan_add(&p, 2, 8, NULL, 0); /* the removal */
	pk_plan_add(&p, 2, 8, "", 0);   /* the same removal again */
	pk_plan_add(&p, 6, 8, "", 0);   /* a removal inside, to its end */
	pk_plan_add(&p, 2, 2, "<", 1);  /* insertions at its ends stay */
	pk_plan_add(&p, 8, 8, ">", 1);
	apply_is(&p, "0123456789", "01<>89");
	assert_int_equal(p.n, 3);
	pk_plan_free(&p);
	/* nested removals: the outer one takes all */
	pk_plan_init(&p);
	pk_plan_add(&p, 3, 4, "", 0);
	pk_plan_add(&p, 2, 6, "", 0);
	pk_plan_add(&p, 0, 10, "", 0);
	pk_plan_add(&p, 3, 3, "z", 1);
	apply_is(&p, "0123456789", "");
	assert_int_equal(p.n, 1);
	pk_plan_free(&p);
	/* a replacement the size of a removal is inside it, added before or after */
	pk_plan_init(&p);
	pk_plan_add(&p, 2, 4, "y", 1);
	pk_plan_add(&p, 2, 4, "", 0);
	apply_is(&p, "0123456789", "01456789");
	pk_plan_free(&p);
}

/* Only containment in a removal is forgiven: a partial overlap with one, or
 * an edit inside a replacement that is not a removal, is still refused. */
static void partial_overlap_with_a_removal_is_refused(void **state)
{
	(void)state;
	static const struct {
		size_t s1, e1;
		const char *t1;
		size_t s2, e2;
		const char *t2;
	} cases[] = {
	    {2, 6, "", 4, 8, "y"}, /* a replacement across the removal's end */
	    {2, 6, "", 4, 8, ""},  /* two removals crossing */
	    {4, 8, "", 2, 6, "y"}, /* across its start */
	    {2, 8, "r", 3, 5, ""}, /* a removal inside a replacement */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pk_plan p;
		pk_plan_init(&p);
		pk_plan_add(&p, cases[i].s1, cases[i].e1, cases[i].t1, strlen(cases[i].t1));
		pk_plan_add(&p, cases[i].s2, cases[i].e2, cases[i].t2, strlen(cases[i].t2));
		capture_stderr();
		int rc = pk_plan_check(&p, "k.cpp", 10);
		char *msg = captured();
		assert_int_equal(rc, -1);
		assert_non_null(strstr(msg, "probekit: k.cpp: internal error: overlapping edits"));
		free(msg);
		pk_plan_free(&p);
	}
}

static void range_outside_the_file_is_refused(void **state)
{
	(void)state;
	struct pk_plan p;
	pk_plan_init(&p);
	pk_plan_add(&p, 3, 11, NULL, 0);
	capture_stderr();
	int rc = pk_plan_check(&p, "k.cpp", 10);
	char *msg = captured();
	assert_int_equal(rc, -1);
	assert_string_equal(msg, "probekit: k.cpp: internal error: edit [3,11) outside the file\n");
	free(msg);
	pk_plan_free(&p);
	pk_plan_init(&p);
	pk_plan_add(&p, 5, 4, NULL, 0); /* reversed */
	capture_stderr();
	rc = pk_plan_check(&p, "k.cpp", 10);
	free(captured());
	assert_int_equal(rc, -1);
	pk_plan_free(&p);
}

static void many_edits(void **state)
{
	(void)state;
	/* 10,000 one-byte edits added back to front: sorted once, applied once */
	enum { N = 10000 };
	char *orig = malloc(N + 1), *want = malloc(2 * N + 1);
	for (size_t i = 0; i < N; i++) {
		orig[i] = 'a';
		want[2 * i] = 'b';
		want[2 * i + 1] = '.';
	}
	orig[N] = want[2 * N] = '\0';
	struct pk_plan p;
	pk_plan_init(&p);
	for (size_t i = N; i-- > 0;)
		pk_plan_add(&p, i, i + 1, "b.", 2);
	apply_is(&p, orig, want);
	pk_plan_free(&p);
	free(orig);
	free(want);
}

/* ---- the diff of a plan equals GNU diff -u ---------------------------- */

static char *slurp(FILE *f, size_t *len)
{
	char *buf = NULL;
	size_t n = 0, cap = 0, r;
	do {
		if (n + 4096 > cap) {
			cap = (cap + 4096) * 2;
			buf = realloc(buf, cap);
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r > 0);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static void write_file(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
}

/* In a hunk header a range of one line may be written "N" or "N,1"
 * (GNU diff omits ",1"; patch and git apply read both): write it "N". */
static void normalise_headers(char *s)
{
	for (char *h = strstr(s, "\n@@ "); h; h = strstr(h + 1, "\n@@ ")) {
		char *end = strstr(h + 4, " @@");
		for (char *c = strstr(h, ",1 "); c && end && c < end; c = strstr(c + 1, ",1 "))
			memmove(c, c + 2, strlen(c + 2) + 1), end -= 2;
	}
}

/* Print the plan's diff and compare it with `diff -u` of old and new text. */
static void diff_matches_gnu(const char *orig, struct pk_plan *p)
{
	size_t olen = strlen(orig);
	assert_int_equal(pk_plan_check(p, "k.cpp", olen), 0);
	char *new_text;
	size_t nlen;
	pk_plan_apply(p, orig, olen, &new_text, &nlen);

	char dir[] = "/tmp/pk-test-edit-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char a[64], b[64], cmd[256];
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	write_file(a, orig, olen);
	write_file(b, new_text, nlen);
	snprintf(cmd, sizeof(cmd), "diff -u --label a/k.cpp --label b/k.cpp %s %s", a, b);
	FILE *pp = popen(cmd, "r");
	assert_non_null(pp);
	size_t wl;
	char *want = slurp(pp, &wl);
	pclose(pp);

	struct pk_buf buf;
	pk_buf_from_mem(&buf, "k.cpp", pk_xstrndup(orig, olen), olen);
	char *got = NULL;
	size_t gl = 0;
	FILE *mem = open_memstream(&got, &gl);
	pk_print_diff(mem, &buf, p);
	fclose(mem);
	normalise_headers(got);
	normalise_headers(want);
	if (strcmp(got, want))
		print_error("--- GNU diff ---\n%s--- pk_print_diff ---\n%s", want, got);
	assert_string_equal(got, want);

	free(got);
	free(want);
	free(new_text);
	pk_buf_free(&buf);
	unlink(a);
	unlink(b);
	rmdir(dir);
}

static const char KERNEL[] = "#include \"k.h\"\n"
                             "\n"
                             "void f()\n"
                             "{\n"
                             "#if 0  // TIMING_PROBE: T_BASE\n"
                             "    printf(\"[T_BASE] %lu\\n\", c());\n"
                             "#endif\n"
                             "    a();\n"
                             "    b();\n"
                             "    c();\n"
                             "    d();\n"
                             "    e();\n"
                             "    f();\n"
                             "    g();\n"
                             "    h();\n"
                             "#if 0  // TIMING_PROBE: STAGE_A\n"
                             "    x();\n"
                             "#endif\n"
                             "}\n";

static void diff_one_value_change(void **state)
{
	(void)state;
	struct pk_plan p;
	pk_plan_init(&p);
	size_t v = off(KERNEL, "0  // TIMING_PROBE: STAGE_A", 0);
	pk_plan_add(&p, v, v + 1, "1", 1);
	diff_matches_gnu(KERNEL, &p);
	pk_plan_free(&p);
}

static void diff_two_hunks(void **state)
{
	(void)state;
	struct pk_plan p;
	pk_plan_init(&p);
	for (int i = 0; i < 2; i++) {
		size_t v = off(KERNEL, "0  // TIMING_PROBE:", i);
		pk_plan_add(&p, v, v + 1, "1", 1);
	}
	diff_matches_gnu(KERNEL, &p);
	pk_plan_free(&p);
}

static void diff_block_removals(void **state)
{
	(void)state;
	struct pk_plan p;
	pk_plan_init(&p);
	pk_plan_add(&p, off(KERNEL, "#if 0", 0), off(KERNEL, "    a();", 0), NULL, 0);
	pk_plan_add(&p, off(KERNEL, "#if 0", 1), off(KERNEL, "}\n", 0), NULL, 0);
	diff_matches_gnu(KERNEL, &p);
	pk_plan_free(&p);
}

static void diff_insertion_of_lines(void **state)
{
	(void)state;
	struct pk_plan p;
	pk_plan_init(&p);
	size_t at = off(KERNEL, "    e();", 0);
	const char ins[] = "#if 0  // TIMING_PROBE: NEW\n    y();\n#endif\n";
	pk_plan_add(&p, at, at, ins, strlen(ins));
	diff_matches_gnu(KERNEL, &p);
	pk_plan_free(&p);
}

static void diff_at_start_and_end(void **state)
{
	(void)state;
	struct pk_plan p;
	pk_plan_init(&p);
	pk_plan_add(&p, 0, 0, "// head\n", 8);
	pk_plan_add(&p, strlen(KERNEL), strlen(KERNEL), "// tail\n", 8);
	diff_matches_gnu(KERNEL, &p);
	pk_plan_free(&p);
}

static void diff_without_final_newline(void **state)
{
	(void)state;
	const char o[] = "int a;\n#if 0 // TIMING_PROBE: X\nint b;\n#endif";
	struct pk_plan p;
	pk_plan_init(&p);
	size_t v = off(o, "0 //", 0);
	pk_plan_add(&p, v, v + 1, "1", 1);
	diff_matches_gnu(o, &p);
	pk_plan_free(&p);
	/* removing the last block: the new text ends with a newline */
	pk_plan_init(&p);
	pk_plan_add(&p, off(o, "#if", 0), strlen(o), NULL, 0);
	diff_matches_gnu(o, &p);
	pk_plan_free(&p);
}

static void diff_crlf(void **state)
{
	(void)state;
	const char o[] = "a;\r\n#if 0 // TIMING_PROBE: X\r\nb;\r\n#endif\r\nc;\r\n";
	struct pk_plan p;
	pk_plan_init(&p);
	pk_plan_add(&p, off(o, "#if", 0), off(o, "c;", 0), NULL, 0);
	diff_matches_gnu(o, &p);
	pk_plan_free(&p);
}

/* ---- the plan's last stage: an atomic write that checks what it replaces */

static void write_refuses_a_file_changed_since_read(void **state)
{
	(void)state;
	char dir[] = "/tmp/pk-test-edit-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof(path), "%s/k.cpp", dir);
	write_file(path, "old\n", 4);
	struct pk_buf b;
	assert_int_equal(pk_buf_load(&b, path, 0), 0);
	/* someone else writes the file after we read it */
	write_file(path, "theirs\n", 7);
	capture_stderr();
	int rc = pk_write_atomic(path, "ours\n", 5, &b.st);
	char *msg = captured();
	assert_int_equal(rc, -1);
	assert_non_null(strstr(msg, "file changed since it was read; not overwritten"));
	free(msg);
	FILE *f = fopen(path, "rb");
	size_t n;
	char *now = slurp(f, &n);
	fclose(f);
	assert_string_equal(now, "theirs\n");
	free(now);
	pk_buf_free(&b);
	/* no temporary file left behind */
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

static void write_keeps_mode(void **state)
{
	(void)state;
	char dir[] = "/tmp/pk-test-edit-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof(path), "%s/k.cpp", dir);
	write_file(path, "old\n", 4);
	chmod(path, 0640);
	struct pk_buf b;
	assert_int_equal(pk_buf_load(&b, path, 0), 0);
	assert_int_equal(pk_write_atomic(path, "new\n", 4, &b.st), 0);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_not_equal(st.st_ino, b.st.st_ino); /* replaced by rename, not rewritten in place */
	pk_buf_free(&b);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

static void touch(const char *dir, const char *rel)
{
	char *p = pk_xasprintf("%s/%s", dir, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
	free(p);
}

/* The event map names the files it changed from the kernel's folder. */
static void path_from_kernel_folder(void **state)
{
	(void)state;
	char dir[] = "/tmp/pk-pathfrom.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *sub[] = {"a", "a/b", "a/bc", "a/c", "a/c/d"};
	for (size_t i = 0; i < 5; i++) {
		char *p = pk_xasprintf("%s/%s", dir, sub[i]);
		assert_int_equal(mkdir(p, 0700), 0);
		free(p);
	}
	const char *files[] = {"a/b/k.cpp", "a/b/t.py", "a/bc/x.cpp", "a/c/d/o.cpp", "top.py"};
	const char *want[] = {"k.cpp", "t.py", "../bc/x.cpp", "../c/d/o.cpp", "../../top.py"};
	for (size_t i = 0; i < 5; i++)
		touch(dir, files[i]);
	char *k = pk_xasprintf("%s/a/b/k.cpp", dir);
	for (size_t i = 0; i < 5; i++) {
		char *t = pk_xasprintf("%s/%s", dir, files[i]), *r = pk_path_from(k, t);
		assert_non_null(r);
		assert_string_equal(r, want[i]);
		free(r);
		free(t);
	}
	char *gone = pk_xasprintf("%s/a/b/none.cpp", dir);
	assert_null(pk_path_from(k, gone)); /* a missing file has no path */
	free(gone);
	free(k);
	for (size_t i = 0; i < 5; i++) {
		char *t = pk_xasprintf("%s/%s", dir, files[i]);
		assert_int_equal(unlink(t), 0);
		free(t);
	}
	for (size_t i = 5; i-- > 0;) {
		char *p = pk_xasprintf("%s/%s", dir, sub[i]);
		assert_int_equal(rmdir(p), 0);
		free(p);
	}
	assert_int_equal(rmdir(dir), 0);
}

/* Paths folded for messages and for git's names: ".", "//" and "NAME/.."
 * go, a ".." with nothing before it stays. */
static void path_fold_lexical(void **state)
{
	(void)state;
	const char *in[] = {"kernels/aic/../orch/o.cpp",
	                    "kernels/aic/../../t.py",
	                    "./a//b/./c",
	                    "../x/../y.cpp",
	                    "../../a",
	                    "/a/b/../c",
	                    "a/..",
	                    "a/b/../../../c"};
	const char *want[] = {"kernels/orch/o.cpp", "t.py", "a/b/c", "../y.cpp", "../../a", "/a/c", "", "../c"};
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		char *got = pk_path_fold(in[i]);
		assert_string_equal(got, want[i]);
		free(got);
	}
	char *r = pk_path_relative("sub/dir/", "sub/other/f.c");
	assert_string_equal(r, "../other/f.c");
	free(r);
	r = pk_path_relative("", "top.c");
	assert_string_equal(r, "top.c");
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(empty_plan_is_identity),
	    cmocka_unit_test(path_from_kernel_folder),
	    cmocka_unit_test(path_fold_lexical),
	    cmocka_unit_test(replace_delete_insert),
	    cmocka_unit_test(edits_added_out_of_order),
	    cmocka_unit_test(adjacent_edits_are_fine),
	    cmocka_unit_test(insertion_before_replacement_at_same_byte),
	    cmocka_unit_test(same_offset_insertions_keep_their_order),
	    cmocka_unit_test(text_is_copied),
	    cmocka_unit_test(embedded_nul_in_text),
	    cmocka_unit_test(overlap_is_refused),
	    cmocka_unit_test(edits_inside_a_removal_are_dropped),
	    cmocka_unit_test(partial_overlap_with_a_removal_is_refused),
	    cmocka_unit_test(range_outside_the_file_is_refused),
	    cmocka_unit_test(many_edits),
	    cmocka_unit_test(diff_one_value_change),
	    cmocka_unit_test(diff_two_hunks),
	    cmocka_unit_test(diff_block_removals),
	    cmocka_unit_test(diff_insertion_of_lines),
	    cmocka_unit_test(diff_at_start_and_end),
	    cmocka_unit_test(diff_without_final_newline),
	    cmocka_unit_test(diff_crlf),
	    cmocka_unit_test(write_refuses_a_file_changed_since_read),
	    cmocka_unit_test(write_keeps_mode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
