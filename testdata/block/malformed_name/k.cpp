#if 0  // TIMING_PROBE: 9X
int b;
#endif
#if 0  // TIMING_PROBE: X
#endif
