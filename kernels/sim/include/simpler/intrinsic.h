// simpler/intrinsic.h - the simpler runtime's kernel-side context accessors on
// the probekit CPU simulation (names as the runtime's intrinsic.h spells them,
// implementation of the simulation's own). As in the runtime, a kernel gets
// them only by including this header (tensor.h and the orchestration API do
// not bring them):
//   get_block_idx(args)      the block's index in the launch, read from the
//   get_block_num(args)      per-dispatch context whose address the runtime puts
//                            at args[SPMD_LOCAL_CONTEXT_INDEX]
//   get_sub_block_id(args)   the AIV lane, from the per-core context at
//                            args[SPMD_GLOBAL_CONTEXT_INDEX] (always 0: the
//                            simulation runs single vector blocks)
// and, as the runtime's dispatch context, the task instance's token at
// LocalContext::async_ctx.task_token.raw: (ring << 32) | local id, the id
// simpler's chip swimlane calls task_id (one ring here, local ids counted
// from 0 in each orchestration run).
// The clock is not here: get_sys_cnt() on the device is the compiler's, and
// under -D__CPU_SIM the runtime's counter is sys_cnt_now_ticks() from
// aicpu/device_time.h. dcci(ptr, cache_line_t::SINGLE_CACHE_LINE) and
// dsb(DSB_DDR) come from pto-isa (pto/pto-inst.hpp).
// The context slots are filled by rt_submit_aiv_task (pto_orchestration_api.h)
// for every block it launches. Not modelled: async contexts, DMA workspaces,
// AIC / mixed tasks; of the async context only the task token.
#ifndef PKSIMPLER_INTRINSIC_H
#define PKSIMPLER_INTRINSIC_H

#include <cstdint>

#ifndef __gm__
#define __gm__
#endif
#ifndef __aicore__
#define __aicore__
#endif

// Where the runtime's dispatch payload keeps its two context pointers, after
// the packed tensors and scalars.
constexpr int32_t SPMD_LOCAL_CONTEXT_INDEX = 48;
constexpr int32_t SPMD_GLOBAL_CONTEXT_INDEX = 49;
constexpr int32_t PKSIMPLER_PAYLOAD_WORDS = 64;

// A task instance's token, as the runtime spells it.
struct PTO2TaskId {
	uint64_t raw;
};

struct AsyncCtx {
	PTO2TaskId task_token;
};

// Per dispatch (one block of one task).
struct LocalContext {
	int32_t block_idx;
	int32_t block_num;
	AsyncCtx async_ctx;
};

// Per core.
struct GlobalContext {
	int32_t sub_block_id;
};

inline int32_t get_block_idx(__gm__ int64_t *args)
{
	return reinterpret_cast<__gm__ LocalContext *>(static_cast<uintptr_t>(args[SPMD_LOCAL_CONTEXT_INDEX]))->block_idx;
}

inline int32_t get_block_num(__gm__ int64_t *args)
{
	return reinterpret_cast<__gm__ LocalContext *>(static_cast<uintptr_t>(args[SPMD_LOCAL_CONTEXT_INDEX]))->block_num;
}

inline int32_t get_sub_block_id(__gm__ int64_t *args)
{
	return reinterpret_cast<__gm__ GlobalContext *>(static_cast<uintptr_t>(args[SPMD_GLOBAL_CONTEXT_INDEX]))
		->sub_block_id;
}

#endif
