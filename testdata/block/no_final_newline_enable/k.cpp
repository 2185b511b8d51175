int a;
#if 0  // TIMING_PROBE: X
printf("[X] start=%d\n", 1);
#endif