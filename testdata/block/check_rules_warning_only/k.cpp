void f()
{
    uint64_t probeStart_A = GetSystemCycle();
    usleep(10);
}
