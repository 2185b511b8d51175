#include <pto/pto-inst.hpp>

using namespace pto;

// The whole kernel is written for the vector core of one architecture; a
// parse without the compiler's -D for it skips the body entirely.
#if __CCE_AICORE__ == 220 && defined(__DAV_C220_VEC__)
template <typename T>
AICORE void RunScale(__gm__ T *out, __gm__ T *in)
{
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
}

extern "C" __global__ AICORE void scale_kernel(__gm__ half *out, __gm__ half *in)
{
#if 1  // TIMING_PROBE: T_BASE
    uint64_t probeBase_T_BASE = get_sys_cnt();  // probe API: cce (--api KIND)
    if (get_block_idx() == 0) {
        printf("[T_BASE] %lu\n", probeBase_T_BASE);
    }
#endif
    RunScale<half>(out, in);
}
#endif
