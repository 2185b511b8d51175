// pypto_rope_entry.cpp - rotary position embedding as a pypto extern kernel.
//
// pypto 的 extern kernel 只有一个参数 args：先按签名顺序放所有 tensor 的地址，
// 再放所有 scalar。编排侧 add_input / add_output / add_scalar 的顺序必须与这里一致。
//
//   args[0]  q        (in)   [tokens, heads, dim]  half
//   args[1]  cos      (in)   [tokens, dim]         half
//   args[2]  sin      (in)   [tokens, dim]         half
//   args[3]  q_out    (out)  [tokens, heads, dim]  half
//   args[4]  tokens   (scalar)
//   args[5]  heads    (scalar)
//   args[6]  dim      (scalar, even)
#include <pto/pto-inst.hpp>
#include "kernel_operator.h"

using namespace pto;

namespace {

constexpr int kTokTile = 8;       // tokens per tile
constexpr int kDimMax = 128;      // head dim upper bound (tile columns)

// 参数解析集中在一个地方: 插入或删除 tensor 时只需改这里
struct RopeArgs {
    __gm__ half *q;
    __gm__ half *cosTab;
    __gm__ half *sinTab;
    __gm__ half *qOut;
    int64_t tokens;
    int64_t heads;
    int64_t dim;
};

__aicore__ inline RopeArgs UnpackArgs(__gm__ int64_t *args)
{
    RopeArgs a;
    a.q = reinterpret_cast<__gm__ half *>(args[0]);
    a.cosTab = reinterpret_cast<__gm__ half *>(args[1]);
    a.sinTab = reinterpret_cast<__gm__ half *>(args[2]);
    a.qOut = reinterpret_cast<__gm__ half *>(args[3]);
    a.tokens = args[4];
    a.heads = args[5];
    a.dim = args[6];
    return a;
}

using QTile = Tile<TileType::Vec, half, kTokTile, kDimMax, BLayout::RowMajor, -1, -1>;
using TabTile = Tile<TileType::Vec, half, kTokTile, kDimMax, BLayout::RowMajor, -1, -1>;

__aicore__ inline void RopeTile(const RopeArgs &a, int64_t tok0, int64_t head, int rows)
{
    QTile q(rows, a.dim), qRot(rows, a.dim), out(rows, a.dim);
    TabTile c(rows, a.dim), s(rows, a.dim);
    TASSIGN(q, 0x0000);
    TASSIGN(qRot, 0x2000);
    TASSIGN(c, 0x4000);
    TASSIGN(s, 0x6000);
    TASSIGN(out, 0x8000);

    GlobalTensor<half, Shape<1, 1, 1, kTokTile, kDimMax>, Stride<1, 1, 1, -1, 1>> gq(
        a.q + (tok0 * a.heads + head) * a.dim, a.heads * a.dim);
    GlobalTensor<half, Shape<1, 1, 1, kTokTile, kDimMax>, Stride<1, 1, 1, -1, 1>> gc(a.cosTab + tok0 * a.dim, a.dim);
    GlobalTensor<half, Shape<1, 1, 1, kTokTile, kDimMax>, Stride<1, 1, 1, -1, 1>> gs(a.sinTab + tok0 * a.dim, a.dim);
    GlobalTensor<half, Shape<1, 1, 1, kTokTile, kDimMax>, Stride<1, 1, 1, -1, 1>> go(
        a.qOut + (tok0 * a.heads + head) * a.dim, a.heads * a.dim);

    TLOAD(q, gq);
    TLOAD(c, gc);
    TLOAD(s, gs);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);

    // rotate_half: [x1, x2] -> [-x2, x1]
    TROTATEHALF(qRot, q);
    TMUL(out, q, c);
    TMUL(qRot, qRot, s);
    TADD(out, out, qRot);

    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    TSTORE(go, out);
    // 下一次 TLOAD 会覆盖 UB，必须等 TSTORE 读完
    set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID2);
    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID2);
}

__aicore__ inline void RopeImpl(const RopeArgs &a, uint64_t entryCycle)
{
    (void)entryCycle;
    const int64_t blocks = get_block_num();
    const int64_t me = get_block_idx();
    const int64_t tiles = (a.tokens + kTokTile - 1) / kTokTile;
#if 0  // TIMING_PROBE: ROPE_BODY
    pipe_barrier(PIPE_ALL);
    uint64_t probeStart = get_sys_cnt();
#endif
    for (int64_t t = me; t < tiles; t += blocks) {
        const int64_t tok0 = t * kTokTile;
        const int rows = static_cast<int>(a.tokens - tok0 < kTokTile ? a.tokens - tok0 : kTokTile);
        for (int64_t h = 0; h < a.heads; ++h) {
            RopeTile(a, tok0, h, rows);
        }
    }
#if 0  // TIMING_PROBE: ROPE_BODY
    pipe_barrier(PIPE_ALL);   // 最后一次 TSTORE 完成后再取时间
    uint64_t probeEnd = get_sys_cnt();
    if (get_block_idx() == 0) {
        printf("[ROPE_BODY] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
    }
#endif
}

} // namespace

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
    uint64_t entryCycle = 0;
#if 0  // TIMING_PROBE: T_BASE
    // 入口的第一条可执行语句: 在解析 args 之前采样
    uint64_t probeBase = get_sys_cnt();
    entryCycle = probeBase;
    if (get_block_idx() == 0) {
        printf("[T_BASE] %lu\n", probeBase);
    }
#endif
    const RopeArgs a = UnpackArgs(args);
    if (a.dim > kDimMax || (a.dim & 1) != 0) {
        return;   // 编排侧已校验; 这里只防御
    }
    RopeImpl(a, entryCycle);
}
