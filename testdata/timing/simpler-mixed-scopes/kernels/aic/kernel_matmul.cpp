// The cube lane of a mixed task: c = a x b on one tile per block.
// Reads args[0..2] of the task (a, b, c); the vector lane reads args[3..5].
#include <cstdint>

#include "tensor.h"

constexpr int32_t TILE = 16;

extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t *args) {
    __gm__ ChipTensor *a_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ ChipTensor *b_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
    __gm__ ChipTensor *c_t = reinterpret_cast<__gm__ ChipTensor *>(args[2]);
    __gm__ float *a = reinterpret_cast<__gm__ float *>(a_t->buffer.addr) + a_t->start_offset;
    __gm__ float *b = reinterpret_cast<__gm__ float *>(b_t->buffer.addr) + b_t->start_offset;
    __gm__ float *c = reinterpret_cast<__gm__ float *>(c_t->buffer.addr) + c_t->start_offset;
    int32_t tile = get_block_idx(args);
    for (int32_t i = 0; i < TILE; ++i) {
        for (int32_t j = 0; j < TILE; ++j) {
            float acc = 0.0f;
            for (int32_t k = 0; k < TILE; ++k) {
                acc += a[tile * TILE * TILE + i * TILE + k] * b[k * TILE + j];
            }
            c[tile * TILE * TILE + i * TILE + j] = acc;
        }
    }
}
