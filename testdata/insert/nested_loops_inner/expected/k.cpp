#include "kernel_operator.h"
using namespace AscendC;

template <typename T> __aicore__ inline void Row(T r, T c) { (void)r; (void)c; }

__aicore__ inline void Grid(uint32_t rows, uint32_t cols)
{
    for (uint32_t r = 0; r < rows; r++) {
        for (uint32_t c = 0; c < cols; c++) {
#if 1  // TIMING_PROBE: CELL
            PipeBarrier<PIPE_ALL>();
            uint64_t probeStart_CELL = GetSystemCycle();
#endif
            Row(r, c);
#if 1  // TIMING_PROBE: CELL
            PipeBarrier<PIPE_ALL>();
            uint64_t probeEnd_CELL = GetSystemCycle();
            if (GetBlockIdx() == 0) {
                printf("[CELL] iter=%u start=%lu end=%lu dur=%lu\n", (unsigned)(c), probeStart_CELL, probeEnd_CELL, probeEnd_CELL - probeStart_CELL);
            }
#endif
        }
        Row(r, 0u);
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
