// rms_scale.cpp - an operator kernel in the ops style: tensors, then the
// workspace and the tiling the framework passes last.
#include "kernel_api.h"

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
extern "C" __global__ __aicore__ void rms_scale(GM_ADDR x, GM_ADDR gamma, GM_ADDR y/* TIMING_PROBE: @timing-was "" */, GM_ADDR pk_tt_timing/* TIMING_PROBE: @timing-end */, GM_ADDR workspace,
                                                GM_ADDR tiling)
{
    uint64_t pk_tt_entry = pk_tt_read_cycle();  // TIMING_PROBE: @timing entry
    __gm__ int64_t *pk_tt_out = reinterpret_cast<__gm__ int64_t *>(pk_tt_timing);  // TIMING_PROBE: @timing tensor
    __gm__ float *xs = reinterpret_cast<__gm__ float *>(x);
    __gm__ float *gs = reinterpret_cast<__gm__ float *>(gamma);
    __gm__ float *ys = reinterpret_cast<__gm__ float *>(y);
    const uint32_t n = *reinterpret_cast<__gm__ uint32_t *>(tiling);
    for (uint32_t i = 0; i < n; i++) {
        ys[i] = xs[i] * gs[i];
    }
    pipe_barrier(PIPE_ALL);
    pk_tt_tail(pk_tt_out, pk_tt_entry, pk_tt_read_cycle());  // TIMING_PROBE: @timing tail
}
