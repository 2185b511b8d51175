#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n)
{
    if (n > 4) Work(n);
    for (int i = 0; i < n; ++i) Work(i); // one line
    if (n > 8) Work(1); else Work(2);
    while (n > 0) --n;
}
