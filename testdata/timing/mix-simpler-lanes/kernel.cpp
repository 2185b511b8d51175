// A mixed AIC+AIV kernel declared with the bisheng attribute, __aicore__ defined as [aicore].
#include <cstdint>
#include "tensor.h"
#ifndef __aicore__
#define __aicore__ [aicore]
#endif
extern "C" __global__ __aicore__ __mix__(1, 2) void kernel_entry(__gm__ int64_t *args) {
    __gm__ ChipTensor *a = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    int32_t n = static_cast<int32_t>(args[1]);
    (void)a;
    (void)n;
}
