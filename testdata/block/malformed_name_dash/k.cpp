#if 0  // TIMING_PROBE: STAGE-A
int b;
#endif
