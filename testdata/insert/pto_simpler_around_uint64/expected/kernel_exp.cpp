// exp of one 64x64 float tile whose packed arguments are unsigned: the
// runtime packs the tensor descriptors into args[] and calls kernel_entry.
#include <cstdint>
#include <pto/pto-inst.hpp>

#include "tensor.h"
#if 1  // TIMING_PROBE: T_BASE (inserted with a probe)
#if defined(__CPU_SIM)
#include "aicpu/device_time.h"
#endif
#endif
#if 1  // TIMING_PROBE: LOAD
#if defined(__CPU_SIM)
#include "aicpu/device_time.h"
#endif
#endif

using namespace pto;

#ifndef __aicore__
#define __aicore__ [aicore]
#endif

extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ uint64_t *args) {
#if 1  // TIMING_PROBE: T_BASE (inserted with a probe)
#if defined(__CPU_SIM)
    uint64_t probeBase_T_BASE = sys_cnt_now_ticks();
#else
    uint64_t probeBase_T_BASE = get_sys_cnt();  // probe API: pto (--api KIND)
#endif
    printf("[T_BASE] %lu\n", probeBase_T_BASE);
#endif
    __gm__ ChipTensor *in_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ ChipTensor *out_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
    __gm__ float *in = reinterpret_cast<__gm__ float *>(in_t->buffer.addr) + in_t->start_offset;
    __gm__ float *out = reinterpret_cast<__gm__ float *>(out_t->buffer.addr) + out_t->start_offset;

    using Global = GlobalTensor<float, Shape<1, 1, 1, 64, 64>, Stride<1, 1, 1, 64, 1>>;
    using TileT = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    TileT src(64, 64);
    TileT dst(64, 64);
    TASSIGN(src, 0x0);
    TASSIGN(dst, 0x10000);
    Global gin(in);
    Global gout(out);

#if 1  // TIMING_PROBE: LOAD
    pipe_barrier(PIPE_ALL);
#if defined(__CPU_SIM)
    uint64_t probeStart_LOAD = sys_cnt_now_ticks();
#else
    uint64_t probeStart_LOAD = get_sys_cnt();  // probe API: pto (--api KIND)
#endif
#endif
    TLOAD(src, gin);
#if 1  // TIMING_PROBE: LOAD
    pipe_barrier(PIPE_ALL);
#if defined(__CPU_SIM)
    uint64_t probeEnd_LOAD = sys_cnt_now_ticks();
#else
    uint64_t probeEnd_LOAD = get_sys_cnt();
#endif
    printf("[LOAD] start=%lu end=%lu dur=%lu\n", probeStart_LOAD, probeEnd_LOAD, probeEnd_LOAD - probeStart_LOAD);
#endif
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TEXP(dst, src);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gout, dst);
}
