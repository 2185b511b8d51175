#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Load(int n) { (void)n; }
#define LOAD_TWO(n) Load(n); Load(n + 1)
#define LOAD_ONE(n) Load(n)

__aicore__ inline void Run(int n)
{
    LOAD_TWO(n);
    LOAD_ONE(n);
    Load(n);
}
