#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(const int *p) { (void)p; }

template <typename T>
__aicore__ inline void Run(const int *b, const int *e, T n)
{
    for (const int *p = b; p != e; ++p) {
        Work(p);
    }
    for (T i = 0; i < n; ++i) {
        Work(b);
    }
}
