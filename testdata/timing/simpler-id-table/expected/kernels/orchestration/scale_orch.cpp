// Two scaling tasks after a copy: t0 copies (func 0), t1 and t2 scale (func 1);
// the ids are an enum, a constexpr and a table, as the test's kernel list.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

namespace {

enum class KernelId : int32_t { kCopy = 0, kScale = kCopy + 1 };

constexpr int32_t kScaleId = static_cast<int32_t>(KernelId::kScale);

const int32_t kTaskKernels[] = {static_cast<int32_t>(KernelId::kCopy), kScaleId, kScaleId};

}  // namespace

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = /* TIMING_PROBE: @timing-was "3" */4/* TIMING_PROBE: @timing-end */,
    };
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args) {
    const auto &pk_tt_timing = orch_args.tensor(3).ref();  // TIMING_PROBE: @timing external tensor 3
    uint64_t pk_tt_task = 0;  // TIMING_PROBE: @timing task counter
    const ChipTensor &ext_x = orch_args.tensor(0).ref();
    const ChipTensor &ext_bias = orch_args.tensor(1).ref();
    const ChipTensor &ext_y = orch_args.tensor(2).ref();

    uint32_t shapes[1] = {ext_x.shapes[0]};
    TensorCreateInfo ci(shapes, 1, DataType::FLOAT32);

    CoreTaskArgs params_t0;
    params_t0.add_input(ext_x);
    params_t0.add_output(ci);
    TaskOutputTensors outs_t0 = rt_submit_aiv_task(kTaskKernels[0], params_t0);
    const ChipTensor &copy = outs_t0.get_ref(0);

    CoreTaskArgs params_t1;
    params_t1.add_input(copy);
    params_t1.add_input(ext_bias);
    params_t1.add_inout(ext_y);
    params_t1.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[3])
    params_t1.add_scalar(static_cast<uint64_t>(0));
    params_t1.add_scalar(2.0f);
    params_t1.add_scalar(static_cast<uint64_t>(pk_tt_task));  // TIMING_PROBE: @timing launch scalars (args[6])
    pk_tt_task += 1;  // TIMING_PROBE: @timing the next task's first row
    rt_submit_aiv_task(kScaleId, params_t1);

    CoreTaskArgs params_t2;
    params_t2.add_scalar(static_cast<uint64_t>(0));
    params_t2.add_input(ext_y);
    params_t2.add_input(ext_bias);
    params_t2.add_inout(ext_y);
    params_t2.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[3])
    params_t2.add_scalar(0.5f);
    params_t2.add_scalar(static_cast<uint64_t>(pk_tt_task));  // TIMING_PROBE: @timing launch scalars (args[6])
    pk_tt_task += 1;  // TIMING_PROBE: @timing the next task's first row
    rt_submit_aiv_task(kTaskKernels[2], params_t2);
}

}  // extern "C"
