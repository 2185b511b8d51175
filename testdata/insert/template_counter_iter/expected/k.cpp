#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(const int *p) { (void)p; }

template <typename T>
__aicore__ inline void Run(const int *b, const int *e, T n)
{
    for (const int *p = b; p != e; ++p) {
        Work(p);
    }
    for (T i = 0; i < n; ++i) {
#if 1  // TIMING_PROBE: TPL
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_TPL = GetSystemCycle();
#endif
        Work(b);
#if 1  // TIMING_PROBE: TPL
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_TPL = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[TPL] iter=%u start=%lu end=%lu dur=%lu\n", (unsigned)(i), probeStart_TPL, probeEnd_TPL, probeEnd_TPL - probeStart_TPL);
        }
#endif
    }
}
