int a;
#if 0 // TIMING_PROBE: 1X
#endif
