/* kernel_tiling/kernel_tiling.h - probekit's parse stub for the header the
 * build generates: the tiling structs the library APIs take. Parse-only. */
#ifndef PROBEKIT_STUB_KERNEL_TILING_H
#define PROBEKIT_STUB_KERNEL_TILING_H
#include "kernel_operator.h"

struct TCubeTiling {
	int32_t usedCoreNum, M, N, Ka, Kb, singleCoreM, singleCoreN, singleCoreK, baseM, baseN, baseK, depthA1,
	    depthB1, stepM, stepN, stepKa, stepKb, isBias, transLength, iterateOrder, shareMode, shareL1Size,
	    shareL0CSize, shareUbSize, batchM, batchN, singleBatchM, singleBatchN, dbL0A, dbL0B, dbL0C;
};
struct SoftMaxTiling {
	uint32_t srcM, srcK, srcSize, outMaxM, outMaxK, outMaxSize, splitM, splitK, splitSize, reduceM, reduceK,
	    reduceSize, rangeM, tailM, tailSplitSize, tailReduceSize;
};
#endif
