#include "kernel_operator.h"
using namespace AscendC;

template <typename T> __aicore__ inline void Row(T r, T c) { (void)r; (void)c; }

__aicore__ inline void Grid(uint32_t rows, uint32_t cols)
{
    for (uint32_t r = 0; r < rows; r++) {
        for (uint32_t c = 0; c < cols; c++) {
            Row(r, c);
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
