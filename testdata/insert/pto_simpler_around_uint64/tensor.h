// The runtime's tensor descriptor, as much of it as the kernel reads.
#pragma once
#include <cstdint>
struct PTOBufferHandle {
    uint64_t addr;
    uint64_t size;
};
struct ChipTensor {
    PTOBufferHandle buffer;
    uint64_t start_offset;
};
