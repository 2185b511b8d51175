// Add one tile into the accumulator: acc += tile, one task per (group, k) tile.
#include <cstdint>

#include "tensor.h"

extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t *args) {
    __gm__ ChipTensor *acc_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ ChipTensor *tile_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
    __gm__ float *acc = reinterpret_cast<__gm__ float *>(acc_t->buffer.addr) + acc_t->start_offset;
    __gm__ float *tile = reinterpret_cast<__gm__ float *>(tile_t->buffer.addr) + tile_t->start_offset;
    int32_t n = static_cast<int32_t>(args[2]);

    for (int32_t i = 0; i < n; ++i) {
        acc[i] += tile[i];
    }
}
