int a;
    f(/* TIMING_PROBE: @timing-was "x" */y/* TIMING_PROBE: @timing-end */);  // TIMING_PROBE: @timing sample
int b;
