void f()
{
    uint64_t t = GetSystemCycle();
}
