#include <pto/pto-inst.hpp>

using namespace pto;

template <typename T, int Rows, int Cols>
AICORE void RunCopy(__gm__ T *dst, __gm__ T *src)
{
    using TileT = Tile<TileType::Vec, T, Rows, Cols>;
    TileT tile;
    TASSIGN(tile, 0x0);
    TLOAD(tile, src);
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    TSTORE(dst, tile);
}

extern "C" __global__ AICORE void copy_kernel(__gm__ half *dst, __gm__ half *src)
{
    RunCopy<half, 16, 256>(dst, src);
}
