void g()
{
    uint64_t t = GetSystemCycle();
}
