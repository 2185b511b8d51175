// tsort32_orch.cpp - the simpler-runtime orchestration of the TSORT32 entry
// (tsort32_entry.cpp), in the runtime's shape: a config naming how many
// arguments it expects, and an entry that reads its external tensors
// (dst, src, idx, work) from orch_args, builds the task's arguments (tensors
// first, in the entry's args[] order, then the scalars the kernel reads, taken
// from the tensors' shapes and type) and submits the kernel to the vector
// cores. The timing build's copy of this file is generated from it by
// probe-inject --timing-tensor --host.
#include <stddef.h>
#include <stdint.h>

#include "pto_orchestration_api.h"
#include "tsort32_tiling.h"

#define FUNC_TSORT32 0

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig
aicpu_orchestration_config(const ChipTaskArgs &orch_args)
{
	(void)orch_args;
	return PTO2OrchestrationConfig{
		.expected_arg_count = 4,
	};
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipTaskArgs &orch_args)
{
	const ChipTensor &ext_dst = orch_args.tensor(0).ref();
	const ChipTensor &ext_src = orch_args.tensor(1).ref();
	const ChipTensor &ext_idx = orch_args.tensor(2).ref();
	const ChipTensor &ext_work = orch_args.tensor(3).ref();

	// src is [rows, cols] of float or half; idx is [idxRows, cols]
	const uint32_t dtype = ext_src.dtype == DataType::FLOAT16 ? TSORT32_HALF : TSORT32_FLOAT;
	const int32_t rows = static_cast<int32_t>(ext_src.shapes[0]);
	const uint64_t cols = ext_src.shapes[1];
	const int64_t idxRows = ext_idx.shapes[0];

	CoreTaskArgs params;
	params.add_output(ext_dst);
	params.add_input(ext_src);
	params.add_input(ext_idx);
	params.add_output(ext_work);
	params.add_scalar(dtype);
	params.add_scalar(rows);
	params.add_scalar(cols);
	params.add_scalar(idxRows);
	rt_submit_aiv_task(FUNC_TSORT32, params);
}

} // extern "C"
