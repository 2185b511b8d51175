// Just enough of the runtime's tensor descriptor for the kernel to parse.
#pragma once
#include <cstdint>
#ifndef __gm__
#define __gm__
#endif
#ifndef __aicore__
#define __aicore__ [aicore]
#endif
struct ChipBuffer {
    uint64_t addr;
};
struct ChipTensor {
    ChipBuffer buffer;
    uint64_t start_offset;
};
int32_t get_block_idx(__gm__ int64_t *args);
int32_t get_block_num(__gm__ int64_t *args);
uint64_t get_sys_cnt();
