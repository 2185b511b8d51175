void f()
{
    uint64_t probeStart_0 = GetSystemCycle(); // probe-check: allow(cycle-read)
    uint64_t probeStart_1 = GetSystemCycle(); // probe-check: allow(probe-printf)
    uint64_t probeStart_2 = GetSystemCycle(); // probe-check: allow(base-printf, cycle-read)
}
