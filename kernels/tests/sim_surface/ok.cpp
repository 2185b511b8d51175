// A simpler task kernel spelled as the runtime's CPU simulation compiles it
// (-D__CPU_SIM): the block from intrinsic.h, the clock from
// aicpu/device_time.h, pto-isa's writeback. The surface tests beside it each
// break one of these and must fail to compile.
#include <cstdint>

#include "pto/pto-inst.hpp"
#include "tensor.h"
#include "intrinsic.h"
#include "aicpu/device_time.h"

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
    __gm__ ChipTensor *out_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ int64_t *row = reinterpret_cast<__gm__ int64_t *>(out_t->buffer.addr) + out_t->start_offset;
    row[0] = get_block_idx(args);
    row[1] = static_cast<int64_t>(sys_cnt_now_ticks());
    dcci(reinterpret_cast<__gm__ void *>(row), cache_line_t::SINGLE_CACHE_LINE);
    dsb(DSB_DDR);
}
