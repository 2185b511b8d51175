// pto/common/constants.hpp - the vector-unit constants pto-isa's kernels
// name, as the probekit CPU simulation uses them (one 32-byte block, one
// 256-byte repeat, at most 255 repeats an issue).
#ifndef PKSIM_PTO_COMMON_CONSTANTS_HPP
#define PKSIM_PTO_COMMON_CONSTANTS_HPP

#include <cstdint>

namespace pto
{

constexpr int BLOCK_BYTE_SIZE = 32; // bytes of one vector block
constexpr int REPEAT_BYTE = 256;    // bytes one vector repeat covers
constexpr int REPEAT_MAX = 255;     // repeats one vector issue can carry

} // namespace pto

#endif
