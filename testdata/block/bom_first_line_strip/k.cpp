#if 0  // TIMING_PROBE: X
#endif
int z;
