// A mixed kernel whose first statement shares the line of its opening brace.
#include <cstdint>
#include "tensor.h"
extern "C" __global__ __aicore__ __mix__(1, 2) void kernel_entry(__gm__ int64_t *args) { __gm__ ChipTensor *a = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    int32_t n = static_cast<int32_t>(args[1]);
    (void)a;
    (void)n;
}
