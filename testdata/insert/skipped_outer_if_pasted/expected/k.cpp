#include <pto/pto-inst.hpp>

using namespace pto;

template <typename T>
AICORE void DequantTile(__gm__ T *dst, __gm__ T *src)
{
    using TileT = Tile<TileType::Vec, T, 1, 64>;
    TileT t;
    TASSIGN(t, 0x0);
    TLOAD(t, src);
    pipe_barrier(PIPE_ALL);
    TSTORE(dst, t);
}

extern "C" __global__ AICORE void dequant_kernel(__gm__ float *dst, __gm__ float *src)
{
#if ORIG_DTYPE_SCALE != DT_FLOAT
#if ORIG_DTYPE_Y == DT_FLOAT
    DequantTile<float>(dst, src);
#elif ORIG_DTYPE_Y == DT_INT32
#if 1  // TIMING_PROBE: DEQ_INT
    pipe_barrier(PIPE_ALL);
    uint64_t probeStart_DEQ_INT = get_sys_cnt();  // probe API: cce (--api KIND)
#endif
    DequantTile<int32_t>(reinterpret_cast<__gm__ int32_t *>(dst), reinterpret_cast<__gm__ int32_t *>(src));
#if 1  // TIMING_PROBE: DEQ_INT
    pipe_barrier(PIPE_ALL);
    uint64_t probeEnd_DEQ_INT = get_sys_cnt();
    if (get_block_idx() == 0) {
        printf("[DEQ_INT] start=%lu end=%lu dur=%lu\n", probeStart_DEQ_INT, probeEnd_DEQ_INT, probeEnd_DEQ_INT - probeStart_DEQ_INT);
    }
#endif
#endif
#endif
}
