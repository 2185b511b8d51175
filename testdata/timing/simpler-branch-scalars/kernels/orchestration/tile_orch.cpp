// Two tile additions whose scale one branch or the other adds: each task
// passes one scalar, so its first row goes after the if / else.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_TILE_ADD 0

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = 3,
    };
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    for (int pass = 0; pass < 2; pass++) {
        CoreTaskArgs params;
        params.add_inout(orch_args.tensor(0).ref());
        params.add_input(orch_args.tensor(1).ref());
        if (pass == 0) {
            params.add_scalar(orch_args.scalar(0));
        } else {
            params.add_scalar(1.0F);
        }
        rt_submit_aiv_task(FUNC_TILE_ADD, params);
    }
}

}  // extern "C"
