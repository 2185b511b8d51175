// Scale a tile by a factor and add a bias row: out = in * factor + bias.
#include <cstdint>

#include "tensor.h"

static __aicore__ inline void scale_rows(__gm__ float *out, const __gm__ float *in, const __gm__ float *bias,
                                         float factor, int32_t n)
{
    for (int32_t i = 0; i < n; ++i) {
        out[i] = in[i] * factor + bias[i];
    }
}

extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t *args) {
    __gm__ ChipTensor *in_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ ChipTensor *bias_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
    __gm__ ChipTensor *out_t = reinterpret_cast<__gm__ ChipTensor *>(args[2]);
    __gm__ float *in = reinterpret_cast<__gm__ float *>(in_t->buffer.addr) + in_t->start_offset;
    __gm__ float *bias = reinterpret_cast<__gm__ float *>(bias_t->buffer.addr) + bias_t->start_offset;
    __gm__ float *out = reinterpret_cast<__gm__ float *>(out_t->buffer.addr) + out_t->start_offset;
    // a pointer-valued scalar: the host passes it with add_scalar
    __gm__ CommContext *ctx = reinterpret_cast<__gm__ CommContext *>(args[3]);
    float factor = static_cast<float>(args[4]);
    (void)ctx;

    int32_t n = get_block_num(args);
    int32_t i = get_block_idx(args);
    if (i >= n) {
        return;
    }
    scale_rows(out + i * 128, in + i * 128, bias, factor, 128);
}
