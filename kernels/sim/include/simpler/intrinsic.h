// simpler/intrinsic.h - the simpler runtime's kernel-side intrinsics on the
// probekit CPU simulation (names as the runtime spells them, implementation
// of the simulation's own):
//   get_sys_cnt()            the simulated block's cycle counter, the very one
//                            AscendC::GetSystemCycle() reads (kernel_operator.h)
//   get_block_idx(args)      the block's index in the launch, read from the
//   get_block_num(args)      per-dispatch context whose address the runtime puts
//                            at args[SPMD_LOCAL_CONTEXT_INDEX]
//   get_sub_block_id(args)   the AIV lane, from the per-core context at
//                            args[SPMD_GLOBAL_CONTEXT_INDEX] (always 0: the
//                            simulation runs single vector blocks)
//   dcci(ptr, SINGLE_CACHE_LINE), dsb(DSB_DDR)
//                            writeback and fence: simulated GM is host memory,
//                            so only the argument contract is checked
// The context slots are filled by rt_submit_aiv_task (pto_orchestration_api.h)
// for every block it launches. Not modelled: async contexts, DMA workspaces,
// AIC / mixed tasks.
#ifndef PKSIMPLER_INTRINSIC_H
#define PKSIMPLER_INTRINSIC_H

#include <cstdint>

#include "kernel_operator.h" // qualifiers, get_sys_cnt(), the three-argument dcci

// Where the runtime's dispatch payload keeps its two context pointers, after
// the packed tensors and scalars.
constexpr int32_t SPMD_LOCAL_CONTEXT_INDEX = 48;
constexpr int32_t SPMD_GLOBAL_CONTEXT_INDEX = 49;
constexpr int32_t PKSIMPLER_PAYLOAD_WORDS = 64;

// Per dispatch (one block of one task).
struct LocalContext {
	int32_t block_idx;
	int32_t block_num;
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

// The runtime's two-argument writeback of one data-cache line.
constexpr cache_line_t SINGLE_CACHE_LINE = cache_line_t::SINGLE_CACHE_LINE;
template <typename T>
inline void dcci(__gm__ T *addr, cache_line_t line)
{
	dcci(addr, line, dcci_dst_t::CACHELINE_OUT);
}

// Memory fence: every simulated store is already visible.
enum dsb_mode_t { DSB_ALL = 0, DSB_DDR, DSB_UB, DSB_SEQ };
inline void dsb(dsb_mode_t) {}

#endif
