// One gather task over the rows the index tensor names (func 0).
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_GATHER 0

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = /* TIMING_PROBE: @timing-was "3" */4/* TIMING_PROBE: @timing-end */,
    };
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    const auto &pk_tt_timing = orch_args.tensor(3).ref();  // TIMING_PROBE: @timing external tensor 3
    const ChipTensor &ext_table = orch_args.tensor(0).ref();
    const ChipTensor &ext_idx = orch_args.tensor(1).ref();
    const ChipTensor &ext_out = orch_args.tensor(2).ref();

    CoreTaskArgs params;
    params.add_input(ext_table);
    params.add_input(ext_idx);
    params.add_inout(ext_out);
    params.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[3])
    params.add_scalar(static_cast<uint64_t>(64));
    rt_submit_aiv_task(FUNC_GATHER, params);
}

}  // extern "C"
