#include "kernel_api.h"

static void Warmup(__gm__ float *x)
{
    Produce(x, 0);
    Produce(x, 1);
}

static __aicore__ inline __attribute__((always_inline)) uint64_t pk_tt_read_cycle()  // TIMING_PROBE: @timing helper
{  // TIMING_PROBE: @timing helper
    return static_cast<uint64_t>(AscendC::GetSystemCycle());  // TIMING_PROBE: @timing helper
}  // TIMING_PROBE: @timing helper
static __aicore__ inline __attribute__((always_inline)) void pk_tt_tail(__gm__ int64_t *out, uint64_t v0, uint64_t v1, uint64_t v2, uint64_t v3)  // TIMING_PROBE: @timing helper
{  // TIMING_PROBE: @timing helper
    const uint64_t slot = static_cast<uint64_t>(AscendC::GetBlockIdx());  // TIMING_PROBE: @timing helper
    __gm__ int64_t *row = out + slot * 8;  // TIMING_PROBE: @timing helper
    row[0] = static_cast<int64_t>(v0);  // TIMING_PROBE: @timing helper
    row[1] = static_cast<int64_t>(v1);  // TIMING_PROBE: @timing helper
    row[2] = static_cast<int64_t>(v2);  // TIMING_PROBE: @timing helper
    row[3] = static_cast<int64_t>(v3);  // TIMING_PROBE: @timing helper
    row[7] = static_cast<int64_t>(0x54494D4500000000ULL + slot);  // TIMING_PROBE: @timing helper
    dcci(reinterpret_cast<__gm__ void *>(row + 0), cache_line_t::SINGLE_CACHE_LINE, dcci_dst_t::CACHELINE_OUT);  // TIMING_PROBE: @timing helper
}  // TIMING_PROBE: @timing helper
extern "C" __global__ __aicore__ void k(GM_ADDR x/* TIMING_PROBE: @timing-was "" */, GM_ADDR pk_tt_timing/* TIMING_PROBE: @timing-end */, int32_t n)
{
    uint64_t pk_tt_entry = pk_tt_read_cycle();  // TIMING_PROBE: @timing entry
    __gm__ int64_t *pk_tt_out = reinterpret_cast<__gm__ int64_t *>(pk_tt_timing);  // TIMING_PROBE: @timing tensor
    uint64_t pk_tt_ev_inner = 0;  // TIMING_PROBE: @timing event local
    uint64_t pk_tt_ev_second = 0;  // TIMING_PROBE: @timing event local
    for (int32_t i = 0; i < n; ++i) {
        if (i > 0) {
            pk_tt_ev_inner = pk_tt_read_cycle();  // TIMING_PROBE: @timing event inner (issue)
            Produce(reinterpret_cast<__gm__ float *>(x), i);
        }
        Consume(reinterpret_cast<__gm__ float *>(x), i);
    }
    Produce(reinterpret_cast<__gm__ float *>(x), n);
    pk_tt_ev_second = pk_tt_read_cycle();  // TIMING_PROBE: @timing event second (phase)
    pk_tt_tail(pk_tt_out, pk_tt_entry, pk_tt_ev_inner, pk_tt_ev_second, pk_tt_read_cycle());  // TIMING_PROBE: @timing tail
}
