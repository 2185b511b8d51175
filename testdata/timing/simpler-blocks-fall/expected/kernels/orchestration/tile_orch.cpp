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
        .expected_arg_count = /* TIMING_PROBE: @timing-was "2" */3/* TIMING_PROBE: @timing-end */,
    };
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    const auto &pk_tt_timing = orch_args.tensor(2).ref();  // TIMING_PROBE: @timing external tensor 2
    uint64_t pk_tt_task = 0;  // TIMING_PROBE: @timing task counter
    const ChipTensor &ext_acc = orch_args.tensor(0).ref();
    const ChipTensor &ext_tile = orch_args.tensor(1).ref();

    CoreTaskArgs wide;
    wide.add_inout(ext_acc);
    wide.add_input(ext_tile);
    wide.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[2])
    wide.add_scalar(static_cast<uint64_t>(128));
    wide.add_scalar(static_cast<uint64_t>(pk_tt_task));  // TIMING_PROBE: @timing launch scalars (args[4])
    wide.launch_spec.set_block_num(8);
    pk_tt_task += static_cast<uint64_t>(wide.launch_spec.block_num());  // TIMING_PROBE: @timing the next task's first row
    rt_submit_aiv_task(FUNC_TILE_ADD, wide);

    CoreTaskArgs narrow;
    narrow.add_inout(ext_acc);
    narrow.add_input(ext_tile);
    narrow.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[2])
    narrow.add_scalar(static_cast<uint64_t>(64));
    narrow.add_scalar(static_cast<uint64_t>(pk_tt_task));  // TIMING_PROBE: @timing launch scalars (args[4])
    narrow.launch_spec.set_block_num(4);
    pk_tt_task += static_cast<uint64_t>(narrow.launch_spec.block_num());  // TIMING_PROBE: @timing the next task's first row
    rt_submit_aiv_task(FUNC_TILE_ADD, narrow);
}

}  // extern "C"
