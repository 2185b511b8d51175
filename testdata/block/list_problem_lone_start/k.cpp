void f()
{
#if 0  // TIMING_PROBE: STAGE_C
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart = GetSystemCycle();
#endif
    Work();
}
