// SINGLE_CACHE_LINE unqualified: pto-isa names it cache_line_t::SINGLE_CACHE_LINE.
#include <cstdint>

#include "pto/pto-inst.hpp"
#include "tensor.h"
#include "intrinsic.h"

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
    __gm__ ChipTensor *out_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ int64_t *row = reinterpret_cast<__gm__ int64_t *>(out_t->buffer.addr) + out_t->start_offset;
    dcci(reinterpret_cast<__gm__ void *>(row), SINGLE_CACHE_LINE);
}
