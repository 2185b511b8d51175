int a;
#if 1  // TIMING_PROBE: X
printf("[X] start=%d\n", 1);
#endif