// calib_kernel.cpp - probe-overhead calibration (docs/method.md): every block takes
// back-to-back cycle reads, many times, and stores each pair's difference.
// The cost and the spread of one read are what each timing sample adds.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void calib_kernel(GM_ADDR out, GM_ADDR params)
{
	const int64_t samples = *reinterpret_cast<__gm__ const int64_t *>(params);
	__gm__ int64_t *mine = reinterpret_cast<__gm__ int64_t *>(out) + AscendC::GetBlockIdx() * samples;
	for (int64_t i = 0; i < samples; i++) {
		const int64_t a = AscendC::GetSystemCycle();
		const int64_t b = AscendC::GetSystemCycle();
		mine[i] = b - a;
	}
}
