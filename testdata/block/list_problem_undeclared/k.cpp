void f()
{
#if 0  // TIMING_PROBE: STAGE_B
    PipeBarrier<PIPE_ALL>();
    uint64_t probeBegin = GetSystemCycle();
#endif
    Work();
#if 0  // TIMING_PROBE: STAGE_B
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[STAGE_B] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
    }
#endif
}
