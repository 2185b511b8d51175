/**
 * @file add_custom_tque.cpp
 *
 * Elementwise z = x + y on the vector cores, written the way the Ascend C
 * samples teach it: one class per operator, a TPipe owning the unified
 * buffer, VECIN/VECOUT queues with double buffering, and the classic
 * Init / Process / CopyIn / Compute / CopyOut split.
 *
 * 说明：本算子每个核处理 totalLength / GetBlockNum() 个元素，
 *       每个核内部再切成 TILE_NUM * BUFFER_NUM 块做流水。
 */
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;   // 双缓冲：搬入与计算重叠
constexpr int32_t TILE_NUM = 8;     // 每个核内的切块数
} // namespace

struct AddCustomTilingData {
    uint32_t totalLength;
    uint32_t tileNum;
};

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        // 每个核负责的元素个数
        this->blockLength = totalLength / GetBlockNum();
        this->tileNum = tileNum;
        this->tileLength = this->blockLength / tileNum / BUFFER_NUM;

        xGm.SetGlobalBuffer((__gm__ half *)x + this->blockLength * GetBlockIdx(), this->blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + this->blockLength * GetBlockIdx(), this->blockLength);
        zGm.SetGlobalBuffer((__gm__ half *)z + this->blockLength * GetBlockIdx(), this->blockLength);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(half));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, this->tileLength * sizeof(half));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, this->tileLength * sizeof(half));
    }

    __aicore__ inline void Process()
    {
#if 0  // TIMING_PROBE: STAGE_PROCESS
        // whole pipeline of this core; start: earlier work drained
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_STAGE_PROCESS = GetSystemCycle();
#endif
        int32_t loopCount = this->tileNum * BUFFER_NUM;
        for (int32_t i = 0; i < loopCount; i++) {
#if 0  // TIMING_PROBE: STAGE_COPYIN
            PipeBarrier<PIPE_ALL>();
            uint64_t probeStart_STAGE_COPYIN = GetSystemCycle();
#endif
            CopyIn(i);
#if 0  // TIMING_PROBE: STAGE_COPYIN
            // EnQue only issues: the barrier waits for MTE2 to land
            PipeBarrier<PIPE_ALL>();
            uint64_t probeEnd_STAGE_COPYIN = GetSystemCycle();
            if (GetBlockIdx() == 0) {
                printf("[STAGE_COPYIN] start=%lu end=%lu dur=%lu iter=%u\n", probeStart_STAGE_COPYIN,
                       probeEnd_STAGE_COPYIN, probeEnd_STAGE_COPYIN - probeStart_STAGE_COPYIN, i);
            }
#endif
            Compute(i);
            CopyOut(i);
        }
#if 0  // TIMING_PROBE: STAGE_PROCESS
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_STAGE_PROCESS = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[STAGE_PROCESS] start=%lu end=%lu dur=%lu\n", probeStart_STAGE_PROCESS,
                   probeEnd_STAGE_PROCESS, probeEnd_STAGE_PROCESS - probeStart_STAGE_PROCESS);
        }
#endif
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
        DataCopy(xLocal, xGm[progress * this->tileLength], this->tileLength);
        DataCopy(yLocal, yGm[progress * this->tileLength], this->tileLength);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute(int32_t progress)
    {
        LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        LocalTensor<half> yLocal = inQueueY.DeQue<half>();
        LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
#if 0  // TIMING_PROBE: STAGE_COMPUTE
        // DeQue returned: the inputs are in UB, compute starts now
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_STAGE_COMPUTE = GetSystemCycle();
#endif
        Add(zLocal, xLocal, yLocal, this->tileLength);
#if 0  // TIMING_PROBE: STAGE_COMPUTE
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_STAGE_COMPUTE = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[STAGE_COMPUTE] start=%lu end=%lu dur=%lu iter=%d\n", probeStart_STAGE_COMPUTE,
                   probeEnd_STAGE_COMPUTE, probeEnd_STAGE_COMPUTE - probeStart_STAGE_COMPUTE, progress);
        }
#endif
        outQueueZ.EnQue<half>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
#if 0  // TIMING_PROBE: STAGE_COPYOUT
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_STAGE_COPYOUT = GetSystemCycle();
#endif
        DataCopy(zGm[progress * this->tileLength], zLocal, this->tileLength);
#if 0  // TIMING_PROBE: STAGE_COPYOUT
        // MTE3 finished writing back to GM only after the barrier
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_STAGE_COPYOUT = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[STAGE_COPYOUT] start=%lu end=%lu dur=%lu iter=%d\n", probeStart_STAGE_COPYOUT,
                   probeEnd_STAGE_COPYOUT, probeEnd_STAGE_COPYOUT - probeStart_STAGE_COPYOUT, progress);
        }
#endif
        outQueueZ.FreeTensor(zLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<half> xGm;
    GlobalTensor<half> yGm;
    GlobalTensor<half> zGm;
    uint32_t blockLength;
    uint32_t tileNum;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
#if 0  // TIMING_PROBE: T_BASE
    // the zero of the timeline: first statement of the entry
    uint64_t probeBase = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[T_BASE] %lu\n", probeBase);
    }
#endif
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    __gm__ AddCustomTilingData *tilingData = reinterpret_cast<__gm__ AddCustomTilingData *>(tiling);
    KernelAdd op;
    op.Init(x, y, z, tilingData->totalLength, tilingData->tileNum);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
// 仅用于 NPU 侧的调用封装 (kernel launch with <<<>>>)
void add_custom_do(uint32_t blockDim, void *l2ctrl, void *stream, uint8_t *x, uint8_t *y, uint8_t *z,
                   uint8_t *workspace, uint8_t *tiling)
{
    add_custom<<<blockDim, l2ctrl, stream>>>(x, y, z, workspace, tiling);
}
#endif
