#if 0  // MY_TIMING_PROBE: X
#endif
#if 0  // TIMING_PROBE: REAL
#endif
