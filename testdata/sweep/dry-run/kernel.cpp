// add_relu_kernel.cpp - element-wise add then ReLU, one tile per block.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t kTile = 256;

extern "C" __global__ __aicore__ void add_relu(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
#if 0  // TIMING_PROBE: T_BASE
	if (GetBlockIdx() == 0) {
		printf("[T_BASE] %lu\n", GetSystemCycle());
	}
#endif
	TPipe pipe;
	GlobalTensor<float> xGm, yGm, zGm;
	xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * kTile, kTile);
	yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * kTile, kTile);
	zGm.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * kTile, kTile);
	TBuf<TPosition::VECCALC> buf;
	pipe.InitBuffer(buf, 3 * kTile * sizeof(float));
	LocalTensor<float> xLocal = buf.Get<float>();
	LocalTensor<float> yLocal = xLocal[kTile];
	LocalTensor<float> zLocal = xLocal[2 * kTile];

#if 0  // TIMING_PROBE: LOAD
	PipeBarrier<PIPE_ALL>();
	uint64_t probeStart_LOAD = GetSystemCycle();
#endif
	DataCopy(xLocal, xGm, kTile);
	DataCopy(yLocal, yGm, kTile);
	SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
	WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
#if 0  // TIMING_PROBE: LOAD
	PipeBarrier<PIPE_ALL>();
	uint64_t probeEnd_LOAD = GetSystemCycle();
	if (GetBlockIdx() == 0) {
		printf("[LOAD] start=%lu end=%lu dur=%lu\n", probeStart_LOAD, probeEnd_LOAD, probeEnd_LOAD - probeStart_LOAD);
	}
#endif

#if 0  // TIMING_PROBE: COMPUTE
	PipeBarrier<PIPE_ALL>();
	uint64_t probeStart_COMPUTE = GetSystemCycle();
#endif
	Add(zLocal, xLocal, yLocal, kTile);
	Relu(zLocal, zLocal, kTile);
	SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
	WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
#if 0  // TIMING_PROBE: COMPUTE
	PipeBarrier<PIPE_ALL>();
	uint64_t probeEnd_COMPUTE = GetSystemCycle();
	if (GetBlockIdx() == 0) {
		printf("[COMPUTE] start=%lu end=%lu dur=%lu\n", probeStart_COMPUTE, probeEnd_COMPUTE,
		       probeEnd_COMPUTE - probeStart_COMPUTE);
	}
#endif
	DataCopy(zGm, zLocal, kTile);
}
