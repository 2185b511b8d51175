#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n)
{
    int left = n;
    do {
        Work(left);
        left--;
    } while (left > 0);
    if (n > 2)
        Work(2);
    else
        Work(3);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            Work(i + j);
}
