#include <pto/pto-inst.hpp>

using namespace pto;

template <typename T>
AICORE void SortTile(__gm__ T *dst, __gm__ T *src, __gm__ uint32_t *idx)
{
    using TileT = Tile<TileType::Vec, T, 1, 256>;
    using IdxT = Tile<TileType::Vec, uint32_t, 1, 256>;
    TileT s, d;
    IdxT i;
    TASSIGN(s, 0x0);
    TASSIGN(d, 0x400);
    TASSIGN(i, 0x800);
    TLOAD(s, src);
    TLOAD(i, idx);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TSORT32(d, s, i)
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(dst, d);
}

extern "C" __global__ AICORE void sort_kernel(__gm__ float *dst, __gm__ float *src, __gm__ uint32_t *idx)
{
    SortTile<float>(dst, src, idx);
}
