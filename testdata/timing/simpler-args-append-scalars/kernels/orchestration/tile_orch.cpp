// Tile additions recorded once as a graph and replayed for each layer: a
// seed task adds the first tile, then every layer replays two additions
// (the first on two blocks) with the layer's own tensors and scale; every
// addition adds the bias too.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_TILE_ADD 0
#define LAYERS 3

namespace {

void add_layer(const GraphTaskArgs &args, int variant) {
    const ChipTensor &acc = args.tensor(0).ref();
    const ChipTensor &tile = args.tensor(1).ref();
    const ChipTensor &bias = args.tensor(2).ref();

    CoreTaskArgs params_wide;
    params_wide.add_inout(acc);
    params_wide.add_input(tile, bias);
    if (variant == 0) {
        params_wide.add_scalar(args.scalar(0));
    } else {
        params_wide.add_scalar(1.0F);
    }
    params_wide.launch_spec.set_block_num(2);
    rt_submit_aiv_task(FUNC_TILE_ADD, params_wide);

    CoreTaskArgs params_narrow;
    params_narrow.add_inout(acc);
    params_narrow.add_input(tile, bias);
    params_narrow.add_scalar(args.scalar(0));
    rt_submit_aiv_task(FUNC_TILE_ADD, params_narrow);
}

void submit_add_layer(const GraphTaskArgs &args, int variant) { rt_submit_graph(&add_layer, args, variant); }

}  // namespace

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 5,
    };
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    const ChipTensor &acc = orch_args.tensor(0).ref();

    CoreTaskArgs params_seed;
    params_seed.add_inout(acc);
    params_seed.add_input(orch_args.tensor(1).ref(), orch_args.tensor(4).ref());
    params_seed.add_scalar(1.0F);
    rt_submit_aiv_task(FUNC_TILE_ADD, params_seed);

    for (int layer = 0; layer < LAYERS; layer++) {
        GraphTaskArgs layer_args;
        layer_args.add_inout(acc);
        layer_args.add_input(orch_args.tensor(1 + layer % 3).ref(), orch_args.tensor(4).ref());
        layer_args.add_scalar(0.5F * static_cast<float>(layer + 1));
        submit_add_layer(layer_args, layer % 2);
    }
}

}  // extern "C"
