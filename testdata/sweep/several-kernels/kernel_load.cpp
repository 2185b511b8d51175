// kernel_load.cpp - one step of a three-kernel vector pipeline, one tile per block.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void kernel_load(GM_ADDR x, GM_ADDR z)
{
#if 0  // TIMING_PROBE: T_BASE
	if (GetBlockIdx() == 0) {
		printf("[T_BASE] %lu\n", GetSystemCycle());
	}
#endif
	TPipe pipe;
#if 0  // TIMING_PROBE: LOAD
	PipeBarrier<PIPE_ALL>();
	uint64_t probeStart_LOAD = GetSystemCycle();
#endif
	RunLOADStep(x, z);
#if 0  // TIMING_PROBE: LOAD
	PipeBarrier<PIPE_ALL>();
	uint64_t probeEnd_LOAD = GetSystemCycle();
	if (GetBlockIdx() == 0) {
		printf("[LOAD] start=%lu end=%lu dur=%lu\n", probeStart_LOAD, probeEnd_LOAD, probeEnd_LOAD - probeStart_LOAD);
	}
#endif
}
