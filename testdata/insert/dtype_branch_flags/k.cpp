#include "kernel_operator.h"
using namespace AscendC;

template <typename TX, typename TScale>
class MoeDispatch {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR tiling) { (void)x; (void)scale; (void)tiling; }
    __aicore__ inline void Process() {}
};

extern "C" __global__ __aicore__ void moe_dispatch(GM_ADDR x, GM_ADDR scale, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)workspace;
#if (ORIG_DTYPE_EXPAND_X == DT_BF16) || (ORIG_DTYPE_EXPAND_X == DT_FLOAT16)
    MoeDispatch<DTYPE_X, DTYPE_X> op;
    op.Init(x, scale, tiling);
    op.Process();
#elif (ORIG_DTYPE_EXPAND_X == DT_INT8)
    MoeDispatch<DTYPE_X, DTYPE_DYNAMIC_SCALES> op;
    op.Init(x, scale, tiling);
    op.Process();
#endif
}
