#if 0  // TIMING_PROBE:
int b;
#endif
