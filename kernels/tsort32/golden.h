// golden.h - the independent TSORT32 reference the harness checks every
// output against. Written apart from the simulation: it includes none of its
// headers and shares no code with it. Any host code may include this.
#ifndef TSORT32_GOLDEN_H
#define TSORT32_GOLDEN_H

#include <cstddef>
#include <cstdint>
#include <vector>

// Expected dst bytes for R x C values (float, or half given as raw uint16
// bits): per row, each 32-element block's (value, index) pairs sorted by
// value descending, smaller index first on equal values (-0.0 == +0.0),
// written as 8-byte tuples [f32, u32] or [f16, 0x0000, u32]. idxRows is R,
// or 1 to use idx's single row for every row.
std::vector<uint8_t> GoldenTsort32(bool isHalf, uint32_t rows, uint32_t cols, const void *src,
				   const uint32_t *idx, uint32_t idxRows);

// The value of a binary16 bit pattern (NaN is not required).
double GoldenHalfValue(uint16_t bits);

#endif
