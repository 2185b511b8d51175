// copy_kernel.cpp - a direct-signature kernel whose host code launches it
// through a framework call the tool cannot see.
#include "kernel_api.h"

extern "C" __global__ __aicore__ void copy_rows(GM_ADDR src, GM_ADDR dst, uint32_t rows)
{
    __gm__ float *s = reinterpret_cast<__gm__ float *>(src);
    __gm__ float *d = reinterpret_cast<__gm__ float *>(dst);
    for (uint32_t i = 0; i < rows; i++) {
        d[i] = s[i];
    }
}
