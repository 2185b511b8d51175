// One tile addition; a second one is compiled out.
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

    CoreTaskArgs first;
    first.add_inout(ext_acc);
    first.add_input(ext_tile);
    first.add_scalar(static_cast<uint64_t>(128));
    rt_submit_aiv_task(FUNC_TILE_ADD, first);

#if 0
    CoreTaskArgs second;
    second.add_inout(ext_acc);
    second.add_input(ext_tile);
    second.add_scalar(static_cast<uint64_t>(128));
    rt_submit_aiv_task(FUNC_TILE_ADD, second);
#endif
}

}  // extern "C"
