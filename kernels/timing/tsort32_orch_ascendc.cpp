// tsort32_orch_ascendc.cpp - the orchestration of the raw-address TSORT32
// entry (tsort32_entry_ascendc.cpp), on the pkorch task builder: tensors
// first, in the entry's args[] order, then scalars. The timing build's copy of this file is generated from it by
// probe-inject --timing-tensor --host.
#include "tsort32_orch_ascendc.h"

void Tsort32Orchestrate(pkorch::Task &task, const Tsort32Buffers &buf, const Tsort32Scalars &s, uint32_t blockDim,
			const Tsort32Launch &launch)
{
	(void)blockDim; // the timing build sizes its tensor by it (one slot per block)
	(void)launch;   // timing builds with --generation / --invocation pass its fields
	task.add_output(buf.dst);
	task.add_input(buf.src);
	task.add_input(buf.idx);
	task.add_output(buf.work);
	task.add_scalar(s.dtype);
	task.add_scalar(s.rows);
	task.add_scalar(s.cols);
	task.add_scalar(s.idxRows);
}
