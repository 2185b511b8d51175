#include "kernel_operator.h"
using namespace AscendC;

static uint64_t probeStart_W = 0;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int probeEnd_W_2)
{
    Work(probeEnd_W_2);
}
