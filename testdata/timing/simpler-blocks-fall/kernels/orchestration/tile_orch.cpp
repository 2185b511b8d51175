// A task on 8 blocks, then one on 4: with task * block count + block index their rows overlap.
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

    CoreTaskArgs wide;
    wide.add_inout(ext_acc);
    wide.add_input(ext_tile);
    wide.add_scalar(static_cast<uint64_t>(128));
    wide.launch_spec.set_block_num(8);
    rt_submit_aiv_task(FUNC_TILE_ADD, wide);

    CoreTaskArgs narrow;
    narrow.add_inout(ext_acc);
    narrow.add_input(ext_tile);
    narrow.add_scalar(static_cast<uint64_t>(64));
    narrow.launch_spec.set_block_num(4);
    rt_submit_aiv_task(FUNC_TILE_ADD, narrow);
}

}  // extern "C"
