void f()
{
#if 0  // TIMING_PROBE: STAGE_C
    uint64_t probeStart = GetSystemCycle();
#endif
}

void g()
{
#if 0  // TIMING_PROBE: STAGE_C
    uint64_t probeEnd = GetSystemCycle();
    printf("[STAGE_C] start=%lu end=%lu\n", probeStart, probeEnd);
#endif
}
