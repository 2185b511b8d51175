// tsort32_tiling.h - the tiling block the host writes to GM for the TSORT32
// kernel, and the layout limits both sides must agree on. Included by the
// kernel and by its harness.
#ifndef TSORT32_TILING_H
#define TSORT32_TILING_H

#include <cstdint>

enum Tsort32Dtype : uint32_t { TSORT32_FLOAT = 0, TSORT32_HALF = 1 };

struct Tsort32Tiling {
	uint32_t dtype;   // Tsort32Dtype
	uint32_t rows;    // R: rows of src and of dst
	uint32_t cols;    // C: valid columns of src (dst has C 8-byte tuples a row)
	uint32_t idxRows; // R, or 1 to broadcast one idx row to every row
};

// Tiles are static; a launch picks the narrow or the wide layout by C.
// Narrow: up to 16 rows of up to 256 columns per block.
// Wide: one row of up to 8192 columns per block.
constexpr uint32_t TSORT32_NARROW_ROWS = 16;
constexpr uint32_t TSORT32_NARROW_COLS = 256;
constexpr uint32_t TSORT32_WIDE_ROWS = 1;
constexpr uint32_t TSORT32_WIDE_COLS = 8192;

// Rows of block `block` out of `blocks`: an even split, earlier blocks
// taking the remainder. Every block owns at least one row (blocks <= rows).
struct Tsort32Rows {
	uint32_t first;
	uint32_t count;
};

inline Tsort32Rows Tsort32RowsOf(uint32_t block, uint32_t blocks, uint32_t rows)
{
	const uint32_t base = rows / blocks, extra = rows % blocks;
	const uint32_t first = block * base + (block < extra ? block : extra);
	return { first, base + (block < extra ? 1u : 0u) };
}

#endif
