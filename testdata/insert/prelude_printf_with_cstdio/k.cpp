// A kernel whose CPU build prints through <cstdio>: the prelude's printf
// and the C library's are one function, so nothing here fails to parse.
#include <cstdio>
#include "kernel_operator.h"

using namespace AscendC;

__aicore__ inline void Report(int64_t blk, int64_t cycles)
{
    char line[64];
    std::snprintf(line, sizeof(line), "blk %lld", static_cast<long long>(blk));
    printf("%s took %lld\n", line, static_cast<long long>(cycles));
    std::fflush(stdout);
}

extern "C" __global__ __aicore__ void kern(GM_ADDR out)
{
    int64_t blk = GetBlockIdx();
    pipe_barrier(PIPE_ALL);
    Report(blk, 0);
}
