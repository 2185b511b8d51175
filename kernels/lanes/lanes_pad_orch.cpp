// lanes_pad_orch.cpp - two tasks of lanes_double.cpp passing it different
// tensor counts: the first adds a third tensor the kernel never reads (a
// task shape shared with another kernel) and runs on two blocks, the second
// only x and z on one block, its last add right before its submit.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_DOUBLE 0

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args)
{
	(void)orch_args;
	return PTO2OrchestrationConfig{
		.expected_arg_count = 3,
	};
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args)
{
	const ChipTensor &ext_x = orch_args.tensor(0).ref();
	const ChipTensor &ext_y = orch_args.tensor(1).ref();
	const ChipTensor &ext_z = orch_args.tensor(2).ref();

	CoreTaskArgs wide;
	wide.add_input(ext_x);
	wide.add_output(ext_y);
	wide.add_input(ext_z);
	wide.launch_spec.set_block_num(2);
	rt_submit_aiv_task(FUNC_DOUBLE, wide);

	CoreTaskArgs narrow;
	narrow.add_input(ext_x);
	narrow.add_output(ext_z);
	rt_submit_aiv_task(FUNC_DOUBLE, narrow);
}

} // extern "C"
