// Two mixed tasks of two blocks each, whose cube lane (func 0) and vector
// lanes (func 1) run the same kernel source, built twice.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

static constexpr int16_t kBlocks = 2;

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = /* TIMING_PROBE: @timing-was "2" */3/* TIMING_PROBE: @timing-end */,
    };
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    const auto &pk_tt_timing = orch_args.tensor(2).ref();  // TIMING_PROBE: @timing external tensor 2
    uint64_t pk_tt_task = 0;  // TIMING_PROBE: @timing task counter
    const ChipTensor &ext_q = orch_args.tensor(0).ref();
    const ChipTensor &ext_s = orch_args.tensor(1).ref();

    for (int half = 0; half < 2; half++) {
        CoreTaskArgs params_t0;
        params_t0.add_input(ext_q);
        params_t0.add_output(ext_s);
        params_t0.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[2])
        params_t0.add_scalar(static_cast<uint64_t>(64));
        params_t0.add_scalar(static_cast<uint64_t>(pk_tt_task));  // TIMING_PROBE: @timing launch scalars (args[4])
        params_t0.launch_spec.set_block_num(kBlocks);
        MixedKernels mixed_0 = {0, 1, 1};
        pk_tt_task += static_cast<uint64_t>(params_t0.launch_spec.block_num()) * 3;  // TIMING_PROBE: @timing the next task's first row
        rt_submit_task(mixed_0, params_t0);
    }
}

}  // extern "C"
