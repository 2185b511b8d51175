/* tt_schema.c - the keys rules/timing.ini must hold. Every template the
 * timing tensor writes comes from the rules: a key that is missing is refused
 * when the file is loaded, naming the file, the section and the key, never
 * replaced by a text of the tool's own. */
#include "tt.h"
#include "pk.h"

#include <string.h>

/* Section, then its required keys (NULL ends them). Keys a profile
 * ([target.NAME]) may set are required in [code] / [slot], whose values are
 * the defaults; keys only a profile sets (detect, parse_args, tensor
 * accessors, slot_in_body, task_slot, mix_is_aic_expr) are
 * optional: their absence says the runtime has no such thing. */
static const char *const timing_schema[][32] = {
    {"code", "api", "qualifiers", "tensor_type", "tensor", "magic", NULL},
    {"slot", "aiv", "aic", "mix_is_aic", "mix_aic", "mix_aiv", "room", NULL},
    {"kinds", "entry", "body_done", NULL},
    {"host",
     "orchestration",
     "packed_declare",
     "packed_element",
     "scalar",
     "packed_scalar",
     "launch_declare_1",
     "cpu_launch_declare_1",
     "simpler_external",
     "simpler_add",
     "id_probe",
     "simpler_helper_param",
     "simpler_helper_arg",
     "simpler_pad",
     "simpler_scalar",
     "simpler_task_counter",
     "simpler_task_value",
     "simpler_task_advance",
     "simpler_task_rows",
     "simpler_task_rows_mixed",
     "simpler_graph_timing",
     "simpler_graph_row",
     "simpler_graph_task_row",
     NULL},
    {"kernel",
     "entry",
     "out",
     "out_param",
     "packed_read",
     "event_local",
     "events_local",
     "event_sample",
     "slot",
     "slot_mix",
     "identity",
     "tail_call",
     "param",
     "scalar_param",
     "events_param",
     "helper_sample",
     "read_cycle_open",
     "read_cycle_return",
     "tail_open",
     "tail_param",
     "tail_slot",
     "tail_slot_mix",
     "tail_row",
     "tail_row_invocation",
     "tail_row_wrap",
     "tail_row_invocation_wrap",
     "tail_value",
     "tail_identity",
     "tail_marker",
     "tail_marker_generation",
     NULL},
    {"python",
     "extern_param",
     "extern_arg",
     "extern_create",
     "test_tensorarg",
     "signature_out",
     "signature_pad",
     "compare_filter",
     "compare_def",
     "compare_super",
     "compare_rebind",
     "capture_1",
     "mark_extern_param",
     "mark_extern_arg",
     "mark_extern_create",
     "mark_tensorarg",
     "mark_signature",
     "mark_compare_def",
     "mark_capture",
     "mark_compare_super",
     "mark_compare_rebind",
     NULL},
    {"test_script", "tensorarg", "orchestration", "source", "func_id", "signature", "compare", "super", "output_names",
     "core_type", "append", "scalar", "insert", "enumerate", "script_prefix", "script_suffix", "script_levels", NULL},
};

static int needs(const char *origin, const char *section, const char *key)
{
	return pk_error("%s: [%s] needs '%s' (docs/rules.md lists the keys of every rule file)", origin, section, key);
}

int tt_rules_check(const struct tt_rules *r, const char *origin)
{
	for (size_t s = 0; s < sizeof(timing_schema) / sizeof(timing_schema[0]); s++)
		for (size_t k = 1; timing_schema[s][k]; k++)
			if (!tt_rule(r, timing_schema[s][0], timing_schema[s][k]))
				return needs(origin, timing_schema[s][0], timing_schema[s][k]);
	/* the words of the host dialects ([simpler], [launch], [pypto]) and the
	 * kernel's own marks ([device]) */
	for (size_t k = 0; tt_word_keys[k].section; k++)
		if (!tt_rule(r, tt_word_keys[k].section, tt_word_keys[k].key))
			return needs(origin, tt_word_keys[k].section, tt_word_keys[k].key);
	/* every profile says which kernels are its own */
	for (size_t i = 0; i < r->n; i++)
		if (!strncmp(r->keys[i], "target.", 7)) {
			const char *dot = strchr(r->keys[i] + 7, '.');
			char sec[128];
			snprintf(sec, sizeof(sec), "%.*s", (int)(dot ? dot - r->keys[i] : 0), r->keys[i]);
			if (dot && !tt_rule(r, sec, "detect"))
				return pk_error("%s: [%s] needs 'detect' (the headers that mark the profile's kernels)",
				                origin, sec);
		}
	return 0;
}

char *tt_rule_lines(const struct tt_rules *r, const char *section, const char *key)
{
	struct pk_sb sb = {0};
	for (int k = 1;; k++) {
		char name[96];
		snprintf(name, sizeof(name), "%s_%d", key, k);
		const char *v = tt_rule(r, section, name);
		if (!v)
			break;
		pk_sb_addf(&sb, "%s%s", k > 1 ? "\n" : "", v);
	}
	return sb.s;
}
