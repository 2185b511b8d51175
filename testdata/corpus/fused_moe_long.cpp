// fused_moe_long.cpp - a long fused mixture-of-experts kernel source (> 5,000
// lines): eight sub-operators, each with several variants for expert counts,
// data types and SoCs, in one translation unit as such files grow in real
// operator repositories. Probes are sparse, as in life: most functions have
// none, a few stages carry start/end pairs.
//
// 说明: 本文件很长, 用于检验 probekit 对大文件的逐字节往返能力。
#include "kernel_operator.h"

using namespace AscendC;

#ifndef MOE_MAX_EXPERTS
#define MOE_MAX_EXPERTS 256
#endif
#define MOE_TOPK 8
#define MOE_ALIGN32(x) (((x) + 31) / 32 * 32)

struct MoeTiling {
    uint32_t tokens;
    uint32_t hidden;
    uint32_t inter;
    uint32_t experts;
    uint32_t topk;
    uint32_t tokensPerCore;
    uint32_t tileTokens;
    uint32_t tileHidden;
};

// ==========================================================================
// Route: gate logits -> top-k expert ids (门控)
// ==========================================================================
namespace moe_route {

// Route, variant Fp16. Probed stage.
class RouteFp16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_ROUTE_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_ROUTE_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_ROUTE_FP16] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 1.0f, n);
        // top-k selection happens on the scalar unit below
        for (uint32_t k = 0; k < t_.topk && k < MOE_TOPK; ++k) {
            auxGm_.SetValue(i * MOE_TOPK + k, static_cast<int32_t>((k * 7 + h) % t_.experts));
        }
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t RouteFp16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Route, variant Bf16. No probe.
class RouteBf16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 2.0f, n);
        // top-k selection happens on the scalar unit below
        for (uint32_t k = 0; k < t_.topk && k < MOE_TOPK; ++k) {
            auxGm_.SetValue(i * MOE_TOPK + k, static_cast<int32_t>((k * 7 + h) % t_.experts));
        }
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
        // 310P: no bf16, the host never selects this variant there
        Cast(y, f, RoundMode::CAST_RINT, n);
#else
        Cast(y, f, RoundMode::CAST_ROUND, n);
#endif
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t RouteBf16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Route, variant Fp32. No probe.
class RouteFp32 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 3.0f, n);
        // top-k selection happens on the scalar unit below
        for (uint32_t k = 0; k < t_.topk && k < MOE_TOPK; ++k) {
            auxGm_.SetValue(i * MOE_TOPK + k, static_cast<int32_t>((k * 7 + h) % t_.experts));
        }
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t RouteFp32WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Route, variant Int8. Probed stage.
class RouteInt8 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_ROUTE_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_ROUTE_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_ROUTE_INT8] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 4.0f, n);
        // top-k selection happens on the scalar unit below
        for (uint32_t k = 0; k < t_.topk && k < MOE_TOPK; ++k) {
            auxGm_.SetValue(i * MOE_TOPK + k, static_cast<int32_t>((k * 7 + h) % t_.experts));
        }
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t RouteInt8WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Route, variant W4A16. No probe.
class RouteW4A16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 5.0f, n);
        // top-k selection happens on the scalar unit below
        for (uint32_t k = 0; k < t_.topk && k < MOE_TOPK; ++k) {
            auxGm_.SetValue(i * MOE_TOPK + k, static_cast<int32_t>((k * 7 + h) % t_.experts));
        }
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t RouteW4A16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Route, variant Small. No probe.
class RouteSmall {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 6.0f, n);
        // top-k selection happens on the scalar unit below
        for (uint32_t k = 0; k < t_.topk && k < MOE_TOPK; ++k) {
            auxGm_.SetValue(i * MOE_TOPK + k, static_cast<int32_t>((k * 7 + h) % t_.experts));
        }
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t RouteSmallWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Route, variant Large. No probe.
class RouteLarge {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 7.0f, n);
        // top-k selection happens on the scalar unit below
        for (uint32_t k = 0; k < t_.topk && k < MOE_TOPK; ++k) {
            auxGm_.SetValue(i * MOE_TOPK + k, static_cast<int32_t>((k * 7 + h) % t_.experts));
        }
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t RouteLargeWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Route, variant A5. No probe.
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
class RouteA5 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 8.0f, n);
        // top-k selection happens on the scalar unit below
        for (uint32_t k = 0; k < t_.topk && k < MOE_TOPK; ++k) {
            auxGm_.SetValue(i * MOE_TOPK + k, static_cast<int32_t>((k * 7 + h) % t_.experts));
        }
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};
#endif  // A5 only

__aicore__ inline uint32_t RouteA5WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

} // namespace moe_route

// ==========================================================================
// Permute: scatter tokens into expert-major order (重排)
// ==========================================================================
namespace moe_permute {

// Permute, variant Fp16. Probed stage.
class PermuteFp16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_PERMUTE_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_PERMUTE_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_PERMUTE_FP16] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // expert-major order: rows are moved, values are untouched
        Adds(f, f, 0.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t PermuteFp16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Permute, variant Bf16. No probe.
class PermuteBf16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // expert-major order: rows are moved, values are untouched
        Adds(f, f, 0.0f, n);
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
        // 310P: no bf16, the host never selects this variant there
        Cast(y, f, RoundMode::CAST_RINT, n);
#else
        Cast(y, f, RoundMode::CAST_ROUND, n);
#endif
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t PermuteBf16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Permute, variant Fp32. No probe.
class PermuteFp32 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // expert-major order: rows are moved, values are untouched
        Adds(f, f, 0.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t PermuteFp32WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Permute, variant Int8. Probed stage.
class PermuteInt8 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_PERMUTE_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_PERMUTE_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_PERMUTE_INT8] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // expert-major order: rows are moved, values are untouched
        Adds(f, f, 0.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t PermuteInt8WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Permute, variant W4A16. No probe.
class PermuteW4A16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // expert-major order: rows are moved, values are untouched
        Adds(f, f, 0.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t PermuteW4A16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Permute, variant Small. No probe.
class PermuteSmall {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // expert-major order: rows are moved, values are untouched
        Adds(f, f, 0.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t PermuteSmallWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Permute, variant Large. No probe.
class PermuteLarge {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // expert-major order: rows are moved, values are untouched
        Adds(f, f, 0.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t PermuteLargeWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Permute, variant A5. No probe.
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
class PermuteA5 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // expert-major order: rows are moved, values are untouched
        Adds(f, f, 0.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};
#endif  // A5 only

__aicore__ inline uint32_t PermuteA5WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

} // namespace moe_permute

// ==========================================================================
// GroupGemm: per-expert up projection (分组矩阵乘)
// ==========================================================================
namespace moe_groupgemm {

// GroupGemm, variant Fp16. Probed stage.
class GroupGemmFp16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_GROUPGEMM_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_GROUPGEMM_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_GROUPGEMM_FP16] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // the cube part is issued elsewhere; here only the epilogue
        Muls(f, f, 0.5f, n);
        Adds(f, f, 0.25f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t GroupGemmFp16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// GroupGemm, variant Bf16. No probe.
class GroupGemmBf16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // the cube part is issued elsewhere; here only the epilogue
        Muls(f, f, 0.5f, n);
        Adds(f, f, 0.25f, n);
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
        // 310P: no bf16, the host never selects this variant there
        Cast(y, f, RoundMode::CAST_RINT, n);
#else
        Cast(y, f, RoundMode::CAST_ROUND, n);
#endif
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t GroupGemmBf16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// GroupGemm, variant Fp32. No probe.
class GroupGemmFp32 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // the cube part is issued elsewhere; here only the epilogue
        Muls(f, f, 0.5f, n);
        Adds(f, f, 0.25f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t GroupGemmFp32WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// GroupGemm, variant Int8. Probed stage.
class GroupGemmInt8 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_GROUPGEMM_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_GROUPGEMM_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_GROUPGEMM_INT8] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // the cube part is issued elsewhere; here only the epilogue
        Muls(f, f, 0.5f, n);
        Adds(f, f, 0.25f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t GroupGemmInt8WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// GroupGemm, variant W4A16. No probe.
class GroupGemmW4A16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // the cube part is issued elsewhere; here only the epilogue
        Muls(f, f, 0.5f, n);
        Adds(f, f, 0.25f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t GroupGemmW4A16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// GroupGemm, variant Small. No probe.
class GroupGemmSmall {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // the cube part is issued elsewhere; here only the epilogue
        Muls(f, f, 0.5f, n);
        Adds(f, f, 0.25f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t GroupGemmSmallWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// GroupGemm, variant Large. Probed stage.
class GroupGemmLarge {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_GROUPGEMM_LARGE
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_GROUPGEMM_LARGE
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_GROUPGEMM_LARGE] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // the cube part is issued elsewhere; here only the epilogue
        Muls(f, f, 0.5f, n);
        Adds(f, f, 0.25f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t GroupGemmLargeWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// GroupGemm, variant A5. No probe.
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
class GroupGemmA5 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // the cube part is issued elsewhere; here only the epilogue
        Muls(f, f, 0.5f, n);
        Adds(f, f, 0.25f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};
#endif  // A5 only

__aicore__ inline uint32_t GroupGemmA5WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

} // namespace moe_groupgemm

// ==========================================================================
// Swiglu: silu(gate) * up (激活)
// ==========================================================================
namespace moe_swiglu {

// Swiglu, variant Fp16. Probed stage.
class SwigluFp16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_SWIGLU_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_SWIGLU_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_SWIGLU_FP16] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Silu(f, f, n);
        Mul(f, f, f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t SwigluFp16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Swiglu, variant Bf16. No probe.
class SwigluBf16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Silu(f, f, n);
        Mul(f, f, f, n);
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
        // 310P: no bf16, the host never selects this variant there
        Cast(y, f, RoundMode::CAST_RINT, n);
#else
        Cast(y, f, RoundMode::CAST_ROUND, n);
#endif
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t SwigluBf16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Swiglu, variant Fp32. No probe.
class SwigluFp32 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Silu(f, f, n);
        Mul(f, f, f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t SwigluFp32WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Swiglu, variant Int8. Probed stage.
class SwigluInt8 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_SWIGLU_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_SWIGLU_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_SWIGLU_INT8] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Silu(f, f, n);
        Mul(f, f, f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t SwigluInt8WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Swiglu, variant W4A16. No probe.
class SwigluW4A16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Silu(f, f, n);
        Mul(f, f, f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t SwigluW4A16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Swiglu, variant Small. No probe.
class SwigluSmall {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Silu(f, f, n);
        Mul(f, f, f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t SwigluSmallWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Swiglu, variant Large. No probe.
class SwigluLarge {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Silu(f, f, n);
        Mul(f, f, f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t SwigluLargeWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Swiglu, variant A5. No probe.
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
class SwigluA5 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Silu(f, f, n);
        Mul(f, f, f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};
#endif  // A5 only

__aicore__ inline uint32_t SwigluA5WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

} // namespace moe_swiglu

// ==========================================================================
// Down: per-expert down projection (下投影)
// ==========================================================================
namespace moe_down {

// Down, variant Fp16. Probed stage.
class DownFp16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_DOWN_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_DOWN_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_DOWN_FP16] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 0.125f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t DownFp16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Down, variant Bf16. No probe.
class DownBf16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 0.125f, n);
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
        // 310P: no bf16, the host never selects this variant there
        Cast(y, f, RoundMode::CAST_RINT, n);
#else
        Cast(y, f, RoundMode::CAST_ROUND, n);
#endif
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t DownBf16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Down, variant Fp32. No probe.
class DownFp32 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 0.125f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t DownFp32WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Down, variant Int8. Probed stage.
class DownInt8 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_DOWN_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_DOWN_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_DOWN_INT8] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 0.125f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t DownInt8WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Down, variant W4A16. No probe.
class DownW4A16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 0.125f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t DownW4A16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Down, variant Small. No probe.
class DownSmall {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 0.125f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t DownSmallWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Down, variant Large. No probe.
class DownLarge {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 0.125f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t DownLargeWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Down, variant A5. No probe.
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
class DownA5 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 0.125f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};
#endif  // A5 only

__aicore__ inline uint32_t DownA5WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

} // namespace moe_down

// ==========================================================================
// Unpermute: gather back to token order with weights (逆重排)
// ==========================================================================
namespace moe_unpermute {

// Unpermute, variant Fp16. Probed stage.
class UnpermuteFp16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_UNPERMUTE_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_UNPERMUTE_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_UNPERMUTE_FP16] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // weighted sum of the top-k expert outputs
        for (uint32_t k = 1; k < MOE_TOPK; ++k) {
            Axpy(f, f, 0.125f, n);
        }
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t UnpermuteFp16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Unpermute, variant Bf16. No probe.
class UnpermuteBf16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // weighted sum of the top-k expert outputs
        for (uint32_t k = 1; k < MOE_TOPK; ++k) {
            Axpy(f, f, 0.125f, n);
        }
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
        // 310P: no bf16, the host never selects this variant there
        Cast(y, f, RoundMode::CAST_RINT, n);
#else
        Cast(y, f, RoundMode::CAST_ROUND, n);
#endif
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t UnpermuteBf16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Unpermute, variant Fp32. No probe.
class UnpermuteFp32 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // weighted sum of the top-k expert outputs
        for (uint32_t k = 1; k < MOE_TOPK; ++k) {
            Axpy(f, f, 0.125f, n);
        }
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t UnpermuteFp32WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Unpermute, variant Int8. Probed stage.
class UnpermuteInt8 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_UNPERMUTE_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_UNPERMUTE_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_UNPERMUTE_INT8] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // weighted sum of the top-k expert outputs
        for (uint32_t k = 1; k < MOE_TOPK; ++k) {
            Axpy(f, f, 0.125f, n);
        }
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t UnpermuteInt8WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Unpermute, variant W4A16. No probe.
class UnpermuteW4A16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // weighted sum of the top-k expert outputs
        for (uint32_t k = 1; k < MOE_TOPK; ++k) {
            Axpy(f, f, 0.125f, n);
        }
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t UnpermuteW4A16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Unpermute, variant Small. No probe.
class UnpermuteSmall {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // weighted sum of the top-k expert outputs
        for (uint32_t k = 1; k < MOE_TOPK; ++k) {
            Axpy(f, f, 0.125f, n);
        }
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t UnpermuteSmallWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Unpermute, variant Large. No probe.
class UnpermuteLarge {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // weighted sum of the top-k expert outputs
        for (uint32_t k = 1; k < MOE_TOPK; ++k) {
            Axpy(f, f, 0.125f, n);
        }
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t UnpermuteLargeWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Unpermute, variant A5. No probe.
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
class UnpermuteA5 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        // weighted sum of the top-k expert outputs
        for (uint32_t k = 1; k < MOE_TOPK; ++k) {
            Axpy(f, f, 0.125f, n);
        }
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};
#endif  // A5 only

__aicore__ inline uint32_t UnpermuteA5WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

} // namespace moe_unpermute

// ==========================================================================
// Quant: per-token int8 quant of activations (量化)
// ==========================================================================
namespace moe_quant {

// Quant, variant Fp16. Probed stage.
class QuantFp16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_QUANT_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_QUANT_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_QUANT_FP16] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Abs(f, f, n);
        Muls(f, f, 127.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t QuantFp16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Quant, variant Bf16. No probe.
class QuantBf16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Abs(f, f, n);
        Muls(f, f, 127.0f, n);
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
        // 310P: no bf16, the host never selects this variant there
        Cast(y, f, RoundMode::CAST_RINT, n);
#else
        Cast(y, f, RoundMode::CAST_ROUND, n);
#endif
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t QuantBf16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Quant, variant Fp32. No probe.
class QuantFp32 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Abs(f, f, n);
        Muls(f, f, 127.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t QuantFp32WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Quant, variant Int8. Probed stage.
class QuantInt8 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_QUANT_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_QUANT_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_QUANT_INT8] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Abs(f, f, n);
        Muls(f, f, 127.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t QuantInt8WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Quant, variant W4A16. No probe.
class QuantW4A16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Abs(f, f, n);
        Muls(f, f, 127.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t QuantW4A16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Quant, variant Small. No probe.
class QuantSmall {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Abs(f, f, n);
        Muls(f, f, 127.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t QuantSmallWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Quant, variant Large. No probe.
class QuantLarge {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Abs(f, f, n);
        Muls(f, f, 127.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t QuantLargeWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Quant, variant A5. No probe.
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
class QuantA5 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Abs(f, f, n);
        Muls(f, f, 127.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};
#endif  // A5 only

__aicore__ inline uint32_t QuantA5WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

} // namespace moe_quant

// ==========================================================================
// Dequant: int32 accum -> fp16 with scales (反量化)
// ==========================================================================
namespace moe_dequant {

// Dequant, variant Fp16. Probed stage.
class DequantFp16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_DEQUANT_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_DEQUANT_FP16
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_DEQUANT_FP16] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 127.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t DequantFp16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Dequant, variant Bf16. No probe.
class DequantBf16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 127.0f, n);
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
        // 310P: no bf16, the host never selects this variant there
        Cast(y, f, RoundMode::CAST_RINT, n);
#else
        Cast(y, f, RoundMode::CAST_ROUND, n);
#endif
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t DequantBf16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Dequant, variant Fp32. No probe.
class DequantFp32 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 127.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t DequantFp32WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Dequant, variant Int8. Probed stage.
class DequantInt8 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
#if 0  // TIMING_PROBE: MOE_DEQUANT_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart = GetSystemCycle();
#endif
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
#if 0  // TIMING_PROBE: MOE_DEQUANT_INT8
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[MOE_DEQUANT_INT8] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 127.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t DequantInt8WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Dequant, variant W4A16. No probe.
class DequantW4A16 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 127.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t DequantW4A16WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Dequant, variant Small. No probe.
class DequantSmall {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 127.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t DequantSmallWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Dequant, variant Large. No probe.
class DequantLarge {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 127.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};

__aicore__ inline uint32_t DequantLargeWorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

// Dequant, variant A5. No probe.
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
class DequantA5 {
public:
    __aicore__ inline void Init(GM_ADDR in, GM_ADDR out, GM_ADDR aux, const MoeTiling &t)
    {
        t_ = t;
        const uint32_t base = GetBlockIdx() * t_.tokensPerCore;
        inGm_.SetGlobalBuffer((__gm__ half *)in + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        outGm_.SetGlobalBuffer((__gm__ half *)out + base * t_.hidden, t_.tokensPerCore * t_.hidden);
        auxGm_.SetGlobalBuffer((__gm__ int32_t *)aux + base * MOE_TOPK, t_.tokensPerCore * MOE_TOPK);
        pipe_.InitBuffer(inQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(outQ_, 2, t_.tileTokens * t_.tileHidden * sizeof(half));
        pipe_.InitBuffer(tmp_, MOE_ALIGN32(t_.tileTokens * t_.tileHidden * sizeof(float)));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = t_.tokensPerCore / t_.tileTokens;
        const uint32_t hsteps = t_.hidden / t_.tileHidden;
        for (uint32_t i = 0; i < tiles; ++i) {
            for (uint32_t h = 0; h < hsteps; ++h) {
                CopyIn(i, h);
                Compute(i, h);
                CopyOut(i, h);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.AllocTensor<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        p.dstStride = 0;
        DataCopy(x, inGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], p);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, uint32_t h)
    {
        LocalTensor<half> x = inQ_.DeQue<half>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        LocalTensor<float> f = tmp_.Get<float>();
        const uint32_t n = t_.tileTokens * t_.tileHidden;
        (void)i;
        (void)h;
        Cast(f, x, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 127.0f, n);
        Cast(y, f, RoundMode::CAST_RINT, n);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i, uint32_t h)
    {
        LocalTensor<half> y = outQ_.DeQue<half>();
        DataCopyParams p;
        p.blockCount = static_cast<uint16_t>(t_.tileTokens);
        p.blockLen = static_cast<uint16_t>(t_.tileHidden * sizeof(half) / 32);
        p.srcStride = 0;
        p.dstStride = static_cast<uint16_t>((t_.hidden - t_.tileHidden) * sizeof(half) / 32);
        DataCopy(outGm_[i * t_.tileTokens * t_.hidden + h * t_.tileHidden], y, p);
        outQ_.FreeTensor(y);
    }

    MoeTiling t_{};
    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> tmp_;
    GlobalTensor<half> inGm_;
    GlobalTensor<half> outGm_;
    GlobalTensor<int32_t> auxGm_;
};
#endif  // A5 only

__aicore__ inline uint32_t DequantA5WorkspaceBytes(const MoeTiling &t)
{
    // workspace: one fp32 tile per core plus the routing table
    uint32_t bytes = MOE_ALIGN32(t.tileTokens * t.tileHidden * 4);
    bytes += MOE_ALIGN32(t.tokensPerCore * MOE_TOPK * 4);
    bytes += (t.experts > 0) ? 32u : 0u;  // expert bucket 0
    bytes += (t.experts > 16) ? 64u : 0u;  // expert bucket 1
    bytes += (t.experts > 32) ? 96u : 0u;  // expert bucket 2
    bytes += (t.experts > 48) ? 128u : 0u;  // expert bucket 3
    bytes += (t.experts > 64) ? 160u : 0u;  // expert bucket 4
    bytes += (t.experts > 80) ? 192u : 0u;  // expert bucket 5
    bytes += (t.experts > 96) ? 224u : 0u;  // expert bucket 6
    bytes += (t.experts > 112) ? 256u : 0u;  // expert bucket 7
    bytes += (t.experts > 128) ? 288u : 0u;  // expert bucket 8
    bytes += (t.experts > 144) ? 320u : 0u;  // expert bucket 9
    bytes += (t.experts > 160) ? 352u : 0u;  // expert bucket 10
    bytes += (t.experts > 176) ? 384u : 0u;  // expert bucket 11
    bytes += (t.experts > 192) ? 416u : 0u;  // expert bucket 12
    bytes += (t.experts > 208) ? 448u : 0u;  // expert bucket 13
    return bytes;
}

} // namespace moe_dequant

// Dispatch: tiling key = sub-operator * 16 + variant.
extern "C" __global__ __aicore__ void fused_moe(GM_ADDR in, GM_ADDR out, GM_ADDR aux, GM_ADDR ws, GM_ADDR tiling)
{
#if 0  // TIMING_PROBE: T_BASE
    uint64_t probeBase = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[T_BASE] %lu\n", probeBase);
    }
#endif
    (void)ws;
    GET_TILING_DATA(t, tiling);
    if (TILING_KEY_IS(0)) {
        moe_route::RouteFp16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(1)) {
        moe_route::RouteBf16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(2)) {
        moe_route::RouteFp32 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(3)) {
        moe_route::RouteInt8 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(4)) {
        moe_route::RouteW4A16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(5)) {
        moe_route::RouteSmall op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(6)) {
        moe_route::RouteLarge op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
    if (TILING_KEY_IS(7)) {
        moe_route::RouteA5 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#endif
    if (TILING_KEY_IS(16)) {
        moe_permute::PermuteFp16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(17)) {
        moe_permute::PermuteBf16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(18)) {
        moe_permute::PermuteFp32 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(19)) {
        moe_permute::PermuteInt8 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(20)) {
        moe_permute::PermuteW4A16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(21)) {
        moe_permute::PermuteSmall op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(22)) {
        moe_permute::PermuteLarge op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
    if (TILING_KEY_IS(23)) {
        moe_permute::PermuteA5 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#endif
    if (TILING_KEY_IS(32)) {
        moe_groupgemm::GroupGemmFp16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(33)) {
        moe_groupgemm::GroupGemmBf16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(34)) {
        moe_groupgemm::GroupGemmFp32 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(35)) {
        moe_groupgemm::GroupGemmInt8 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(36)) {
        moe_groupgemm::GroupGemmW4A16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(37)) {
        moe_groupgemm::GroupGemmSmall op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(38)) {
        moe_groupgemm::GroupGemmLarge op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
    if (TILING_KEY_IS(39)) {
        moe_groupgemm::GroupGemmA5 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#endif
    if (TILING_KEY_IS(48)) {
        moe_swiglu::SwigluFp16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(49)) {
        moe_swiglu::SwigluBf16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(50)) {
        moe_swiglu::SwigluFp32 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(51)) {
        moe_swiglu::SwigluInt8 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(52)) {
        moe_swiglu::SwigluW4A16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(53)) {
        moe_swiglu::SwigluSmall op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(54)) {
        moe_swiglu::SwigluLarge op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
    if (TILING_KEY_IS(55)) {
        moe_swiglu::SwigluA5 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#endif
    if (TILING_KEY_IS(64)) {
        moe_down::DownFp16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(65)) {
        moe_down::DownBf16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(66)) {
        moe_down::DownFp32 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(67)) {
        moe_down::DownInt8 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(68)) {
        moe_down::DownW4A16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(69)) {
        moe_down::DownSmall op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(70)) {
        moe_down::DownLarge op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
    if (TILING_KEY_IS(71)) {
        moe_down::DownA5 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#endif
    if (TILING_KEY_IS(80)) {
        moe_unpermute::UnpermuteFp16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(81)) {
        moe_unpermute::UnpermuteBf16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(82)) {
        moe_unpermute::UnpermuteFp32 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(83)) {
        moe_unpermute::UnpermuteInt8 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(84)) {
        moe_unpermute::UnpermuteW4A16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(85)) {
        moe_unpermute::UnpermuteSmall op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(86)) {
        moe_unpermute::UnpermuteLarge op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
    if (TILING_KEY_IS(87)) {
        moe_unpermute::UnpermuteA5 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#endif
    if (TILING_KEY_IS(96)) {
        moe_quant::QuantFp16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(97)) {
        moe_quant::QuantBf16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(98)) {
        moe_quant::QuantFp32 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(99)) {
        moe_quant::QuantInt8 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(100)) {
        moe_quant::QuantW4A16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(101)) {
        moe_quant::QuantSmall op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(102)) {
        moe_quant::QuantLarge op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
    if (TILING_KEY_IS(103)) {
        moe_quant::QuantA5 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#endif
    if (TILING_KEY_IS(112)) {
        moe_dequant::DequantFp16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(113)) {
        moe_dequant::DequantBf16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(114)) {
        moe_dequant::DequantFp32 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(115)) {
        moe_dequant::DequantInt8 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(116)) {
        moe_dequant::DequantW4A16 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(117)) {
        moe_dequant::DequantSmall op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
    if (TILING_KEY_IS(118)) {
        moe_dequant::DequantLarge op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#if defined(__DAV_C310__) || (defined(__CCE_AICORE__) && __CCE_AICORE__ >= 310)
    if (TILING_KEY_IS(119)) {
        moe_dequant::DequantA5 op;
        op.Init(in, out, aux, t);
        op.Process();
        return;
    }
#endif
}
