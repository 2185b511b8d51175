uint64_t t = GetSystemCycle();
