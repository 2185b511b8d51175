// pto_tile_helpers_noprobe.hpp - helpers shared by the PTO kernels of this
// directory: UB placement arithmetic and tile type shortcuts. No probes:
// headers stay clean, probes live in the kernels that use them.
#pragma once

#include <pto/pto-inst.hpp>

#include <cstdint>
#include <type_traits>

namespace pkh {

using pto::BLayout;
using pto::Tile;
using pto::TileType;

inline constexpr uint32_t kUbAlign = 32;

constexpr uint32_t AlignUp(uint32_t bytes, uint32_t align = kUbAlign)
{
    return (bytes + align - 1) / align * align;
}

// Row-major vector tile; an unboxed row must be a multiple of 32 bytes.
template <typename T, int ROWS, int COLS, int VROWS = ROWS, int VCOLS = COLS>
using VecTile = Tile<TileType::Vec, T, ROWS, COLS, BLayout::RowMajor, VROWS, VCOLS>;

template <typename T, int ROWS, int COLS>
constexpr uint32_t TileBytes()
{
    static_assert((COLS * sizeof(T)) % kUbAlign == 0, "row must be 32-byte aligned");
    return static_cast<uint32_t>(ROWS * COLS * sizeof(T));
}

// Offsets of N tiles laid one after another, each 32-byte aligned.
template <uint32_t... SIZES>
struct UbLayout;

template <>
struct UbLayout<> {
    static constexpr uint32_t kEnd = 0;
};

template <uint32_t FIRST, uint32_t... REST>
struct UbLayout<FIRST, REST...> {
    static constexpr uint32_t kSize = AlignUp(FIRST);
    static constexpr uint32_t kEnd = kSize + UbLayout<REST...>::kEnd;
};

#define PKH_ASSIGN2(t0, t1, off0)                                   \
    do {                                                            \
        TASSIGN(t0, (off0));                                        \
        TASSIGN(t1, pkh::AlignUp((off0) + sizeof(t0)));             \
    } while (0)

#if defined(PKH_TRACE_TILES)
#define PKH_TRACE(tile) printf("tile %s at %p\n", #tile, (void *)&(tile))
#else
#define PKH_TRACE(tile) ((void)0)
#endif

// a manual-mode handoff from the load pipe to the vector pipe
inline void MteToVec(event_t ev)
{
    set_flag(PIPE_MTE2, PIPE_V, ev);
    wait_flag(PIPE_MTE2, PIPE_V, ev);
}

inline void VecToMte3(event_t ev)
{
    set_flag(PIPE_V, PIPE_MTE3, ev);
    wait_flag(PIPE_V, PIPE_MTE3, ev);
}

} // namespace pkh
