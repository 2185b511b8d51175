#include "kernel_operator.h"
using namespace AscendC;

template <typename T> __aicore__ inline void Row(T r, T c) { (void)r; (void)c; }

__aicore__ inline void Grid(uint32_t rows, uint32_t cols)
{
    for (uint32_t r = 0; r < rows; r++) {
        for (uint32_t c = 0; c < cols; c++) {
            Row(r, c);
        }
#if 1  // TIMING_PROBE: ROW
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_ROW = GetSystemCycle();
#endif
        Row(r, 0u);
#if 1  // TIMING_PROBE: ROW
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_ROW = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[ROW] iter=%u start=%lu end=%lu dur=%lu\n", (unsigned)(r), probeStart_ROW, probeEnd_ROW, probeEnd_ROW - probeStart_ROW);
        }
#endif
    }
    uint32_t k = 0;
    while (k < rows) {
        Row(k, 1u);
        k += 2;
    }
    int idx = 0;
    int vals[3] = {1, 2, 3};
    for (int v : vals) {
        Row(v, idx);
    }
}
