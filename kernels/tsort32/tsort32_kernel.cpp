// tsort32_kernel.cpp - TSORT32 over R rows spread across the launch's blocks,
// in PTO / Ascend C style (docs/kernel.md). The same text builds for the board and for
// the CPU simulation (kernels/sim/include).
//
// Phases of every block:
//   producer  load its rows of src and idx (MTE2), sort every 32-element
//             block with TSORT32 (3-argument form for 32-aligned rows,
//             4-argument form with tmp for a tail), write the sorted
//             tuples to a GM workspace (MTE3) and notify the other blocks;
//   collective  wait until every block has notified (cross-core flag);
//   consumer  write back the next block's rows from the workspace to dst,
//             so a missing or broken collective shows up as wrong output.
//
// Probes (all off, in the canonical disabled form, `#if 0`): T_BASE at entry; one per
// stage (STAGE_A producer, STAGE_B consumer); STAGE_B_WAIT around the
// collective; STAGE_A_LOAD / STAGE_A_COMPUTE / STAGE_A_WRITEBACK split the
// producer, the slowest stage. Asynchronous boundaries: the producer ends after
// its notification, the consumer starts after the wait returns.
#include "kernel_operator.h"
#include "pto/pto-inst.hpp"

#include "tsort32_tiling.h"

using namespace AscendC;
using namespace pto;

namespace {

constexpr uint16_t kSortedFlag = 0; // cross-core flag: "my rows are in the workspace"

template <typename T, uint32_t TR, uint32_t TC>
__aicore__ inline void Tsort32Body(__gm__ T *dst, __gm__ T *src, __gm__ uint32_t *idx, __gm__ T *work,
				   const Tsort32Tiling &tiling)
{
	constexpr uint32_t kTupleCols = 8 / sizeof(T); // dst columns per sorted element: [f32,u32] / [f16,0,u32]
	const uint32_t cols = tiling.cols;
	const uint32_t alignedCols = (cols + 31) / 32 * 32;
	const uint32_t blocks = GetBlockNum();
	const uint32_t me = GetBlockIdx();
	const Tsort32Rows mine = Tsort32RowsOf(me, blocks, tiling.rows);
	const Tsort32Rows next = Tsort32RowsOf((me + 1) % blocks, blocks, tiling.rows);
	const uint32_t idxRows = tiling.idxRows == 1 ? 1 : mine.count;
	const uint32_t idxFirst = tiling.idxRows == 1 ? 0 : mine.first;

	using SrcTile = Tile<TileType::Vec, T, TR, TC, BLayout::RowMajor, -1, -1>;
	using IdxTile = Tile<TileType::Vec, uint32_t, TR, TC, BLayout::RowMajor, -1, -1>;
	using DstTile = Tile<TileType::Vec, T, TR, TC * kTupleCols, BLayout::RowMajor, -1, -1>;
	using TmpTile = Tile<TileType::Vec, T, 1, TC, BLayout::RowMajor, 1, -1>;
	using RowsShape = Shape<1, 1, 1, -1, -1>;
	using RowsStride = Stride<1, 1, 1, -1, 1>;
	using ValGm = GlobalTensor<T, RowsShape, RowsStride>;
	using IdxGm = GlobalTensor<uint32_t, RowsShape, RowsStride>;

	// UB plan: src | idx | dst | tmp; tmp right after dst, 32-byte aligned,
	// ceil32(C) elements, which covers both targets' tmp-size rules.
	constexpr uint32_t kSrcUb = 0;
	constexpr uint32_t kIdxUb = kSrcUb + TR * TC * sizeof(T);
	constexpr uint32_t kDstUb = kIdxUb + TR * TC * sizeof(uint32_t);
	constexpr uint32_t kTmpUb = kDstUb + TR * TC * kTupleCols * sizeof(T);

	SrcTile srcTile(mine.count, cols);
	IdxTile idxTile(idxRows, cols);
	DstTile dstTile(mine.count, cols * kTupleCols);
	TmpTile tmpTile(1, alignedCols);
	TASSIGN(srcTile, kSrcUb);
	TASSIGN(idxTile, kIdxUb);
	TASSIGN(dstTile, kDstUb);
	TASSIGN(tmpTile, kTmpUb);

	const uint32_t tupleCols = cols * kTupleCols;
	ValGm srcGm(src + mine.first * cols, RowsShape(mine.count, cols), RowsStride(cols));
	IdxGm idxGm(idx + idxFirst * cols, RowsShape(idxRows, cols), RowsStride(cols));
	ValGm workMine(work + mine.first * tupleCols, RowsShape(mine.count, tupleCols), RowsStride(tupleCols));
	ValGm workNext(work + next.first * tupleCols, RowsShape(next.count, tupleCols), RowsStride(tupleCols));
	ValGm dstNext(dst + next.first * tupleCols, RowsShape(next.count, tupleCols), RowsStride(tupleCols));

#if 0  // TIMING_PROBE: STAGE_A
	// producer stage; start: existing pipeline drain completed
	PipeBarrier<PIPE_ALL>();
	uint64_t probeStart_STAGE_A = GetSystemCycle();
#endif

#if 0  // TIMING_PROBE: STAGE_A_LOAD
	// data move GM -> UB; start: existing pipeline drain completed
	PipeBarrier<PIPE_ALL>();
	uint64_t probeStart_STAGE_A_LOAD = GetSystemCycle();
#endif
	TLOAD(srcTile, srcGm);
	TLOAD(idxTile, idxGm);
	set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
	wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
#if 0  // TIMING_PROBE: STAGE_A_LOAD
	// end: the MTE2 -> V event completed, the loads have landed
	PipeBarrier<PIPE_ALL>();
	uint64_t probeEnd_STAGE_A_LOAD = GetSystemCycle();
	if (GetBlockIdx() == 0) {
		printf("[STAGE_A_LOAD] start=%lu end=%lu dur=%lu\n", probeStart_STAGE_A_LOAD, probeEnd_STAGE_A_LOAD,
		       probeEnd_STAGE_A_LOAD - probeStart_STAGE_A_LOAD);
	}
#endif

#if 0  // TIMING_PROBE: STAGE_A_COMPUTE
	// compute (VBS32 sort); start: existing pipeline drain completed
	PipeBarrier<PIPE_ALL>();
	uint64_t probeStart_STAGE_A_COMPUTE = GetSystemCycle();
#endif
	if (cols % 32 == 0) {
		TSORT32(dstTile, srcTile, idxTile);
	} else {
		TSORT32(dstTile, srcTile, idxTile, tmpTile);
	}
#if 0  // TIMING_PROBE: STAGE_A_COMPUTE
	// end: pipeline drain completed, the sort has retired
	PipeBarrier<PIPE_ALL>();
	uint64_t probeEnd_STAGE_A_COMPUTE = GetSystemCycle();
	if (GetBlockIdx() == 0) {
		printf("[STAGE_A_COMPUTE] start=%lu end=%lu dur=%lu\n", probeStart_STAGE_A_COMPUTE,
		       probeEnd_STAGE_A_COMPUTE, probeEnd_STAGE_A_COMPUTE - probeStart_STAGE_A_COMPUTE);
	}
#endif

#if 0  // TIMING_PROBE: STAGE_A_WRITEBACK
	// writeback UB -> GM workspace; start: existing pipeline drain completed
	PipeBarrier<PIPE_ALL>();
	uint64_t probeStart_STAGE_A_WRITEBACK = GetSystemCycle();
#endif
	set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
	wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
	TSTORE(workMine, dstTile);
#if 0  // TIMING_PROBE: STAGE_A_WRITEBACK
	// end: pipeline drain completed, the store has reached GM
	PipeBarrier<PIPE_ALL>();
	uint64_t probeEnd_STAGE_A_WRITEBACK = GetSystemCycle();
	if (GetBlockIdx() == 0) {
		printf("[STAGE_A_WRITEBACK] start=%lu end=%lu dur=%lu\n", probeStart_STAGE_A_WRITEBACK,
		       probeEnd_STAGE_A_WRITEBACK, probeEnd_STAGE_A_WRITEBACK - probeStart_STAGE_A_WRITEBACK);
	}
#endif

	// the flag is issued on MTE3, behind the store it announces
	CrossCoreSetFlag<0, PIPE_MTE3>(kSortedFlag);
#if 0  // TIMING_PROBE: STAGE_A
	// end: arrival at the collective, after the notification
	PipeBarrier<PIPE_ALL>();
	uint64_t probeEnd_STAGE_A = GetSystemCycle();
	if (GetBlockIdx() == 0) {
		printf("[STAGE_A] start=%lu end=%lu dur=%lu\n", probeStart_STAGE_A, probeEnd_STAGE_A,
		       probeEnd_STAGE_A - probeStart_STAGE_A);
	}
#endif

#if 0  // TIMING_PROBE: STAGE_B_WAIT
	// wait; start: arrival at the collective
	PipeBarrier<PIPE_ALL>();
	uint64_t probeStart_STAGE_B_WAIT = GetSystemCycle();
#endif
	CrossCoreWaitFlag<0, PIPE_S>(kSortedFlag);
#if 0  // TIMING_PROBE: STAGE_B_WAIT
	// end: release from the collective (the wait is its own probe)
	PipeBarrier<PIPE_ALL>();
	uint64_t probeEnd_STAGE_B_WAIT = GetSystemCycle();
	if (GetBlockIdx() == 0) {
		printf("[STAGE_B_WAIT] start=%lu end=%lu dur=%lu\n", probeStart_STAGE_B_WAIT, probeEnd_STAGE_B_WAIT,
		       probeEnd_STAGE_B_WAIT - probeStart_STAGE_B_WAIT);
	}
#endif

#if 0  // TIMING_PROBE: STAGE_B
	// consumer stage; start: release from the collective, after the wait returned
	PipeBarrier<PIPE_ALL>();
	uint64_t probeStart_STAGE_B = GetSystemCycle();
#endif
	DstTile sortedTile(next.count, tupleCols);
	TASSIGN(sortedTile, kDstUb);
	TLOAD(sortedTile, workNext);
	set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID1);
	wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID1);
	TSTORE(dstNext, sortedTile);
	pipe_barrier(PIPE_ALL);
#if 0  // TIMING_PROBE: STAGE_B
	// end: last active worker completed the writeback (pipeline drained)
	PipeBarrier<PIPE_ALL>();
	uint64_t probeEnd_STAGE_B = GetSystemCycle();
	if (GetBlockIdx() == 0) {
		printf("[STAGE_B] start=%lu end=%lu dur=%lu\n", probeStart_STAGE_B, probeEnd_STAGE_B,
		       probeEnd_STAGE_B - probeStart_STAGE_B);
	}
#endif
}

template <typename T>
__aicore__ inline void Tsort32Dispatch(GM_ADDR dst, GM_ADDR src, GM_ADDR idx, GM_ADDR work, const Tsort32Tiling &tiling)
{
	__gm__ T *d = reinterpret_cast<__gm__ T *>(dst);
	__gm__ T *s = reinterpret_cast<__gm__ T *>(src);
	__gm__ uint32_t *ix = reinterpret_cast<__gm__ uint32_t *>(idx);
	__gm__ T *w = reinterpret_cast<__gm__ T *>(work);
	if (tiling.cols <= TSORT32_NARROW_COLS)
		Tsort32Body<T, TSORT32_NARROW_ROWS, TSORT32_NARROW_COLS>(d, s, ix, w, tiling);
	else
		Tsort32Body<T, TSORT32_WIDE_ROWS, TSORT32_WIDE_COLS>(d, s, ix, w, tiling);
}

} // namespace

// dst: R x C tuples (8 bytes each); src: R x C values; idx: R x C or 1 x C;
// work: GM scratch the size of dst; tiling: one Tsort32Tiling.
extern "C" __global__ __aicore__ void tsort32_kernel(GM_ADDR dst, GM_ADDR src, GM_ADDR idx, GM_ADDR work,
						      GM_ADDR tiling)
{
#if 0  // TIMING_PROBE: T_BASE
	// base: work issued, the main flow's entry, before the tiling is read
	uint64_t probeBase_T_BASE = GetSystemCycle();
	if (GetBlockIdx() == 0) {
		printf("[T_BASE] %lu\n", probeBase_T_BASE);
	}
#endif
	const Tsort32Tiling t = *reinterpret_cast<__gm__ const Tsort32Tiling *>(tiling);
	if (t.dtype == TSORT32_HALF)
		Tsort32Dispatch<half>(dst, src, idx, work, t);
	else
		Tsort32Dispatch<float>(dst, src, idx, work, t);
}
