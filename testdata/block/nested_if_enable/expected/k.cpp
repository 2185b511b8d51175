void f()
{
#if 1  // TIMING_PROBE: NEST
#if defined(__CCE_KT_TEST__)
    uint64_t probeStart = 0;
#elif __NPU_ARCH__ >= 220
    uint64_t probeStart = GetSystemCycle();
#else
#  ifdef OLD
    uint64_t probeStart = get_sys_cnt();
#  endif
#endif
    printf("[NEST] start=%lu\n", probeStart);
#endif
    Work();
}
