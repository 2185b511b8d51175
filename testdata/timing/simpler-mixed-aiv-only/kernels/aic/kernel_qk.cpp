// The cube half of a mixed task: q x k^T into a score tile.
#include <cstdint>

#include "tensor.h"

extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t *args) {
    __gm__ ChipTensor *q_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ ChipTensor *k_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
    __gm__ ChipTensor *s_t = reinterpret_cast<__gm__ ChipTensor *>(args[2]);
    __gm__ float *q = reinterpret_cast<__gm__ float *>(q_t->buffer.addr) + q_t->start_offset;
    __gm__ float *k = reinterpret_cast<__gm__ float *>(k_t->buffer.addr) + k_t->start_offset;
    __gm__ float *s = reinterpret_cast<__gm__ float *>(s_t->buffer.addr) + s_t->start_offset;
    int64_t len = static_cast<int64_t>(args[3]);
    int32_t row = get_block_idx(args);
    float acc = 0.0f;
    for (int64_t i = 0; i < len; ++i) {
        acc += q[row * len + i] * k[i];
    }
    s[row] = acc;
}
