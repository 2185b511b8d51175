#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n, int m)
{
    while (n > 0 && m > 0) {
        Work(n);
        --m;
    }
    while (n > 0) {
        Work(m);
        m = n;
    }
}
