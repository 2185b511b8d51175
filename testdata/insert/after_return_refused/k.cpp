#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline int Work(int n) { return n; }

__aicore__ inline int Run(int n)
{
    if (n < 0)
        return -1;
    Work(n);
    if (n == 0) {
        Work(0);
        return 0;
    }
    for (int i = 0; i < n; ++i)
        Work(i);
    return n;
}

__aicore__ inline void Tail(int n)
{
    Work(n);
}
