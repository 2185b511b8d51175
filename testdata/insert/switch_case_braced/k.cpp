#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n)
{
    switch (n) {
    case 0:
        Work(0);
        break;
    case 1: {
        Work(1);
        break;
    }
    }
}
