// One task on as many cores as the runtime has free: the rows are known only at run time.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_TILE_ADD 0

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
    const ChipTensor &ext_acc = orch_args.tensor(0).ref();
    const ChipTensor &ext_tile = orch_args.tensor(1).ref();

    CoreTaskArgs params_add;
    params_add.add_inout(ext_acc);
    params_add.add_input(ext_tile);
    params_add.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[2])
    params_add.add_scalar(static_cast<uint64_t>(128));
    params_add.launch_spec.set_core_num(rt_available_aiv_count());
    rt_submit_aiv_task(FUNC_TILE_ADD, params_add);
}

}  // extern "C"
