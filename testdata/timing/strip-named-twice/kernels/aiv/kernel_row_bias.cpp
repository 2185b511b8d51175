// Add a per-row bias to one block of rows: out[r][c] = in[r][c] + bias[r].
#include <cstdint>

#include "tensor.h"

#if defined(__CPU_SIM)  // TIMING_PROBE: @timing helper, api pto
#include "aicpu/device_time.h"  // TIMING_PROBE: @timing helper, api pto
#endif  // TIMING_PROBE: @timing helper, api pto
#include "intrinsic.h"  // TIMING_PROBE: @timing helper, api pto
static __aicore__ inline __attribute__((always_inline)) uint64_t pk_tt_read_cycle()  // TIMING_PROBE: @timing helper, api pto
{  // TIMING_PROBE: @timing helper, api pto
#if defined(__CPU_SIM)  // TIMING_PROBE: @timing helper, api pto
    return static_cast<uint64_t>(sys_cnt_now_ticks());  // TIMING_PROBE: @timing helper, api pto
#else  // TIMING_PROBE: @timing helper, api pto
    return static_cast<uint64_t>(get_sys_cnt());  // TIMING_PROBE: @timing helper, api pto
#endif  // TIMING_PROBE: @timing helper, api pto
}  // TIMING_PROBE: @timing helper, api pto
static __aicore__ inline __attribute__((always_inline)) void pk_tt_tail(__gm__ int64_t *out, uint64_t slot, uint64_t id_task, uint64_t id_block, uint64_t id_lane, uint64_t v0, uint64_t v1)  // TIMING_PROBE: @timing helper
{  // TIMING_PROBE: @timing helper
    __gm__ int64_t *row = out + slot * 8;  // TIMING_PROBE: @timing helper
    row[0] = static_cast<int64_t>(v0);  // TIMING_PROBE: @timing helper
    row[1] = static_cast<int64_t>(v1);  // TIMING_PROBE: @timing helper
    row[2] = static_cast<int64_t>(id_task);  // TIMING_PROBE: @timing helper
    row[3] = static_cast<int64_t>(id_block);  // TIMING_PROBE: @timing helper
    row[4] = static_cast<int64_t>(id_lane);  // TIMING_PROBE: @timing helper
    row[7] = static_cast<int64_t>(0x54494D4500000000ULL + slot);  // TIMING_PROBE: @timing helper
    dcci(reinterpret_cast<__gm__ void *>(row + 0), cache_line_t::SINGLE_CACHE_LINE);  // TIMING_PROBE: @timing helper
    dsb(DSB_DDR);  // TIMING_PROBE: @timing helper
}  // TIMING_PROBE: @timing helper
extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ int64_t *args) {
    uint64_t pk_tt_entry = pk_tt_read_cycle();  // TIMING_PROBE: @timing entry
    __gm__ int64_t *pk_tt_out = reinterpret_cast<__gm__ int64_t *>(reinterpret_cast<__gm__ ChipTensor *>(args[3])->buffer.addr) + reinterpret_cast<__gm__ ChipTensor *>(args[3])->start_offset;  // TIMING_PROBE: @timing tensor args[3]
    const uint64_t pk_tt_task = static_cast<uint64_t>(args[6]);  // TIMING_PROBE: @timing task's first row args[6]
    const uint64_t pk_tt_slot = (static_cast<uint64_t>(pk_tt_task) + static_cast<uint64_t>(get_block_idx(args))) % static_cast<uint64_t>(8);  // TIMING_PROBE: @timing slot
    const uint64_t pk_tt_id_task = static_cast<uint64_t>(reinterpret_cast<__gm__ LocalContext *>(static_cast<uint64_t>(args[SPMD_LOCAL_CONTEXT_INDEX]))->async_ctx.task_token.raw);  // TIMING_PROBE: @timing identity
    const uint64_t pk_tt_id_block = static_cast<uint64_t>(get_block_idx(args));  // TIMING_PROBE: @timing identity
    #if defined(__DAV_CUBE__) || defined(__DAV_C220_CUBE__)  // TIMING_PROBE: @timing identity
    const uint64_t pk_tt_id_lane = static_cast<uint64_t>(0);  // TIMING_PROBE: @timing identity
    #else  // TIMING_PROBE: @timing identity
    const uint64_t pk_tt_id_lane = static_cast<uint64_t>(1 + get_sub_block_id(args));  // TIMING_PROBE: @timing identity
    #endif  // TIMING_PROBE: @timing identity
    __gm__ ChipTensor *in_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ ChipTensor *bias_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
    __gm__ ChipTensor *out_t = reinterpret_cast<__gm__ ChipTensor *>(args[2]);
    __gm__ float *in = reinterpret_cast<__gm__ float *>(in_t->buffer.addr) + in_t->start_offset;
    __gm__ float *bias = reinterpret_cast<__gm__ float *>(bias_t->buffer.addr) + bias_t->start_offset;
    __gm__ float *out = reinterpret_cast<__gm__ float *>(out_t->buffer.addr) + out_t->start_offset;
    int32_t rows = static_cast<int32_t>(args[/* TIMING_PROBE: @timing-was "3" */4/* TIMING_PROBE: @timing-end */]);
    int32_t cols = static_cast<int32_t>(args[/* TIMING_PROBE: @timing-was "4" */5/* TIMING_PROBE: @timing-end */]);

    for (int32_t r = 0; r < rows; ++r) {
        for (int32_t c = 0; c < cols; ++c) {
            out[r * cols + c] = in[r * cols + c] + bias[r];
        }
    }
    pk_tt_tail(pk_tt_out, pk_tt_slot, pk_tt_id_task, pk_tt_id_block, pk_tt_id_lane, pk_tt_entry, pk_tt_read_cycle());  // TIMING_PROBE: @timing tail
}
