void f()
{
    uint64_t probeStart_X = GetSystemCycle();
}
