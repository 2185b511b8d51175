// 排序内核：阶段 B 计时
void f()
{
#if 0  // TIMING_PROBE: 排序
    int a;
#endif
#if 0  // TIMING_PROBE: SORT_B  阶段B开始（中文注释）
    PipeBarrier<PIPE_ALL>();   // 等待所有流水线
    uint64_t probeStart = GetSystemCycle();
#endif
    Sort(); /* 归并排序 */
#if 0  // TIMING_PROBE: SORT_B
    uint64_t probeEnd = GetSystemCycle();
    printf("[SORT_B] start=%lu end=%lu 耗时\n", probeStart, probeEnd);
#endif
}
