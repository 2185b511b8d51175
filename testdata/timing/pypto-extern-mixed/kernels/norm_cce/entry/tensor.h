// A small stand-in for the runtime's tensor descriptor and intrinsics.
#pragma once
#include <cstdint>
struct PyPTORuntimeBuffer {
    uint64_t addr;
};
struct PyPTORuntimeTensor {
    PyPTORuntimeBuffer buffer;
    uint64_t start_offset;
};
int32_t get_block_idx(__gm__ int64_t *args);
int32_t get_block_num(__gm__ int64_t *args);
uint64_t get_sys_cnt();
