// A template vector kernel with a direct signature.
#include "kernel_api.h"
#ifndef __vector__
#define __vector__
#endif

template <typename T>
__global__ __aicore__ __vector__ void scale_kernel(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    __gm__ T *xp = reinterpret_cast<__gm__ T *>(x);
    __gm__ T *yp = reinterpret_cast<__gm__ T *>(y);
    for (uint32_t i = 0; i < n; ++i) {
        yp[i] = xp[i] * static_cast<T>(2);
    }
}

template __global__ __aicore__ __vector__ void scale_kernel<float>(GM_ADDR x, GM_ADDR y, uint32_t n);
