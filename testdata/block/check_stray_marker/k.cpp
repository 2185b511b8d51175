int a; // TIMING_PROBE: GONE left over
