/* test_tt_kernel.c - the kernel reader takes the device's words from the
 * rules it is handed (rules/timing.ini [device]), not from C: the core type
 * follows the branch tests, the mixed kernel's prefix and the cube-only
 * marks named there, and a parameter written with a pointer type macro
 * named there is a tensor. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "pk.h"
#include "tt.h"

/* Read TEXT's kernel (kernel_entry) with the words W into *K; 0 or -1. */
static int read_kernel(const char *text, const struct tt_words *w, struct tt_kernel *k)
{
	struct pk_buf b;
	struct pk_ast t;
	pk_buf_from_mem(&b, "k.cpp", pk_xstrdup(text), strlen(text));
	memset(&t, 0, sizeof(t));
	int rc = tt_parse(&t, &b, 0, NULL, NULL, 0);
	struct tt_kctx cx = {w, NULL, 0};
	if (rc == 0)
		rc = tt_kernel_find(&t, &cx, NULL, k);
	pk_ast_free(&t);
	pk_buf_free(&b);
	return rc;
}

static enum tt_core core_of(const char *text, const struct tt_words *w)
{
	struct tt_kernel k;
	assert_int_equal(read_kernel(text, w, &k), 0);
	enum tt_core c = k.core;
	tt_kernel_free(&k);
	return c;
}

static const char branches[] = "extern int MY_CUBE, MY_VEC;\n"
                               "void kernel_entry(float *x, int n) {\n"
                               "    if (MY_CUBE) { x[0] = 1; }\n"
                               "    if (MY_VEC) { x[1] = 2; }\n"
                               "}\n";

static void core_type_follows_the_words(void **state)
{
	(void)state;
	struct tt_rules r;
	assert_int_equal(tt_rules_load(&r), 0);
	struct tt_words w = r.w;
	/* the shipped words: a kernel testing both branches is mixed */
	assert_int_equal(core_of("extern int ASCEND_IS_AIC, ASCEND_IS_AIV;\n"
	                         "void kernel_entry(float *x) { if (ASCEND_IS_AIC) { x[0] = 1; }\n"
	                         "    if (ASCEND_IS_AIV) { x[1] = 2; } }\n",
	                         &w),
	                 TT_MIX);
	/* other names are not the device's branch tests, until the rules say so */
	assert_int_equal(core_of(branches, &w), TT_AIV);
	w.is_aic = "MY_CUBE";
	w.is_aiv = "MY_VEC";
	assert_int_equal(core_of(branches, &w), TT_MIX);
	/* a mixed kernel's macro is a prefix: longer names only */
	static const char mixed[] = "extern int MYMIX_AIC_1_2;\n"
	                            "void kernel_entry(float *x) { x[0] = MYMIX_AIC_1_2; }\n";
	assert_int_equal(core_of(mixed, &r.w), TT_AIV);
	w = r.w;
	w.mix_prefix = "MYMIX_";
	assert_int_equal(core_of(mixed, &w), TT_MIX);
	w.mix_prefix = "MYMIX_AIC_1_2";
	assert_int_equal(core_of(mixed, &w), TT_AIV);
	/* a cube-only mark from the list */
	static const char cube[] = "extern int MY_CUBE_ONLY;\n"
	                           "void kernel_entry(float *x) { x[0] = MY_CUBE_ONLY; }\n";
	assert_int_equal(core_of(cube, &r.w), TT_AIV);
	w = r.w;
	w.aic_only = "__cube__ MY_CUBE_ONLY";
	assert_int_equal(core_of(cube, &w), TT_AIC);
	tt_rules_free(&r);
}

static void pointer_macro_of_the_words_is_a_tensor(void **state)
{
	(void)state;
	struct tt_rules r;
	assert_int_equal(tt_rules_load(&r), 0);
	static const char text[] = "#define MY_ADDR unsigned long\n"
	                           "void kernel_entry(MY_ADDR x, int n) { (void)x; (void)n; }\n";
	struct tt_kernel k;
	assert_int_equal(read_kernel(text, &r.w, &k), 0);
	assert_int_equal(k.nparams, 2);
	assert_false(k.params[0].is_tensor); /* an integer, written with no word of the rules */
	tt_kernel_free(&k);
	struct tt_words w = r.w;
	w.pointer_types = "GM_ADDR MY_ADDR";
	assert_int_equal(read_kernel(text, &w, &k), 0);
	assert_true(k.params[0].is_tensor);
	assert_false(k.params[1].is_tensor);
	tt_kernel_free(&k);
	tt_rules_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(core_type_follows_the_words),
	    cmocka_unit_test(pointer_macro_of_the_words_is_a_tensor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
