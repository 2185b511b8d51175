// A kernel whose CPU build prints through <cstdio>: the prelude's printf
// and the C library's are one function, so nothing here fails to parse.
#include <cstdio>
#include "kernel_operator.h"

using namespace AscendC;

__aicore__ inline void Report(int64_t blk, int64_t cycles)
{
    char line[64];
    std::snprintf(line, sizeof(line), "blk %lld", static_cast<long long>(blk));
    printf("%s took %lld\n", line, static_cast<long long>(cycles));
    std::fflush(stdout);
}

extern "C" __global__ __aicore__ void kern(GM_ADDR out)
{
    int64_t blk = GetBlockIdx();
    pipe_barrier(PIPE_ALL);
#if 1  // TIMING_PROBE: REPORT
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_REPORT = GetSystemCycle();
#endif
    Report(blk, 0);
#if 1  // TIMING_PROBE: REPORT
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_REPORT = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[REPORT] start=%lu end=%lu dur=%lu\n", probeStart_REPORT, probeEnd_REPORT, probeEnd_REPORT - probeStart_REPORT);
    }
#endif
}
