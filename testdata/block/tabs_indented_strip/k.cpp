void f()
{
	  #  if 0 //TIMING_PROBE:TABS
	uint64_t probeStart = GetSystemCycle();
	  #  endif
	Work();
	#	if	0	//	TIMING_PROBE:	TABS
	printf("[TABS] start=%lu\n", probeStart);
	#endif
}
