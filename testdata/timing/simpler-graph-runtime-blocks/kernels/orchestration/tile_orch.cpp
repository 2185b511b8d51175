// One tile addition per layer, spread over every cluster the runtime has:
// the block count is read at run time, through a call the entry can make too.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_TILE_ADD 0

namespace {

void spread_layer(const GraphTaskArgs &args) {
    CoreTaskArgs params;
    params.add_inout(args.tensor(0).ref());
    params.add_input(args.tensor(1).ref());
    params.add_scalar(args.scalar(0));
    params.launch_spec.set_block_num(static_cast<int16_t>(rt_available_cluster_count()));
    rt_submit_aiv_task(FUNC_TILE_ADD, params);
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 2,
    };
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    for (int layer = 0; layer < 2; layer++) {
        GraphTaskArgs layer_args;
        layer_args.add_inout(orch_args.tensor(0).ref());
        layer_args.add_input(orch_args.tensor(1).ref());
        layer_args.add_scalar(static_cast<float>(layer + 1));
        rt_submit_graph(&spread_layer, layer_args);
    }
}

}  // extern "C"
