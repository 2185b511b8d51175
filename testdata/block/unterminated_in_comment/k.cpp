#if 0  // TIMING_PROBE: U
int b; /*
#endif
