#if 1 \
  // TIMING_PROBE: SPLIT
int a;
#endif
int z;
