// Two mixed tasks, each with a MixedKernels of its own scope: the first runs
// the multiply (func 0) on its cube lane, the second leaves that lane unset,
// so only the first task gets the timing tensor.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_MATMUL 0
#define FUNC_ADD 1

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = /* TIMING_PROBE: @timing-was "6" */7/* TIMING_PROBE: @timing-end */,
    };
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    const auto &pk_tt_timing = orch_args.tensor(6).ref();  // TIMING_PROBE: @timing external tensor 6
    const ChipTensor &ext_a = orch_args.tensor(0).ref();
    const ChipTensor &ext_b = orch_args.tensor(1).ref();
    const ChipTensor &ext_c = orch_args.tensor(2).ref();
    const ChipTensor &ext_x = orch_args.tensor(3).ref();
    const ChipTensor &ext_y = orch_args.tensor(4).ref();
    const ChipTensor &ext_out = orch_args.tensor(5).ref();

    {
        MixedKernels mk;
        mk.aic_kernel_id = FUNC_MATMUL;
        mk.aiv0_kernel_id = FUNC_ADD;
        mk.aiv1_kernel_id = FUNC_ADD;
        CoreTaskArgs args;
        args.add_input(ext_a);
        args.add_input(ext_b);
        args.add_output(ext_c);
        args.add_input(ext_x);
        args.add_input(ext_y);
        args.add_output(ext_out);
        args.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[6])
        args.launch_spec.set_block_num(4);
        rt_submit_task(mk, args);
    }
    {
        // a second mixed task of its own, its AIC lane unset: the matmul does not run in it
        MixedKernels mk;
        mk.aiv0_kernel_id = FUNC_ADD;
        mk.aiv1_kernel_id = FUNC_ADD;
        CoreTaskArgs args;
        args.add_input(ext_a);
        args.add_input(ext_b);
        args.add_output(ext_c);
        args.add_input(ext_x);
        args.add_input(ext_y);
        args.add_output(ext_out);
        args.launch_spec.set_block_num(4);
        rt_submit_task(mk, args);
    }
}

}  // extern "C"
