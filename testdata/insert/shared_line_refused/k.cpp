#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n)
{
    Work(n); Work(n + 1);
    Work(n + 2); /* a comment
                    over two lines */
}
