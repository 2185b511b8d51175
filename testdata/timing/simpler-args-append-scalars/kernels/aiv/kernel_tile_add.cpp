// Add one tile and a bias into the accumulator, scaled: acc[i] += (tile[i] + bias[i]) * scale.
#include <cstdint>

#include "tensor.h"

extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t *args) {
    __gm__ ChipTensor *acc_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ ChipTensor *tile_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
    __gm__ ChipTensor *bias_t = reinterpret_cast<__gm__ ChipTensor *>(args[2]);
    __gm__ float *acc = reinterpret_cast<__gm__ float *>(acc_t->buffer.addr) + acc_t->start_offset;
    __gm__ float *tile = reinterpret_cast<__gm__ float *>(tile_t->buffer.addr) + tile_t->start_offset;
    __gm__ float *bias = reinterpret_cast<__gm__ float *>(bias_t->buffer.addr) + bias_t->start_offset;
    float scale = static_cast<float>(args[3]);

    int32_t blocks = get_block_num(args);
    int32_t block = get_block_idx(args);
    int32_t per = 128 / blocks;
    for (int32_t i = block * per; i < (block + 1) * per; ++i) {
        acc[i] += (tile[i] + bias[i]) * scale;
    }
}
