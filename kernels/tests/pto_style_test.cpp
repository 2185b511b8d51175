// pto_style_test.cpp - the simulation run the way pto-isa's CPU tests run
// their kernels, and what it says when a kernel is wrong: kernels called
// directly (no launch), UB operands that overlap, NaN in a sort, launches
// whose blocks all wait, and the per-block cycle counter. The device code is
// written as pto-isa's ST kernels are, built with -D__CPU_SIM so the acl host
// API comes through pto/pto-inst.hpp alone, as in pto-isa's CPU tests.
// Usage: pto_style_test CASE | --list, or pto_style_test nan-differential
// [CASES [SEED]] for a longer differential run (bench/sim_differential.sh).
// Exit 0 when the case holds.
#include <pto/pto-inst.hpp>
#include <pto/common/constants.hpp>

#include "golden.h"
#include "pksim/host.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

using namespace pto;

namespace
{

// ---- kernels -------------------------------------------------------------

// pto-isa's ST layout: src | idx | dst | tmp, each TASSIGNed at the byte
// offset the caller gives (tmpOff 0: the 3-argument form).
template <typename T, int kRows, int kCols, uint32_t tmpOff>
__global__ AICORE void runSort(__gm__ T __out__ *out, __gm__ T __in__ *src, __gm__ uint32_t __in__ *idx, int validCol)
{
	constexpr int totalNum = 8 / sizeof(T);
	using DynShape = Shape<1, 1, 1, -1, -1>;
	using DynStride = Stride<1, 1, -1, -1, 1>;
	GlobalTensor<T, DynShape, DynStride> srcGlobal(src, DynShape(kRows, validCol), DynStride(kRows, validCol));
	GlobalTensor<uint32_t, DynShape, DynStride> idxGlobal(idx, DynShape(kRows, validCol),
	                                                      DynStride(kRows, validCol));
	GlobalTensor<T, DynShape, DynStride> dstGlobal(out, DynShape(kRows, validCol * totalNum),
	                                               DynStride(kRows, validCol * totalNum));
	using SrcTile = Tile<TileType::Vec, T, kRows, kCols, BLayout::RowMajor, -1, -1>;
	using IdxTile = Tile<TileType::Vec, uint32_t, kRows, kCols, BLayout::RowMajor, -1, -1>;
	using DstTile = Tile<TileType::Vec, T, kRows, kCols * totalNum, BLayout::RowMajor, -1, -1>;
	using TmpTile = Tile<TileType::Vec, T, 1, (kCols + 31) / 32 * 32, BLayout::RowMajor>;
	SrcTile srcTile(kRows, validCol);
	IdxTile idxTile(kRows, validCol);
	DstTile dstTile(kRows, validCol * totalNum);
	TmpTile tmpTile;
	TASSIGN(srcTile, 0x0);
	TASSIGN(idxTile, kRows * kCols * sizeof(T));
	TASSIGN(dstTile, kRows * kCols * sizeof(T) + kRows * kCols * sizeof(uint32_t));
	TLOAD(srcTile, srcGlobal);
	TLOAD(idxTile, idxGlobal);
	set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
	wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
	if constexpr (tmpOff == 0) {
		TSORT32(dstTile, srcTile, idxTile);
	} else {
		TASSIGN(tmpTile, tmpOff);
		TSORT32(dstTile, srcTile, idxTile, tmpTile);
	}
	set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
	wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
	TSTORE(dstGlobal, dstTile);
}

// dst placed over idx: TSORT32 would overwrite indices it still has to read.
__global__ AICORE void runDstOverIdx(__gm__ uint8_t *out, __gm__ uint8_t *src, __gm__ uint8_t *idx)
{
	using G = GlobalTensor<float, Shape<1, 1, 1, 1, 32>, Stride<1, 1, 1, 32, 1>>;
	using GI = GlobalTensor<uint32_t, Shape<1, 1, 1, 1, 32>, Stride<1, 1, 1, 32, 1>>;
	using GD = GlobalTensor<float, Shape<1, 1, 1, 1, 64>, Stride<1, 1, 1, 64, 1>>;
	G srcGlobal(reinterpret_cast<__gm__ float *>(src));
	GI idxGlobal(reinterpret_cast<__gm__ uint32_t *>(idx));
	GD dstGlobal(reinterpret_cast<__gm__ float *>(out));
	Tile<TileType::Vec, float, 1, 32> srcTile;
	Tile<TileType::Vec, uint32_t, 1, 32> idxTile;
	Tile<TileType::Vec, float, 1, 64> dstTile;
	TASSIGN(srcTile, 0x0);
	TASSIGN(idxTile, 0x100);
	TASSIGN(dstTile, 0x120);
	TLOAD(srcTile, srcGlobal);
	TLOAD(idxTile, idxGlobal);
	TSORT32(dstTile, srcTile, idxTile);
	TSTORE(dstGlobal, dstTile);
}

// Writes block index, block count and the first word of a UB tile at 0x0
// (loaded from `in` when load != 0) to out.
__global__ AICORE void runProbeUb(__gm__ uint32_t *out, __gm__ uint32_t *in, int load)
{
	using G = GlobalTensor<uint32_t, Shape<1, 1, 1, 1, 8>, Stride<1, 1, 1, 8, 1>>;
	Tile<TileType::Vec, uint32_t, 1, 8> t;
	TASSIGN(t, 0x0);
	G inGlobal(in), outGlobal(out + 2);
	if (load)
		TLOAD(t, inGlobal);
	TSTORE(outGlobal, t);
	out[0] = static_cast<uint32_t>(AscendC::GetBlockIdx());
	out[1] = static_cast<uint32_t>(AscendC::GetBlockNum());
}

// Block 1 returns without its CrossCoreSetFlag: every other block waits.
__global__ AICORE void runMissingSet(__gm__ uint8_t *, __gm__ uint8_t *, __gm__ uint8_t *)
{
	if (AscendC::GetBlockIdx() == 1)
		return;
	AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(0);
	AscendC::CrossCoreWaitFlag<0, PIPE_MTE3>(0);
}

// Blocks wait at different barriers: block 0 on flag 3, the others in SyncAll.
__global__ AICORE void runSplitBarrier(__gm__ uint8_t *, __gm__ uint8_t *, __gm__ uint8_t *)
{
	if (AscendC::GetBlockIdx() == 0)
		AscendC::CrossCoreWaitFlag<0, PIPE_S>(3);
	else
		AscendC::SyncAll();
}

double ThreadCpuSeconds()
{
	timespec ts{};
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double SteadyMs()
{
	return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

constexpr int kStamps = 6; // per block, below

// Each block spins for `ms` of its own CPU time between two cycle reads
// (block b spins b + 1 times as long when `skew`), then meets the others at
// a cross-core flag; stamps[kStamps * b ..] = before spin, after spin, before
// set, after wait (cycles), then the host's wall clock around the spin (us),
// which is what a counter of wall time would have read.
__global__ AICORE void runSpin(__gm__ int64_t *stamps, __gm__ uint8_t *msGm, __gm__ uint8_t *skewGm)
{
	int64_t *st = stamps + kStamps * AscendC::GetBlockIdx();
	const double secs = *msGm * 1e-3 * (*skewGm ? static_cast<double>(AscendC::GetBlockIdx() + 1) : 1.0);
	st[4] = static_cast<int64_t>(SteadyMs() * 1e3);
	st[0] = AscendC::GetSystemCycle();
	const double t0 = ThreadCpuSeconds();
	while (ThreadCpuSeconds() - t0 < secs) {
	}
	st[1] = AscendC::GetSystemCycle();
	st[5] = static_cast<int64_t>(SteadyMs() * 1e3);
	st[2] = AscendC::GetSystemCycle();
	AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(1);
	AscendC::CrossCoreWaitFlag<0, PIPE_MTE3>(1);
	st[3] = AscendC::GetSystemCycle();
}

// ---- helpers -------------------------------------------------------------

// Everything written to fd 2 while F runs.
template <typename F> std::string CaptureStderr(F f)
{
	std::fflush(stderr);
	char path[] = "/tmp/pksim-stderr-XXXXXX";
	const int fd = mkstemp(path);
	const int saved = dup(2);
	dup2(fd, 2);
	f();
	std::fflush(stderr);
	dup2(saved, 2);
	close(saved);
	std::string text;
	char buf[4096];
	lseek(fd, 0, SEEK_SET);
	for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
		text.append(buf, static_cast<size_t>(n));
	close(fd);
	unlink(path);
	std::fputs(text.c_str(), stderr); // still shown in the test log
	return text;
}

// Runs F in a child process; returns its stderr and how it ended.
template <typename F> std::string RunChild(F f, int *status)
{
	int pipefd[2];
	if (pipe(pipefd) != 0)
		return "";
	std::fflush(nullptr);
	const pid_t pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		f();
		std::fflush(nullptr);
		_exit(0);
	}
	close(pipefd[1]);
	std::string text;
	char buf[4096];
	for (ssize_t n; (n = read(pipefd[0], buf, sizeof buf)) > 0;)
		text.append(buf, static_cast<size_t>(n));
	close(pipefd[0]);
	waitpid(pid, status, 0);
	std::fputs(text.c_str(), stderr);
	return text;
}

bool Contains(const std::string &s, const char *what)
{
	return s.find(what) != std::string::npos;
}

int Fail(const char *name, const std::string &why)
{
	std::printf("FAIL %s: %s\n", name, why.c_str());
	return 1;
}

// ---- direct calls --------------------------------------------------------

// pto-isa's CPU tests call the kernel function from the test body: it runs as
// block 0 of 1, sorts right, and its UB lives until aclFinalize.
int DirectCall()
{
	constexpr int R = 4, C = 64, V = 40;
	std::vector<float> src(R * V);
	std::vector<uint32_t> idx(R * V);
	std::mt19937 rng(7);
	for (int i = 0; i < R * V; i++) {
		src[i] = static_cast<float>(static_cast<int>(rng() % 21) - 10);
		idx[i] = static_cast<uint32_t>(i);
	}
	std::vector<float> out(R * V * 2);
	aclInit(nullptr);
	runSort<float, R, C, R * C * 16>(out.data(), src.data(), idx.data(), V);
	const std::vector<uint8_t> want = GoldenTsort32(false, R, V, src.data(), idx.data(), R);
	if (std::memcmp(want.data(), out.data(), want.size()) != 0)
		return Fail("direct-call", "the directly called sort differs from the golden reference");
	uint32_t in[8] = {7, 7, 7, 7, 7, 7, 7, 7}, seen[10] = {};
	runProbeUb(seen, in, 1);
	runProbeUb(seen, in, 0); // same implicit launch: the UB still holds 7
	const bool kept = seen[2] == 7;
	const bool oneBlock = seen[0] == 0 && seen[1] == 1;
	aclFinalize(); // ends the implicit launch
	runProbeUb(seen, in, 0);
	aclFinalize();
	if (!oneBlock || !kept || seen[2] != 0xA5A5A5A5u)
		return Fail("direct-call",
		            "expected block 0 of 1, the UB kept within a run and junk after aclFinalize");
	std::printf("ok direct-call: block 0 of 1, bit-exact, UB fresh after aclFinalize\n");
	return 0;
}

// pto-isa's TSORT32 ST half layout: tmp lies inside dst. A direct call stops
// the process with a message naming the instruction, both tiles and ranges.
int DirectTmpOverlap()
{
	constexpr int R = 16, C = 16;
	int status = 0;
	const std::string err = RunChild(
	    [] {
		    std::vector<half> src(R * C, half(1.0f)), out(R * C * 4);
		    std::vector<uint32_t> idx(R * C, 0);
		    runSort<half, R, C, 2 * R * C * sizeof(half) + R * C * sizeof(uint32_t)>(out.data(), src.data(),
		                                                                             idx.data(), C);
	    },
	    &status);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT)
		return Fail("direct-tmp-overlap", "the child was not aborted");
	if (!Contains(err, "pksim: block 0 (kernel called outside a launch): TSORT32: tmp [0x800, 0x840) overlaps "
	                   "dst [0x600, 0xe00)"))
		return Fail("direct-tmp-overlap", "message lacks the instruction, tmp, dst and their ranges");
	std::printf("ok direct-tmp-overlap: aborted naming TSORT32, tmp and dst\n");
	return 0;
}

// The same layout with 32 valid columns: the 4-argument form does not use
// tmp then (nor does the board's A2/A3 code), so it is accepted.
int AlignedTmpUnused()
{
	constexpr int R = 8, C = 32;
	std::vector<float> src(R * C), out(R * C * 2);
	std::vector<uint32_t> idx(R * C);
	for (int i = 0; i < R * C; i++) {
		src[i] = static_cast<float>((i * 37) % 11);
		idx[i] = static_cast<uint32_t>(i);
	}
	aclInit(nullptr);
	runSort<float, R, C, 2 * R * C * sizeof(float) + R * C * sizeof(uint32_t)>(out.data(), src.data(), idx.data(),
	                                                                           C);
	aclFinalize();
	const std::vector<uint8_t> want = GoldenTsort32(false, R, C, src.data(), idx.data(), R);
	if (std::memcmp(want.data(), out.data(), want.size()) != 0)
		return Fail("aligned-tmp-unused", "output differs from the golden reference");
	std::printf("ok aligned-tmp-unused: tmp inside dst accepted when validCol %% 32 == 0\n");
	return 0;
}

// In a launch, an overlap fails the launch and the message names both tiles.
int LaunchDstOverIdx()
{
	std::vector<float> src(32, 1.0f), out(64);
	std::vector<uint32_t> idx(32, 0);
	aclrtStream stream = nullptr;
	aclrtCreateStream(&stream);
	pksim::Launch(runDstOverIdx, 1, stream, reinterpret_cast<uint8_t *>(out.data()),
	              reinterpret_cast<uint8_t *>(src.data()), reinterpret_cast<uint8_t *>(idx.data()));
	aclError rc = ACL_SUCCESS;
	CaptureStderr([&] { rc = aclrtSynchronizeStream(stream); });
	const std::string err = aclGetRecentErrMsg();
	aclrtDestroyStream(stream);
	if (rc != ACL_ERROR_RT_AICORE_EXCEPTION)
		return Fail("launch-dst-over-idx", "the launch did not fail");
	if (!Contains(err, "pksim: block 0: TSORT32: dst [0x120, 0x220) overlaps idx [0x100, 0x180)"))
		return Fail("launch-dst-over-idx", "message '" + err + "' lacks dst, idx and their ranges");
	std::printf("ok launch-dst-over-idx: %s\n", err.c_str());
	return 0;
}

// tmp placed inside src (a tail, so the 4-argument form writes tmp): the
// launch fails naming tmp, src and their ranges.
int LaunchTmpOverSrc()
{
	constexpr int R = 2, C = 64, V = 40;
	std::vector<float> src(R * V, 1.0f), out(R * V * 2);
	std::vector<uint32_t> idx(R * V, 0);
	aclrtStream stream = nullptr;
	aclrtCreateStream(&stream);
	pksim::Launch(runSort<float, R, C, 0x20>, 1, stream, out.data(), src.data(), idx.data(), V);
	aclError rc = ACL_SUCCESS;
	CaptureStderr([&] { rc = aclrtSynchronizeStream(stream); });
	const std::string err = aclGetRecentErrMsg();
	aclrtDestroyStream(stream);
	if (rc != ACL_ERROR_RT_AICORE_EXCEPTION)
		return Fail("launch-tmp-over-src", "the launch did not fail");
	if (!Contains(err, "pksim: block 0: TSORT32: tmp [0x20, 0x120) overlaps src [0x0, 0x1a0)"))
		return Fail("launch-tmp-over-src", "message '" + err + "' lacks tmp, src and their ranges");
	std::printf("ok launch-tmp-over-src: %s\n", err.c_str());
	return 0;
}

// ---- NaN order -----------------------------------------------------------

// An independent statement of the documented order: NaN lowest; among
// numbers the larger first, -0.0 == +0.0; ties by the smaller index.
struct RefPair {
	double v;
	bool nan;
	uint32_t i;
};

bool RefAbove(const RefPair &a, const RefPair &b)
{
	const int ca = a.nan ? 0 : 1, cb = b.nan ? 0 : 1;
	if (ca != cb)
		return ca > cb;
	if (ca == 1 && a.v > b.v)
		return true;
	if (ca == 1 && a.v < b.v)
		return false;
	return a.i < b.i;
}

// Expected tuples (value bits, index) of one row: each 32-block by
// insertion sort under RefAbove.
template <typename T> std::vector<std::pair<T, uint32_t>> RefRow(const T *vals, const uint32_t *idx, int cols)
{
	std::vector<std::pair<T, uint32_t>> out;
	for (int first = 0; first < cols; first += 32) {
		const int n = std::min(32, cols - first);
		std::vector<RefPair> p;
		std::vector<T> raw;
		for (int k = 0; k < n; k++) {
			const double v = static_cast<float>(vals[first + k]);
			p.push_back({v, std::isnan(v), idx[first + k]});
			raw.push_back(vals[first + k]);
		}
		std::vector<int> order;
		for (int k = 0; k < n; k++) {
			size_t at = order.size();
			while (at > 0 && RefAbove(p[k], p[order[at - 1]]))
				at--;
			order.insert(order.begin() + static_cast<long>(at), k);
		}
		for (int k : order)
			out.push_back({raw[k], p[k].i});
	}
	return out;
}

// ROWS x COLS sorted in one call (ROWS <= kRows, COLS <= kCols), the layout
// src | idx | dst | tmp; idx has IDXROWS valid rows (1: broadcast).
template <typename T, int kRows, int kCols, bool kFourArg>
__global__ AICORE void runSortRows(__gm__ T __out__ *out, __gm__ T __in__ *src, __gm__ uint32_t __in__ *idx, int rows,
                                   int cols, int idxRows)
{
	constexpr int totalNum = 8 / sizeof(T);
	constexpr uint32_t kIdxOff = kRows * kCols * sizeof(T);
	constexpr uint32_t kDstOff = kIdxOff + kRows * kCols * sizeof(uint32_t);
	constexpr uint32_t kTmpOff = kDstOff + kRows * kCols * 8;
	using DynShape = Shape<1, 1, 1, -1, -1>;
	using DynStride = Stride<1, 1, -1, -1, 1>;
	GlobalTensor<T, DynShape, DynStride> srcGlobal(src, DynShape(rows, cols), DynStride(rows, cols));
	GlobalTensor<uint32_t, DynShape, DynStride> idxGlobal(idx, DynShape(idxRows, cols), DynStride(idxRows, cols));
	GlobalTensor<T, DynShape, DynStride> dstGlobal(out, DynShape(rows, cols * totalNum),
	                                               DynStride(rows, cols * totalNum));
	Tile<TileType::Vec, T, kRows, kCols, BLayout::RowMajor, -1, -1> srcTile(rows, cols);
	Tile<TileType::Vec, uint32_t, kRows, kCols, BLayout::RowMajor, -1, -1> idxTile(idxRows, cols);
	Tile<TileType::Vec, T, kRows, kCols * totalNum, BLayout::RowMajor, -1, -1> dstTile(rows, cols * totalNum);
	Tile<TileType::Vec, T, 1, kCols, BLayout::RowMajor> tmpTile;
	TASSIGN(srcTile, 0x0);
	TASSIGN(idxTile, kIdxOff);
	TASSIGN(dstTile, kDstOff);
	TASSIGN(tmpTile, kTmpOff);
	TLOAD(srcTile, srcGlobal);
	TLOAD(idxTile, idxGlobal);
	set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
	wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
	if constexpr (kFourArg)
		TSORT32(dstTile, srcTile, idxTile, tmpTile);
	else
		TSORT32(dstTile, srcTile, idxTile);
	set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
	wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
	TSTORE(dstGlobal, dstTile);
}

// Bits of a random value: NaN of either sign and any payload, +-inf, +-0,
// denormals, small ties, and spread-out numbers, as float or binary16 bits.
uint32_t PickBits(std::mt19937 &rng, bool isHalf)
{
	const uint32_t sign = rng() % 2 ? (isHalf ? 0x8000u : 0x80000000u) : 0u;
	switch (rng() % 10) {
	case 0:
		return sign |
		       (isHalf ? 0x7c00u | (1u + rng() % 0x3ffu) : 0x7f800000u | (1u + rng() % 0x7fffffu)); // NaN
	case 1:
		return sign | (isHalf ? 0x7c00u : 0x7f800000u); // inf
	case 2:
		return sign; // zero
	case 3:
		return sign | (isHalf ? 1u + rng() % 0x3ffu : 1u + rng() % 0x7fffffu); // denormal
	case 4:
	case 5: {
		const float f = static_cast<float>(static_cast<int>(rng() % 9) - 4) * 0.5f; // ties
		uint32_t bits;
		std::memcpy(&bits, &f, 4);
		return isHalf ? half(f).Bits() : bits;
	}
	default: {
		const float f = static_cast<float>(rng() % 20001) / 100.0f - 100.0f;
		uint32_t bits;
		std::memcpy(&bits, &f, 4);
		return isHalf ? half(f).Bits() : bits;
	}
	}
}

template <typename T> T FromBits(uint32_t bits)
{
	if constexpr (std::is_same_v<T, half>) {
		return half::FromBits(static_cast<uint16_t>(bits));
	} else {
		float f;
		std::memcpy(&f, &bits, 4);
		return f;
	}
}

struct DiffCount {
	long cases = 0, blocks = 0, badBlocks = 0, nans = 0;
};

// One random case of a tile shape: ROWS (1..kRows) x COLS (1..kCols, a
// multiple of 32 for the 3-argument form, often near kCols), idx per row or
// broadcast, sorted by one direct call and compared block by block with RefRow.
template <typename T, int kRows, int kCols, bool kFourArg> void DiffCase(std::mt19937 &rng, DiffCount *n)
{
	const int rows = 1 + static_cast<int>(rng() % kRows);
	int cols = rng() % 4 == 0 ? kCols - static_cast<int>(rng() % 40) : 1 + static_cast<int>(rng() % kCols);
	if (!kFourArg)
		cols = std::min(kCols, (cols + 31) / 32 * 32);
	const int idxRows = rows > 1 && rng() % 4 == 0 ? 1 : rows;
	std::vector<T> src(static_cast<size_t>(rows) * cols);
	std::vector<uint32_t> idx(static_cast<size_t>(idxRows) * cols);
	for (T &v : src) {
		v = FromBits<T>(PickBits(rng, std::is_same_v<T, half>));
		n->nans += std::isnan(static_cast<float>(v));
	}
	for (uint32_t &i : idx)
		i = rng() % 4 == 0 ? 5u : static_cast<uint32_t>(rng()); // repeated indices too
	std::vector<uint8_t> out(static_cast<size_t>(rows) * cols * 8);
	runSortRows<T, kRows, kCols, kFourArg>(reinterpret_cast<T *>(out.data()), src.data(), idx.data(), rows, cols,
	                                       idxRows);
	for (int r = 0; r < rows; r++) {
		const auto want = RefRow<T>(&src[static_cast<size_t>(r) * cols],
		                            &idx[static_cast<size_t>(idxRows == 1 ? 0 : r) * cols], cols);
		for (int first = 0; first < cols; first += 32) {
			bool bad = false;
			for (int k = first; k < std::min(cols, first + 32); k++) {
				uint8_t tuple[8] = {};
				std::memcpy(tuple, &want[k].first, sizeof(T));
				std::memcpy(tuple + 4, &want[k].second, 4);
				bad |= std::memcmp(tuple, &out[(static_cast<size_t>(r) * cols + k) * 8], 8) != 0;
			}
			n->blocks++;
			n->badBlocks += bad;
		}
	}
	n->cases++;
}

template <typename T, bool kFourArg> void DiffShape(std::mt19937 &rng, DiffCount *n)
{
	switch (rng() % 4) {
	case 0:
		return DiffCase<T, 8, 256, kFourArg>(rng, n);
	case 1:
		return DiffCase<T, 4, 1024, kFourArg>(rng, n);
	case 2:
		return DiffCase<T, 2, 4096, kFourArg>(rng, n);
	default:
		return DiffCase<T, 1, 8192, kFourArg>(rng, n);
	}
}

long g_diffCases = 400; // pto_style_test nan-differential [CASES [SEED]]
unsigned g_diffSeed = 20;

// Random cases with NaN, +-inf, +-0, denormals, ties and repeated indices:
// float and half, both forms, 1..8 rows, up to 8192 columns, both targets,
// through the simulation against RefRow: no 32-element block may differ.
int NanDifferential()
{
	std::mt19937 rng(g_diffSeed);
	DiffCount n;
	const std::string err = CaptureStderr([&] {
		aclInit(nullptr);
		for (long i = 0; i < g_diffCases; i++) {
			pksim::SetTarget(rng() % 2 ? "a5" : "a2a3");
			switch (rng() % 4) {
			case 0:
				DiffShape<float, true>(rng, &n);
				break;
			case 1:
				DiffShape<half, true>(rng, &n);
				break;
			case 2:
				DiffShape<float, false>(rng, &n);
				break;
			default:
				DiffShape<half, false>(rng, &n);
			}
		}
		aclFinalize();
		pksim::SetTarget("a2a3");
	});
	if (n.nans == 0 || !Contains(err, "warning: TSORT32 sorted"))
		return Fail("nan-differential", "no NaN sorted, or no warning");
	if (n.badBlocks != 0)
		return Fail("nan-differential", std::to_string(n.badBlocks) + " of " + std::to_string(n.blocks) +
		                                    " blocks differ from the documented order");
	std::printf("ok nan-differential: seed %u, %ld cases, %ld 32-element blocks (%ld NaN values), 0 mismatches\n",
	            g_diffSeed, n.cases, n.blocks, n.nans);
	return 0;
}

// One NaN no longer scrambles its block; it sorts last, with a warning.
int NanExample()
{
	const float nan = std::nanf("");
	std::vector<float> src = {3, nan, 5, 1, 4, 2, 0, 6};
	std::vector<uint32_t> idx = {0, 1, 2, 3, 4, 5, 6, 7};
	std::vector<float> out(16);
	const std::string err = CaptureStderr([&] {
		aclInit(nullptr);
		runSort<float, 1, 32, 0x4000>(out.data(), src.data(), idx.data(), 8);
		aclFinalize();
	});
	std::string got;
	for (int k = 0; k < 8; k++) {
		uint32_t i;
		std::memcpy(&i, &out[2 * k + 1], 4);
		got += (k ? " " : "") + (std::isnan(out[2 * k]) ? std::string("NaN") : std::to_string(int(out[2 * k])));
		got += "@" + std::to_string(i);
	}
	if (got != "6@7 5@2 4@4 3@0 2@5 1@3 0@6 NaN@1")
		return Fail("nan-example", "got " + got);
	if (!Contains(err, "pksim: block 0: warning: TSORT32 sorted 1 NaN value;"))
		return Fail("nan-example", "no NaN warning");
	std::printf("ok nan-example: %s\n", got.c_str());
	return 0;
}

// ---- hangs ---------------------------------------------------------------

// Launch KERNEL on BLOCKS blocks with a hang bound of BOUNDMS (0: the one
// the environment or the default gives); returns the sync result, the error
// text and the seconds the sync took.
aclError RunHung(void (*kernel)(uint8_t *, uint8_t *, uint8_t *), uint32_t blocks, std::string *err, double *secs,
                 unsigned boundMs = 300)
{
	if (boundMs != 0)
		pksim::SetHangTimeoutMs(boundMs);
	uint8_t dummy[8] = {};
	aclrtStream stream = nullptr;
	aclrtCreateStream(&stream);
	const auto t0 = std::chrono::steady_clock::now();
	pksim::Launch(kernel, blocks, stream, dummy, dummy, dummy);
	aclError rc = ACL_SUCCESS;
	CaptureStderr([&] { rc = aclrtSynchronizeStream(stream); });
	*secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	*err = aclGetRecentErrMsg();
	aclrtDestroyStream(stream);
	return rc;
}

// A block that never sets its flag: the launch fails within the bound and
// the report names every waiting block and the one that returned.
int HangMissingSet()
{
	std::string err;
	double secs = 0;
	const aclError rc = RunHung(runMissingSet, 4, &err, &secs);
	if (rc != ACL_ERROR_RT_AICORE_EXCEPTION || secs > 3.0)
		return Fail("hang-missing-set", "launch did not fail within 3 s (" + std::to_string(secs) + " s)");
	for (const char *want : {"blocks hung", "block 0 waits in CrossCoreWaitFlag(flag 0) for 4 sets, 3 so far",
	                         "block 1 returned; it set flag 0 0x", "block 2 waits in CrossCoreWaitFlag(flag 0)",
	                         "block 3 waits in CrossCoreWaitFlag(flag 0)"})
		if (!Contains(err, want))
			return Fail("hang-missing-set", "report lacks '" + std::string(want) + "'");
	std::printf("ok hang-missing-set: failed after %.2f s naming blocks 0-3\n", secs);
	return 0;
}

// Blocks stuck at different barriers are each named with theirs.
int HangSplitBarrier()
{
	std::string err;
	double secs = 0;
	const aclError rc = RunHung(runSplitBarrier, 3, &err, &secs);
	if (rc != ACL_ERROR_RT_AICORE_EXCEPTION || secs > 3.0)
		return Fail("hang-split-barrier", "launch did not fail within 3 s");
	for (const char *want :
	     {"block 0 waits in CrossCoreWaitFlag(flag 3) for 3 sets, 0 so far",
	      "block 1 waits in SyncAll for 3 arrivals, 2 so far", "block 2 waits in SyncAll for 3 arrivals, 2 so far"})
		if (!Contains(err, want))
			return Fail("hang-split-barrier", "report lacks '" + std::string(want) + "'");
	std::printf("ok hang-split-barrier: failed after %.2f s\n", secs);
	return 0;
}

// The bound from the environment (ctest sets PKSIM_HANG_TIMEOUT_MS=250 for
// this case): the report says it, and the launch fails well within 3 s.
int HangEnvBound()
{
	std::string err;
	double secs = 0;
	const aclError rc = RunHung(runMissingSet, 2, &err, &secs, 0);
	if (rc != ACL_ERROR_RT_AICORE_EXCEPTION || secs > 3.0)
		return Fail("hang-env-bound", "launch did not fail within 3 s (" + std::to_string(secs) + " s)");
	if (!Contains(err, "nothing changed for 250 ms (PKSIM_HANG_TIMEOUT_MS)") ||
	    !Contains(err, "block 0 waits in CrossCoreWaitFlag(flag 0) for 2 sets, 1 so far"))
		return Fail("hang-env-bound", "report lacks the 250 ms bound or block 0");
	std::printf("ok hang-env-bound: failed after %.2f s with the bound of PKSIM_HANG_TIMEOUT_MS\n", secs);
	return 0;
}

// No bound set anywhere: the default of 3000 ms holds, so the launch fails
// after 3 s and not much later.
int HangDefaultBound()
{
	unsetenv("PKSIM_HANG_TIMEOUT_MS");
	std::string err;
	double secs = 0;
	const aclError rc = RunHung(runSplitBarrier, 2, &err, &secs, 0);
	if (rc != ACL_ERROR_RT_AICORE_EXCEPTION || secs < 2.9 || secs > 10.0)
		return Fail("hang-default-bound",
		            "launch did not fail between 3 and 10 s (" + std::to_string(secs) + " s)");
	if (!Contains(err, "launch of 2 blocks hung") || !Contains(err, "nothing changed for 3000 ms") ||
	    !Contains(err, "block 1 waits in SyncAll for 2 arrivals, 1 so far"))
		return Fail("hang-default-bound", "report lacks the 3000 ms bound or the waiting blocks");
	std::printf("ok hang-default-bound: failed after %.2f s\n", secs);
	return 0;
}

// A direct call that waits for a flag nobody sets: the process stops with
// the report once the bound has passed.
int HangDirect()
{
	int status = 0;
	const std::string err = RunChild(
	    [] {
		    pksim::SetHangTimeoutMs(200);
		    uint8_t dummy[8] = {};
		    runSplitBarrier(dummy, dummy, dummy);
	    },
	    &status);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT)
		return Fail("hang-direct", "the child was not aborted");
	if (!Contains(err, "launch of 1 block hung") ||
	    !Contains(err, "block 0 waits in CrossCoreWaitFlag(flag 3) for 1 sets, 0 so far"))
		return Fail("hang-direct", "report lacks the waiting block");
	std::printf("ok hang-direct: aborted with the report\n");
	return 0;
}

// ---- cycle counter -------------------------------------------------------

std::vector<int64_t> RunSpin(uint32_t blocks, uint8_t ms, uint8_t skew, double *wall)
{
	std::vector<int64_t> stamps(kStamps * blocks);
	aclrtStream stream = nullptr;
	aclrtCreateStream(&stream);
	const auto t0 = std::chrono::steady_clock::now();
	pksim::Launch(runSpin, blocks, stream, stamps.data(), &ms, &skew);
	const aclError rc = aclrtSynchronizeStream(stream);
	*wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	aclrtDestroyStream(stream);
	if (rc != ACL_SUCCESS)
		stamps.clear();
	return stamps;
}

// 48 blocks each spin 20 ms of CPU on however many cores there are (the
// build machine has 2): every block's counter advances 20 ms worth, not the
// wall time the host took to give it 20 ms of CPU (a wall-time counter reads
// up to the whole launch, about a second here). On a virtual machine, time
// the hypervisor takes from a vCPU can still be charged to the thread that
// was on it, so one block in ten may read more; the median may not.
int CyclePerBlock()
{
	constexpr uint32_t kBlocks = 48;
	pksim::SetCycleHz(0);
	double wall = 0;
	const std::vector<int64_t> st = RunSpin(kBlocks, 20, 0, &wall);
	if (st.empty())
		return Fail("cycle-per-block", "launch failed");
	const double hz = static_cast<double>(pksim::CycleHz());
	std::vector<double> ms;
	double wallHi = 0;
	for (uint32_t b = 0; b < kBlocks; b++) {
		const int64_t *s = &st[kStamps * b];
		ms.push_back(static_cast<double>(s[1] - s[0]) / hz * 1e3);
		wallHi = std::max(wallHi, static_cast<double>(s[5] - s[4]) * 1e-3);
	}
	std::sort(ms.begin(), ms.end());
	const double median = ms[kBlocks / 2];
	const long over = std::count_if(ms.begin(), ms.end(), [](double v) { return v > 22.0; });
	if (ms.front() < 19.0 || median > 22.0 || over > static_cast<long>(kBlocks) / 10)
		return Fail("cycle-per-block", "read " + std::to_string(ms.front()) + " ms min, " +
		                                   std::to_string(median) + " ms median, " + std::to_string(over) +
		                                   " blocks over 22 ms, for 20 ms of CPU each");
	std::printf("ok cycle-per-block: %u blocks x 20 ms CPU read %.2f ms min, %.2f ms median, %.2f ms max (%ld over "
	            "22 ms); the host's wall clock around the longest spin %.1f ms (%.1fx); launch wall %.1f ms on %u "
	            "cores\n",
	            kBlocks, ms.front(), median, ms.back(), over, wallHi, wallHi / 20.0, wall * 1e3,
	            std::thread::hardware_concurrency());
	return 0;
}

// Blocks spin 5, 10, .. ms then meet at a flag: a stamp taken before any
// block's set is never later than a stamp taken after any block's wait.
int CycleCollectiveOrder()
{
	constexpr uint32_t kBlocks = 4;
	double wall = 0;
	const std::vector<int64_t> st = RunSpin(kBlocks, 5, 1, &wall);
	if (st.empty())
		return Fail("cycle-collective-order", "launch failed");
	int64_t lastSet = 0, firstRelease = INT64_MAX;
	for (uint32_t b = 0; b < kBlocks; b++) {
		lastSet = std::max(lastSet, st[kStamps * b + 2]);
		firstRelease = std::min(firstRelease, st[kStamps * b + 3]);
		if (!(st[kStamps * b] <= st[kStamps * b + 1] && st[kStamps * b + 1] <= st[kStamps * b + 2] &&
		      st[kStamps * b + 2] <= st[kStamps * b + 3]))
			return Fail("cycle-collective-order", "block " + std::to_string(b) + "'s stamps go back");
	}
	const double hz = static_cast<double>(pksim::CycleHz());
	const double waited0 = static_cast<double>(st[3] - st[2]) / hz * 1e3;
	if (lastSet > firstRelease || waited0 < 10.0)
		return Fail("cycle-collective-order",
		            "a release precedes a set, or block 0 waited only " + std::to_string(waited0) + " ms");
	std::printf("ok cycle-collective-order: last set %lld <= first release %lld; block 0 waited %.1f ms\n",
	            static_cast<long long>(lastSet), static_cast<long long>(firstRelease), waited0);
	return 0;
}

struct Case {
	const char *name;
	int (*run)();
};

const Case kCases[] = {
    {"direct-call", DirectCall},
    {"direct-tmp-overlap", DirectTmpOverlap},
    {"aligned-tmp-unused", AlignedTmpUnused},
    {"launch-dst-over-idx", LaunchDstOverIdx},
    {"launch-tmp-over-src", LaunchTmpOverSrc},
    {"nan-example", NanExample},
    {"nan-differential", NanDifferential},
    {"hang-missing-set", HangMissingSet},
    {"hang-split-barrier", HangSplitBarrier},
    {"hang-env-bound", HangEnvBound},
    {"hang-default-bound", HangDefaultBound},
    {"hang-direct", HangDirect},
    {"cycle-per-block", CyclePerBlock},
    {"cycle-collective-order", CycleCollectiveOrder},
};

} // namespace

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 4 || std::strcmp(argv[1], "--help") == 0) {
		std::printf("usage: %s CASE | --list | nan-differential [CASES [SEED]]\n", argv[0]);
		return argc == 2 ? 0 : 2;
	}
	if (argc > 2 && std::strcmp(argv[1], "nan-differential") != 0) {
		std::fprintf(stderr, "%s: only nan-differential takes arguments\n", argv[0]);
		return 2;
	}
	if (argc > 2 && (g_diffCases = std::strtol(argv[2], nullptr, 10)) <= 0) {
		std::fprintf(stderr, "%s: CASES must be a positive number\n", argv[0]);
		return 2;
	}
	if (argc > 3)
		g_diffSeed = static_cast<unsigned>(std::strtoul(argv[3], nullptr, 10));
	for (const Case &c : kCases) {
		if (std::strcmp(argv[1], "--list") == 0)
			std::printf("%s\n", c.name);
		else if (std::strcmp(argv[1], c.name) == 0)
			return c.run();
	}
	if (std::strcmp(argv[1], "--list") == 0)
		return 0;
	std::fprintf(stderr, "%s: unknown case '%s'\n", argv[0], argv[1]);
	return 2;
}
