// pypto-style extern entry: tensors first, then scalars of several types
#include "kernel_api.h"

static __aicore__ inline __attribute__((always_inline)) uint64_t pk_tt_read_cycle()  // TIMING_PROBE: @timing helper
{  // TIMING_PROBE: @timing helper
    return static_cast<uint64_t>(AscendC::GetSystemCycle());  // TIMING_PROBE: @timing helper
}  // TIMING_PROBE: @timing helper
static __aicore__ inline __attribute__((always_inline)) void pk_tt_tail(__gm__ int64_t *out, uint64_t gen, uint64_t row0, uint64_t v0, uint64_t v1, uint64_t v2)  // TIMING_PROBE: @timing helper
{  // TIMING_PROBE: @timing helper
    const uint64_t slot = static_cast<uint64_t>(AscendC::GetBlockIdx());  // TIMING_PROBE: @timing helper
    __gm__ int64_t *row = out + (row0 + slot) * 8;  // TIMING_PROBE: @timing helper
    row[0] = static_cast<int64_t>(v0);  // TIMING_PROBE: @timing helper
    row[1] = static_cast<int64_t>(v1);  // TIMING_PROBE: @timing helper
    row[2] = static_cast<int64_t>(v2);  // TIMING_PROBE: @timing helper
    row[7] = static_cast<int64_t>(0x54494D4500000000ULL + ((gen & 0xFFFFULL) << 16) + (slot & 0xFFFFULL));  // TIMING_PROBE: @timing helper
    dcci(reinterpret_cast<__gm__ void *>(row + 0), cache_line_t::SINGLE_CACHE_LINE, dcci_dst_t::CACHELINE_OUT);  // TIMING_PROBE: @timing helper
}  // TIMING_PROBE: @timing helper
extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
    uint64_t pk_tt_entry = pk_tt_read_cycle();  // TIMING_PROBE: @timing entry
    __gm__ int64_t *pk_tt_out = reinterpret_cast<__gm__ int64_t *>(args[2]);  // TIMING_PROBE: @timing tensor args[2]
    const uint64_t pk_tt_gen = static_cast<uint64_t>(args[7]);  // TIMING_PROBE: @timing generation args[7]
    const uint64_t pk_tt_row0 = static_cast<uint64_t>(args[8]);  // TIMING_PROBE: @timing invocation rows args[8]
    uint64_t pk_tt_ev_producer_done = 0;  // TIMING_PROBE: @timing event local
    __gm__ float *x = reinterpret_cast<__gm__ float *>(args[0]);
    __gm__ float *y = (__gm__ float *)args[1];
    int32_t n = static_cast<int32_t>(args[/* TIMING_PROBE: @timing-was "2" */3/* TIMING_PROBE: @timing-end */]);
    float alpha = *reinterpret_cast<float *>(&args[/* TIMING_PROBE: @timing-was "3" */4/* TIMING_PROBE: @timing-end */]);
    uint64_t seed = args[/* TIMING_PROBE: @timing-was "4" */5/* TIMING_PROBE: @timing-end */];
    bool flag = args[/* TIMING_PROBE: @timing-was "5" */6/* TIMING_PROBE: @timing-end */] != 0;

    Produce(x, n);
    pk_tt_ev_producer_done = pk_tt_read_cycle();  // TIMING_PROBE: @timing event producer_done (phase)
    CrossCoreSetFlag(0);
    CrossCoreWaitFlag(0);
    if (flag && alpha > 0.0f && seed != 0) {
        Consume(y, n);
    }
    pk_tt_tail(pk_tt_out, pk_tt_gen, pk_tt_row0, pk_tt_entry, pk_tt_ev_producer_done, pk_tt_read_cycle());  // TIMING_PROBE: @timing tail
}
