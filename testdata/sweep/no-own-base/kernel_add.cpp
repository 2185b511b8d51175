// kernel_add.cpp - one step of a three-kernel vector pipeline, one tile per block.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void kernel_add(GM_ADDR x, GM_ADDR z)
{
	TPipe pipe;
#if 0  // TIMING_PROBE: ADD
	PipeBarrier<PIPE_ALL>();
	uint64_t probeStart_ADD = GetSystemCycle();
#endif
	RunADDStep(x, z);
#if 0  // TIMING_PROBE: ADD
	PipeBarrier<PIPE_ALL>();
	uint64_t probeEnd_ADD = GetSystemCycle();
	if (GetBlockIdx() == 0) {
		printf("[ADD] start=%lu end=%lu dur=%lu\n", probeStart_ADD, probeEnd_ADD, probeEnd_ADD - probeStart_ADD);
	}
#endif
}
