// One task adds one tile: the timing tensor gets its one row without --slots.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_TILE_ADD 0

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 2,
    };
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    const ChipTensor &ext_acc = orch_args.tensor(0).ref();
    const ChipTensor &ext_tile = orch_args.tensor(1).ref();

    CoreTaskArgs params_add;
    params_add.add_inout(ext_acc);
    params_add.add_input(ext_tile);
    params_add.add_scalar(static_cast<uint64_t>(128));
    rt_submit_aiv_task(FUNC_TILE_ADD, params_add);
}

}  // extern "C"
