#include "kernel_api.h"

static __aicore__ inline __attribute__((always_inline)) uint64_t pk_tt_read_cycle()  // TIMING_PROBE: @timing helper
{  // TIMING_PROBE: @timing helper
    return static_cast<uint64_t>(AscendC::GetSystemCycle());  // TIMING_PROBE: @timing helper
}  // TIMING_PROBE: @timing helper
static __aicore__ inline __attribute__((always_inline)) void pk_tt_tail(__gm__ int64_t *out, uint64_t v0, uint64_t v1, uint64_t v2)  // TIMING_PROBE: @timing helper
{  // TIMING_PROBE: @timing helper
    const uint64_t slot = static_cast<uint64_t>(AscendC::GetBlockIdx());  // TIMING_PROBE: @timing helper
    __gm__ int64_t *row = out + slot * 8;  // TIMING_PROBE: @timing helper
    row[0] = static_cast<int64_t>(v0);  // TIMING_PROBE: @timing helper
    row[1] = static_cast<int64_t>(v1);  // TIMING_PROBE: @timing helper
    row[2] = static_cast<int64_t>(v2);  // TIMING_PROBE: @timing helper
    row[7] = static_cast<int64_t>(0x54494D4500000000ULL + slot);  // TIMING_PROBE: @timing helper
    dcci(reinterpret_cast<__gm__ void *>(row + 0), cache_line_t::SINGLE_CACHE_LINE, dcci_dst_t::CACHELINE_OUT);  // TIMING_PROBE: @timing helper
}  // TIMING_PROBE: @timing helper
extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
    uint64_t pk_tt_entry = pk_tt_read_cycle();  // TIMING_PROBE: @timing entry
    __gm__ int64_t *pk_tt_out = reinterpret_cast<__gm__ int64_t *>(args[1]);  // TIMING_PROBE: @timing tensor args[1]
    uint64_t pk_tt_ev_producer_done = 0;  // TIMING_PROBE: @timing event local
    __gm__ float *x = reinterpret_cast<__gm__ float *>(args[0]);
    int32_t n = static_cast<int32_t>(args[/* TIMING_PROBE: @timing-was "1" */2]);
#if 0  // TIMING_PROBE: STAGE_A
    uint64_t probeStart_STAGE_A = AscendC::GetSystemCycle();
#endif
    Produce(x, n);
    pk_tt_ev_producer_done = pk_tt_read_cycle();  // TIMING_PROBE: @timing event producer_done (phase)
#if 0  // TIMING_PROBE: STAGE_A
    uint64_t probeEnd_STAGE_A = AscendC::GetSystemCycle();
#endif
    pk_tt_tail(pk_tt_out, pk_tt_entry, pk_tt_ev_producer_done, pk_tt_read_cycle());  // TIMING_PROBE: @timing tail
}
