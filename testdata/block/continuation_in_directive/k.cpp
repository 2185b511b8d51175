#if 0 \
  // TIMING_PROBE: SPLIT
int a;
#endif
int z;
