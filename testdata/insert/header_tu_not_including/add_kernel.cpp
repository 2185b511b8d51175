#include "kernel_operator.h"
using namespace AscendC;

#define ADD_DOUBLE_BUFFER 1
struct AddTiling {
    uint32_t totalLength;
    uint32_t tileLength;
};
#include "stage.h"

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR z, GM_ADDR tiling)
{
    AddTiling t{1024, 128};
    GlobalTensor<half> src;
    src.SetGlobalBuffer((__gm__ half *)x, t.totalLength);
    LocalTensor<half> dst;
    CopyIn(t, src, dst);
}
