void k(int c)
{
	if (c) {  // TIMING_PROBE_BRACE: A split
#if 1  // TIMING_PROBE: A
		t0 = clock();
#endif
		ev[0] = r();  // TIMING_PROBE: @timing event 0
		work(/* TIMING_PROBE: @timing-was "a" */b/* TIMING_PROBE: @timing-end */);
	}  // TIMING_PROBE_BRACE: A
}
