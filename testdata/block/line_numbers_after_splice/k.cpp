# \
  define X 1
#if 0  // TIMING_PROBE: B
printf("[B] start=%d\n", 1);
#endif
