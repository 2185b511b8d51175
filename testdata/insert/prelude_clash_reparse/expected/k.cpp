#include "sim_types.h"

// a name from an SDK header that is absent here: an error of its own, so the
// clash with the prelude cannot simply be ignored
static TilingData g_tiling;

extern "C" __global__ __aicore__ void sort_kernel(__gm__ float *dst, __gm__ float *src)
{
    set_flag(PIPE_MTE2, PIPE_FIX_EXTRA, EVENT_ID0);
#if 1  // TIMING_PROBE: LOAD_WAIT
    // wait probe, same-core event, no barrier: start = the wait is reached (the awaited pipe may still be busy), end = the wait returned
    uint64_t probeStart_LOAD_WAIT = get_sys_cnt();  // probe API: cce (--api KIND)
#endif
    wait_flag(PIPE_MTE2, PIPE_FIX_EXTRA, EVENT_ID0);
#if 1  // TIMING_PROBE: LOAD_WAIT
    uint64_t probeEnd_LOAD_WAIT = get_sys_cnt();
    if (get_block_idx() == 0) {
        printf("[LOAD_WAIT] start=%lu end=%lu dur=%lu\n", probeStart_LOAD_WAIT, probeEnd_LOAD_WAIT, probeEnd_LOAD_WAIT - probeStart_LOAD_WAIT);
    }
#endif
    dst[0] = src[0];
}
