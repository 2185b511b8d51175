#if 1  // TIMING_PROBE: T_BASE
printf("[T_BASE] %lu\n", c);
#endif
int z;
