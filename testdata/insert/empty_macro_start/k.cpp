#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Run(GM_ADDR workspace, int n)
{
    __gm__ uint8_t *user = GetUserWorkspace(workspace);
    __gm__ float *acc = reinterpret_cast<__gm__ float *>(user);
    for (int i = 0; i < n; i++) {
        acc[i] = 0.0f;
    }
}
