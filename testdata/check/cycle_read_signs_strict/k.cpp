#include "kernel_operator.h"

namespace ops {
// a brace in a comment { does not open anything
class Barrier {
public:
    __aicore__ inline bool WaitAll(__gm__ int *flag, uint64_t timeout)
    {
        uint64_t begin = GetSystemCycle(); /* timeout logic: a note */
        const char *s = "}";
        while (*flag == 0) {
            if (GetSystemCycle() - begin > timeout) {
                return false;
            }
        }
        return true;
    }

    __aicore__ inline void Stage(int n)
    {
        uint64_t t0 = GetSystemCycle(); // a probe body left behind: its print is a sign
        Compute(n);
        uint64_t t1 = GetSystemCycle();
        printf("[STAGE] start=%lu end=%lu\n", t0, t1);
    }
};
} // namespace ops

__aicore__ inline void Copy(int n)
{
    uint64_t probeStart_COPY = GetSystemCycle(); // probe-inject's sample name
    CopyIn(n);
}

__aicore__ inline void Sort(int n)
{
#if 0  // TIMING_PROBE: SORT
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart = GetSystemCycle();
#endif
    uint64_t t = get_sys_cnt(); // beside a probe block: a left-over
    SortAll(n);
}

__aicore__ inline void Profile(__gm__ uint64_t *profile, int n)
{
    profile[0] = get_sys_cnt(); /* telemetry: a note */
    Work(n);
    profile[1] = get_sys_cnt();
}
