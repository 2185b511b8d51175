/* Parse stub: the simpler runtime's kernel accessors, which read the task's
 * context from the packed argument array. probekit's parse finds this file
 * only when the kernel's own include path has no intrinsic.h; a build uses
 * the runtime's header. */
#pragma once
#include <stdint.h>
int32_t get_block_idx(__gm__ int64_t *args);
int32_t get_block_num(__gm__ int64_t *args);
int32_t get_sub_block_id(__gm__ int64_t *args);
int32_t get_sub_block_num(__gm__ int64_t *args);
