void f()
{
    uint64_t t0 = GetSystemCycle(); // probe-check: allow(cycle-read)
    uint64_t t1 = GetSystemCycle(); // probe-check: allow(probe-printf)
    uint64_t t2 = GetSystemCycle(); // probe-check: allow(base-printf, cycle-read)
}
