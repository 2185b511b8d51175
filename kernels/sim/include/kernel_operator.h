// kernel_operator.h - the Ascend C device API as the probekit CPU simulation
// provides it (names as in the public asc-devkit headers). A kernel includes this exactly as it would on the board;
// only the API the TSORT32 kernel and its probes use is simulated. Host code
// includes acl/acl.h instead.
#ifndef PKSIM_KERNEL_OPERATOR_H
#define PKSIM_KERNEL_OPERATOR_H

#include <cstddef>
#include <cstdint>

#include "pksim/device.h"
#include "pksim/half.h"

// Qualifiers of the board compiler: plain C++ in the simulation.
#define __global__
#define __aicore__
#define __gm__
#define __ubuf__
#define __in__ // operand direction annotations of pto-isa's kernels
#define __out__
#define GM_ADDR __gm__ uint8_t *
#define KERNEL_TASK_TYPE_DEFAULT(type)
// The simulation runs vector (AIV) blocks only.
#define ASCEND_IS_AIV (true)
#define ASCEND_IS_AIC (false)

enum pipe_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_V2, PIPE_FIX, PIPE_COUNT };
enum event_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };
enum class cache_line_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class dcci_dst_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

// Every simulated instruction completes before the next one starts, so a
// barrier has nothing to drain; flags are still checked for pairing because
// an unpaired wait_flag hangs the board.
inline void pipe_barrier(pipe_t) {}
inline void set_flag(pipe_t src, pipe_t dst, event_t ev) { pksim::PipeFlagSet(src, dst, ev); }
inline void wait_flag(pipe_t src, pipe_t dst, event_t ev) { pksim::PipeFlagWait(src, dst, ev); }
// get_sys_cnt() is the board compiler's intrinsic: a CPU simulation built with
// -D__CPU_SIM (pto-isa's, simpler's a2a3sim) declares none, and neither does
// this one (simpler's kernels read sys_cnt_now_ticks() from aicpu/device_time.h there).
#if !defined(__CPU_SIM)
inline int64_t get_sys_cnt() { return pksim::SystemCycle(); }
#endif
inline int64_t get_block_idx() { return pksim::BlockIdx(); }
inline int64_t get_block_num() { return pksim::BlockNum(); }
inline int64_t get_subblockid() { return 0; }

// dcci writes a 64-byte line back to GM; simulated GM is host memory, so only
// the argument contract remains.
template <typename T>
inline void dcci(__gm__ T *addr, cache_line_t, dcci_dst_t)
{
	if (addr == nullptr)
		pksim::Fail("dcci: null address");
}

namespace AscendC {

inline int64_t GetSystemCycle() { return pksim::SystemCycle(); }
inline int64_t GetBlockIdx() { return pksim::BlockIdx(); }
inline int64_t GetBlockNum() { return pksim::BlockNum(); }
inline int64_t GetSubBlockIdx() { return 0; }
inline int64_t GetSubBlockNum() { return 1; }
inline int64_t GetTaskRation() { return 1; }

template <pipe_t pipe>
inline void PipeBarrier() {}

// Device printf. A template so that, with `using namespace AscendC`, an
// unqualified printf(fmt, args...) in a kernel prefers it to ::printf
// (exact match beats the C ellipsis). Delivery is asynchronous: lines reach
// stdout after a delay, possibly after the stream has synchronised (hence the harness's late-print window).
template <typename... Args>
inline void printf(const char *fmt, Args... args)
{
	pksim::DevicePrintf(fmt, args...);
}
#define PRINTF AscendC::printf

// Cross-core flags (CrossCoreSetFlag / CrossCoreWaitFlag, flag ids 0-15). Mode 0 synchronises every block of the launch:
// CrossCoreWaitFlag returns once all blocks have set the flag.
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreSetFlag(uint16_t flagId)
{
	pksim::CrossCoreSet(modeId, flagId);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId)
{
	pksim::CrossCoreWait(modeId, flagId);
}
template <bool isAIVOnly = true>
inline void SyncAll()
{
	pksim::SyncAllBlocks();
}

} // namespace AscendC

#endif
