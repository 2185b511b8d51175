// Two tile additions; the second is predicated on a gate tensor the
// scheduler reads when the task is ready: a run whose gate is 0 skips it.
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
    const ChipTensor &ext_acc = orch_args.tensor(0).ref();
    const ChipTensor &ext_tile = orch_args.tensor(1).ref();
    const uint64_t mode = orch_args.scalar(0);

    (void)mode;
    CoreTaskArgs first;
    first.add_inout(ext_acc);
    first.add_input(ext_tile);
    first.add_scalar(static_cast<uint64_t>(128));
    rt_submit_aiv_task(FUNC_TILE_ADD, first);

    CoreTaskArgs gated;
    gated.add_inout(ext_acc);
    gated.add_input(ext_tile);
    gated.add_scalar(static_cast<uint64_t>(64));
    CoreTaskPredicate pred;
    pred.operand.tensor = &ext_tile;
    pred.op = PredicateOp::GT;
    gated.set_predicate(pred);
    rt_submit_aiv_task(FUNC_TILE_ADD, gated);
}

}  // extern "C"
