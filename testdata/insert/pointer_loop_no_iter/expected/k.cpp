#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(const int *p) { (void)p; }

template <typename T>
__aicore__ inline void Run(const int *b, const int *e, T n)
{
    for (const int *p = b; p != e; ++p) {
#if 1  // TIMING_PROBE: PTR
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_PTR = GetSystemCycle();
#endif
        Work(p);
#if 1  // TIMING_PROBE: PTR
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_PTR = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[PTR] start=%lu end=%lu dur=%lu\n", probeStart_PTR, probeEnd_PTR, probeEnd_PTR - probeStart_PTR);
        }
#endif
    }
    for (T i = 0; i < n; ++i) {
        Work(b);
    }
}
