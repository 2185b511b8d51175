// GROUPS x GRID_K tile additions: one task per (group, k), each adding its tile into the group's slice.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_TILE_ADD 0
#define GRID_K 4

static constexpr int GROUPS = 2;

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
    const ChipTensor &ext_tiles = orch_args.tensor(1).ref();
    uint32_t shapes[1] = {128};

    for (int group_idx = 0; group_idx < GROUPS; group_idx++) {
        uint32_t acc_offsets[1] = {static_cast<uint32_t>(group_idx * 128)};
        ChipTensor acc_view = ext_acc.view(shapes, acc_offsets);
        for (int k_idx = 0; k_idx < GRID_K; ++k_idx) {
            uint32_t tile_offsets[1] = {static_cast<uint32_t>((group_idx * GRID_K + k_idx) * 128)};
            ChipTensor tile_view = ext_tiles.view(shapes, tile_offsets);
            CoreTaskArgs params_add;
            params_add.add_inout(acc_view);
            params_add.add_input(tile_view);
            params_add.add_scalar(static_cast<uint64_t>(128));
            rt_submit_aiv_task(FUNC_TILE_ADD, params_add);
        }
    }
}

}  // extern "C"
