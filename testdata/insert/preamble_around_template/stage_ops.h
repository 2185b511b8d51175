// Stage helpers of a two-step kernel: declarations the kernel sees through
// -I, with bodies (a template among them) that a parse may skip.
#pragma once
#include <cstdarg>
#include <cstdint>
#include <cstdio>

namespace AscendC {
template <int P>
inline void PipeBarrier() {}
inline int64_t GetBlockIdx() { return 0; }
inline void printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::vprintf(fmt, ap);
    va_end(ap);
}
inline uint64_t GetSystemCycle()
{
    static uint64_t t = 0;
    return t += 7;
}
template <typename T>
inline void ScaleTile(T *dst, const T *src, uint32_t n, T k)
{
    for (uint32_t i = 0; i < n; i++)
        dst[i] = src[i] * k;
}
}  // namespace AscendC
