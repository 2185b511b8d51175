// BLOCKS row blocks, one bias task each: every task adds its rows' bias.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_ROW_BIAS 0

static constexpr int BLOCKS = 4;
static constexpr int ROWS = 16;
static constexpr int COLS = 64;

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
    const ChipTensor &ext_in = orch_args.tensor(0).ref();
    const ChipTensor &ext_bias = orch_args.tensor(1).ref();
    const ChipTensor &ext_out = orch_args.tensor(2).ref();
    uint32_t block_shape[1] = {ROWS * COLS};
    uint32_t bias_shape[1] = {ROWS};

    for (int b = 0; b < BLOCKS; ++b) {
        uint32_t block_offsets[1] = {static_cast<uint32_t>(b * ROWS * COLS)};
        uint32_t bias_offsets[1] = {static_cast<uint32_t>(b * ROWS)};
        ChipTensor in_view = ext_in.view(block_shape, block_offsets);
        ChipTensor bias_view = ext_bias.view(bias_shape, bias_offsets);
        ChipTensor out_view = ext_out.view(block_shape, block_offsets);
        CoreTaskArgs params;
        params.add_input(in_view);
        params.add_input(bias_view);
        params.add_output(out_view);
        params.add_output(pk_tt_timing);  // TIMING_PROBE: @timing output (args[3])
        params.add_scalar(static_cast<uint64_t>(ROWS));
        params.add_scalar(static_cast<uint64_t>(COLS));
        params.add_scalar(static_cast<uint64_t>(pk_tt_task));  // TIMING_PROBE: @timing launch scalars (args[6])
        pk_tt_task += 1;  // TIMING_PROBE: @timing the next task's first row
        rt_submit_aiv_task(FUNC_ROW_BIAS, params);
    }
}

}  // extern "C"
