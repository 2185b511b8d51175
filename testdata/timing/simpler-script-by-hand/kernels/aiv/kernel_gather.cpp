// Gather rows of a table by index: out[r] = table[idx[r]], one row per block.
#include <cstdint>

#include "tensor.h"

static __aicore__ inline void copy_row(__gm__ float *dst, const __gm__ float *src, int32_t width)
{
    for (int32_t c = 0; c < width; ++c) {
        dst[c] = src[c];
    }
}

extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t *args) {
    __gm__ ChipTensor *table_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ ChipTensor *idx_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
    __gm__ ChipTensor *out_t = reinterpret_cast<__gm__ ChipTensor *>(args[2]);
    __gm__ float *table = reinterpret_cast<__gm__ float *>(table_t->buffer.addr) + table_t->start_offset;
    __gm__ int32_t *idx = reinterpret_cast<__gm__ int32_t *>(idx_t->buffer.addr) + idx_t->start_offset;
    __gm__ float *out = reinterpret_cast<__gm__ float *>(out_t->buffer.addr) + out_t->start_offset;
    int32_t width = static_cast<int32_t>(args[3]);

    int32_t r = get_block_idx(args);
    if (r >= get_block_num(args)) {
        return;
    }
    copy_row(out + r * width, table + idx[r] * width, width);
}
