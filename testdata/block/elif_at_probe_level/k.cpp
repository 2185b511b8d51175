#if 1  // TIMING_PROBE: E
int a;
#elif X
int b;
#endif
