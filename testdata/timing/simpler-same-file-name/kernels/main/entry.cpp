// The main stage: y = x + 1, one row a block.
#include <cstdint>

#include "tensor.h"

extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t *args) {
    __gm__ ChipTensor *x_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ ChipTensor *y_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
    __gm__ float *x = reinterpret_cast<__gm__ float *>(x_t->buffer.addr) + x_t->start_offset;
    __gm__ float *y = reinterpret_cast<__gm__ float *>(y_t->buffer.addr) + y_t->start_offset;
    int32_t i = get_block_idx(args);
    y[i] = x[i] + 1.0f;
}
