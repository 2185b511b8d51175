// 排序算子：中文注释测试
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; } // 工作函数

extern "C" {
// 入口函数（核函数）
__global__ __aicore__ void k_cn(GM_ADDR x)
{
    int n = 3; /* 数据量：三 */
#if 1  // TIMING_PROBE: STAGE_A
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_STAGE_A = GetSystemCycle();
#endif
    Work(n); // 计算阶段
    /* 写回阶段
       多行注释 */
    Work(n + 1);
#if 1  // TIMING_PROBE: STAGE_A
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_STAGE_A = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[STAGE_A] start=%lu end=%lu dur=%lu\n", probeStart_STAGE_A, probeEnd_STAGE_A, probeEnd_STAGE_A - probeStart_STAGE_A);
    }
#endif
}
}
