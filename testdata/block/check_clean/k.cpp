// 纯净内核：没有探针
extern "C" __global__ __aicore__ void kern(GM_ADDR x)
{
    Compute(x);
}
