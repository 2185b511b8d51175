#if 0 /* TIMING_PROBE: BC */ int x;
int a;
#endif
