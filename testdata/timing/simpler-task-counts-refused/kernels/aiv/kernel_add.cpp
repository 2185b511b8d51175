// out = x + y * alpha on one tile per block. Reads args[0..2] (x, y, out)
// and the scale alpha at args[3]: in its task alone a scalar, but in the
// two-lane task args[3] is the multiply's first tensor.
#include <cstdint>

#include "tensor.h"

constexpr int32_t TILE_ELEMS = 16 * 16;

extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t *args) {
    __gm__ ChipTensor *x_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ ChipTensor *y_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
    __gm__ ChipTensor *out_t = reinterpret_cast<__gm__ ChipTensor *>(args[2]);
    __gm__ float *x = reinterpret_cast<__gm__ float *>(x_t->buffer.addr) + x_t->start_offset;
    __gm__ float *y = reinterpret_cast<__gm__ float *>(y_t->buffer.addr) + y_t->start_offset;
    __gm__ float *out = reinterpret_cast<__gm__ float *>(out_t->buffer.addr) + out_t->start_offset;
    float alpha = static_cast<float>(args[3]);
    int32_t base = get_block_idx(args) * TILE_ELEMS;
    for (int32_t i = 0; i < TILE_ELEMS; ++i) {
        out[base + i] = x[base + i] + y[base + i] * alpha;
    }
}
