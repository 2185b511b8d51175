#ifdef DEBUG // TIMING_PROBE: X
int b;
#endif
