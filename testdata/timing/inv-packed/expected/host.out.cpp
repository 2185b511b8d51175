#include <cstdint>
#include "launch.h"

void run(float *x, float *y, int32_t n, float alpha, uint64_t seed, bool flag)
{
    int64_t alpha_bits = 0;
    __builtin_memcpy(&alpha_bits, &alpha, sizeof(alpha));
    std::vector<int64_t> pk_tt_timing(static_cast<size_t>((8) * (n_inv)) * 8);  // TIMING_PROBE: @timing tensor
    int64_t args[/* TIMING_PROBE: @timing-was "6" */8/* TIMING_PROBE: @timing-end */] = {
        reinterpret_cast<int64_t>(x),
        reinterpret_cast<int64_t>(y)/* TIMING_PROBE: @timing-was "" */, reinterpret_cast<int64_t>(pk_tt_timing.data())/* TIMING_PROBE: @timing-end */,
        n,
        alpha_bits,
        static_cast<int64_t>(seed),
        flag/* TIMING_PROBE: @timing-was "" */, static_cast<int64_t>((inv) * (8))/* TIMING_PROBE: @timing-end */,
    };
    launch_kernel_entry(args, 8);
}
