#if 2 // TIMING_PROBE: X
int b;
#endif
