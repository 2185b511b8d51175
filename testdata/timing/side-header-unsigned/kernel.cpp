// pypto-style extern entry, its packed arguments unsigned, handing them to
// a reader in its header
#include "kernel_api.h"

extern "C" __aicore__ void kernel_entry(__gm__ uint64_t *args)
{
    __gm__ float *x = reinterpret_cast<__gm__ float *>(args[0]);
    __gm__ float *y = (__gm__ float *)args[1];
    int32_t n = static_cast<int32_t>(args[2]);
    float alpha = *reinterpret_cast<float *>(&args[3]);
    uint64_t seed = args[4];
    bool flag = args[5] != 0;
    int32_t m = packed_count(args);

    Produce(x, n + m);
    CrossCoreSetFlag(0);
    CrossCoreWaitFlag(0);
    if (flag && alpha > 0.0f && seed != 0) {
        Consume(y, n);
    }
}
