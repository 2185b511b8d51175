void f()
{
	  #  if 1 //TIMING_PROBE:TABS
	uint64_t probeStart = GetSystemCycle();
	  #  endif
	Work();
	#	if	1	//	TIMING_PROBE:	TABS
	printf("[TABS] start=%lu\n", probeStart);
	#endif
}
