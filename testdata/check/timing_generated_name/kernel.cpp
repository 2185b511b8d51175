// A hand strip that removed the marked tail and helpers but kept two lines of the slot.
#include <cstdint>

#include "tensor.h"

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args) {
    const uint64_t pk_tt_task = static_cast<uint64_t>(args[4]);
    const uint64_t pk_tt1_slot = static_cast<uint64_t>(pk_tt_task) * static_cast<uint64_t>(get_block_num(args));
    __gm__ float *out = reinterpret_cast<__gm__ float *>(args[0]);
    out[get_block_idx(args)] = 1.0f;
}
