// Add a per-row bias to one block of rows: out[r][c] = in[r][c] + bias[r].
#include <cstdint>

#include "tensor.h"

extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t *args) {
    __gm__ ChipTensor *in_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ ChipTensor *bias_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
    __gm__ ChipTensor *out_t = reinterpret_cast<__gm__ ChipTensor *>(args[2]);
    __gm__ float *in = reinterpret_cast<__gm__ float *>(in_t->buffer.addr) + in_t->start_offset;
    __gm__ float *bias = reinterpret_cast<__gm__ float *>(bias_t->buffer.addr) + bias_t->start_offset;
    __gm__ float *out = reinterpret_cast<__gm__ float *>(out_t->buffer.addr) + out_t->start_offset;
    int32_t rows = static_cast<int32_t>(args[3]);
    int32_t cols = static_cast<int32_t>(args[4]);

    for (int32_t r = 0; r < rows; ++r) {
        for (int32_t c = 0; c < cols; ++c) {
            out[r * cols + c] = in[r * cols + c] + bias[r];
        }
    }
}
