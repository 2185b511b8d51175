// lanes_other_orch.cpp - the orchestration of lanes_cube.cpp and lanes_vec.cpp:
// one mixed task of two blocks whose cube lane runs lanes_cube.cpp (func 0)
// and whose two vector lanes run lanes_vec.cpp (func 1), passing one scalar.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_CUBE 0
#define FUNC_VEC 1

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args)
{
	(void)orch_args;
	return PTO2OrchestrationConfig{
		.expected_arg_count = 2,
	};
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args)
{
	const ChipTensor &ext_x = orch_args.tensor(0).ref();
	const ChipTensor &ext_y = orch_args.tensor(1).ref();
	const uint64_t len = ext_x.shapes[1];

	CoreTaskArgs params;
	params.add_input(ext_x);
	params.add_output(ext_y);
	params.add_scalar(len);
	params.launch_spec.set_block_num(2);
	MixedKernels mk = {FUNC_CUBE, FUNC_VEC, FUNC_VEC};
	rt_submit_task(mk, params);
}

} // extern "C"
