#if 0  // TIMING_PROBE: OUTER
#if 0  // TIMING_PROBE: INNER
int b;
#endif
#endif
