// The runtime's context accessors, as much of them as a kernel calls.
#pragma once
#include <cstdint>
int32_t get_block_idx(__gm__ int64_t *args);
int32_t get_block_num(__gm__ int64_t *args);
