// kernel_api.h - the slice of the Ascend C device API these cases use, so the
// golden output never depends on which SDK or stub headers are installed.
#pragma once
#include <stdint.h>
#define __global__
#define __aicore__
#define __gm__
#define GM_ADDR __gm__ uint8_t *
enum pipe_t { PIPE_MTE2, PIPE_V, PIPE_MTE3, PIPE_ALL };
enum class cache_line_t { SINGLE_CACHE_LINE };
enum class dcci_dst_t { CACHELINE_OUT };
template <typename T> void dcci(__gm__ T *, cache_line_t, dcci_dst_t) {}
void pipe_barrier(pipe_t);
namespace AscendC {
int64_t GetSystemCycle();
int64_t GetBlockIdx();
int64_t GetBlockNum();
int64_t GetSubBlockIdx();
int64_t GetTaskRation();
void SyncAll();
}
void Produce(__gm__ float *x, int32_t n);
void Consume(__gm__ float *y, int32_t n);
void CrossCoreSetFlag(int flag);
void CrossCoreWaitFlag(int flag);
