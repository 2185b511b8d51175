void Run()
{
#if 0  // TIMING_PROBE: STAGE_B
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart = GetSystemCycle();
#endif
    Launch();
}
