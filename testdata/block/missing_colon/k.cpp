#if 0  // TIMING_PROBE X
int b;
#endif
