// One mixed task: the cube lane (func 0) computes the scores, both vector
// lanes (func 1) scale them; the row length is the task's one scalar.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_QK 0
#define FUNC_SCALE_ROWS 1

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 3,
    };
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    const ChipTensor &ext_q = orch_args.tensor(0).ref();
    const ChipTensor &ext_k = orch_args.tensor(1).ref();
    const ChipTensor &ext_s = orch_args.tensor(2).ref();

    MixedKernels mk;
    mk.aic_kernel_id = FUNC_QK;
    mk.aiv0_kernel_id = FUNC_SCALE_ROWS;
    mk.aiv1_kernel_id = FUNC_SCALE_ROWS;
    CoreTaskArgs params;
    params.add_input(ext_q);
    params.add_input(ext_k);
    params.add_output(ext_s);
    params.add_scalar(static_cast<uint64_t>(64));
    params.launch_spec.set_block_num(4);
    rt_submit_task(mk, params);
}

}  // extern "C"
