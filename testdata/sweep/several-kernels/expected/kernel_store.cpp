// kernel_store.cpp - one step of a three-kernel vector pipeline, one tile per block.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void kernel_store(GM_ADDR x, GM_ADDR z)
{
#if 0  // TIMING_PROBE: T_BASE
	if (GetBlockIdx() == 0) {
		printf("[T_BASE] %lu\n", GetSystemCycle());
	}
#endif
	TPipe pipe;
#if 0  // TIMING_PROBE: STORE
	PipeBarrier<PIPE_ALL>();
	uint64_t probeStart_STORE = GetSystemCycle();
#endif
	RunSTOREStep(x, z);
#if 0  // TIMING_PROBE: STORE
	PipeBarrier<PIPE_ALL>();
	uint64_t probeEnd_STORE = GetSystemCycle();
	if (GetBlockIdx() == 0) {
		printf("[STORE] start=%lu end=%lu dur=%lu\n", probeStart_STORE, probeEnd_STORE, probeEnd_STORE - probeStart_STORE);
	}
#endif
}
