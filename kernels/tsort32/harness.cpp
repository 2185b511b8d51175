// harness.cpp - host harness for the TSORT32 kernel, by "Warmup and repeats
// on the host" in docs/method.md: warmups with stdout suppressed and restored
// on every path, stream sync and a late-print window before restoring, timed
// repeats between events, the average, and verification of every output
// against the independent golden reference.
// Linked with one build of the kernel (production or one probe).
#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "acl/acl.h"
#include "golden.h"
#include "pksim/host.h"
#include "tsort32_tiling.h"

extern "C" void tsort32_kernel(uint8_t *dst, uint8_t *src, uint8_t *idx, uint8_t *work, uint8_t *tiling);

namespace {

constexpr int kExitOk = 0;
constexpr int kExitMismatch = 1;
constexpr int kExitError = 2;

const char *g_prog = "tsort32";

struct Options {
	std::string dtype = "float";
	uint32_t rows = 2;
	uint32_t cols = 32;
	uint32_t idxRows = 0; // 0: same as rows
	std::string data = "random";
	uint64_t seed = 1;
	uint32_t blocks = 0; // 0: choose
	int warmup = 1;
	int repeat = 1;
	unsigned lateWindowMs = 500;
	std::string failAt; // "", "warmup" or "repeat"
};

struct Preset {
	const char *name;
	const char *dtype;
	uint32_t rows, cols, idxRows;
	const char *data;
	uint32_t blocks; // 0: the default choice
	const char *what;
};

const Preset kPresets[] = {
	{ "float-2x32", "float", 2, 32, 0, "random", 0, "reference shape float (2,32,32): one aligned block per row" },
	{ "half-4x64", "half", 4, 64, 0, "random", 0, "reference shape half (4,64,64): two blocks per row" },
	{ "float-1x8192", "float", 1, 8192, 0, "random", 0, "reference shape float (1,32*256): 256 blocks, split 255 + 1" },
	{ "float-2x13", "float", 2, 13, 0, "random", 0, "reference shape float (2,13,16): tail, 4-argument form" },
	{ "float-1x8160", "float", 1, 8160, 0, "random", 0, "255 blocks: exactly one VBS32 issue" },
	{ "half-5x100", "half", 5, 100, 0, "random", 0, "half, more than 32 columns, several rows, tail" },
	{ "half-6x96-idx-rows", "half", 6, 96, 6, "random", 0, "multi-row idx: every row its own indices" },
	{ "float-4x48-idx-bcast", "float", 4, 48, 1, "random", 0, "1xC idx broadcast to every row" },
	{ "float-4x64-ties", "float", 4, 64, 0, "ties", 0, "equal values: smaller index first" },
	{ "float-3x40-inf", "float", 3, 40, 0, "inf", 0, "+inf and -inf, with a tail" },
	{ "half-3x64-inf", "half", 3, 64, 0, "inf", 0, "half +inf and -inf" },
	{ "float-2x64-zeros", "float", 2, 64, 0, "zeros", 0, "-0.0 and +0.0 compare equal: smaller index first" },
	{ "float-8x32-8blocks", "float", 8, 32, 0, "random", 8, "8 blocks (more blocks than cores)" },
};

void Usage(FILE *out)
{
	std::fprintf(out,
		     "usage: %s [options]\n"
		     "Runs the TSORT32 kernel on the CPU simulation: warmups with stdout suppressed,\n"
		     "then timed repeats whose device probe lines are shown and summarised.\n"
		     "Every output is checked bit-exactly against an independent golden reference.\n"
		     "\n"
		     "input:\n"
		     "  --case NAME          a preset shape (see --list-cases); later options override it\n"
		     "  --dtype float|half   element type (default float)\n"
		     "  --rows R --cols C    src shape (default 2 x 32; C <= 8192)\n"
		     "  --idx-rows N         R (default) or 1 to broadcast one idx row\n"
		     "  --data KIND          random | ties | inf | zeros (default random)\n"
		     "  --seed N             input generator seed (default 1)\n"
		     "  --blocks N           blocks to launch (default min(R, 4), at least what the tiles need)\n"
		     "measurement (warmup and repeats on the host):\n"
		     "  --warmup N           untimed runs with stdout suppressed (default 1)\n"
		     "  --repeat N           timed runs (default 1)\n"
		     "  --late-window-ms MS  wait for late device prints after each sync (default 500)\n"
		     "simulation:\n"
		     "  --target a2a3|a5     simulated chip (UB size, TSORT32 tmp rule, counter default)\n"
		     "  --freq HZ            GetSystemCycle frequency (default 50 MHz a2a3, 1 GHz a5)\n"
		     "  --print-delay-ms MS  latency of the device print path (default 100)\n"
		     "  --fail-at warmup|repeat  make that launch fail (tests the stdout restore)\n"
		     "other:\n"
		     "  --list-cases         list the presets\n"
		     "  --help               this text\n"
		     "\n"
		     "output: the probe lines of the timed repeats (\"[NAME] start=.. end=.. dur=..\"),\n"
		     "then plain lines: the setup, the verification, the event timing, one summary per\n"
		     "probe (min / median / mean / max / spread of dur, in cycles), and \"result: PASS\"\n"
		     "or \"result: FAIL\".\n"
		     "exit: 0 outputs bit-exact, 1 an output differs from the golden reference,\n"
		     "      2 usage or runtime error\n",
		     g_prog);
}

bool ParseU(const char *s, uint64_t max, uint64_t *out)
{
	if (s == nullptr || *s == '\0' || *s == '-')
		return false;
	char *end = nullptr;
	errno = 0;
	unsigned long long v = std::strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v > max)
		return false;
	*out = v;
	return true;
}

void ApplyPreset(const Preset &p, Options *o)
{
	o->dtype = p.dtype;
	o->rows = p.rows;
	o->cols = p.cols;
	o->idxRows = p.idxRows;
	o->data = p.data;
	o->blocks = p.blocks;
}

// Returns -1 to continue, else an exit code.
int ParseArgs(int argc, char **argv, Options *o)
{
	for (int i = 1; i < argc; i++) {
		const std::string a = argv[i];
		if (a == "--help" || a == "-h") {
			Usage(stdout);
			return kExitOk;
		}
		if (a == "--list-cases") {
			for (const Preset &p : kPresets)
				std::printf("%-22s %s\n", p.name, p.what);
			return kExitOk;
		}
		static const char *const valued[] = { "--case", "--dtype", "--rows", "--cols", "--idx-rows",
						      "--data", "--seed", "--blocks", "--warmup", "--repeat",
						      "--late-window-ms", "--target", "--freq", "--print-delay-ms",
						      "--fail-at" };
		bool known = false;
		for (const char *k : valued)
			known = known || a == k;
		if (!known) {
			std::fprintf(stderr, "%s: unknown option '%s' (see --help)\n", g_prog, a.c_str());
			return kExitError;
		}
		if (i + 1 >= argc) {
			std::fprintf(stderr, "%s: option '%s' needs a value (see --help)\n", g_prog, a.c_str());
			return kExitError;
		}
		const char *v = argv[++i];
		uint64_t n = 0;
		bool ok = true;
		if (a == "--case") {
			const Preset *found = nullptr;
			for (const Preset &p : kPresets)
				if (std::strcmp(p.name, v) == 0)
					found = &p;
			ok = found != nullptr;
			if (ok)
				ApplyPreset(*found, o);
		} else if (a == "--dtype") {
			o->dtype = v;
			ok = o->dtype == "float" || o->dtype == "half";
		} else if (a == "--rows") {
			ok = ParseU(v, 1u << 20, &n) && n > 0;
			o->rows = static_cast<uint32_t>(n);
		} else if (a == "--cols") {
			ok = ParseU(v, TSORT32_WIDE_COLS, &n) && n > 0;
			o->cols = static_cast<uint32_t>(n);
		} else if (a == "--idx-rows") {
			ok = ParseU(v, 1u << 20, &n) && n > 0;
			o->idxRows = static_cast<uint32_t>(n);
		} else if (a == "--data") {
			o->data = v;
			ok = o->data == "random" || o->data == "ties" || o->data == "inf" || o->data == "zeros";
		} else if (a == "--seed") {
			ok = ParseU(v, UINT64_MAX, &o->seed);
		} else if (a == "--blocks") {
			ok = ParseU(v, 65535, &n) && n > 0;
			o->blocks = static_cast<uint32_t>(n);
		} else if (a == "--warmup") {
			ok = ParseU(v, 100000, &n);
			o->warmup = static_cast<int>(n);
		} else if (a == "--repeat") {
			ok = ParseU(v, 100000, &n) && n > 0;
			o->repeat = static_cast<int>(n);
		} else if (a == "--late-window-ms") {
			ok = ParseU(v, 60000, &n);
			o->lateWindowMs = static_cast<unsigned>(n);
		} else if (a == "--target") {
			ok = pksim::SetTarget(v);
		} else if (a == "--freq") {
			ok = ParseU(v, UINT64_MAX, &n) && n > 0;
			if (ok)
				pksim::SetCycleHz(n);
		} else if (a == "--print-delay-ms") {
			ok = ParseU(v, 60000, &n);
			if (ok)
				pksim::SetPrintDelayMs(static_cast<unsigned>(n));
		} else if (a == "--fail-at") {
			o->failAt = v;
			ok = o->failAt == "warmup" || o->failAt == "repeat";
		} else {
			std::fprintf(stderr, "%s: unknown option '%s' (see --help)\n", g_prog, a.c_str());
			return kExitError;
		}
		if (!ok) {
			std::fprintf(stderr, "%s: invalid value '%s' for %s (see --help)\n", g_prog, v, a.c_str());
			return kExitError;
		}
	}
	if (o->idxRows == 0)
		o->idxRows = o->rows;
	if (o->idxRows != 1 && o->idxRows != o->rows) {
		std::fprintf(stderr, "%s: --idx-rows must be 1 or the row count %u\n", g_prog, o->rows);
		return kExitError;
	}
	if (o->failAt == "warmup" && o->warmup == 0) {
		std::fprintf(stderr, "%s: --fail-at warmup needs --warmup >= 1\n", g_prog);
		return kExitError;
	}
	return -1;
}

// ---- input -------------------------------------------------------------

struct Rng {
	uint64_t s;
	uint64_t Next()
	{
		// splitmix64
		uint64_t z = (s += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		return z ^ (z >> 31);
	}
	uint32_t Below(uint32_t n) { return static_cast<uint32_t>(Next() % n); }
};

// Bit patterns of finite values (and the specials KIND asks for).
uint32_t FloatBits(Rng &rng, const std::string &kind)
{
	static const float ties[] = { 1.0f, 2.0f, 3.0f };
	float f;
	if (kind == "ties") {
		f = ties[rng.Below(3)];
	} else if (kind == "inf" && rng.Below(3) == 0) {
		f = rng.Below(2) ? INFINITY : -INFINITY;
	} else if (kind == "zeros" && rng.Below(2) == 0) {
		f = rng.Below(2) ? 0.0f : -0.0f;
	} else {
		// a mix of magnitudes and some repeats, never NaN or inf
		f = static_cast<float>(static_cast<int>(rng.Below(2001)) - 1000) / 8.0f;
		if (rng.Below(4) == 0)
			f = std::ldexp(f, static_cast<int>(rng.Below(60)) - 30);
	}
	uint32_t b;
	std::memcpy(&b, &f, 4);
	return b;
}

uint16_t HalfBits(Rng &rng, const std::string &kind)
{
	if (kind == "ties")
		return static_cast<uint16_t>(0x3c00 + 0x400 * rng.Below(3)); // 1.0, 2.0, 4.0
	if (kind == "inf" && rng.Below(3) == 0)
		return rng.Below(2) ? 0x7c00 : 0xfc00;
	if (kind == "zeros" && rng.Below(2) == 0)
		return rng.Below(2) ? 0x0000 : 0x8000;
	// any finite pattern: subnormals included; exponent 31 (inf/NaN) excluded
	uint16_t b;
	do
		b = static_cast<uint16_t>(rng.Next());
	while (((b >> 10) & 0x1f) == 0x1f);
	if (rng.Below(4) == 0)
		b &= 0xfc00; // repeats
	return b;
}

struct Inputs {
	std::vector<uint8_t> src;
	std::vector<uint32_t> idx;
};

Inputs MakeInputs(const Options &o)
{
	Rng rng{ o.seed };
	Inputs in;
	const size_t n = static_cast<size_t>(o.rows) * o.cols;
	const bool isHalf = o.dtype == "half";
	in.src.resize(n * (isHalf ? 2 : 4));
	for (size_t i = 0; i < n; i++) {
		if (isHalf) {
			const uint16_t b = HalfBits(rng, o.data);
			std::memcpy(&in.src[i * 2], &b, 2);
		} else {
			const uint32_t b = FloatBits(rng, o.data);
			std::memcpy(&in.src[i * 4], &b, 4);
		}
	}
	// distinct indices in shuffled order per idx row, so "smaller index
	// first" differs from "earlier position first"
	in.idx.resize(static_cast<size_t>(o.idxRows) * o.cols);
	for (uint32_t r = 0; r < o.idxRows; r++) {
		uint32_t *row = &in.idx[static_cast<size_t>(r) * o.cols];
		for (uint32_t c = 0; c < o.cols; c++)
			row[c] = r * 100000u + c * 3u + 7u;
		for (uint32_t c = o.cols; c > 1; c--)
			std::swap(row[c - 1], row[rng.Below(c)]);
	}
	return in;
}

// ---- RAII --------------------------------------------------------------

// Warmup output suppression: fflush, dup, /dev/null onto fd 1; the
// destructor restores fd 1 on every path, errors included.
class StdoutSilencer {
public:
	StdoutSilencer()
	{
		std::fflush(stdout);
		backup_ = dup(STDOUT_FILENO);
		const int devNull = open("/dev/null", O_WRONLY);
		if (backup_ >= 0 && devNull >= 0)
			dup2(devNull, STDOUT_FILENO);
		if (devNull >= 0)
			close(devNull);
	}
	~StdoutSilencer()
	{
		std::fflush(stdout);
		if (backup_ >= 0) {
			dup2(backup_, STDOUT_FILENO);
			close(backup_);
		}
	}
	StdoutSilencer(const StdoutSilencer &) = delete;
	StdoutSilencer &operator=(const StdoutSilencer &) = delete;
	bool ok() const { return backup_ >= 0; }

private:
	int backup_ = -1;
};

// Copies everything written to fd 1 (the device print path included) to the
// real stdout and keeps it, so the timed runs' probe lines can be summarised.
class StdoutTee {
public:
	StdoutTee()
	{
		std::fflush(stdout);
		int p[2];
		if (pipe(p) != 0)
			return;
		backup_ = dup(STDOUT_FILENO);
		if (backup_ < 0 || dup2(p[1], STDOUT_FILENO) < 0) {
			close(p[0]);
			close(p[1]);
			return;
		}
		close(p[1]);
		reader_ = std::thread([this, fd = p[0]] {
			char buf[4096];
			for (;;) {
				const ssize_t n = read(fd, buf, sizeof(buf));
				if (n < 0 && errno == EINTR)
					continue;
				if (n <= 0)
					break;
				text_.append(buf, static_cast<size_t>(n));
				for (ssize_t off = 0; off < n;) {
					const ssize_t w = write(backup_, buf + off, static_cast<size_t>(n - off));
					if (w <= 0)
						break;
					off += w;
				}
			}
			close(fd);
		});
	}
	~StdoutTee() { Stop(); }
	StdoutTee(const StdoutTee &) = delete;
	StdoutTee &operator=(const StdoutTee &) = delete;

	// Restore fd 1; the pipe then has no writer and the reader ends.
	const std::string &Stop()
	{
		if (backup_ >= 0) {
			std::fflush(stdout);
			dup2(backup_, STDOUT_FILENO);
			if (reader_.joinable())
				reader_.join();
			close(backup_);
			backup_ = -1;
		}
		return text_;
	}

private:
	int backup_ = -1;
	std::thread reader_;
	std::string text_;
};

struct DevBuf {
	void *p = nullptr;
	size_t n = 0;
	explicit DevBuf(size_t bytes) : n(bytes)
	{
		if (aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
			p = nullptr;
	}
	~DevBuf() { aclrtFree(p); }
	DevBuf(const DevBuf &) = delete;
	DevBuf &operator=(const DevBuf &) = delete;
	uint8_t *u8() const { return static_cast<uint8_t *>(p); }
};

struct Stream {
	aclrtStream s = nullptr;
	Stream() { aclrtCreateStream(&s); }
	~Stream()
	{
		if (s)
			aclrtDestroyStream(s);
	}
	Stream(const Stream &) = delete;
	Stream &operator=(const Stream &) = delete;
};

struct Event {
	aclrtEvent e = nullptr;
	Event() { aclrtCreateEvent(&e); }
	~Event() { aclrtDestroyEvent(e); }
	Event(const Event &) = delete;
	Event &operator=(const Event &) = delete;
};

// aclFinalize drains the device print path, so late lines are not lost at exit.
struct AclSession {
	AclSession() { aclInit(nullptr); }
	~AclSession() { aclFinalize(); }
};

#define CHECK_ACL(call)                                                                                     \
	do {                                                                                                \
		const aclError rc_ = (call);                                                                \
		if (rc_ != ACL_SUCCESS) {                                                                   \
			std::fprintf(stderr, "%s: %s failed: error %d: %s\n", g_prog, #call, rc_,           \
				     aclGetRecentErrMsg());                                                 \
			return kExitError;                                                                  \
		}                                                                                           \
	} while (0)

// ---- one run -----------------------------------------------------------

struct Device {
	const Options &o;
	uint32_t blocks;
	size_t dstBytes;
	DevBuf dst, src, idx, work, tiling, badTiling;
	Stream stream;

	Device(const Options &opt, uint32_t nblocks, size_t srcBytes)
		: o(opt), blocks(nblocks), dstBytes(static_cast<size_t>(opt.rows) * opt.cols * 8), dst(dstBytes),
		  src(srcBytes), idx(static_cast<size_t>(opt.idxRows) * opt.cols * 4), work(dstBytes),
		  tiling(sizeof(Tsort32Tiling)), badTiling(sizeof(Tsort32Tiling))
	{
	}
	bool ok() const { return dst.p && src.p && idx.p && work.p && tiling.p && badTiling.p && stream.s; }

	// Clear dst and the workspace in stream order before every launch, so a
	// stale result from an earlier run can never pass verification.
	aclError LaunchOnce(bool fail)
	{
		aclError rc = aclrtMemsetAsync(dst.p, dst.n, 0x5a, dst.n, stream.s);
		if (rc == ACL_SUCCESS)
			rc = aclrtMemsetAsync(work.p, work.n, 0xa5, work.n, stream.s);
		if (rc == ACL_SUCCESS)
			rc = pksim::Launch(tsort32_kernel, blocks, stream.s, dst.u8(), src.u8(), idx.u8(), work.u8(),
					   fail ? badTiling.u8() : tiling.u8());
		return rc;
	}
};

uint32_t ChooseBlocks(const Options &o, std::string *why)
{
	const uint32_t perBlock = o.cols <= TSORT32_NARROW_COLS ? TSORT32_NARROW_ROWS : TSORT32_WIDE_ROWS;
	const uint32_t least = (o.rows + perBlock - 1) / perBlock;
	if (o.blocks == 0)
		return std::max(least, std::min<uint32_t>(o.rows, 4));
	if (o.blocks > o.rows) {
		*why = "every block needs a row: at most " + std::to_string(o.rows) + " blocks";
		return 0;
	}
	if (o.blocks < least) {
		*why = "a block holds at most " + std::to_string(perBlock) + " rows of " + std::to_string(o.cols) +
		       " columns: at least " + std::to_string(least) + " blocks";
		return 0;
	}
	return o.blocks;
}

int Verify(Device &dev, const std::vector<uint8_t> &golden, const char *when, const Options &o)
{
	std::vector<uint8_t> got(dev.dstBytes);
	CHECK_ACL(aclrtMemcpy(got.data(), got.size(), dev.dst.p, dev.dstBytes, ACL_MEMCPY_DEVICE_TO_HOST));
	if (std::memcmp(got.data(), golden.data(), got.size()) == 0)
		return kExitOk;
	for (size_t t = 0; t * 8 < got.size(); t++) {
		if (std::memcmp(&got[t * 8], &golden[t * 8], 8) == 0)
			continue;
		uint32_t gv, gi, ev, ei;
		std::memcpy(&gv, &got[t * 8], 4);
		std::memcpy(&gi, &got[t * 8 + 4], 4);
		std::memcpy(&ev, &golden[t * 8], 4);
		std::memcpy(&ei, &golden[t * 8 + 4], 4);
		std::fprintf(stderr,
			     "%s: %s output differs from the golden reference at row %zu tuple %zu: "
			     "got value bits 0x%08x index %u, expected 0x%08x index %u\n",
			     g_prog, when, t / o.cols, t % o.cols, gv, gi, ev, ei);
		break;
	}
	return kExitMismatch;
}

void SleepMs(unsigned ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// Warmups: suppressed, synchronised, late prints absorbed, restored.
int Warmup(Device &dev, const Options &o)
{
	StdoutSilencer quiet;
	if (!quiet.ok()) {
		std::fprintf(stderr, "%s: cannot redirect stdout for the warmup\n", g_prog);
		return kExitError;
	}
	for (int i = 0; i < o.warmup; i++)
		CHECK_ACL(dev.LaunchOnce(o.failAt == "warmup" && i == o.warmup - 1));
	CHECK_ACL(aclrtSynchronizeStream(dev.stream.s));
	SleepMs(o.lateWindowMs);
	return kExitOk;
}

struct Timed {
	float ms = 0;
	std::string lines;
};

int TimedRuns(Device &dev, const Options &o, Timed *out)
{
	StdoutTee tee;
	Event start, end;
	CHECK_ACL(aclrtRecordEvent(start.e, dev.stream.s));
	for (int i = 0; i < o.repeat; i++)
		CHECK_ACL(dev.LaunchOnce(o.failAt == "repeat" && i == o.repeat - 1));
	CHECK_ACL(aclrtRecordEvent(end.e, dev.stream.s));
	CHECK_ACL(aclrtSynchronizeStream(dev.stream.s));
	CHECK_ACL(aclrtEventElapsedTime(&out->ms, start.e, end.e));
	SleepMs(o.lateWindowMs);
	out->lines = tee.Stop();
	return kExitOk;
}

// ---- summary -----------------------------------------------------------

struct ProbeStats {
	std::vector<uint64_t> durs;
	std::vector<uint64_t> starts;
	unsigned lines = 0;
};

bool FieldU64(const std::string &line, const char *key, uint64_t *v)
{
	const size_t at = line.find(key);
	if (at == std::string::npos)
		return false;
	*v = std::strtoull(line.c_str() + at + std::strlen(key), nullptr, 10);
	return true;
}

void Summarise(const std::string &text)
{
	std::map<std::string, ProbeStats> probes;
	std::vector<uint64_t> bases;
	size_t pos = 0;
	while (pos < text.size()) {
		size_t eol = text.find('\n', pos);
		if (eol == std::string::npos)
			eol = text.size();
		const std::string line = text.substr(pos, eol - pos);
		pos = eol + 1;
		const size_t close = line.find(']');
		if (line.empty() || line[0] != '[' || close == std::string::npos)
			continue;
		const std::string name = line.substr(1, close - 1);
		if (name == "T_BASE") {
			bases.push_back(std::strtoull(line.c_str() + close + 1, nullptr, 10));
			continue;
		}
		ProbeStats &p = probes[name];
		p.lines++;
		uint64_t start, dur;
		if (FieldU64(line, " start=", &start) && FieldU64(line, " dur=", &dur)) {
			p.durs.push_back(dur);
			p.starts.push_back(start);
		}
	}
	if (probes.empty() && bases.empty()) {
		std::printf("probes: none printed (production build, or every probe off)\n");
		return;
	}
	if (!bases.empty())
		std::printf("probe T_BASE: %zu lines (the base for relative starts)\n", bases.size());
	for (auto &kv : probes) {
		std::vector<uint64_t> d = kv.second.durs;
		if (d.empty()) {
			std::printf("probe %s: %u lines without start=/dur=\n", kv.first.c_str(), kv.second.lines);
			continue;
		}
		std::sort(d.begin(), d.end());
		double mean = 0;
		for (uint64_t x : d)
			mean += static_cast<double>(x);
		mean /= static_cast<double>(d.size());
		const double median = d.size() % 2 ? static_cast<double>(d[d.size() / 2])
						   : (static_cast<double>(d[d.size() / 2 - 1]) + d[d.size() / 2]) / 2.0;
		std::printf("probe %s: %zu runs, dur min %" PRIu64 " median %.1f mean %.1f max %" PRIu64
			    " spread %" PRIu64 " cycles",
			    kv.first.c_str(), d.size(), d.front(), median, mean, d.back(), d.back() - d.front());
		// relative start (start - T_BASE) when every run printed a base
		if (bases.size() == kv.second.starts.size()) {
			std::vector<int64_t> rel;
			for (size_t i = 0; i < bases.size(); i++)
				rel.push_back(static_cast<int64_t>(kv.second.starts[i] - bases[i]));
			std::sort(rel.begin(), rel.end());
			std::printf(", start-T_BASE median %" PRId64, rel[rel.size() / 2]);
		}
		std::printf("\n");
	}
}

int Run(const Options &o)
{
	std::string why;
	const uint32_t blocks = ChooseBlocks(o, &why);
	if (blocks == 0) {
		std::fprintf(stderr, "%s: cannot launch %u x %u: %s\n", g_prog, o.rows, o.cols, why.c_str());
		return kExitError;
	}
	const bool isHalf = o.dtype == "half";
	const Inputs in = MakeInputs(o);
	const std::vector<uint8_t> golden = GoldenTsort32(isHalf, o.rows, o.cols, in.src.data(), in.idx.data(),
							  o.idxRows);

	AclSession session;
	CHECK_ACL(aclrtSetDevice(0));
	Device dev(o, blocks, in.src.size());
	if (!dev.ok()) {
		std::fprintf(stderr, "%s: cannot allocate device buffers or the stream\n", g_prog);
		return kExitError;
	}
	const Tsort32Tiling tiling{ isHalf ? TSORT32_HALF : TSORT32_FLOAT, o.rows, o.cols, o.idxRows };
	// an impossible column count: the kernel's tiles reject it
	const Tsort32Tiling bad{ tiling.dtype, o.rows, TSORT32_WIDE_COLS + 1, o.idxRows };
	CHECK_ACL(aclrtMemcpy(dev.src.p, dev.src.n, in.src.data(), in.src.size(), ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK_ACL(aclrtMemcpy(dev.idx.p, dev.idx.n, in.idx.data(), in.idx.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK_ACL(aclrtMemcpy(dev.tiling.p, dev.tiling.n, &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK_ACL(aclrtMemcpy(dev.badTiling.p, dev.badTiling.n, &bad, sizeof(bad), ACL_MEMCPY_HOST_TO_DEVICE));

	std::printf("%s: %s %u x %u (idx %u %s), %u blocks, target %s at %" PRIu64 " Hz, warmup %d, repeat %d\n",
		    g_prog, o.dtype.c_str(), o.rows, o.cols, o.idxRows, o.idxRows == 1 ? "row" : "rows", blocks,
		    pksim::TargetName(pksim::CurrentTarget()), pksim::CycleHz(), o.warmup, o.repeat);
	if (o.warmup > 0) {
		int rc = Warmup(dev, o);
		if (rc != kExitOk)
			return rc;
		rc = Verify(dev, golden, "warmup", o);
		if (rc != kExitOk)
			return rc;
	}
	Timed timed;
	int rc = TimedRuns(dev, o, &timed);
	if (rc != kExitOk)
		return rc;
	rc = Verify(dev, golden, "timed", o);
	if (rc != kExitOk)
		return rc;
	std::printf("verify: %u x %u tuples bit-exact against the golden reference after %s\n", o.rows, o.cols,
		    o.warmup > 0 ? "the warmup and the timed runs" : "the timed runs");
	std::printf("time: %d repeats in %.3f ms, average %.1f us per launch (host events, simulated)\n", o.repeat,
		    static_cast<double>(timed.ms), static_cast<double>(timed.ms) * 1000.0 / o.repeat);
	Summarise(timed.lines);
	return kExitOk;
}

} // namespace

int main(int argc, char **argv)
{
	const char *slash = std::strrchr(argv[0], '/');
	g_prog = slash ? slash + 1 : argv[0];
	Options o;
	const int parsed = ParseArgs(argc, argv, &o);
	if (parsed >= 0)
		return parsed;
	const int rc = Run(o);
	std::printf("result: %s\n", rc == kExitOk ? "PASS" : "FAIL");
	return rc;
}
