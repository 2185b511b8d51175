// The tile addition recorded once as a graph and replayed for each layer:
// the timing tensor cannot reach a graph function's tasks, so it is refused.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_TILE_ADD 0

namespace {

void add_layer(const GraphTaskArgs &args)
{
    const ChipTensor &acc = args.tensor(0).ref();
    const ChipTensor &tile = args.tensor(1).ref();

    CoreTaskArgs params_add;
    params_add.add_inout(acc);
    params_add.add_input(tile);
    params_add.add_scalar(static_cast<uint64_t>(128));
    rt_submit_aiv_task(FUNC_TILE_ADD, params_add);
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
        layer_args.add_input(orch_args.tensor(0).ref(), orch_args.tensor(1).ref());
        rt_submit_graph(&add_layer, layer_args);
    }
}

}  // extern "C"
