// pypto-style extern entry: tensors first, then scalars of several types
#include "kernel_api.h"

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
    __gm__ float *x = reinterpret_cast<__gm__ float *>(args[0]);
    __gm__ float *y = (__gm__ float *)args[1];
    int32_t n = static_cast<int32_t>(args[2]);
    float alpha = *reinterpret_cast<float *>(&args[3]);
    uint64_t seed = args[4];
    bool flag = args[5] != 0;

    Produce(x, n);
    CrossCoreSetFlag(0);
    CrossCoreWaitFlag(0);
    if (flag && alpha > 0.0f && seed != 0) {
        Consume(y, n);
    }
}
