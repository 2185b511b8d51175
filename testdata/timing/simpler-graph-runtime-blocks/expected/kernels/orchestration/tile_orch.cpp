// One tile addition per layer, spread over every cluster the runtime has:
// the block count is read at run time, through a call the entry can make too.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_TILE_ADD 0

namespace {

void spread_layer(const GraphTaskArgs &args) {
    const ChipTensor &pk_tt_timing = args.tensor(args.tensor_count() - 1).ref();  // TIMING_PROBE: @timing the boundary's timing tensor
    CoreTaskArgs params;
    params.add_inout(args.tensor(0).ref());
    params.add_input(args.tensor(1).ref());
    params.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[2])
    params.add_scalar(args.scalar(0));
    params.add_scalar(args.scalar(args.scalar_count() - 1));  // TIMING_PROBE: @timing the replay's first row
    params.launch_spec.set_block_num(static_cast<int16_t>(rt_available_cluster_count()));
    rt_submit_aiv_task(FUNC_TILE_ADD, params);
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = /* TIMING_PROBE: @timing-was "2" */3/* TIMING_PROBE: @timing-end */,
    };
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    const auto &pk_tt_timing = orch_args.tensor(2).ref();  // TIMING_PROBE: @timing external tensor 2
    uint64_t pk_tt_task = 0;  // TIMING_PROBE: @timing task counter
    for (int layer = 0; layer < 2; layer++) {
        GraphTaskArgs layer_args;
        layer_args.add_inout(orch_args.tensor(0).ref());
        layer_args.add_input(orch_args.tensor(1).ref());
        layer_args.add_output(pk_tt_timing);  // TIMING_PROBE: @timing the graph's timing tensor
        layer_args.add_scalar(static_cast<float>(layer + 1));
        layer_args.add_scalar(static_cast<uint64_t>(pk_tt_task + 0));  // TIMING_PROBE: @timing the replay's first rows
        pk_tt_task += static_cast<uint64_t>(static_cast<int16_t>(rt_available_cluster_count()));  // TIMING_PROBE: @timing the replay's first rows
        rt_submit_graph(&spread_layer, layer_args);
    }
}

}  // extern "C"
