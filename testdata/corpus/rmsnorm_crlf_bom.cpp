// rmsnorm_crlf.cpp - RMSNorm, y = x / sqrt(mean(x^2) + eps) * gamma
//
// 这个文件来自 Windows 上的开发环境：CRLF 换行，文件头带 UTF-8 BOM。
// probekit 只改必须改的字节，换行符与 BOM 必须原样保留。
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t RMS_BUFFER_NUM = 2;

struct RmsNormTilingData {
    uint32_t numRow;
    uint32_t numCol;
    uint32_t rowFactor;     // 每次搬运的行数
    float epsilon;
    float avgFactor;        // 1 / numCol
};

class KernelRmsNorm {
public:
    __aicore__ inline KernelRmsNorm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd, const RmsNormTilingData &td)
    {
        numCol_ = td.numCol;
        rowFactor_ = td.rowFactor;
        eps_ = td.epsilon;
        avg_ = td.avgFactor;
        blockRows_ = td.numRow / GetBlockNum();
        const uint64_t off = (uint64_t)GetBlockIdx() * blockRows_ * numCol_;
        xGm_.SetGlobalBuffer((__gm__ half *)x + off, blockRows_ * numCol_);
        yGm_.SetGlobalBuffer((__gm__ half *)y + off, blockRows_ * numCol_);
        gammaGm_.SetGlobalBuffer((__gm__ half *)gamma, numCol_);
        rstdGm_.SetGlobalBuffer((__gm__ float *)rstd + GetBlockIdx() * blockRows_, blockRows_);
        pipe_.InitBuffer(inQueX_, RMS_BUFFER_NUM, rowFactor_ * numCol_ * sizeof(half));
        pipe_.InitBuffer(inQueGamma_, 1, numCol_ * sizeof(half));
        pipe_.InitBuffer(outQueY_, RMS_BUFFER_NUM, rowFactor_ * numCol_ * sizeof(half));
        pipe_.InitBuffer(xFp32Buf_, rowFactor_ * numCol_ * sizeof(float));
        pipe_.InitBuffer(sqBuf_, rowFactor_ * numCol_ * sizeof(float));
        pipe_.InitBuffer(reduceBuf_, 64);
    }

    __aicore__ inline void Process()
    {
        CopyGamma();
        LocalTensor<half> gammaLocal = inQueGamma_.DeQue<half>();
        const uint32_t loops = blockRows_ / rowFactor_;
        for (uint32_t i = 0; i < loops; i++) {
#if 0  // TIMING_PROBE: RMS_LOAD
            PipeBarrier<PIPE_ALL>();
            uint64_t probeStart = GetSystemCycle();
#endif
            CopyIn(i);
#if 0  // TIMING_PROBE: RMS_LOAD
            PipeBarrier<PIPE_ALL>();
            uint64_t probeEnd = GetSystemCycle();
            if (GetBlockIdx() == 0) {
                printf("[RMS_LOAD] start=%lu end=%lu dur=%lu iter=%u\n", probeStart, probeEnd, probeEnd - probeStart, i);
            }
#endif
#if 0  // TIMING_PROBE: RMS_COMPUTE   归一化 + gamma
            PipeBarrier<PIPE_ALL>();
            uint64_t probeStart = GetSystemCycle();
#endif
            Compute(i, gammaLocal);
#if 0  // TIMING_PROBE: RMS_COMPUTE
            PipeBarrier<PIPE_ALL>();
            uint64_t probeEnd = GetSystemCycle();
            if (GetBlockIdx() == 0) {
                printf("[RMS_COMPUTE] start=%lu end=%lu dur=%lu iter=%u\n", probeStart, probeEnd, probeEnd - probeStart, i);
            }
#endif
            CopyOut(i);
        }
        inQueGamma_.FreeTensor(gammaLocal);
    }

private:
    __aicore__ inline void CopyGamma()
    {
        LocalTensor<half> g = inQueGamma_.AllocTensor<half>();
        DataCopy(g, gammaGm_, numCol_);
        inQueGamma_.EnQue(g);
    }

    __aicore__ inline void CopyIn(uint32_t i)
    {
        LocalTensor<half> x = inQueX_.AllocTensor<half>();
        DataCopy(x, xGm_[i * rowFactor_ * numCol_], rowFactor_ * numCol_);
        inQueX_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t i, LocalTensor<half> &gammaLocal)
    {
        LocalTensor<half> x = inQueX_.DeQue<half>();
        LocalTensor<half> y = outQueY_.AllocTensor<half>();
        LocalTensor<float> xf = xFp32Buf_.Get<float>();
        LocalTensor<float> sq = sqBuf_.Get<float>();
        LocalTensor<float> red = reduceBuf_.Get<float>();
        Cast(xf, x, RoundMode::CAST_NONE, rowFactor_ * numCol_);
        Mul(sq, xf, xf, rowFactor_ * numCol_);
        for (uint32_t r = 0; r < rowFactor_; r++) {
            ReduceSum(red, sq[r * numCol_], sq[r * numCol_], numCol_);
            // rstd = 1 / sqrt(avg(x^2) + eps)，单独写回供反向使用
            const float rstd = 1.0f / sqrt(red.GetValue(0) * avg_ + eps_);
            rstdGm_.SetValue(i * rowFactor_ + r, rstd);
            Muls(xf[r * numCol_], xf[r * numCol_], rstd, numCol_);
        }
        Cast(y, xf, RoundMode::CAST_RINT, rowFactor_ * numCol_);
        for (uint32_t r = 0; r < rowFactor_; r++) {
            Mul(y[r * numCol_], y[r * numCol_], gammaLocal, numCol_);
        }
        outQueY_.EnQue(y);
        inQueX_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t i)
    {
        LocalTensor<half> y = outQueY_.DeQue<half>();
        DataCopy(yGm_[i * rowFactor_ * numCol_], y, rowFactor_ * numCol_);
        outQueY_.FreeTensor(y);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, RMS_BUFFER_NUM> inQueX_;
    TQue<QuePosition::VECIN, 1> inQueGamma_;
    TQue<QuePosition::VECOUT, RMS_BUFFER_NUM> outQueY_;
    TBuf<TPosition::VECCALC> xFp32Buf_, sqBuf_, reduceBuf_;
    GlobalTensor<half> xGm_, yGm_, gammaGm_;
    GlobalTensor<float> rstdGm_;
    uint32_t numCol_ = 0, rowFactor_ = 0, blockRows_ = 0;
    float eps_ = 1e-6f, avg_ = 0.0f;
};

extern "C" __global__ __aicore__ void rms_norm(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd,
                                               GM_ADDR workspace, GM_ADDR tiling)
{
#if 0  // TIMING_PROBE: T_BASE
    uint64_t probeBase = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[T_BASE] %lu\r\n", probeBase);
    }
#endif
    (void)workspace;
    GET_TILING_DATA(tilingData, tiling);
    KernelRmsNorm op;
    op.Init(x, gamma, y, rstd, tilingData);
    op.Process();
}
