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
    const ChipTensor &pk_tt_timing = args.tensor(args.tensor_count() - 1).ref();  // TIMING_PROBE: @timing the boundary's timing tensor
    const ChipTensor &acc = args.tensor(0).ref();
    const ChipTensor &tile = args.tensor(1).ref();
    const ChipTensor &bias = args.tensor(2).ref();

    CoreTaskArgs params_wide;
    params_wide.add_inout(acc);
    params_wide.add_input(tile, bias);
    params_wide.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[3])
    if (variant == 0) {
        params_wide.add_scalar(args.scalar(0));
    } else {
        params_wide.add_scalar(1.0F);
    }
    params_wide.launch_spec.set_block_num(2);
    params_wide.add_scalar(args.scalar(args.scalar_count() - 2));  // TIMING_PROBE: @timing the replay's first row
    rt_submit_aiv_task(FUNC_TILE_ADD, params_wide);

    CoreTaskArgs params_narrow;
    params_narrow.add_inout(acc);
    params_narrow.add_input(tile, bias);
    params_narrow.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[3])
    params_narrow.add_scalar(args.scalar(0));
    params_narrow.add_scalar(args.scalar(args.scalar_count() - 1));  // TIMING_PROBE: @timing the replay's first row
    rt_submit_aiv_task(FUNC_TILE_ADD, params_narrow);
}

void submit_add_layer(const GraphTaskArgs &args, int variant) { rt_submit_graph(&add_layer, args, variant); }

}  // namespace

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = /* TIMING_PROBE: @timing-was "5" */6/* TIMING_PROBE: @timing-end */,
    };
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    const auto &pk_tt_timing = orch_args.tensor(5).ref();  // TIMING_PROBE: @timing external tensor 5
    uint64_t pk_tt_task = 0;  // TIMING_PROBE: @timing task counter
    const ChipTensor &acc = orch_args.tensor(0).ref();

    CoreTaskArgs params_seed;
    params_seed.add_inout(acc);
    params_seed.add_input(orch_args.tensor(1).ref(), orch_args.tensor(4).ref());
    params_seed.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[3])
    params_seed.add_scalar(1.0F);
    params_seed.add_scalar(static_cast<uint64_t>(pk_tt_task));  // TIMING_PROBE: @timing launch scalars (args[5])
    pk_tt_task += 1;  // TIMING_PROBE: @timing the next task's first row
    rt_submit_aiv_task(FUNC_TILE_ADD, params_seed);

    for (int layer = 0; layer < LAYERS; layer++) {
        GraphTaskArgs layer_args;
        layer_args.add_inout(acc);
        layer_args.add_input(orch_args.tensor(1 + layer % 3).ref(), orch_args.tensor(4).ref());
        layer_args.add_output(pk_tt_timing);  // TIMING_PROBE: @timing the graph's timing tensor
        layer_args.add_scalar(0.5F * static_cast<float>(layer + 1));
        layer_args.add_scalar(static_cast<uint64_t>(pk_tt_task + 0));  // TIMING_PROBE: @timing the replay's first rows
        layer_args.add_scalar(static_cast<uint64_t>(pk_tt_task + 2));  // TIMING_PROBE: @timing the replay's first rows
        pk_tt_task += 3;  // TIMING_PROBE: @timing the replay's first rows
        submit_add_layer(layer_args, layer % 2);
    }
}

}  // extern "C"
