// lanes_mix_orch.cpp - the orchestration of lanes_mix.cpp: one mixed task of
// two blocks whose cube lane runs the AIC build (func 0) and whose two
// vector lanes run the AIV build (func 1) of the same source.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"

#define FUNC_MIX_AIC 0
#define FUNC_MIX_AIV 1

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
	MixedKernels mk = {FUNC_MIX_AIC, FUNC_MIX_AIV, FUNC_MIX_AIV};
	rt_submit_task(mk, params);
}

} // extern "C"
