// Two tile additions whose scale one branch or the other adds: each task
// passes one scalar, so its first row goes after the if / else.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_TILE_ADD 0

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = /* TIMING_PROBE: @timing-was "3" */4/* TIMING_PROBE: @timing-end */,
    };
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    const auto &pk_tt_timing = orch_args.tensor(2).ref();  // TIMING_PROBE: @timing external tensor 2
    uint64_t pk_tt_task = 0;  // TIMING_PROBE: @timing task counter
    for (int pass = 0; pass < 2; pass++) {
        CoreTaskArgs params;
        params.add_inout(orch_args.tensor(0).ref());
        params.add_input(orch_args.tensor(1).ref());
        params.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[2])
        if (pass == 0) {
            params.add_scalar(orch_args.scalar(0));
        } else {
            params.add_scalar(1.0F);
        }
        params.add_scalar(static_cast<uint64_t>(pk_tt_task));  // TIMING_PROBE: @timing launch scalars
        pk_tt_task += 1;  // TIMING_PROBE: @timing the next task's first row
        rt_submit_aiv_task(FUNC_TILE_ADD, params);
    }
}

}  // extern "C"
