// The vector lanes of a mixed task: out = x + y, each sub-block half a tile.
// Reads args[3..5] of the task (x, y, out); the cube lane reads args[0..2].
#include <cstdint>

#include "tensor.h"

constexpr int32_t TILE_ELEMS = 16 * 16;

extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t *args) {
    __gm__ ChipTensor *x_t = reinterpret_cast<__gm__ ChipTensor *>(args[3]);
    __gm__ ChipTensor *y_t = reinterpret_cast<__gm__ ChipTensor *>(args[4]);
    __gm__ ChipTensor *out_t = reinterpret_cast<__gm__ ChipTensor *>(args[5]);
    __gm__ float *x = reinterpret_cast<__gm__ float *>(x_t->buffer.addr) + x_t->start_offset;
    __gm__ float *y = reinterpret_cast<__gm__ float *>(y_t->buffer.addr) + y_t->start_offset;
    __gm__ float *out = reinterpret_cast<__gm__ float *>(out_t->buffer.addr) + out_t->start_offset;
    int32_t half = TILE_ELEMS / 2;
    int32_t base = get_block_idx(args) * TILE_ELEMS + get_sub_block_id(args) * half;
    for (int32_t i = 0; i < half; ++i) {
        out[base + i] = x[base + i] + y[base + i];
    }
}
