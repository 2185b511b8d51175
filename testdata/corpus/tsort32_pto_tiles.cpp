// tsort32_pto_tiles.cpp - TSORT32 over rows of float/half, PTO tile style.
//
// Each block sorts `rowsPerBlock` rows. Per row, the 32-element groups are
// sorted by value (descending, stable on index) into (value, index) pairs.
// Manual synchronisation: TLOAD -> set/wait MTE2->V -> TSORT32 ->
// set/wait V->MTE3 -> TSTORE. The 4-argument form handles a row width that
// is not a multiple of 32 with a tmp tile placed right after dst.
#include <pto/pto-inst.hpp>

#include <cstdint>
#include <type_traits>

using namespace pto;

namespace tsort {

constexpr int kBlockElems = 32;
constexpr int kUbBytes = 192 * 1024;        // unified buffer of one AIV core
constexpr uint32_t kAlign = 32;

constexpr uint32_t CeilAlign(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// dst tuple width in T slots: float -> [value, index]; half -> [value, 0, index(2)]
template <typename T>
constexpr int PairSlots() { return std::is_same<T, float>::value ? 2 : 4; }

template <typename T, int ROWS, int COLS>
struct SortTiles {
    using Src = Tile<TileType::Vec, T, ROWS, COLS, BLayout::RowMajor, ROWS, -1>;
    using Idx = Tile<TileType::Vec, uint32_t, ROWS, COLS, BLayout::RowMajor, ROWS, -1>;
    using Dst = Tile<TileType::Vec, T, ROWS, COLS * PairSlots<T>(), BLayout::RowMajor, ROWS, -1>;
    using Tmp = Tile<TileType::Vec, T, 1, COLS, BLayout::RowMajor, 1, -1>;

    // UB layout: src | idx | dst | tmp, each 32-byte aligned; tmp follows dst (never a fixed 8 KB)
    static constexpr uint32_t kSrcOff = 0;
    static constexpr uint32_t kIdxOff = CeilAlign(kSrcOff + ROWS * COLS * sizeof(T), kAlign);
    static constexpr uint32_t kDstOff = CeilAlign(kIdxOff + ROWS * COLS * sizeof(uint32_t), kAlign);
    static constexpr uint32_t kTmpOff = CeilAlign(kDstOff + ROWS * COLS * PairSlots<T>() * sizeof(T), kAlign);
    static constexpr uint32_t kEnd = CeilAlign(kTmpOff + COLS * sizeof(T), kAlign);
    static_assert(kEnd <= kUbBytes, "tiles must fit the unified buffer");
};

template <typename T, int ROWS, int COLS>
__aicore__ inline void SortRows(__gm__ T *src, __gm__ uint32_t *idx, __gm__ T *dst, int validCol, bool idxBroadcast)
{
    using TL = SortTiles<T, ROWS, COLS>;
    using GSrc = GlobalTensor<T, Shape<1, 1, 1, ROWS, COLS>, Stride<1, 1, 1, COLS, 1>>;
    using GIdx = GlobalTensor<uint32_t, Shape<1, 1, 1, ROWS, COLS>, Stride<1, 1, 1, COLS, 1>>;
    using GIdxRow = GlobalTensor<uint32_t, Shape<1, 1, 1, ROWS, COLS>, Stride<1, 1, 1, 0, 1>>;
    using GDst = GlobalTensor<T, Shape<1, 1, 1, ROWS, COLS * PairSlots<T>()>,
                              Stride<1, 1, 1, COLS * PairSlots<T>(), 1>>;

    typename TL::Src srcTile(ROWS, validCol);
    typename TL::Idx idxTile(ROWS, validCol);
    typename TL::Dst dstTile(ROWS, validCol * PairSlots<T>());
    typename TL::Tmp tmpTile(1, validCol);
    TASSIGN(srcTile, TL::kSrcOff);
    TASSIGN(idxTile, TL::kIdxOff);
    TASSIGN(dstTile, TL::kDstOff);
    TASSIGN(tmpTile, TL::kTmpOff);

    GSrc srcGlobal(src);
    GDst dstGlobal(dst);

#if 0  // TIMING_PROBE: SORT_LOAD
    pipe_barrier(PIPE_ALL);
    uint64_t probeStart = get_sys_cnt();
#endif
    TLOAD(srcTile, srcGlobal);
    if (idxBroadcast) {
        GIdxRow idxGlobal(idx);     // one index row shared by every row: row stride 0
        TLOAD(idxTile, idxGlobal);
    } else {
        GIdx idxGlobal(idx);
        TLOAD(idxTile, idxGlobal);
    }
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
#if 0  // TIMING_PROBE: SORT_LOAD
    // TLOAD only issued the copy; it has landed once wait_flag returned
    pipe_barrier(PIPE_ALL);
    uint64_t probeEnd = get_sys_cnt();
    if (get_block_idx() == 0) {
        printf("[SORT_LOAD] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
    }
#endif

#if 0  // TIMING_PROBE: SORT_COMPUTE
    pipe_barrier(PIPE_ALL);
    uint64_t probeStart = get_sys_cnt();
#endif
    if (validCol % kBlockElems == 0) {
        TSORT32(dstTile, srcTile, idxTile);
    } else {
        // tail block padded with -inf by the 4-argument form: it sorts last
        TSORT32(dstTile, srcTile, idxTile, tmpTile);
    }
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
#if 0  // TIMING_PROBE: SORT_COMPUTE
    pipe_barrier(PIPE_ALL);
    uint64_t probeEnd = get_sys_cnt();
    if (get_block_idx() == 0) {
        printf("[SORT_COMPUTE] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
    }
#endif

#if 0  // TIMING_PROBE: SORT_STORE
    pipe_barrier(PIPE_ALL);
    uint64_t probeStart = get_sys_cnt();
#endif
    TSTORE(dstGlobal, dstTile);
#if 0  // TIMING_PROBE: SORT_STORE
    pipe_barrier(PIPE_ALL);   // TSTORE is async: drain MTE3 before the sample
    uint64_t probeEnd = get_sys_cnt();
    if (get_block_idx() == 0) {
        printf("[SORT_STORE] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
    }
#endif
}

} // namespace tsort

// Shapes from the reference tests: float (2,32,32), half (4,64,64), float (2,13,16) with tail.
extern "C" __global__ __aicore__ void tsort32_f32_2x32(__gm__ float *src, __gm__ uint32_t *idx, __gm__ float *dst)
{
#if 0  // TIMING_PROBE: T_BASE
    uint64_t probeBase = get_sys_cnt();
    if (get_block_idx() == 0) {
        printf("[T_BASE] %lu\n", probeBase);
    }
#endif
    const int64_t b = get_block_idx();
    tsort::SortRows<float, 32, 32>(src + b * 32 * 32, idx + b * 32 * 32, dst + b * 32 * 64, 32, false);
}

extern "C" __global__ __aicore__ void tsort32_f16_4x64(__gm__ half *src, __gm__ uint32_t *idx, __gm__ half *dst)
{
    const int64_t b = get_block_idx();
    tsort::SortRows<half, 64, 64>(src + b * 64 * 64, idx + b * 64 * 64, dst + b * 64 * 256, 64, false);
}

extern "C" __global__ __aicore__ void tsort32_f32_tail(__gm__ float *src, __gm__ uint32_t *idx, __gm__ float *dst)
{
    // 13 rows x 16 valid columns in a 32-column tile; idx is broadcast (1 x C)
    const int64_t b = get_block_idx();
    tsort::SortRows<float, 13, 32>(src + b * 13 * 16, idx, dst + b * 13 * 32, 16, true);
}
