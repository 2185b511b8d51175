uint64_t probeStart_B = GetSystemCycle();
