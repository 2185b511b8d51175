#include "kernel_api.h"

static __aicore__ inline __attribute__((always_inline)) uint64_t pk_tt_read_cycle()  // TIMING_PROBE: @timing helper
{  // TIMING_PROBE: @timing helper
    return static_cast<uint64_t>(AscendC::GetSystemCycle());  // TIMING_PROBE: @timing helper
}  // TIMING_PROBE: @timing helper
static __aicore__ inline __attribute__((always_inline)) void pk_tt_tail(__gm__ int64_t *out, uint64_t v0, uint64_t v1, uint64_t v2, uint64_t v3, uint64_t v4, uint64_t v5, uint64_t v6, uint64_t v7, uint64_t v8, uint64_t v9, uint64_t v10)  // TIMING_PROBE: @timing helper
{  // TIMING_PROBE: @timing helper
    const uint64_t slot = static_cast<uint64_t>(AscendC::GetBlockIdx());  // TIMING_PROBE: @timing helper
    __gm__ int64_t *row = out + slot * 16;  // TIMING_PROBE: @timing helper
    row[0] = static_cast<int64_t>(v0);  // TIMING_PROBE: @timing helper
    row[1] = static_cast<int64_t>(v1);  // TIMING_PROBE: @timing helper
    row[2] = static_cast<int64_t>(v2);  // TIMING_PROBE: @timing helper
    row[3] = static_cast<int64_t>(v3);  // TIMING_PROBE: @timing helper
    row[4] = static_cast<int64_t>(v4);  // TIMING_PROBE: @timing helper
    row[5] = static_cast<int64_t>(v5);  // TIMING_PROBE: @timing helper
    row[6] = static_cast<int64_t>(v6);  // TIMING_PROBE: @timing helper
    row[7] = static_cast<int64_t>(v7);  // TIMING_PROBE: @timing helper
    row[8] = static_cast<int64_t>(v8);  // TIMING_PROBE: @timing helper
    row[9] = static_cast<int64_t>(v9);  // TIMING_PROBE: @timing helper
    row[10] = static_cast<int64_t>(v10);  // TIMING_PROBE: @timing helper
    row[15] = static_cast<int64_t>(0x54494D4500000000ULL + slot);  // TIMING_PROBE: @timing helper
    dcci(reinterpret_cast<__gm__ void *>(row + 0), cache_line_t::SINGLE_CACHE_LINE, dcci_dst_t::CACHELINE_OUT);  // TIMING_PROBE: @timing helper
    dcci(reinterpret_cast<__gm__ void *>(row + 8), cache_line_t::SINGLE_CACHE_LINE, dcci_dst_t::CACHELINE_OUT);  // TIMING_PROBE: @timing helper
}  // TIMING_PROBE: @timing helper
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y/* TIMING_PROBE: @timing-was "" */, GM_ADDR pk_tt_timing/* TIMING_PROBE: @timing-end */, int32_t n)
{
    uint64_t pk_tt_entry = pk_tt_read_cycle();  // TIMING_PROBE: @timing entry
    __gm__ int64_t *pk_tt_out = reinterpret_cast<__gm__ int64_t *>(pk_tt_timing);  // TIMING_PROBE: @timing tensor
    uint64_t pk_tt_ev_p1 = 0;  // TIMING_PROBE: @timing event local
    uint64_t pk_tt_ev_p2 = 0;  // TIMING_PROBE: @timing event local
    uint64_t pk_tt_ev_p3 = 0;  // TIMING_PROBE: @timing event local
    uint64_t pk_tt_ev_producer_done = 0;  // TIMING_PROBE: @timing event local
    uint64_t pk_tt_ev_collective_arrival = 0;  // TIMING_PROBE: @timing event local
    uint64_t pk_tt_ev_collective_release = 0;  // TIMING_PROBE: @timing event local
    uint64_t pk_tt_ev_c1 = 0;  // TIMING_PROBE: @timing event local
    uint64_t pk_tt_ev_c2 = 0;  // TIMING_PROBE: @timing event local
    uint64_t pk_tt_ev_drained = 0;  // TIMING_PROBE: @timing event local
    __gm__ float *xs = reinterpret_cast<__gm__ float *>(x);
    __gm__ float *ys = reinterpret_cast<__gm__ float *>(y);
    Produce(xs, n);
    pk_tt_ev_p1 = pk_tt_read_cycle();  // TIMING_PROBE: @timing event p1 (phase)
    Produce(xs, n);
    pk_tt_ev_p2 = pk_tt_read_cycle();  // TIMING_PROBE: @timing event p2 (phase)
    Produce(xs, n);
    pk_tt_ev_p3 = pk_tt_read_cycle();  // TIMING_PROBE: @timing event p3 (phase)
    Produce(xs, n);
    pk_tt_ev_producer_done = pk_tt_read_cycle();  // TIMING_PROBE: @timing event producer_done (phase)
    CrossCoreSetFlag(1);
    pk_tt_ev_collective_arrival = pk_tt_read_cycle();  // TIMING_PROBE: @timing event collective_arrival (arrival)
    CrossCoreWaitFlag(1);
    pk_tt_ev_collective_release = pk_tt_read_cycle();  // TIMING_PROBE: @timing event collective_release (release)
    Consume(ys, n);
    pk_tt_ev_c1 = pk_tt_read_cycle();  // TIMING_PROBE: @timing event c1 (phase)
    pk_tt_ev_c2 = pk_tt_read_cycle();  // TIMING_PROBE: @timing event c2 (issue)
    Consume(ys, n);
    pk_tt_ev_drained = pk_tt_read_cycle();  // TIMING_PROBE: @timing event drained (drain)
    pipe_barrier(PIPE_ALL);
    pk_tt_tail(pk_tt_out, pk_tt_entry, pk_tt_ev_p1, pk_tt_ev_p2, pk_tt_ev_p3, pk_tt_ev_producer_done, pk_tt_ev_collective_arrival, pk_tt_ev_collective_release, pk_tt_ev_c1, pk_tt_ev_c2, pk_tt_ev_drained, pk_tt_read_cycle());  // TIMING_PROBE: @timing tail
}
