#include <cstdint>
#include "launch.h"

void run(float *x, float *y, int32_t n, float alpha, uint64_t seed, bool flag)
{
    int64_t alpha_bits = 0;
    __builtin_memcpy(&alpha_bits, &alpha, sizeof(alpha));
    int64_t args[6] = {
        reinterpret_cast<int64_t>(x),
        reinterpret_cast<int64_t>(y),
        n,
        alpha_bits,
        static_cast<int64_t>(seed),
        flag,
    };
    launch_kernel_entry(args, 8);
}
