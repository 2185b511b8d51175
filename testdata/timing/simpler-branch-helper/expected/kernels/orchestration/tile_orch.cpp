// The run's mode chooses between two helpers, one of which submits the tile
// addition: its row is room the run may leave unwritten.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_TILE_ADD 0

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = /* TIMING_PROBE: @timing-was "3" */4/* TIMING_PROBE: @timing-end */,
    };
}

static int submit_add(const ChipTensor &acc, const ChipTensor &tile/* TIMING_PROBE: @timing-was "" */, const ChipTensor &pk_tt_timing/* TIMING_PROBE: @timing-end */) {
    CoreTaskArgs args;
    args.add_inout(acc);
    args.add_input(tile);
    args.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[2])
    args.add_scalar(static_cast<uint64_t>(128));
    rt_submit_aiv_task(FUNC_TILE_ADD, args);
    return 1;
}

static int skip_add(const ChipTensor &acc) {
    (void)acc;
    return 0;
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    const auto &pk_tt_timing = orch_args.tensor(2).ref();  // TIMING_PROBE: @timing external tensor 2
    const ChipTensor &ext_acc = orch_args.tensor(0).ref();
    const ChipTensor &ext_tile = orch_args.tensor(1).ref();
    const bool add = orch_args.scalar(0) != 0;
    int submitted = add ? submit_add(ext_acc, ext_tile/* TIMING_PROBE: @timing-was "" */, pk_tt_timing/* TIMING_PROBE: @timing-end */) : skip_add(ext_acc);
    (void)submitted;
}

}  // extern "C"
