void f()
{
    uint64_t t0 = GetSystemCycle();
    // GetSystemCycle() in a comment is not code
    const char *s = "x";
#if 0  // TIMING_PROBE: OK
    uint64_t probeStart = GetSystemCycle();
#endif
    uint64_t t1 = get_sys_cnt ();
}
