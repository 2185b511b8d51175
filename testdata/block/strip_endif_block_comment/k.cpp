int a;
#if 0  // TIMING_PROBE: X
int b;
#endif /* end of X
          still the comment */
int c;
