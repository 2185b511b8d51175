#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Seen(int n)
{
    Work(n);
}

__aicore__ inline void Unseen(int n)
{
    SdkOnlyCall(n);
    Work(n);
}
