/* test_tt_gen.c - the event map is JSON probe-report can load, with the row
 * layout the tail writes; rule templates expand as documented. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "tt.h"

static void sidecar_is_json_with_the_row_layout(void **state)
{
	(void)state;
	struct tt_rules r;
	memset(&r, 0, sizeof(r));
	assert_int_equal(tt_rules_parse(&r, "t.ini", "[code]\nmagic = 0x10\n[kinds]\nentry = issue\n"), 0);
	struct tt_event ev[8];
	memset(ev, 0, sizeof(ev));
	char names[8][8];
	for (int i = 0; i < 8; i++) {
		snprintf(names[i], sizeof(names[i]), "e%d", i);
		ev[i].name = names[i];
		ev[i].kind = "drain";
		ev[i].spec = "after:\"odd\\name";
		ev[i].column = i + 1;
	}
	struct tt_kernel k;
	memset(&k, 0, sizeof(k));
	k.name = "kernel_entry";
	k.style = TT_EXTERN;
	struct tt_spec sp = {.opt = {.ev = ev, .nev = 8, .slots = "48"},
	                     .lay = {.prefix = "pk_tt_", .row_words = 16, .columns = 10, .timing_index = 3},
	                     .rules = &r};
	size_t len;
	char *text = tt_sidecar_json(&k, &sp, NULL, 0, &len);
	json_error_t err;
	json_t *root = json_loadb(text, len, 0, &err);
	if (!root)
		fail_msg("not JSON: %s at line %d\n%s", err.text, err.line, text);
	assert_int_equal(json_integer_value(json_object_get(root, "row_words")), 16);
	assert_int_equal(json_integer_value(json_object_get(root, "magic")), 16);
	assert_int_equal(json_integer_value(json_object_get(root, "magic_column")), 15);
	assert_int_equal(json_integer_value(json_object_get(root, "slots")), 48);
	assert_int_equal(json_integer_value(json_object_get(root, "timing_arg")), 3);
	json_t *events = json_object_get(root, "events");
	assert_int_equal(json_array_size(events), 10);
	json_t *last = json_array_get(events, 9);
	assert_string_equal(json_string_value(json_object_get(last, "name")), "body_done");
	assert_int_equal(json_integer_value(json_object_get(last, "column")), 9);
	assert_string_equal(json_string_value(json_object_get(json_array_get(events, 1), "at")), "after:\"odd\\name");
	json_decref(root);
	free(text);
	tt_rules_free(&r);
}

/* A profile that reads the row's identity: the map names its columns (and
 * only those written), and says the slot rule in the rules' own words,
 * inside the task slot when several tasks share the tensor. */
static void sidecar_names_identity_and_the_rules_slot_rule(void **state)
{
	(void)state;
	struct tt_rules r;
	memset(&r, 0, sizeof(r));
	assert_int_equal(
	    tt_rules_parse(&r, "t.ini",
	                   "[code]\nmagic = 0x10\n[kinds]\nentry = issue\n[target.x]\n"
	                   "slot_words = block_idx\ntask_slot_words = (task_first_row + {slot}) % slots\n"),
	    0);
	struct tt_kernel k;
	memset(&k, 0, sizeof(k));
	k.name = "kernel_entry";
	k.style = TT_EXTERN;
	struct tt_spec sp = {.opt = {.slots = "8"},
	                     .lay = {.prefix = "pk_tt_",
	                             .row_words = 8,
	                             .columns = 2,
	                             .timing_index = 3,
	                             .task_rows = 1,
	                             .tasks = 2,
	                             .task_index = 6,
	                             .identity = {2, -1, 3, 4},
	                             .nidentity = 3},
	                     .rules = &r,
	                     .target = "target.x",
	                     .slot_in_body = 1};
	size_t len;
	char *text = tt_sidecar_json(&k, &sp, NULL, 0, &len);
	json_error_t err;
	json_t *root = json_loadb(text, len, 0, &err);
	if (!root)
		fail_msg("not JSON: %s at line %d\n%s", err.text, err.line, text);
	assert_string_equal(json_string_value(json_object_get(root, "slot_rule")),
	                    "slot = (task_first_row + block_idx) % slots");
	json_t *id = json_object_get(root, "identity");
	assert_non_null(id);
	assert_int_equal(json_object_size(id), 3);
	assert_int_equal(json_integer_value(json_object_get(id, "task")), 2);
	assert_null(json_object_get(id, "core"));
	assert_int_equal(json_integer_value(json_object_get(id, "block")), 3);
	assert_int_equal(json_integer_value(json_object_get(id, "lane")), 4);
	json_decref(root);
	free(text);
	tt_rules_free(&r);
}

/* Helper events name their function and file; --generation and --invocation
 * say where their scalars are and how the marker word and rows read. */
static void sidecar_names_helpers_generation_and_invocations(void **state)
{
	(void)state;
	struct tt_rules r;
	memset(&r, 0, sizeof(r));
	assert_int_equal(tt_rules_parse(&r, "t.ini", "[code]\nmagic = 0x10\n"), 0);
	struct tt_event ev[2];
	memset(ev, 0, sizeof(ev));
	ev[0] = (struct tt_event){.name = "producer_done",
	                          .kind = "phase",
	                          .spec = "after:TSTORE#1",
	                          .func = "Body",
	                          .helper = 0,
	                          .file = "body.h",
	                          .column = 1};
	ev[1] = (struct tt_event){.name = "mine", .kind = "issue", .spec = "line:3", .helper = -1, .column = 2};
	struct tt_kernel k;
	memset(&k, 0, sizeof(k));
	k.name = "kernel_entry";
	k.style = TT_EXTERN;
	struct tt_spec sp = {.opt = {.ev = ev,
	                             .nev = 2,
	                             .kernel_file = "k.cpp",
	                             .slots = "blockDim",
	                             .generation = "gen",
	                             .invocation = "i",
	                             .invocations = "3"},
	                     .lay = {.prefix = "pk_tt_",
	                             .columns = 4,
	                             .row_words = 8,
	                             .nhelper = 1,
	                             .timing_index = 2,
	                             .generation_index = 5,
	                             .row0_index = 6},
	                     .rules = &r};
	size_t len;
	char *text = tt_sidecar_json(&k, &sp, NULL, 0, &len);
	json_error_t err;
	json_t *root = json_loadb(text, len, 0, &err);
	if (!root)
		fail_msg("not JSON: %s at line %d\n%s", err.text, err.line, text);
	assert_true(json_is_true(json_object_get(root, "generation")));
	assert_int_equal(json_integer_value(json_object_get(root, "generation_arg")), 5);
	assert_int_equal(json_integer_value(json_object_get(root, "row0_arg")), 6);
	assert_int_equal(json_integer_value(json_object_get(root, "invocations")), 3);
	assert_non_null(strstr(json_string_value(json_object_get(root, "magic_rule")), "generation"));
	json_t *events = json_object_get(root, "events");
	assert_int_equal(json_array_size(events), 4);
	json_t *h = json_array_get(events, 1), *own = json_array_get(events, 2), *done = json_array_get(events, 3);
	assert_string_equal(json_string_value(json_object_get(h, "function")), "Body");
	assert_string_equal(json_string_value(json_object_get(h, "file")), "body.h");
	assert_string_equal(json_string_value(json_object_get(own, "function")), "kernel_entry");
	assert_string_equal(json_string_value(json_object_get(own, "file")), "k.cpp");
	assert_string_equal(json_string_value(json_object_get(done, "function")), "kernel_entry");
	json_decref(root);
	free(text);
	/* without --invocations as a number the count is unknown */
	sp.opt.invocations = "n_inv";
	const char *files[] = {"../orch/o\"rch.cpp", "test_x.py"};
	text = tt_sidecar_json(&k, &sp, files, 2, &len);
	root = json_loadb(text, len, 0, &err);
	assert_non_null(root);
	assert_true(json_is_null(json_object_get(root, "invocations")));
	/* the other files the run changed, quoted as JSON strings, for probe-strip */
	json_t *fl = json_object_get(root, "files");
	assert_int_equal(json_array_size(fl), 2);
	assert_string_equal(json_string_value(json_array_get(fl, 0)), "../orch/o\"rch.cpp");
	assert_string_equal(json_string_value(json_array_get(fl, 1)), "test_x.py");
	json_decref(root);
	free(text);
	tt_rules_free(&r);
}

static void templates_expand_known_names_only(void **state)
{
	(void)state;
	const char *names[] = {"recv", "slots"}, *vals[] = {"task.", "blockDim"};
	char *s = tt_expand("{recv}add_output({recv}t({slots}, {row_words})) {", names, vals, 2);
	assert_string_equal(s, "task.add_output(task.t(blockDim, {row_words})) {");
	free(s);
}

static void last_rule_setting_wins(void **state)
{
	(void)state;
	struct tt_rules r;
	memset(&r, 0, sizeof(r));
	assert_int_equal(tt_rules_parse(&r, "t.ini", "; c\n[slot]\naiv = A()\n[slot]\naiv = B()\n"), 0);
	assert_string_equal(tt_rule(&r, "slot", "aiv"), "B()");
	assert_null(tt_rule(&r, "slot", "aic"));
	assert_int_equal(tt_rules_parse(&r, "t.ini", "[slot]\nno equals here\n"), -1);
	tt_rules_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(sidecar_is_json_with_the_row_layout),
	    cmocka_unit_test(sidecar_names_helpers_generation_and_invocations),
	    cmocka_unit_test(sidecar_names_identity_and_the_rules_slot_rule),
	    cmocka_unit_test(templates_expand_known_names_only),
	    cmocka_unit_test(last_rule_setting_wins),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
