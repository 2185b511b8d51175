void Wait()
{
    WaitFlag();
#if 0  // TIMING_PROBE: STAGE_B
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd = GetSystemCycle();
    printf("[STAGE_B] start=%lu end=%lu\n", probeStart, probeEnd);
#endif
#if 1  // TIMING_PROBE: STAGE_C
    printf("[STAGE_C] %lu\n", (uint64_t)GetSystemCycle());
#endif
}
