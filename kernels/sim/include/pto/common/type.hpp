// pto/common/type.hpp - the PTO type vocabulary as the probekit CPU
// simulation provides it: tile and layout enums with pto-isa's public names,
// `half`, and the host's 16-bit float `aclFloat16` (the same type as `half`
// here, so a test may pass an aclFloat16 buffer where the kernel takes half).
// pto/pto-inst.hpp includes this; pto-isa's CPU tests include it directly.
#ifndef PKSIM_PTO_COMMON_TYPE_HPP
#define PKSIM_PTO_COMMON_TYPE_HPP

#include <cstdint>

#include "pksim/half.h"

namespace pto
{

enum class TileType { Vec, Mat, Left, Right, Acc, Bias, Scaling };
using Location = TileType; // older pto-isa spelling (Location::Vec)
enum class BLayout { RowMajor, ColMajor };
enum class SLayout { NoneBox, RowMajor, ColMajor };
enum class PadValue { Null, Zero, Max, Min };
enum class Layout { ND, DN, NZ };
enum class GlobalTensorDim { DIM_0 = 0, DIM_1, DIM_2, DIM_3, DIM_4 };

} // namespace pto

// The host-side half of AscendCL and its conversions.
typedef half aclFloat16;
typedef half float16_t;
typedef float float32_t;

inline float aclFloat16ToFloat(aclFloat16 value)
{
	return static_cast<float>(value);
}

inline aclFloat16 aclFloatToFloat16(float value)
{
	return aclFloat16(value);
}

#endif
