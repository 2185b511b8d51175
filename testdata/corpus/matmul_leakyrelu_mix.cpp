/*
 * matmul_leakyrelu_mix.cpp - C = LeakyReLU(A * B + bias), a mixed kernel.
 *
 * Cube cores (AIC) run the matmul into a GM workspace, one tile per loop;
 * each vector core (AIV, two per AIC) waits for its tile through a cross-core
 * flag, applies bias + LeakyReLU on half of the rows, and writes C.
 *
 *   AIC:  Mmad tile k  -> Fixpipe to workspace -> CrossCoreSetFlag(FLAG_MM)
 *   AIV:  CrossCoreWaitFlag(FLAG_MM) -> CopyIn -> LeakyRelu -> CopyOut
 *         -> CrossCoreSetFlag(FLAG_FREE) so the cube may reuse the slot
 *
 * 混合算子: AIC 与 AIV 共存时 GetBlockIdx() == 0 不能唯一确定打印核,
 * 因此 AIV 侧的打印条件再加 GetSubBlockIdx() == 0。
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

#define FLAG_MM 3        /* AIC -> AIV: a workspace tile is ready   */
#define FLAG_FREE 4      /* AIV -> AIC: the workspace slot is free  */
#define CUBE_MODE 2      /* mode 2: one AIC paired with its AIVs    */
#define WS_SLOTS 2

struct MatmulLeakyTiling {
    int32_t M, N, K;
    int32_t baseM, baseN;
    int32_t tilesPerCore;
    float alpha;
    TCubeTiling cube;
};

template <typename aType, typename bType, typename cType, typename biasType>
class MatmulLeakyKernel {
public:
    __aicore__ inline MatmulLeakyKernel() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws,
                                const MatmulLeakyTiling &tiling, TPipe *pipe);
    __aicore__ inline void Process();

    using A_T = MatmulType<TPosition::GM, CubeFormat::ND, aType>;
    using B_T = MatmulType<TPosition::GM, CubeFormat::ND, bType>;
    using C_T = MatmulType<TPosition::GM, CubeFormat::ND, cType>;
    using BIAS_T = MatmulType<TPosition::GM, CubeFormat::ND, biasType>;
    Matmul<A_T, B_T, C_T, BIAS_T> mm;

private:
    __aicore__ inline void CubeLoop();
    __aicore__ inline void VectorLoop();
    __aicore__ inline void VecTile(int32_t tile);

    MatmulLeakyTiling t;
    TPipe *pipe = nullptr;
    GlobalTensor<aType> aGm;
    GlobalTensor<bType> bGm;
    GlobalTensor<biasType> biasGm;
    GlobalTensor<cType> cGm;
    GlobalTensor<cType> wsGm;
    TQue<QuePosition::VECIN, 1> inQue;
    TQue<QuePosition::VECOUT, 1> outQue;
};

template <typename aType, typename bType, typename cType, typename biasType>
__aicore__ inline void MatmulLeakyKernel<aType, bType, cType, biasType>::Init(
    GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws, const MatmulLeakyTiling &tiling, TPipe *pipeIn)
{
    t = tiling;
    pipe = pipeIn;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ aType *>(a), t.M * t.K);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ bType *>(b), t.K * t.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ biasType *>(bias), t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ cType *>(c), t.M * t.N);
    wsGm.SetGlobalBuffer(reinterpret_cast<__gm__ cType *>(ws) + GetBlockIdx() * WS_SLOTS * t.baseM * t.baseN,
                         WS_SLOTS * t.baseM * t.baseN);
    if ASCEND_IS_AIV {
        pipe->InitBuffer(inQue, 1, t.baseM / 2 * t.baseN * sizeof(cType));
        pipe->InitBuffer(outQue, 1, t.baseM / 2 * t.baseN * sizeof(cType));
    }
}

template <typename aType, typename bType, typename cType, typename biasType>
__aicore__ inline void MatmulLeakyKernel<aType, bType, cType, biasType>::Process()
{
    if ASCEND_IS_AIC {
        CubeLoop();
        return;
    }
    if ASCEND_IS_AIV {
        VectorLoop();
    }
}

template <typename aType, typename bType, typename cType, typename biasType>
__aicore__ inline void MatmulLeakyKernel<aType, bType, cType, biasType>::CubeLoop()
{
#if 0  // TIMING_PROBE: STAGE_A
    // producer (cube) stage of this core: all tiles computed and announced
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_STAGE_A = GetSystemCycle();
#endif
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetBias(biasGm);
    for (int32_t tile = 0; tile < t.tilesPerCore; ++tile) {
        if (tile >= WS_SLOTS) {
            // wait until the vector side has consumed this slot
            CrossCoreWaitFlag<CUBE_MODE, PIPE_FIX>(FLAG_FREE);
        }
        mm.Iterate();
        mm.GetTensorC(wsGm[(tile % WS_SLOTS) * t.baseM * t.baseN]);
        // Iterate/GetTensorC return once issued: the flag is set on PIPE_FIX
        // so it fires after the fixpipe write-out, not at issue
        CrossCoreSetFlag<CUBE_MODE, PIPE_FIX>(FLAG_MM);
    }
    mm.End();
#if 0  // TIMING_PROBE: STAGE_A
    // end after the last notification, not when Iterate returned
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_STAGE_A = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[STAGE_A] start=%lu end=%lu dur=%lu block=%u\n", probeStart_STAGE_A, probeEnd_STAGE_A,
               probeEnd_STAGE_A - probeStart_STAGE_A, (uint32_t)GetBlockIdx());
    }
#endif
}

template <typename aType, typename bType, typename cType, typename biasType>
__aicore__ inline void MatmulLeakyKernel<aType, bType, cType, biasType>::VectorLoop()
{
    for (int32_t tile = 0; tile < t.tilesPerCore; ++tile) {
#if 0  // TIMING_PROBE: STAGE_B_WAIT
        // how long the vector core sits in the wait
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_STAGE_B_WAIT = GetSystemCycle();
#endif
        CrossCoreWaitFlag<CUBE_MODE, PIPE_MTE2>(FLAG_MM);
#if 0  // TIMING_PROBE: STAGE_B_WAIT
        uint64_t probeEnd_STAGE_B_WAIT = GetSystemCycle();
        if (GetBlockIdx() == 0 && GetSubBlockIdx() == 0) {
            printf("[STAGE_B_WAIT] start=%lu end=%lu dur=%lu iter=%d\n", probeStart_STAGE_B_WAIT,
                   probeEnd_STAGE_B_WAIT, probeEnd_STAGE_B_WAIT - probeStart_STAGE_B_WAIT, tile);
        }
#endif
#if 0  // TIMING_PROBE: STAGE_B
        // consumer starts after the wait returned
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_STAGE_B = GetSystemCycle();
#endif
        VecTile(tile);
        CrossCoreSetFlag<CUBE_MODE, PIPE_MTE3>(FLAG_FREE);
#if 0  // TIMING_PROBE: STAGE_B
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_STAGE_B = GetSystemCycle();
        if (GetBlockIdx() == 0 && GetSubBlockIdx() == 0) {
            printf("[STAGE_B] start=%lu end=%lu dur=%lu iter=%d\n", probeStart_STAGE_B, probeEnd_STAGE_B,
                   probeEnd_STAGE_B - probeStart_STAGE_B, tile);
        }
#endif
    }
}

template <typename aType, typename bType, typename cType, typename biasType>
__aicore__ inline void MatmulLeakyKernel<aType, bType, cType, biasType>::VecTile(int32_t tile)
{
    const int32_t half_rows = t.baseM / 2;
    const int32_t sub = GetSubBlockIdx();
    const int32_t wsOff = (tile % WS_SLOTS) * t.baseM * t.baseN + sub * half_rows * t.baseN;
    LocalTensor<cType> in = inQue.AllocTensor<cType>();
    DataCopy(in, wsGm[wsOff], half_rows * t.baseN);
    inQue.EnQue(in);
    in = inQue.DeQue<cType>();
    LocalTensor<cType> out = outQue.AllocTensor<cType>();
    LeakyRelu(out, in, (cType)t.alpha, half_rows * t.baseN);
    outQue.EnQue(out);
    inQue.FreeTensor(in);
    out = outQue.DeQue<cType>();
    const int32_t row0 = (GetBlockIdx() / 2 * t.tilesPerCore + tile) * t.baseM + sub * half_rows;
    DataCopyParams p{ (uint16_t)half_rows, (uint16_t)(t.baseN * sizeof(cType) / 32), 0,
                      (uint16_t)((t.N - t.baseN) * sizeof(cType) / 32) };
    DataCopy(cGm[row0 * t.N], out, p);
    outQue.FreeTensor(out);
}

extern "C" __global__ __aicore__ void matmul_leakyrelu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
#if 0  // TIMING_PROBE: T_BASE
    // both core types print their own base: cross-core cycles are not yet known to agree
    uint64_t probeBase = GetSystemCycle();
    if (GetBlockIdx() == 0 && GetSubBlockIdx() == 0) {
        printf("[T_BASE] %lu\n", probeBase);
    }
#endif
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR userWs = GetUserWorkspace(workspace);
    if (userWs == nullptr) {
        return;
    }
    TPipe pipe;
    MatmulLeakyKernel<half, half, float, float> op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cube);
    op.Init(a, b, bias, c, userWs, tilingData, &pipe);
    op.Process();
}
