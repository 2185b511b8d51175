// lanes_helper_orch.cpp - the orchestration of lanes_scale.cpp through a
// helper that receives the kernel id and the block count: y = x * 2 on four
// blocks, then z = x * 3 on two (a later task on fewer blocks).
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_SCALE 0

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args)
{
	(void)orch_args;
	return PTO2OrchestrationConfig{
		.expected_arg_count = 3,
	};
}

static void submit_scale(int32_t kernel_id, const ChipTensor &in, const ChipTensor &out, float factor,
			 int16_t blocks)
{
	CoreTaskArgs args;
	args.add_input(in);
	args.add_output(out);
	args.add_scalar(factor);
	args.launch_spec.set_block_num(blocks);
	rt_submit_aiv_task(kernel_id, args);
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args)
{
	const ChipTensor &ext_x = orch_args.tensor(0).ref();
	const ChipTensor &ext_y = orch_args.tensor(1).ref();
	const ChipTensor &ext_z = orch_args.tensor(2).ref();
	submit_scale(FUNC_SCALE, ext_x, ext_y, 2.0f, 4);
	submit_scale(FUNC_SCALE, ext_x, ext_z, 3.0f, 2);
}

} // extern "C"
