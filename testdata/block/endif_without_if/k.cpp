int a;
#endif
#if 0  // TIMING_PROBE: Y
#endif
