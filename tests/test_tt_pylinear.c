/* test_tt_pylinear.c - the test script's edit grows linearly with the
 * script, however long one logical line is: the tokens the planning and its
 * read-back visit (tt_py_work) for a line of 16k elements stay within a
 * small factor of eight times those for 2k elements. Counting work, not
 * time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "pk.h"
#include "tt.h"

/* A test script of the real shape whose golden input is one logical line
 * of N numbers, the TensorArg list the edit extends. */
static char *script(size_t n)
{
	struct pk_sb sb = {0};
	pk_sb_add(&sb, "import torch\n"
	               "from simpler.task_interface import ArgDirection as D\n"
	               "from simpler_setup import SceneTestCase, TaskArgsBuilder, TensorArg, scene_test\n\n\n"
	               "@scene_test(level=2, runtime=\"tensormap_and_ringbuffer\")\n"
	               "class TestLong(SceneTestCase):\n"
	               "    CALLABLE = {\n"
	               "        \"orchestration\": {\n"
	               "            \"source\": \"kernels/orchestration/long_orch.cpp\",\n"
	               "            \"signature\": [D.IN, D.OUT],\n"
	               "        },\n"
	               "        \"incores\": [\n"
	               "            {\"func_id\": 0, \"source\": \"kernels/aiv/kernel_long.cpp\", "
	               "\"signature\": [D.IN, D.OUT]},\n"
	               "        ],\n"
	               "    }\n\n"
	               "    def generate_args(self, params):\n"
	               "        return TaskArgsBuilder(TensorArg(\"x\", torch.tensor([");
	for (size_t i = 0; i < n; i++)
		pk_sb_addf(&sb, "%s%zu", i ? ", " : "", i % 97);
	pk_sb_add(&sb, "])), TensorArg(\"y\", torch.zeros(4)))\n");
	return sb.s;
}

/* The work of planning (and reading back) the edit of a script of N elements. */
static size_t work_of(const struct tt_rules *r, size_t n)
{
	char *text = script(n);
	struct pk_buf b;
	memset(&b, 0, sizeof(b));
	b.path = "test_long.py";
	b.data = text;
	b.len = strlen(text);
	struct tt_kernel k;
	memset(&k, 0, sizeof(k));
	k.ntensors = 2;
	struct tt_spec sp = {.opt = {.kernel_file = "kernels/aiv/kernel_long.cpp",
	                             .host_file = "kernels/orchestration/long_orch.cpp",
	                             .slots = "4"},
	                     .lay = {.prefix = "pk_tt_", .row_words = 8, .timing_index = 2},
	                     .rules = r};
	struct pk_plan plan;
	pk_plan_init(&plan);
	size_t before = tt_py_work();
	assert_int_equal(tt_py_plan_test(&b, &k, &sp, 0, 2, &plan), 0);
	size_t work = tt_py_work() - before;
	assert_true(plan.n >= 4); /* TensorArg, two signatures, the comparator */
	pk_plan_free(&plan);
	free(text);
	return work;
}

static void long_line_is_linear(void **state)
{
	(void)state;
	struct tt_rules r;
	assert_int_equal(tt_rules_load(&r), 0);
	size_t small = work_of(&r, 2000), big = work_of(&r, 16000);
	tt_rules_free(&r);
	print_message("work: %zu for 2k elements, %zu for 16k (ratio %.2f)\n", small, big, (double)big / (double)small);
	assert_true(small > 2000);      /* every element is visited: the counter counts */
	assert_true(big <= 10 * small); /* linear: near 8; quadratic would be near 64 */
	assert_true(big >= 6 * small);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(long_line_is_linear),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
