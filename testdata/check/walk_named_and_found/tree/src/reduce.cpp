// Sum one block's tile into the accumulator.
extern "C" __global__ __aicore__ void reduce_tile(GM_ADDR acc, GM_ADDR tile)
{
    uint64_t probeStart_REDUCE = GetSystemCycle();
    Accumulate(acc, tile);
}
