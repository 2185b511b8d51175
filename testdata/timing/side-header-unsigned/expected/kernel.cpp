// pypto-style extern entry, its packed arguments unsigned, handing them to
// a reader in its header
#include "kernel_api.h"

static __aicore__ inline __attribute__((always_inline)) uint64_t pk_tt_read_cycle()  // TIMING_PROBE: @timing helper
{  // TIMING_PROBE: @timing helper
    return static_cast<uint64_t>(AscendC::GetSystemCycle());  // TIMING_PROBE: @timing helper
}  // TIMING_PROBE: @timing helper
static __aicore__ inline __attribute__((always_inline)) void pk_tt_tail(__gm__ int64_t *out, uint64_t v0, uint64_t v1, uint64_t v2, uint64_t v3, uint64_t v4)  // TIMING_PROBE: @timing helper
{  // TIMING_PROBE: @timing helper
    const uint64_t slot = static_cast<uint64_t>(AscendC::GetBlockIdx());  // TIMING_PROBE: @timing helper
    __gm__ int64_t *row = out + slot * 8;  // TIMING_PROBE: @timing helper
    row[0] = static_cast<int64_t>(v0);  // TIMING_PROBE: @timing helper
    row[1] = static_cast<int64_t>(v1);  // TIMING_PROBE: @timing helper
    row[2] = static_cast<int64_t>(v2);  // TIMING_PROBE: @timing helper
    row[3] = static_cast<int64_t>(v3);  // TIMING_PROBE: @timing helper
    row[4] = static_cast<int64_t>(v4);  // TIMING_PROBE: @timing helper
    row[7] = static_cast<int64_t>(0x54494D4500000000ULL + slot);  // TIMING_PROBE: @timing helper
    dcci(reinterpret_cast<__gm__ void *>(row + 0), cache_line_t::SINGLE_CACHE_LINE, dcci_dst_t::CACHELINE_OUT);  // TIMING_PROBE: @timing helper
}  // TIMING_PROBE: @timing helper
extern "C" __aicore__ void kernel_entry(__gm__ uint64_t *args)
{
    uint64_t pk_tt_entry = pk_tt_read_cycle();  // TIMING_PROBE: @timing entry
    __gm__ int64_t *pk_tt_out = reinterpret_cast<__gm__ int64_t *>(args[2]);  // TIMING_PROBE: @timing tensor args[2]
    uint64_t pk_tt_ev_producer_done = 0;  // TIMING_PROBE: @timing event local
    uint64_t pk_tt_ev_collective_arrival = 0;  // TIMING_PROBE: @timing event local
    uint64_t pk_tt_ev_collective_release = 0;  // TIMING_PROBE: @timing event local
    __gm__ float *x = reinterpret_cast<__gm__ float *>(args[0]);
    __gm__ float *y = (__gm__ float *)args[1];
    int32_t n = static_cast<int32_t>(args[/* TIMING_PROBE: @timing-was "2" */3/* TIMING_PROBE: @timing-end */]);
    float alpha = *reinterpret_cast<float *>(&args[/* TIMING_PROBE: @timing-was "3" */4/* TIMING_PROBE: @timing-end */]);
    uint64_t seed = args[/* TIMING_PROBE: @timing-was "4" */5/* TIMING_PROBE: @timing-end */];
    bool flag = args[/* TIMING_PROBE: @timing-was "5" */6/* TIMING_PROBE: @timing-end */] != 0;
    int32_t m = packed_count(args);

    Produce(x, n + m);
    pk_tt_ev_producer_done = pk_tt_read_cycle();  // TIMING_PROBE: @timing event producer_done (phase)
    CrossCoreSetFlag(0);
    pk_tt_ev_collective_arrival = pk_tt_read_cycle();  // TIMING_PROBE: @timing event collective_arrival (arrival)
    CrossCoreWaitFlag(0);
    pk_tt_ev_collective_release = pk_tt_read_cycle();  // TIMING_PROBE: @timing event collective_release (release)
    if (flag && alpha > 0.0f && seed != 0) {
        Consume(y, n);
    }
    pk_tt_tail(pk_tt_out, pk_tt_entry, pk_tt_ev_producer_done, pk_tt_ev_collective_arrival, pk_tt_ev_collective_release, pk_tt_read_cycle());  // TIMING_PROBE: @timing tail
}
