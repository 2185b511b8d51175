#include "kernel_operator.h"
using namespace AscendC;

class FfnCompute {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) { (void)x; (void)y; }
    __aicore__ inline void Process() {}
};

extern "C" __global__ __aicore__ void ffn(GM_ADDR x, GM_ADDR y)
{
#if defined(__CCE_AICORE__)
    FfnCompute quant;
    quant.Init(x, y);
    quant.Process();
#else
    FfnCompute op;
    op.Init(x, y);
    op.Process();
#endif
}
