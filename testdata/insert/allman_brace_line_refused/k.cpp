#include "kernel_operator.h"
using namespace AscendC;

constexpr int Sq(int x)
{
    return x * x;
}

__aicore__ inline void Run(int n)
{
    if (n)
    {
        Sq(n);
    }
}
