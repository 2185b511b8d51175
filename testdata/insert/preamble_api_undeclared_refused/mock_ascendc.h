// A CPU mock of the few Ascend C names this kernel uses, for host unit tests.
#pragma once
#include <cstdint>

namespace AscendC {
template <typename T>
struct GlobalTensor {
    T *p = nullptr;
    void SetGlobalBuffer(T *q) { p = q; }
};
inline void CopyMock(float *d, const float *s, int n)
{
    for (int i = 0; i < n; i++)
        d[i] = s[i];
}
}  // namespace AscendC
