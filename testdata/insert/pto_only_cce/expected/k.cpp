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
#if 1  // TIMING_PROBE: LOAD
    // wait probe, same-core event, no barrier: start = the wait is reached (the awaited pipe may still be busy), end = the wait returned
    uint64_t probeStart_LOAD = get_sys_cnt();  // probe API: cce (--api KIND)
#endif
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
#if 1  // TIMING_PROBE: LOAD
    uint64_t probeEnd_LOAD = get_sys_cnt();
    if (get_block_idx() == 0) {
        printf("[LOAD] start=%lu end=%lu dur=%lu\n", probeStart_LOAD, probeEnd_LOAD, probeEnd_LOAD - probeStart_LOAD);
    }
#endif
    TSTORE(dst, tile);
}

extern "C" __global__ AICORE void copy_kernel(__gm__ half *dst, __gm__ half *src)
{
    RunCopy<half, 16, 256>(dst, src);
}
