// tsort32_orch_ascendc.h - what the pkorch TSORT32 orchestration
// (tsort32_orch_ascendc.cpp) takes. Host code only.
#ifndef TSORT32_ORCH_ASCENDC_H
#define TSORT32_ORCH_ASCENDC_H

#include <cstdint>

#include "orchestration.h"

struct Tsort32Buffers {
	pkorch::Tensor dst, src, idx, work;
};

// Scalars of several types, as an extern ABI carries them.
struct Tsort32Scalars {
	uint32_t dtype;   // Tsort32Dtype
	int32_t rows;
	uint64_t cols;
	int64_t idxRows;
};

// What a launch knows about itself, for timing builds made with
// --generation / --invocation (the clean kernel takes neither).
struct Tsort32Launch {
	uint64_t generation = 0; // this launch's generation id (tells stale rows)
	uint32_t invocation = 0; // which of the concurrent invocations
};

void Tsort32Orchestrate(pkorch::Task &task, const Tsort32Buffers &buf, const Tsort32Scalars &s, uint32_t blockDim,
			const Tsort32Launch &launch);

#endif
