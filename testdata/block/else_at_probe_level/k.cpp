#if 0  // TIMING_PROBE: E
int a;
#else
int b;
#endif
