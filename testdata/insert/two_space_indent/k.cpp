#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n)
{
  if (n) {
    Work(n);
  }
}
