#if 0  // TIMING_PROBE: CONT
#define PK_PRINT(x) \
    printf("[CONT] start=%lu\n", \
#endif
    (x))
    int v = 1 + \
#endif
    2;
#endif
int z;
