// A template vector kernel with a direct signature.
#include "kernel_api.h"
#ifndef __vector__
#define __vector__
#endif

static __aicore__ inline __attribute__((always_inline)) uint64_t pk_tt_read_cycle()  // TIMING_PROBE: @timing helper
{  // TIMING_PROBE: @timing helper
    return static_cast<uint64_t>(AscendC::GetSystemCycle());  // TIMING_PROBE: @timing helper
}  // TIMING_PROBE: @timing helper
static __aicore__ inline __attribute__((always_inline)) void pk_tt_tail(__gm__ int64_t *out, uint64_t v0, uint64_t v1)  // TIMING_PROBE: @timing helper
{  // TIMING_PROBE: @timing helper
    const uint64_t slot = static_cast<uint64_t>(AscendC::GetBlockIdx());  // TIMING_PROBE: @timing helper
    __gm__ int64_t *row = out + slot * 8;  // TIMING_PROBE: @timing helper
    row[0] = static_cast<int64_t>(v0);  // TIMING_PROBE: @timing helper
    row[1] = static_cast<int64_t>(v1);  // TIMING_PROBE: @timing helper
    row[7] = static_cast<int64_t>(0x54494D4500000000ULL + slot);  // TIMING_PROBE: @timing helper
    dcci(reinterpret_cast<__gm__ void *>(row + 0), cache_line_t::SINGLE_CACHE_LINE, dcci_dst_t::CACHELINE_OUT);  // TIMING_PROBE: @timing helper
}  // TIMING_PROBE: @timing helper
template <typename T>
__global__ __aicore__ __vector__ void scale_kernel(GM_ADDR x, GM_ADDR y/* TIMING_PROBE: @timing-was "" */, GM_ADDR pk_tt_timing/* TIMING_PROBE: @timing-end */, uint32_t n)
{
    uint64_t pk_tt_entry = pk_tt_read_cycle();  // TIMING_PROBE: @timing entry
    __gm__ int64_t *pk_tt_out = reinterpret_cast<__gm__ int64_t *>(pk_tt_timing);  // TIMING_PROBE: @timing tensor
    __gm__ T *xp = reinterpret_cast<__gm__ T *>(x);
    __gm__ T *yp = reinterpret_cast<__gm__ T *>(y);
    for (uint32_t i = 0; i < n; ++i) {
        yp[i] = xp[i] * static_cast<T>(2);
    }
    pk_tt_tail(pk_tt_out, pk_tt_entry, pk_tt_read_cycle());  // TIMING_PROBE: @timing tail
}

template __global__ __aicore__ __vector__ void scale_kernel<float>(GM_ADDR x, GM_ADDR y/* TIMING_PROBE: @timing-was "" */, GM_ADDR pk_tt_timing/* TIMING_PROBE: @timing-end */, uint32_t n);
