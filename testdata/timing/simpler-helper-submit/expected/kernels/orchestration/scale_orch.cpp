// Two scaling tasks after a copy: t0 copies (func 0), t1 and t2 scale (func 1),
// each submitted by a helper that receives the kernel id and the tensors.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_COPY 0
#define FUNC_SCALE 1

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args) {
    (void)orch_args;
    return PTO2OrchestrationConfig{
        .expected_arg_count = /* TIMING_PROBE: @timing-was "3" */4/* TIMING_PROBE: @timing-end */,
    };
}

static void submit_scale(int32_t kernel_id, const ChipTensor &in, const ChipTensor &bias, const ChipTensor &out,
                         float factor/* TIMING_PROBE: @timing-was "" */, const ChipTensor &pk_tt_timing, uint64_t &pk_tt_task/* TIMING_PROBE: @timing-end */) {
    CoreTaskArgs args;
    args.add_input(in);
    args.add_input(bias);
    args.add_inout(out);
    args.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[3])
    args.add_scalar(static_cast<uint64_t>(0));
    args.add_scalar(factor);
    args.add_scalar(static_cast<uint64_t>(pk_tt_task));  // TIMING_PROBE: @timing launch scalars (args[6])
    pk_tt_task += 1;  // TIMING_PROBE: @timing the next task's first row
    rt_submit_aiv_task(kernel_id, args);
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
    TaskOutputTensors outs_t0 = rt_submit_aiv_task(FUNC_COPY, params_t0);
    const ChipTensor &copy = outs_t0.get_ref(0);

    submit_scale(FUNC_SCALE, copy, ext_bias, ext_y, 2.0f/* TIMING_PROBE: @timing-was "" */, pk_tt_timing, pk_tt_task/* TIMING_PROBE: @timing-end */);
    submit_scale(FUNC_SCALE, ext_y, ext_bias, ext_y, 0.5f/* TIMING_PROBE: @timing-was "" */, pk_tt_timing, pk_tt_task/* TIMING_PROBE: @timing-end */);
}

}  // extern "C"
