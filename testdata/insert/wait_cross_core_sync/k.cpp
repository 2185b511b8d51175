#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void allgather_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm[GetBlockIdx() * 64], 64);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(yGm[GetBlockIdx() * 64], t, 64);
    SyncAll();
    (void)workspace;
}
