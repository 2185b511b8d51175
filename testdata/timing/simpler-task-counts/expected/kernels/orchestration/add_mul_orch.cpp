// The add kernel (func 1) twice: alone with 3 tensors, then beside the
// multiply (func 2) in a two-lane vector task with 6.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_ADD 1
#define FUNC_MUL 2

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
    const ChipTensor &ext_x = orch_args.tensor(0).ref();
    const ChipTensor &ext_y = orch_args.tensor(1).ref();
    const ChipTensor &ext_sum = orch_args.tensor(2).ref();
    const ChipTensor &ext_sum2 = orch_args.tensor(3).ref();
    const ChipTensor &ext_prod = orch_args.tensor(4).ref();

    {
        CoreTaskArgs args;
        args.add_input(ext_x);
        args.add_input(ext_y);
        args.add_output(ext_sum);
        args.add_input(pk_tt_timing);  // TIMING_PROBE: @timing padding and output (args[6])
        args.add_input(pk_tt_timing);  // TIMING_PROBE: @timing padding and output (args[6])
        args.add_input(pk_tt_timing);  // TIMING_PROBE: @timing padding and output (args[6])
        args.add_output(pk_tt_timing);  // TIMING_PROBE: @timing padding and output (args[6])
        args.add_scalar(static_cast<uint64_t>(pk_tt_task));  // TIMING_PROBE: @timing padding and output (args[6])
        pk_tt_task += 1;  // TIMING_PROBE: @timing the next task's first row
        rt_submit_aiv_task(FUNC_ADD, args);
    }

    {
        MixedKernels mk;
        mk.aiv0_kernel_id = FUNC_ADD;
        mk.aiv1_kernel_id = FUNC_MUL;
        CoreTaskArgs args;
        args.add_input(ext_sum);
        args.add_input(ext_y);
        args.add_output(ext_sum2);
        args.add_input(ext_sum);
        args.add_input(ext_x);
        args.add_output(ext_prod);
        args.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[6])
        args.add_scalar(static_cast<uint64_t>(pk_tt_task));  // TIMING_PROBE: @timing output (args[6])
        pk_tt_task += 1;  // TIMING_PROBE: @timing the next task's first row
        rt_submit_task(mk, args);
    }
}

}  // extern "C"
