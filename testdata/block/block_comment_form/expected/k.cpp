int a;
#if 1 /* TIMING_PROBE: BC */
printf("[BC] start=%d\n", 1);
#endif
int z;
