// 排序算子：中文注释测试
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; } // 工作函数

extern "C" {
// 入口函数（核函数）
__global__ __aicore__ void k_cn(GM_ADDR x)
{
    int n = 3; /* 数据量：三 */
    Work(n); // 计算阶段
    /* 写回阶段
       多行注释 */
    Work(n + 1);
}
}
