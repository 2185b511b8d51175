// a stand-in for the vendor SDK's header: only it declares SdkOnlyCall
// (PIPE_ALL, like the other CCE built-ins, comes from the compiler)
#pragma once
#include <stdint.h>
#define __aicore__
#define __global__
namespace AscendC {
int64_t GetSystemCycle();
int64_t GetBlockIdx();
template <int pipe> void PipeBarrier();
template <typename... A> void printf(const char *fmt, A...);
}
void SdkOnlyCall(int n);
