// A kernel that calls printf with no header: the CCE compiler has it built in.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kern(GM_ADDR out)
{
    int64_t blk = AscendC::GetBlockIdx();
    printf("block %ld\n", blk);
    pipe_barrier(PIPE_ALL);
}
