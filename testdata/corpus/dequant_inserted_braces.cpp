// dequant_inserted_braces.cpp - int32 accumulator -> half with per-channel
// scales. Two of its probes were placed by `probe-inject --around` on the
// libclang AST: the loop bodies had no braces, so the tool added the
// marker-commented brace lines that probe-strip removes again.
#include "kernel_operator.h"

using namespace AscendC;

class KernelDequant {
public:
    __aicore__ inline void Init(GM_ADDR acc, GM_ADDR scale, GM_ADDR y, uint32_t rows, uint32_t cols)
    {
        rows_ = rows / GetBlockNum();
        cols_ = cols;
        accGm_.SetGlobalBuffer((__gm__ int32_t *)acc + GetBlockIdx() * rows_ * cols_, rows_ * cols_);
        yGm_.SetGlobalBuffer((__gm__ half *)y + GetBlockIdx() * rows_ * cols_, rows_ * cols_);
        scaleGm_.SetGlobalBuffer((__gm__ float *)scale, cols_);
        pipe_.InitBuffer(inQ_, 2, cols_ * sizeof(int32_t));
        pipe_.InitBuffer(outQ_, 2, cols_ * sizeof(half));
        pipe_.InitBuffer(scaleBuf_, cols_ * sizeof(float));
        pipe_.InitBuffer(fBuf_, cols_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> s = scaleBuf_.Get<float>();
        DataCopy(s, scaleGm_, cols_);
        PipeBarrier<PIPE_ALL>();
        for (uint32_t r = 0; r < rows_; ++r)
        {  // TIMING_PROBE_BRACE: DEQUANT_ROW
#if 0  // TIMING_PROBE: DEQUANT_ROW
            PipeBarrier<PIPE_ALL>();
            uint64_t probeStart_DEQUANT_ROW = GetSystemCycle();
#endif
            Row(r, s);
#if 0  // TIMING_PROBE: DEQUANT_ROW
            PipeBarrier<PIPE_ALL>();
            uint64_t probeEnd_DEQUANT_ROW = GetSystemCycle();
            if (GetBlockIdx() == 0) {
                printf("[DEQUANT_ROW] start=%lu end=%lu dur=%lu iter=%u\n", probeStart_DEQUANT_ROW,
                       probeEnd_DEQUANT_ROW, probeEnd_DEQUANT_ROW - probeStart_DEQUANT_ROW, r);
            }
#endif
        }  // TIMING_PROBE_BRACE: DEQUANT_ROW
    }

private:
    __aicore__ inline void Row(uint32_t r, const LocalTensor<float> &s)
    {
        LocalTensor<int32_t> acc = inQ_.AllocTensor<int32_t>();
        DataCopy(acc, accGm_[r * cols_], cols_);
        inQ_.EnQue(acc);
        acc = inQ_.DeQue<int32_t>();
        LocalTensor<float> f = fBuf_.Get<float>();
        LocalTensor<half> y = outQ_.AllocTensor<half>();
        Cast(f, acc, RoundMode::CAST_NONE, cols_);
        if (cols_ > 0)
        {  // TIMING_PROBE_BRACE: DEQUANT_MUL
#if 0  // TIMING_PROBE: DEQUANT_MUL
            PipeBarrier<PIPE_ALL>();
            uint64_t probeStart_DEQUANT_MUL = GetSystemCycle();
#endif
            Mul(f, f, s, cols_);
#if 0  // TIMING_PROBE: DEQUANT_MUL
            PipeBarrier<PIPE_ALL>();
            uint64_t probeEnd_DEQUANT_MUL = GetSystemCycle();
            if (GetBlockIdx() == 0 && r == 0) {
                printf("[DEQUANT_MUL] start=%lu end=%lu dur=%lu\n", probeStart_DEQUANT_MUL, probeEnd_DEQUANT_MUL,
                       probeEnd_DEQUANT_MUL - probeStart_DEQUANT_MUL);
            }
#endif
        }  // TIMING_PROBE_BRACE: DEQUANT_MUL
        Cast(y, f, RoundMode::CAST_RINT, cols_);
        outQ_.EnQue(y);
        inQ_.FreeTensor(acc);
        y = outQ_.DeQue<half>();
        DataCopy(yGm_[r * cols_], y, cols_);
        outQ_.FreeTensor(y);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 2> inQ_;
    TQue<QuePosition::VECOUT, 2> outQ_;
    TBuf<TPosition::VECCALC> scaleBuf_, fBuf_;
    GlobalTensor<int32_t> accGm_;
    GlobalTensor<float> scaleGm_;
    GlobalTensor<half> yGm_;
    uint32_t rows_ = 0, cols_ = 0;
};

extern "C" __global__ __aicore__ void dequant_custom(GM_ADDR acc, GM_ADDR scale, GM_ADDR y, GM_ADDR ws, GM_ADDR tiling)
{
    (void)ws;
    GET_TILING_DATA(t, tiling);
    KernelDequant op;
    op.Init(acc, scale, y, t.rows, t.cols);
    op.Process();
}
