// tsort32_sim_test.cpp - TSORT32 cases of the test matrix (docs/kernel.md, Tests)
// that live below the kernel: repeat groups of 255 blocks, the tmp-size
// thresholds of both targets on both sides, and the rejected 3-argument
// tail. The device code is written as pto-isa's ST kernels are (5-D
// Shape/Stride, dynamic-valid tiles, TASSIGN offsets, manual-mode flags), so
// it doubles as a check that such kernels compile against the simulation.
// Usage: tsort32_sim_test CASE | --list. Exit 0 when the case holds.
#include "kernel_operator.h"
#include "pto/pto-inst.hpp"

#include "acl/acl.h"
#include "golden.h"
#include "pksim/host.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <time.h>

using namespace pto;

namespace {

struct SortArgs {
	uint32_t validCol;
	uint32_t tmpElems; // 0: the 3-argument form
};

template <typename T, int COLS>
__global__ AICORE void runTSORT32Row(__gm__ uint8_t *out, __gm__ uint8_t *src, __gm__ uint8_t *idx,
				     __gm__ uint8_t *args)
{
	constexpr int TYPE_COEF = sizeof(float) / sizeof(T);
	const SortArgs a = *reinterpret_cast<__gm__ SortArgs *>(args);
	using ValShape = pto::Shape<1, 1, 1, 1, -1>;
	using ValStride = pto::Stride<1, 1, 1, -1, 1>;
	using SrcGlobal = GlobalTensor<T, ValShape, ValStride>;
	using IdxGlobal = GlobalTensor<uint32_t, ValShape, ValStride>;

	using SrcTileData = Tile<TileType::Vec, T, 1, COLS, BLayout::RowMajor, -1, -1>;
	using IdxTileData = Tile<TileType::Vec, uint32_t, 1, COLS, BLayout::RowMajor, -1, -1>;
	using DstTileData = Tile<TileType::Vec, T, 1, TYPE_COEF * 2 * COLS, BLayout::RowMajor, -1, -1>;
	using TmpTileData = Tile<Location::Vec, T, 1, COLS, BLayout::RowMajor, -1, -1>;

	SrcTileData srcTile(1, a.validCol);
	IdxTileData idxTile(1, a.validCol);
	DstTileData dstTile(1, a.validCol * TYPE_COEF * 2);
	TASSIGN(srcTile, 0x0);
	TASSIGN(idxTile, COLS * sizeof(T));
	TASSIGN(dstTile, COLS * sizeof(T) + COLS * sizeof(uint32_t));

	SrcGlobal srcGlobal(reinterpret_cast<__gm__ T *>(src), ValShape(a.validCol), ValStride(a.validCol));
	IdxGlobal idxGlobal(reinterpret_cast<__gm__ uint32_t *>(idx), ValShape(a.validCol), ValStride(a.validCol));
	SrcGlobal dstGlobal(reinterpret_cast<__gm__ T *>(out), ValShape(a.validCol * TYPE_COEF * 2),
			    ValStride(a.validCol * TYPE_COEF * 2));

	TLOAD(srcTile, srcGlobal);
	TLOAD(idxTile, idxGlobal);
	set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
	wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
	if (a.tmpElems == 0) {
		TSORT32(dstTile, srcTile, idxTile);
	} else {
		// tmp right after dst, 32-byte aligned
		TmpTileData tmpTile(1, a.tmpElems);
		TASSIGN(tmpTile, COLS * sizeof(T) + COLS * sizeof(uint32_t) + TYPE_COEF * 2 * COLS * sizeof(T));
		TSORT32(dstTile, srcTile, idxTile, tmpTile);
	}
	set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
	wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
	TSTORE(dstGlobal, dstTile);
	pipe_barrier(PIPE_ALL);
}

// The reference shapes (docs/kernel.md) in pto-isa's ST form: static shapes, GM
// tensors built from the pointer alone, one multi-row tile.
template <typename T, uint32_t ROWS_, uint32_t COLS_, uint32_t VALID_R_, uint32_t VALID_C,
	  uint32_t ALIGN_C = (VALID_C + 31) / 32 * 32>
__global__ AICORE void runTSORT32Ref(__gm__ uint8_t *out, __gm__ uint8_t *src, __gm__ uint8_t *idx,
				     __gm__ uint8_t *)
{
	constexpr uint32_t TYPE_COEF = sizeof(float) / sizeof(T);
	using SrcGlobalData = GlobalTensor<T, pto::Shape<1, 1, 1, ROWS_, COLS_>, pto::Stride<1, 1, 1, COLS_, 1>>;
	using IdxGlobalData =
		GlobalTensor<uint32_t, pto::Shape<1, 1, 1, ROWS_, COLS_>, pto::Stride<1, 1, 1, COLS_, 1>>;
	using OutGlobalData = GlobalTensor<T, pto::Shape<1, 1, 1, ROWS_, TYPE_COEF * 2 * COLS_>,
					   pto::Stride<1, 1, 1, TYPE_COEF * 2 * COLS_, 1>>;
	using SrcTileData = Tile<TileType::Vec, T, ROWS_, ALIGN_C, BLayout::RowMajor, -1, -1>;
	using IdxTileData = Tile<TileType::Vec, uint32_t, ROWS_, ALIGN_C, BLayout::RowMajor, -1, -1>;
	using DstTileData = Tile<TileType::Vec, T, ROWS_, TYPE_COEF * 2 * ALIGN_C, BLayout::RowMajor, -1, -1>;
	using TmpTileData = Tile<TileType::Vec, T, 1, ALIGN_C, BLayout::RowMajor>;

	SrcTileData srcTile(VALID_R_, VALID_C);
	IdxTileData idxTile(VALID_R_, VALID_C);
	DstTileData dstTile(VALID_R_, VALID_C * TYPE_COEF * 2);
	TmpTileData tmpTile;
	TASSIGN(srcTile, 0x0);
	TASSIGN(idxTile, 0x8000);
	TASSIGN(dstTile, 0x10000);
	TASSIGN(tmpTile, 0x20000);

	SrcGlobalData srcGlobal(reinterpret_cast<__gm__ T *>(src));
	IdxGlobalData idxGlobal(reinterpret_cast<__gm__ uint32_t *>(idx));
	OutGlobalData dstGlobal(reinterpret_cast<__gm__ T *>(out));

	TLOAD(srcTile, srcGlobal);
	TLOAD(idxTile, idxGlobal);
	set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
	wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
	TSORT32(dstTile, srcTile, idxTile, tmpTile);
	set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
	wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
	TSTORE(dstGlobal, dstTile);
	pipe_barrier(PIPE_ALL);
}

// A kernel that forgets its set_flag: the board would hang in wait_flag.
__global__ AICORE void runUnpairedWait(__gm__ uint8_t *, __gm__ uint8_t *, __gm__ uint8_t *, __gm__ uint8_t *)
{
	wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
}

// Holds every block until the host opens the gate (gate[0]), then marks
// itself done (gate[1 + block]).
__global__ AICORE void runGated(__gm__ uint8_t *gateGm, __gm__ uint8_t *, __gm__ uint8_t *, __gm__ uint8_t *)
{
	auto *gate = reinterpret_cast<__gm__ std::atomic<int> *>(gateGm);
	while (gate[0].load() == 0)
		std::this_thread::yield();
	gate[1 + AscendC::GetBlockIdx()].store(1);
}

// A launch returns before the kernel has run; the stream sync waits for it.
int LaunchIsAsync()
{
	constexpr uint32_t kBlocks = 3;
	static std::atomic<int> gate[1 + kBlocks];
	for (auto &g : gate)
		g.store(0);
	aclrtStream stream = nullptr;
	aclrtEvent start = nullptr, end = nullptr;
	aclrtCreateStream(&stream);
	aclrtCreateEvent(&start);
	aclrtCreateEvent(&end);
	aclrtRecordEvent(start, stream);
	uint8_t *g = reinterpret_cast<uint8_t *>(gate);
	if (pksim::Launch(runGated, kBlocks, stream, g, g, g, g) != ACL_SUCCESS) {
		std::printf("FAIL launch-is-async: launch refused\n");
		return 1;
	}
	aclrtRecordEvent(end, stream);
	float ms = -1;
	const aclError early = aclrtEventElapsedTime(&ms, start, end);
	int doneEarly = 0;
	for (uint32_t b = 0; b < kBlocks; b++)
		doneEarly += gate[1 + b].load();
	gate[0].store(1);
	const aclError rc = aclrtSynchronizeStream(stream);
	int done = 0;
	for (uint32_t b = 0; b < kBlocks; b++)
		done += gate[1 + b].load();
	const aclError late = aclrtEventElapsedTime(&ms, start, end);
	aclrtDestroyEvent(start);
	aclrtDestroyEvent(end);
	aclrtDestroyStream(stream);
	if (doneEarly != 0 || early != ACL_ERROR_RT_EVENT_NOT_COMPLETE) {
		std::printf("FAIL launch-is-async: the kernel or the end event completed before the host let it\n");
		return 1;
	}
	if (rc != ACL_SUCCESS || done != static_cast<int>(kBlocks) || late != ACL_SUCCESS || ms < 0) {
		std::printf("FAIL launch-is-async: after the sync %d of %u blocks done, elapsed rc %d\n", done, kBlocks,
			    late);
		return 1;
	}
	std::printf("ok launch-is-async: nothing ran before the gate opened; %u blocks done after the sync\n", kBlocks);
	return 0;
}

// The calling thread's CPU time in seconds.
double ThreadCpuSeconds()
{
	timespec ts{};
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// GetSystemCycle() ticks at the target's default frequency, or the one set,
// with the reading thread's CPU time (here: the host thread, which runs as
// an implicit block): 20 ms of spinning count, a 20 ms sleep does not.
int CycleFrequency()
{
	struct Want {
		const char *target;
		uint64_t set;  // 0: the default
		uint64_t hz;
	};
	const Want wants[] = { { "a2a3", 0, 50000000u }, { "a5", 0, 1000000000u }, { "a2a3", 1000000u, 1000000u } };
	for (const Want &w : wants) {
		pksim::SetTarget(w.target);
		pksim::SetCycleHz(w.set);
		(void)pksim::SystemCycle(); // the first device call sets up the implicit block and its UB
		const double t0 = ThreadCpuSeconds();
		const int64_t c0 = pksim::SystemCycle();
		while (ThreadCpuSeconds() - t0 < 0.02) {
		}
		const int64_t c1 = pksim::SystemCycle();
		const double secs = ThreadCpuSeconds() - t0;
		const double rate = static_cast<double>(c1 - c0) / secs;
		std::this_thread::sleep_for(std::chrono::milliseconds(20));
		const int64_t c2 = pksim::SystemCycle();
		const double slept = static_cast<double>(c2 - c1) / static_cast<double>(w.hz);
		// the counter is read inside the CPU-time window, so it can only come out a little slow
		if (pksim::CycleHz() != w.hz || rate > static_cast<double>(w.hz) * 1.001 ||
		    rate < static_cast<double>(w.hz) * 0.9 || slept > 0.002) {
			std::printf(
			    "FAIL cycle-frequency: %s: configured %llu Hz, measured %.0f Hz of CPU time, expected "
			    "%llu; a 20 ms sleep counted %.4f s\n",
			    w.target, static_cast<unsigned long long>(pksim::CycleHz()), rate,
			    static_cast<unsigned long long>(w.hz), slept);
			return 1;
		}
	}
	std::printf("ok cycle-frequency: 50 MHz on a2a3, 1 GHz on a5, or as set, of thread CPU time\n");
	return 0;
}

// One 13-column float row through the 4-argument form; the tmp tile is
// stored too, so the host can see the tail padded with the lowest value.
__global__ AICORE void runTailPad(__gm__ uint8_t *out, __gm__ uint8_t *src, __gm__ uint8_t *idx,
				  __gm__ uint8_t *tmpOut)
{
	constexpr int C = 13;
	using Row = GlobalTensor<float, pto::Shape<1, 1, 1, 1, C>, pto::Stride<1, 1, 1, C, 1>>;
	using IdxRow = GlobalTensor<uint32_t, pto::Shape<1, 1, 1, 1, C>, pto::Stride<1, 1, 1, C, 1>>;
	using Tuples = GlobalTensor<float, pto::Shape<1, 1, 1, 1, 2 * C>, pto::Stride<1, 1, 1, 2 * C, 1>>;
	using TmpRow = GlobalTensor<float, pto::Shape<1, 1, 1, 1, 32>, pto::Stride<1, 1, 1, 32, 1>>;
	Tile<TileType::Vec, float, 1, 32, BLayout::RowMajor, 1, C> srcTile;
	Tile<TileType::Vec, uint32_t, 1, 32, BLayout::RowMajor, 1, C> idxTile;
	Tile<TileType::Vec, float, 1, 64, BLayout::RowMajor, 1, 2 * C> dstTile;
	Tile<TileType::Vec, float, 1, 32> tmpTile;
	TASSIGN(srcTile, 0x0);
	TASSIGN(idxTile, 0x80);
	TASSIGN(dstTile, 0x100);
	TASSIGN(tmpTile, 0x200);
	Row srcGm(reinterpret_cast<__gm__ float *>(src));
	IdxRow idxGm(reinterpret_cast<__gm__ uint32_t *>(idx));
	Tuples dstGm(reinterpret_cast<__gm__ float *>(out));
	TmpRow tmpGm(reinterpret_cast<__gm__ float *>(tmpOut));
	TLOAD(srcTile, srcGm);
	TLOAD(idxTile, idxGm);
	set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
	wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
	TSORT32(dstTile, srcTile, idxTile, tmpTile);
	set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
	wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
	TSTORE(dstGm, dstTile);
	TSTORE(tmpGm, tmpTile);
}

int TailPadLowest()
{
	constexpr int C = 13;
	std::vector<float> src(C);
	std::vector<uint32_t> idx(C);
	for (int i = 0; i < C; i++) {
		src[i] = i % 3 == 0 ? -std::numeric_limits<float>::infinity() : static_cast<float>(i % 5);
		idx[i] = static_cast<uint32_t>(C - i);
	}
	const std::vector<uint8_t> golden = GoldenTsort32(false, 1, C, src.data(), idx.data(), 1);
	std::vector<uint8_t> out(C * 8, 0x5a);
	std::vector<float> tmp(32, 1234.0f);
	aclrtStream stream = nullptr;
	aclrtCreateStream(&stream);
	pksim::Launch(runTailPad, 1, stream, out.data(), reinterpret_cast<uint8_t *>(src.data()),
		      reinterpret_cast<uint8_t *>(idx.data()), reinterpret_cast<uint8_t *>(tmp.data()));
	const aclError rc = aclrtSynchronizeStream(stream);
	aclrtDestroyStream(stream);
	if (rc != ACL_SUCCESS || std::memcmp(out.data(), golden.data(), out.size()) != 0) {
		std::printf("FAIL tail-pad-lowest: launch %d or the tuples differ from the golden reference\n", rc);
		return 1;
	}
	for (int k = 0; k < 32; k++) {
		const float want = k < C ? src[k] : -std::numeric_limits<float>::infinity();
		if (std::memcmp(&tmp[k], &want, sizeof(float)) != 0) {
			std::printf("FAIL tail-pad-lowest: tmp[%d] = %g, expected %g\n", k, static_cast<double>(tmp[k]),
				    static_cast<double>(want));
			return 1;
		}
	}
	std::printf("ok tail-pad-lowest: tmp holds the row then -inf to 32; valid -inf tuples kept, bit-exact\n");
	return 0;
}

struct HostCase {
	const char *name;
	int (*run)();
};

const HostCase kHostCases[] = {
	{ "launch-is-async", LaunchIsAsync },
	{ "cycle-frequency", CycleFrequency },
	{ "tail-pad-lowest", TailPadLowest },
};

using KernelFn = void (*)(uint8_t *, uint8_t *, uint8_t *, uint8_t *);

struct Case {
	const char *name;
	const char *target;
	bool isHalf;
	uint32_t rows, cols;
	uint32_t tmpElems;       // for runTSORT32Row; 0 = 3-argument form
	KernelFn kernel;
	const char *reject;      // expected message fragment, or nullptr: must sort right
	long issues;             // expected VBS32 issues, or -1 to skip
	unsigned maxRepeat;      // expected largest repeat (with issues)
};

const Case kCases[] = {
	// repeat groups of at most 255 blocks
	{ "blocks-255", "a2a3", false, 1, 8160, 0, runTSORT32Row<float, 8192>, nullptr, 1, 255 },
	{ "blocks-256", "a2a3", false, 1, 8192, 0, runTSORT32Row<float, 8192>, nullptr, 2, 255 },
	{ "blocks-510", "a5", true, 1, 16320, 0, runTSORT32Row<half, 16320>, nullptr, 2, 255 },
	// tmp thresholds, both sides. Below: whole row in tmp, ceil32(C).
	// Above: only the tail in tmp, 32 elements.
	{ "tmp-a2a3-float-8159-ok", "a2a3", false, 1, 8159, 8160, runTSORT32Row<float, 8192>, nullptr, 1, 255 },
	{ "tmp-a2a3-float-8159-short", "a2a3", false, 1, 8159, 8159, runTSORT32Row<float, 8192>,
	  "tmp holds 8159 elements; validCol 8159 of float needs 8160 on A2/A3", -1, 0 },
	{ "tmp-a2a3-float-8161-ok", "a2a3", false, 1, 8161, 32, runTSORT32Row<float, 8192>, nullptr, 2, 255 },
	{ "tmp-a2a3-float-8161-short", "a2a3", false, 1, 8161, 31, runTSORT32Row<float, 8192>,
	  "tmp holds 31 elements; validCol 8161 of float needs 32 on A2/A3", -1, 0 },
	{ "tmp-a5-float-2039-ok", "a5", false, 1, 2039, 2048, runTSORT32Row<float, 2048>, nullptr, 1, 64 },
	{ "tmp-a5-float-2039-short", "a5", false, 1, 2039, 2047, runTSORT32Row<float, 2048>,
	  "needs 2048 on A5", -1, 0 },
	{ "tmp-a5-float-2041-ok", "a5", false, 1, 2041, 32, runTSORT32Row<float, 2048>, nullptr, 2, 63 },
	{ "tmp-a5-float-2041-short", "a5", false, 1, 2041, 31, runTSORT32Row<float, 2048>, "needs 32 on A5", -1,
	  0 },
	{ "tmp-a5-half-4079-ok", "a5", true, 1, 4079, 4096, runTSORT32Row<half, 4096>, nullptr, 1, 128 },
	{ "tmp-a5-half-4079-short", "a5", true, 1, 4079, 4095, runTSORT32Row<half, 4096>, "needs 4096 on A5", -1,
	  0 },
	{ "tmp-a5-half-4081-ok", "a5", true, 1, 4081, 32, runTSORT32Row<half, 4096>, nullptr, 2, 127 },
	{ "tmp-a5-half-4081-short", "a5", true, 1, 4081, 31, runTSORT32Row<half, 4096>, "needs 32 on A5", -1, 0 },
	// the same half row is "small" on A2/A3, where the threshold counts elements
	{ "tmp-a2a3-half-4081-short", "a2a3", true, 1, 4081, 32, runTSORT32Row<half, 4096>,
	  "needs 4096 on A2/A3", -1, 0 },
	// the 3-argument form on a non-aligned row
	{ "tail-3arg-rejected", "a2a3", false, 1, 13, 0, runTSORT32Row<float, 64>,
	  "validCol 13 is not a multiple of 32; the 3-argument form sorts whole 32-element blocks", -1, 0 },
	{ "unpaired-wait-flag", "a2a3", false, 1, 32, 0, runUnpairedWait,
	  "wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0) without a matching set_flag", -1, 0 },
	// the reference shapes, pto-isa ST style
	{ "ref-float-2x32", "a2a3", false, 2, 32, 0, runTSORT32Ref<float, 2, 32, 2, 32>, nullptr, 2, 1 },
	{ "ref-half-4x64", "a2a3", true, 4, 64, 0, runTSORT32Ref<half, 4, 64, 4, 64>, nullptr, 4, 2 },
	{ "ref-float-1x8192", "a2a3", false, 1, 8192, 0, runTSORT32Ref<float, 1, 8192, 1, 8192>, nullptr, 2, 255 },
	{ "ref-float-2x13", "a2a3", false, 2, 13, 0, runTSORT32Ref<float, 2, 13, 2, 13>, nullptr, 2, 1 },
};

uint32_t Bits(uint32_t &state)
{
	state ^= state << 13;
	state ^= state >> 17;
	state ^= state << 5;
	return state;
}

int RunCase(const Case &c)
{
	if (!pksim::SetTarget(c.target))
		return 2;
	const size_t n = static_cast<size_t>(c.rows) * c.cols;
	const size_t esz = c.isHalf ? 2 : 4;
	std::vector<uint8_t> src(n * esz);
	std::vector<uint32_t> idx(n);
	uint32_t st = 12345;
	for (size_t i = 0; i < n; i++) {
		if (c.isHalf) {
			uint16_t h;
			do
				h = static_cast<uint16_t>(Bits(st));
			while (((h >> 10) & 0x1f) == 0x1f);
			std::memcpy(&src[i * 2], &h, 2);
		} else {
			const float f = static_cast<float>(static_cast<int>(Bits(st) % 201) - 100);
			std::memcpy(&src[i * 4], &f, 4);
		}
		idx[i] = static_cast<uint32_t>(n - i) * 5u; // descending: index order != position order
	}
	const std::vector<uint8_t> golden = GoldenTsort32(c.isHalf, c.rows, c.cols, src.data(), idx.data(), c.rows);

	aclInit(nullptr);
	aclrtStream stream = nullptr;
	void *dOut = nullptr, *dSrc = nullptr, *dIdx = nullptr, *dArgs = nullptr;
	aclrtCreateStream(&stream);
	aclrtMalloc(&dOut, n * 8, ACL_MEM_MALLOC_HUGE_FIRST);
	aclrtMalloc(&dSrc, src.size(), ACL_MEM_MALLOC_HUGE_FIRST);
	aclrtMalloc(&dIdx, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
	aclrtMalloc(&dArgs, sizeof(SortArgs), ACL_MEM_MALLOC_HUGE_FIRST);
	const SortArgs args{ c.cols, c.tmpElems };
	aclrtMemcpy(dSrc, src.size(), src.data(), src.size(), ACL_MEMCPY_HOST_TO_DEVICE);
	aclrtMemcpy(dIdx, n * 4, idx.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
	aclrtMemcpy(dArgs, sizeof(args), &args, sizeof(args), ACL_MEMCPY_HOST_TO_DEVICE);
	std::memset(dOut, 0x5a, n * 8);
	pksim::TakeVbs32Stats();
	pksim::Launch(c.kernel, 1, stream, static_cast<uint8_t *>(dOut), static_cast<uint8_t *>(dSrc),
		      static_cast<uint8_t *>(dIdx), static_cast<uint8_t *>(dArgs));
	const aclError rc = aclrtSynchronizeStream(stream);
	const pksim::Vbs32Stats stats = pksim::TakeVbs32Stats();
	const bool same = std::memcmp(dOut, golden.data(), n * 8) == 0;
	const std::string err = aclGetRecentErrMsg();
	aclrtFree(dOut);
	aclrtFree(dSrc);
	aclrtFree(dIdx);
	aclrtFree(dArgs);
	aclrtDestroyStream(stream);
	aclFinalize();

	if (c.reject != nullptr) {
		if (rc == ACL_SUCCESS) {
			std::printf("FAIL %s: the launch succeeded; expected a rejection\n", c.name);
			return 1;
		}
		if (err.find(c.reject) == std::string::npos) {
			std::printf("FAIL %s: message '%s' lacks '%s'\n", c.name, err.c_str(), c.reject);
			return 1;
		}
		std::printf("ok %s: rejected: %s\n", c.name, err.c_str());
		return 0;
	}
	if (rc != ACL_SUCCESS) {
		std::printf("FAIL %s: launch failed: %s\n", c.name, err.c_str());
		return 1;
	}
	if (!same) {
		std::printf("FAIL %s: output differs from the golden reference\n", c.name);
		return 1;
	}
	if (c.issues >= 0 && (stats.issues != static_cast<unsigned long>(c.issues) || stats.max_repeat != c.maxRepeat)) {
		std::printf("FAIL %s: %lu VBS32 issues with largest repeat %u; expected %ld and %u\n", c.name,
			    stats.issues, stats.max_repeat, c.issues, c.maxRepeat);
		return 1;
	}
	std::printf("ok %s: bit-exact, %lu VBS32 issues, largest repeat %u\n", c.name, stats.issues, stats.max_repeat);
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	if (argc != 2 || std::strcmp(argv[1], "--help") == 0) {
		std::printf("usage: %s CASE | --list\n", argv[0]);
		return argc == 2 ? 0 : 2;
	}
	for (const HostCase &h : kHostCases) {
		if (std::strcmp(argv[1], "--list") == 0)
			std::printf("%s\n", h.name);
		else if (std::strcmp(argv[1], h.name) == 0)
			return h.run();
	}
	for (const Case &c : kCases) {
		if (std::strcmp(argv[1], "--list") == 0)
			std::printf("%s\n", c.name);
		else if (std::strcmp(argv[1], c.name) == 0)
			return RunCase(c);
	}
	if (std::strcmp(argv[1], "--list") == 0)
		return 0;
	std::fprintf(stderr, "%s: unknown case '%s'\n", argv[0], argv[1]);
	return 2;
}
