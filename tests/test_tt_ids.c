/* test_tt_ids.c - kernel ids of an orchestration are read as libclang
 * evaluates them (macros, constexpr, enum members, table elements, local
 * constants), a run-time value is not a constant, and a helper's parameter
 * and call arguments are found. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "pk.h"
#include "tt.h"

static const char orch[] = "#include \"pto_orchestration_api.h\"\n"
                           "#define FUNC_A 3\n"
                           "enum class Ids : int { kCopy = 4, kScale = kCopy + 2 };\n"
                           "constexpr int kBase = 10;\n"
                           "static const int kTable[] = {7, 8, kBase + 1};\n"
                           "static void helper(int kernel_id, const ChipTensor &t) {\n"
                           "    CoreTaskArgs a;\n"
                           "    a.add_inout(t);\n"
                           "    rt_submit_aiv_task(kernel_id, a);\n"
                           "}\n"
                           "void entry(const ChipTaskArgs &orch_args) {\n"
                           "    constexpr int kLocal = 12;\n"
                           "    CoreTaskArgs p;\n"
                           "    rt_submit_aiv_task(FUNC_A, p);\n"
                           "    rt_submit_aiv_task(static_cast<int>(Ids::kScale), p);\n"
                           "    rt_submit_aiv_task(kTable[2], p);\n"
                           "    rt_submit_aiv_task(kLocal, p);\n"
                           "    rt_submit_aiv_task(static_cast<int>(orch_args.scalar(0)), p);\n"
                           "    helper(kBase * 2, orch_args.tensor(0).ref());\n"
                           "}\n";

struct fixture {
	struct pk_buf b;
	struct pk_ast t;
	struct tt_rules r;
};

static int setup(void **state)
{
	struct fixture *f = pk_xcalloc(1, sizeof(*f));
	pk_buf_from_mem(&f->b, "orch.cpp", pk_xstrdup(orch), strlen(orch));
	if (tt_parse(&f->t, &f->b, 0, NULL, NULL, 0) < 0 || tt_rules_load(&f->r) < 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	pk_ast_free(&f->t);
	tt_rules_free(&f->r);
	pk_buf_free(&f->b);
	free(f);
	return 0;
}

/* The first argument of every `NAME (` call in the file, in order. */
static size_t first_args(const struct pk_ast *t, const char *name, struct tt_idexpr *x, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i + 1 < t->ntok && n < cap; i++) {
		size_t s[4], e[4];
		if (!pk_tok_is(t, i, name) || !pk_tok_is(t, i + 1, "(") || pk_tok_args(t, i + 1, s, e, 4) < 1)
			continue;
		x[n++] = (struct tt_idexpr){s[0], e[0], tt_ids_stmt_start(t, i), -1};
	}
	return n;
}

static void constants_of_the_file_are_evaluated(void **state)
{
	struct fixture *f = *state;
	struct tt_idexpr x[8];
	size_t n = first_args(&f->t, "rt_submit_aiv_task", x, 8);
	assert_int_equal(n, 6);
	assert_int_equal(tt_ids_eval(&f->t, &f->r, x, n), 0);
	assert_int_equal(x[0].value, -1); /* the helper's parameter */
	assert_int_equal(x[1].value, 3);  /* #define */
	assert_int_equal(x[2].value, 6);  /* enum member arithmetic */
	assert_int_equal(x[3].value, 11); /* table element of a constexpr sum */
	assert_int_equal(x[4].value, 12); /* a local constexpr */
	assert_int_equal(x[5].value, -1); /* a run-time scalar */
}

static void a_helper_parameter_and_its_call_argument(void **state)
{
	struct fixture *f = *state;
	struct tt_fn *fns = NULL;
	size_t nf = tt_fns_find(&f->t, f->r.w.orch_args, &fns);
	assert_int_equal(nf, 2);
	struct tt_idexpr x[8];
	assert_int_equal(first_args(&f->t, "rt_submit_aiv_task", x, 8), 6);
	const struct tt_fn *h = tt_fn_holding(fns, nf, x[0].s);
	assert_non_null(h);
	assert_true(pk_tok_is(&f->t, h->name, "helper"));
	assert_int_equal(h->orch_param, -1);
	assert_int_equal(tt_fn_param_of(&f->t, h, x[0].s, x[0].e), 0);
	const struct tt_fn *entry = tt_fn_holding(fns, nf, x[1].s);
	assert_non_null(entry);
	assert_int_equal(entry->orch_param, 0);
	struct tt_idexpr c[2]; /* its definition, then its call */
	assert_int_equal(first_args(&f->t, "helper", c, 2), 2);
	assert_int_equal(tt_ids_eval(&f->t, &f->r, &c[1], 1), 0);
	assert_int_equal(c[1].value, 20);
	free(fns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(constants_of_the_file_are_evaluated, setup, teardown),
	    cmocka_unit_test_setup_teardown(a_helper_parameter_and_its_call_argument, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
