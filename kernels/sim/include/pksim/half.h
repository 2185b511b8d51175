// pksim/half.h - the 16-bit IEEE binary16 `half` the board compiler provides
// as a built-in type. Included by kernel_operator.h; kernels never include it.
// Conversions round to nearest even, keep -0.0, inf and subnormals, so values
// and their bits survive a trip through the simulation unchanged.
#ifndef PKSIM_HALF_H
#define PKSIM_HALF_H

#include <cstdint>
#include <cstring>

namespace pksim {

class Half {
public:
	Half() = default;
	Half(float f) : bits_(FromFloat(f)) {}
	Half(double d) : bits_(FromFloat(static_cast<float>(d))) {}
	Half(int i) : bits_(FromFloat(static_cast<float>(i))) {}
	operator float() const { return ToFloat(bits_); }

	static Half FromBits(uint16_t b)
	{
		Half h;
		h.bits_ = b;
		return h;
	}
	uint16_t Bits() const { return bits_; }

	static float ToFloat(uint16_t h)
	{
		uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
		uint32_t exp = (h >> 10) & 0x1fu;
		uint32_t man = h & 0x3ffu;
		uint32_t out;
		if (exp == 0x1f) {
			out = sign | 0x7f800000u | (man << 13);
		} else if (exp != 0) {
			out = sign | ((exp + 112u) << 23) | (man << 13);
		} else if (man == 0) {
			out = sign;
		} else {
			// subnormal half: normalise into a float exponent
			int e = -1;
			do {
				man <<= 1;
				e++;
			} while ((man & 0x400u) == 0);
			out = sign | (static_cast<uint32_t>(112 - e) << 23) | ((man & 0x3ffu) << 13);
		}
		float f;
		std::memcpy(&f, &out, sizeof(f));
		return f;
	}

	static uint16_t FromFloat(float f)
	{
		uint32_t x;
		std::memcpy(&x, &f, sizeof(x));
		uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
		uint32_t exp = (x >> 23) & 0xffu;
		uint32_t man = x & 0x7fffffu;
		if (exp == 0xff)
			return static_cast<uint16_t>(sign | 0x7c00u | (man ? 0x200u : 0u));
		int e = static_cast<int>(exp) - 127 + 15;
		if (e >= 0x1f)
			return static_cast<uint16_t>(sign | 0x7c00u);
		if (e <= 0) {
			if (e < -10)
				return sign;
			man |= 0x800000u;
			int shift = 14 - e;
			uint32_t half_man = man >> shift;
			uint32_t rest = man & ((1u << shift) - 1);
			uint32_t mid = 1u << (shift - 1);
			if (rest > mid || (rest == mid && (half_man & 1u)))
				half_man++;
			return static_cast<uint16_t>(sign | half_man);
		}
		uint32_t half_man = man >> 13;
		uint32_t rest = man & 0x1fffu;
		uint32_t out = (static_cast<uint32_t>(e) << 10) | half_man;
		if (rest > 0x1000u || (rest == 0x1000u && (half_man & 1u)))
			out++; // may carry into the exponent, which is the right result
		return static_cast<uint16_t>(sign | out);
	}

private:
	uint16_t bits_;
};

} // namespace pksim

using half = pksim::Half;

#endif
