// One tile addition or two, as the run's mode scalar says: the rows counted
// are the most a run can use, and a run of the other mode leaves some spare.
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

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    const auto &pk_tt_timing = orch_args.tensor(2).ref();  // TIMING_PROBE: @timing external tensor 2
    uint64_t pk_tt_task = 0;  // TIMING_PROBE: @timing task counter
    const ChipTensor &ext_acc = orch_args.tensor(0).ref();
    const ChipTensor &ext_tile = orch_args.tensor(1).ref();
    const uint64_t mode = orch_args.scalar(0);

    if (mode == 1) {
        CoreTaskArgs once;
        once.add_inout(ext_acc);
        once.add_input(ext_tile);
        once.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[2])
        once.add_scalar(static_cast<uint64_t>(128));
        once.add_scalar(static_cast<uint64_t>(pk_tt_task));  // TIMING_PROBE: @timing launch scalars (args[4])
        pk_tt_task += 1;  // TIMING_PROBE: @timing the next task's first row
        rt_submit_aiv_task(FUNC_TILE_ADD, once);
    } else {
        for (int i = 0; i < 2; i++) {
            CoreTaskArgs twice;
            twice.add_inout(ext_acc);
            twice.add_input(ext_tile);
            twice.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[2])
            twice.add_scalar(static_cast<uint64_t>(64));
            twice.add_scalar(static_cast<uint64_t>(pk_tt_task));  // TIMING_PROBE: @timing launch scalars (args[4])
            pk_tt_task += 1;  // TIMING_PROBE: @timing the next task's first row
            rt_submit_aiv_task(FUNC_TILE_ADD, twice);
        }
    }
}

}  // extern "C"
