// get_sys_cnt() under -D__CPU_SIM: the simulation declares none.
#include <cstdint>

#include "pto/pto-inst.hpp"
#include "tensor.h"
#include "intrinsic.h"

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
    __gm__ ChipTensor *out_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ int64_t *row = reinterpret_cast<__gm__ int64_t *>(out_t->buffer.addr) + out_t->start_offset;
    row[0] = get_sys_cnt();
}
