#include "kernel_api.h"

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
    __gm__ float *x = reinterpret_cast<__gm__ float *>(args[0]);
    int32_t n = static_cast<int32_t>(args[1]);
    if (n <= 0)
        return;
    if (AscendC::GetBlockIdx() >= n) {
        return;
    }
    auto twice = [](int32_t v) { return v * 2; };
    for (int32_t i = 0; i < twice(n); i++) {
        if (i == 3) return;
    }
    Produce(x, n);
}
