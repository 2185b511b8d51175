// golden.cpp - the TSORT32 reference: a plain insertion sort per 32-element
// block, stable by construction, on the real values.
#include "golden.h"

#include <cmath>
#include <cstring>
#include <limits>

double GoldenHalfValue(uint16_t bits)
{
	const int sign = bits >> 15;
	const int exp = (bits >> 10) & 0x1f;
	const int man = bits & 0x3ff;
	double v;
	if (exp == 0)
		v = std::ldexp(static_cast<double>(man), -24);
	else if (exp == 31)
		v = std::numeric_limits<double>::infinity();
	else
		v = std::ldexp(static_cast<double>(1024 + man), exp - 25);
	return sign ? -v : v;
}

namespace {

struct Entry {
	double key;
	uint32_t index;
	uint32_t rawBits; // the value's own bits, so -0.0 stays -0.0
};

// a goes before b: larger value first, then smaller index
bool Before(const Entry &a, const Entry &b)
{
	if (a.key != b.key)
		return a.key > b.key;
	return a.index < b.index;
}

void InsertionSort(Entry *e, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		Entry x = e[i];
		size_t j = i;
		while (j > 0 && Before(x, e[j - 1])) {
			e[j] = e[j - 1];
			j--;
		}
		e[j] = x;
	}
}

Entry Read(bool isHalf, const void *src, size_t at, uint32_t index)
{
	Entry e{};
	e.index = index;
	if (isHalf) {
		uint16_t b;
		std::memcpy(&b, static_cast<const uint8_t *>(src) + at * 2, 2);
		e.rawBits = b;
		e.key = GoldenHalfValue(b);
	} else {
		float f;
		std::memcpy(&f, static_cast<const uint8_t *>(src) + at * 4, 4);
		std::memcpy(&e.rawBits, &f, 4);
		e.key = f;
	}
	return e;
}

void WriteTuple(bool isHalf, uint8_t *out, const Entry &e)
{
	std::memset(out, 0, 8);
	if (isHalf) {
		const uint16_t b = static_cast<uint16_t>(e.rawBits);
		std::memcpy(out, &b, 2); // bytes 2..3 stay 0x0000
	} else {
		std::memcpy(out, &e.rawBits, 4);
	}
	std::memcpy(out + 4, &e.index, 4);
}

} // namespace

std::vector<uint8_t> GoldenTsort32(bool isHalf, uint32_t rows, uint32_t cols, const void *src,
				   const uint32_t *idx, uint32_t idxRows)
{
	std::vector<uint8_t> out(static_cast<size_t>(rows) * cols * 8, 0);
	for (uint32_t r = 0; r < rows; r++) {
		const uint32_t *rowIdx = idx + static_cast<size_t>(idxRows == 1 ? 0 : r) * cols;
		for (uint32_t first = 0; first < cols; first += 32) {
			const uint32_t n = cols - first < 32 ? cols - first : 32;
			Entry block[32];
			for (uint32_t k = 0; k < n; k++)
				block[k] = Read(isHalf, src, static_cast<size_t>(r) * cols + first + k, rowIdx[first + k]);
			InsertionSort(block, n);
			for (uint32_t k = 0; k < n; k++)
				WriteTuple(isHalf, &out[(static_cast<size_t>(r) * cols + first + k) * 8], block[k]);
		}
	}
	return out;
}
