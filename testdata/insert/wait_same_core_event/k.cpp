#include "kernel_operator.h"
using namespace AscendC;

class KernelReduceMax {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x);
        yGm.SetGlobalBuffer((__gm__ float *)y);
        pipe.InitBuffer(buf, 256 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> t = buf.Get<float>();
        DataCopy(t, xGm, 256);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        ReduceMax(t, t, t, 256);
        SetFlag<HardEvent::V_S>(EVENT_ID1);
        WaitFlag<HardEvent::V_S>(EVENT_ID1);
        float m = t.GetValue(0);
        yGm.SetValue(0, m);
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void reduce_max_custom(GM_ADDR x, GM_ADDR y)
{
    KernelReduceMax op;
    op.Init(x, y);
    op.Process();
}
