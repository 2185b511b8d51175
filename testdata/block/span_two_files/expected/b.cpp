void Wait()
{
    WaitFlag();
#if 1  // TIMING_PROBE: STAGE_B
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd = GetSystemCycle();
    printf("[STAGE_B] start=%lu end=%lu\n", probeStart, probeEnd);
#endif
#if 1  // TIMING_PROBE: T_BASE
    printf("[T_BASE] %lu\n", (uint64_t)GetSystemCycle());
#endif
}
