// The tile additions of a batched GEMM: the counts come from the config tensor at run time.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_TILE_ADD 0

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 3,
    };
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    const ChipTensor &ext_acc = orch_args.tensor(0).ref();
    const ChipTensor &ext_tiles = orch_args.tensor(1).ref();
    int64_t *host_config = orch_args.tensor(2).ref().data_as<int64_t>();
    int num_groups = static_cast<int>(host_config[0]);
    int grid_k = static_cast<int>(host_config[1]);
    uint32_t shapes[1] = {128};

    for (int group_idx = 0; group_idx < num_groups; group_idx++) {
        uint32_t acc_offsets[1] = {static_cast<uint32_t>(group_idx * 128)};
        ChipTensor acc_view = ext_acc.view(shapes, acc_offsets);
        for (int k_idx = 0; k_idx < grid_k; k_idx++) {
            uint32_t tile_offsets[1] = {static_cast<uint32_t>((group_idx * grid_k + k_idx) * 128)};
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
