// The norm's body, shared by the entries: tensors first, then the scalars.
#pragma once
#include <cstdint>

template <typename T>
static __aicore__ __attribute__((always_inline)) GM_ADDR tensor_data(__gm__ int64_t *args, int32_t index) {
    __gm__ PyPTORuntimeTensor *tensor = reinterpret_cast<__gm__ PyPTORuntimeTensor *>(args[index]);
    __gm__ T *data = reinterpret_cast<__gm__ T *>(tensor->buffer.addr) + tensor->start_offset;
    return reinterpret_cast<GM_ADDR>(data);
}

template <bool WithStats>
static __aicore__ __attribute__((always_inline)) void run_norm(__gm__ int64_t *args) {
    __gm__ float *x = reinterpret_cast<__gm__ float *>(tensor_data<float>(args, 0));
    __gm__ float *gamma = reinterpret_cast<__gm__ float *>(tensor_data<float>(args, 1));
    __gm__ float *out = reinterpret_cast<__gm__ float *>(tensor_data<float>(args, 2));
    // 4 tensors, so rows is args[4] and eps args[5]
    int32_t rows = static_cast<int32_t>(args[4]);
    float eps = static_cast<float>(args[5]);
    int32_t block = get_block_idx(args);
    for (int32_t r = block; r < rows; r += get_block_num(args)) {
        float s = eps;
        for (int32_t c = 0; c < 512; ++c) {
            s += x[r * 512 + c] * x[r * 512 + c];
        }
        for (int32_t c = 0; c < 512; ++c) {
            out[r * 512 + c] = x[r * 512 + c] * gamma[c] / s;
        }
    }
    if (WithStats) {
        __gm__ float *stats = reinterpret_cast<__gm__ float *>(tensor_data<float>(args, 3));
        stats[block] = eps;
    }
}
