// cce_vadd_lowlevel.cpp - vector add in CCE C, the intrinsic level below
// Ascend C: raw __ubuf__ pointers, explicit MTE copies and pipe flags,
// double buffering by hand. The entries sit in an extern "C" { } block.
#ifdef __CCE_KT_TEST__
#include "stub_fun.h"
#else
#include "kernel_operator.h"
#endif

#include <cstdint>

#define UB_HALF_CAP (96 * 1024 / sizeof(half))   /* half of UB per ping/pong buffer */
#define BLK 16                                     /* halfs per 32-byte block */
#define REPEAT_ELEMS 128                           /* halfs per vector repeat */

#define PING 0
#define PONG 1
#define EV(b) ((b) == PING ? EVENT_ID0 : EVENT_ID1)

static __aicore__ inline void load(__ubuf__ half *dst, __gm__ half *src, uint32_t n)
{
    copy_gm_to_ubuf(dst, src, 0, 1, n / BLK, 0, 0);
}

static __aicore__ inline void store(__gm__ half *dst, __ubuf__ half *src, uint32_t n)
{
    copy_ubuf_to_gm(dst, src, 0, 1, n / BLK, 0, 0);
}

static __aicore__ inline void vadd_tile(__ubuf__ half *z, __ubuf__ half *x, __ubuf__ half *y, uint32_t n)
{
    const uint8_t repeat = static_cast<uint8_t>(n / REPEAT_ELEMS);
    vadd(z, x, y, repeat, 1, 1, 1, 8, 8, 8);
}

extern "C" {

__global__ __aicore__ void vadd_cce(__gm__ half *x, __gm__ half *y, __gm__ half *z, uint32_t total)
{
#if 0  // TIMING_PROBE: T_BASE
    uint64_t probeBase = get_sys_cnt();
    if (get_block_idx() == 0) {
        printf("[T_BASE] %lu\n", probeBase);
    }
#endif
    const uint32_t perCore = total / get_block_num();
    const uint32_t tile = UB_HALF_CAP / 3;
    __gm__ half *xc = x + get_block_idx() * perCore;
    __gm__ half *yc = y + get_block_idx() * perCore;
    __gm__ half *zc = z + get_block_idx() * perCore;
    __ubuf__ half *buf[2] = { (__ubuf__ half *)0, (__ubuf__ half *)(UB_HALF_CAP * sizeof(half)) };

    set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID1);
    uint32_t b = PING;
#pragma unroll 2
    for (uint32_t off = 0; off < perCore; off += tile, b ^= 1) {
        __ubuf__ half *ux = buf[b];
        __ubuf__ half *uy = buf[b] + tile;
        __ubuf__ half *uz = buf[b] + 2 * tile;
        wait_flag(PIPE_MTE3, PIPE_MTE2, EV(b));   // the previous store from this buffer is done
#if 0  // TIMING_PROBE: VADD_MTE2
        uint64_t probeStart = get_sys_cnt();
#endif
        load(ux, xc + off, tile);
        load(uy, yc + off, tile);
        set_flag(PIPE_MTE2, PIPE_V, EV(b));
        wait_flag(PIPE_MTE2, PIPE_V, EV(b));
#if 0  // TIMING_PROBE: VADD_MTE2
        // copy_gm_to_ubuf only issued the load: take the end after the MTE2->V wait
        uint64_t probeEnd = get_sys_cnt();
        if (get_block_idx() == 0) {
            printf("[VADD_MTE2] start=%lu end=%lu dur=%lu iter=%u\n", probeStart, probeEnd, probeEnd - probeStart,
                   off / tile);
        }
#endif
        vadd_tile(uz, ux, uy, tile);
        set_flag(PIPE_V, PIPE_MTE3, EV(b));
        wait_flag(PIPE_V, PIPE_MTE3, EV(b));
        store(zc + off, uz, tile);
        set_flag(PIPE_MTE3, PIPE_MTE2, EV(b));
    }
    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID1);
    pipe_barrier(PIPE_ALL);
}

} // extern "C"
