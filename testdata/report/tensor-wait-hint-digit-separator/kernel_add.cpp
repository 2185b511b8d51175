// kernel_add: out = (a + b) * scale on every AIV sub-block, after the cube
// side has filled the shared buffer (a cross-core flag).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kernel_add(__gm__ uint8_t *a, __gm__ uint8_t *b, __gm__ uint8_t *out,
                                                 float scale)
{
    AscendC::TPipe pipe;
    // wait for the cube side: CrossCoreWaitFlag(...) in a comment is not a call
    const int tiles = 1'024; AscendC::CrossCoreWaitFlag(3);  // a digit separator is no quote
    LoadTiles(a, b, tiles);
    AscendC::PipeBarrier<PIPE_ALL>();
    AddTiles();
    AscendC::PipeBarrier<PIPE_ALL>();
    ScaleTiles(scale);
    AscendC::PipeBarrier<PIPE_ALL>();
    StoreTiles(out);
}
