// Add one tile into the accumulator: acc += tile, one task per (group, k) tile.
#include <cstdint>

#include "tensor.h"

static __aicore__ inline __attribute__((always_inline)) uint64_t pk_tt_read_cycle()  // TIMING_PROBE: @timing helper
{  // TIMING_PROBE: @timing helper
    return static_cast<uint64_t>(get_sys_cnt());  // TIMING_PROBE: @timing helper
}  // TIMING_PROBE: @timing helper
static __aicore__ inline __attribute__((always_inline)) void pk_tt_tail(__gm__ int64_t *out, uint64_t slot, uint64_t v0, uint64_t v1)  // TIMING_PROBE: @timing helper
{  // TIMING_PROBE: @timing helper
    __gm__ int64_t *row = out + slot * 8;  // TIMING_PROBE: @timing helper
    row[0] = static_cast<int64_t>(v0);  // TIMING_PROBE: @timing helper
    row[1] = static_cast<int64_t>(v1);  // TIMING_PROBE: @timing helper
    row[7] = static_cast<int64_t>(0x54494D4500000000ULL + slot);  // TIMING_PROBE: @timing helper
    dcci(reinterpret_cast<__gm__ void *>(row + 0), SINGLE_CACHE_LINE);  // TIMING_PROBE: @timing helper
    dsb(DSB_DDR);  // TIMING_PROBE: @timing helper
}  // TIMING_PROBE: @timing helper
extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t *args) {
    uint64_t pk_tt_entry = pk_tt_read_cycle();  // TIMING_PROBE: @timing entry
    __gm__ int64_t *pk_tt_out = reinterpret_cast<__gm__ int64_t *>(reinterpret_cast<__gm__ ChipTensor *>(args[2])->buffer.addr) + reinterpret_cast<__gm__ ChipTensor *>(args[2])->start_offset;  // TIMING_PROBE: @timing tensor args[2]
    const uint64_t pk_tt_task = static_cast<uint64_t>(args[4]);  // TIMING_PROBE: @timing task index args[4]
    const uint64_t pk_tt_slot = static_cast<uint64_t>(pk_tt_task) * static_cast<uint64_t>(get_block_num(args)) + static_cast<uint64_t>(get_block_idx(args));  // TIMING_PROBE: @timing slot
    __gm__ ChipTensor *acc_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ ChipTensor *tile_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
    __gm__ float *acc = reinterpret_cast<__gm__ float *>(acc_t->buffer.addr) + acc_t->start_offset;
    __gm__ float *tile = reinterpret_cast<__gm__ float *>(tile_t->buffer.addr) + tile_t->start_offset;
    int32_t n = static_cast<int32_t>(args[/* TIMING_PROBE: @timing-was "2" */3/* TIMING_PROBE: @timing-end */]);

    for (int32_t i = 0; i < n; ++i) {
        acc[i] += tile[i];
    }
    pk_tt_tail(pk_tt_out, pk_tt_slot, pk_tt_entry, pk_tt_read_cycle());  // TIMING_PROBE: @timing tail
}
