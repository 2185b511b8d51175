#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Run(int n)
{
    SdkOnlyCall(n);
}
