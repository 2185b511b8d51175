void f(__gm__ uint64_t *timingRow)
{
    dcci(timingRow, cache_line_t::SINGLE_CACHE_LINE);
    dcci(dataPtr, 0);
}
