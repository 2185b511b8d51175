// The vector lanes of the mixed task: each sub-block scales half the score
// rows by 1/len (args[2], the task's scalar after its three tensors).
#include <cstdint>

#include "tensor.h"

extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t *args) {
    __gm__ ChipTensor *s_t = reinterpret_cast<__gm__ ChipTensor *>(args[2]);
    __gm__ float *s = reinterpret_cast<__gm__ float *>(s_t->buffer.addr) + s_t->start_offset;
    int64_t len = static_cast<int64_t>(args[3]);
    int32_t row = get_block_idx(args) * 2 + get_sub_block_id(args);
    s[row] = s[row] / static_cast<float>(len);
}
