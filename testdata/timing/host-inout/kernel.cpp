// an accumulating kernel: x is read, acc read and written in place, then the
// count; the host adds acc with add_inout, after the plain tensors
#include "kernel_api.h"

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
    __gm__ float *x = reinterpret_cast<__gm__ float *>(args[0]);
    __gm__ float *y = reinterpret_cast<__gm__ float *>(args[1]);
    __gm__ float *acc = reinterpret_cast<__gm__ float *>(args[2]);
    int32_t n = static_cast<int32_t>(args[3]);

    Produce(x, n);
    Consume(y, n);
    Consume(acc, n);
}
