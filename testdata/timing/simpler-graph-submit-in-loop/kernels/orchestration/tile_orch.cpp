// A graph adding its tiles in a loop: each pass of the loop would read the
// same boundary scalar as its first row, so the tool refuses.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_TILE_ADD 0
#define TILES 4

namespace {

void tiles_layer(const GraphTaskArgs &args) {
    for (int t = 0; t < TILES; t++) {
        CoreTaskArgs params;
        params.add_inout(args.tensor(0).ref());
        params.add_input(args.tensor(1).ref());
        params.add_scalar(args.scalar(0));
        rt_submit_aiv_task(FUNC_TILE_ADD, params);
    }
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
    GraphTaskArgs layer_args;
    layer_args.add_inout(orch_args.tensor(0).ref());
    layer_args.add_input(orch_args.tensor(1).ref());
    layer_args.add_scalar(1.0F);
    rt_submit_graph(&tiles_layer, layer_args);
}

}  // extern "C"
