// an accumulating kernel: x is read, acc read and written in place, then the
// count; the host adds acc with add_inout, after the plain tensors
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
extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
    uint64_t pk_tt_entry = pk_tt_read_cycle();  // TIMING_PROBE: @timing entry
    __gm__ int64_t *pk_tt_out = reinterpret_cast<__gm__ int64_t *>(args[3]);  // TIMING_PROBE: @timing tensor args[3]
    __gm__ float *x = reinterpret_cast<__gm__ float *>(args[0]);
    __gm__ float *y = reinterpret_cast<__gm__ float *>(args[1]);
    __gm__ float *acc = reinterpret_cast<__gm__ float *>(args[2]);
    int32_t n = static_cast<int32_t>(args[/* TIMING_PROBE: @timing-was "3" */4/* TIMING_PROBE: @timing-end */]);

    Produce(x, n);
    Consume(y, n);
    Consume(acc, n);
    pk_tt_tail(pk_tt_out, pk_tt_entry, pk_tt_read_cycle());  // TIMING_PROBE: @timing tail
}
