// kernel_add: a rank-local add, then the sum of every rank's result with a
// collective of pto-isa's communication instructions, after a notification
// from the neighbour rank.
#include <pto/pto-inst.hpp>

using namespace pto;

extern "C" __global__ __aicore__ void kernel_add(__gm__ float *a, __gm__ float *b, __gm__ float *out,
                                                 __gm__ int32_t *signal)
{
    LoadTiles(a, b);
    AddTiles();
    TWAIT(signal, 1, WaitCmp::GE);  // the neighbour's partial sum is in place
    TREDUCE(out, out);
    /* TBROADCAST(out) in a comment is not a call, nor "TGATHER(x)" in a string */
    StoreTiles(out);
}
