int a;
#if 0 /* TIMING_PROBE: BC */
printf("[BC] start=%d\n", 1);
#endif
int z;
