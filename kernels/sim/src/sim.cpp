// sim.cpp - the CPU simulation's runtime: blocks as threads (and the
// implicit block of a direct kernel call), each block's cycle counter, the
// asynchronous device-print path, cross-core flags and their hang watchdog,
// streams, events and device memory behind acl/acl.h.
#include "acl/acl.h"
#include "pksim/device.h"
#include "pksim/host.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <time.h>
#include <unistd.h>

namespace pksim {
namespace {

using Clock = std::chrono::steady_clock;

// ---- configuration -------------------------------------------------------

struct Config {
	Target target = Target::A2A3;
	uint64_t cycle_hz = 0; // 0: the target's default
	// set by the host while blocks may be running: atomic, read once per use
	std::atomic<unsigned> print_delay_ms{100};
	std::atomic<unsigned> hang_timeout_ms{3000};
};

Config &Cfg()
{
	static Config *cfg = [] {
		Config *c = new Config;
		const char *t = std::getenv("PKSIM_TARGET");
		if (t && std::strcmp(t, "a5") == 0)
			c->target = Target::A5;
		if (const char *hz = std::getenv("PKSIM_CYCLE_HZ"))
			c->cycle_hz = std::strtoull(hz, nullptr, 10);
		if (const char *d = std::getenv("PKSIM_PRINT_DELAY_MS"))
			c->print_delay_ms = static_cast<unsigned>(std::strtoul(d, nullptr, 10));
		if (const char *h = std::getenv("PKSIM_HANG_TIMEOUT_MS"))
			c->hang_timeout_ms = static_cast<unsigned>(std::strtoul(h, nullptr, 10));
		return c;
	}();
	return *cfg;
}

// ---- launches and blocks -------------------------------------------------

constexpr int kFlagIds = 16;
constexpr int kPipes = 9; // pipe_t values below PIPE_COUNT (kernel_operator.h)
constexpr int kEvents = 8;

int64_t SteadyNs()
{
	return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

int64_t ThreadCpuNs()
{
	timespec ts{};
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// What a block of a launch is doing, as the hang watchdog reports it.
struct BlockStatus {
	enum { Running, Waiting, Returned } state = Running;
	const char *wait_what = nullptr; // "CrossCoreWaitFlag" or "SyncAll"
	int wait_flag = -1;
	unsigned long want = 0; // sets / arrivals the wait needs
	unsigned long sets[kFlagIds] = {};
	unsigned long sync_alls = 0;
};

struct LaunchState {
	uint32_t blocks = 0;
	std::mutex m;
	std::condition_variable cv;
	unsigned long cross_sets[kFlagIds] = {};
	unsigned long sync_all_arrivals = 0;
	bool failed = false;
	int64_t start_ns = SteadyNs(); // every block's counter starts here
	// the hang watchdog: who waits, who returned, when anything last changed
	std::vector<BlockStatus> status;
	uint32_t waiting = 0;
	uint32_t returned = 0;
	Clock::time_point last_change = Clock::now();
	// per flag and round (and per SyncAll round): the latest simulated time
	// of a set / arrival, which a released block's counter catches up to
	std::vector<int64_t> flag_round_ns[kFlagIds];
	std::vector<int64_t> sync_round_ns;

	explicit LaunchState(uint32_t n) : blocks(n), status(n)
	{
	}

	void Changed()
	{
		last_change = Clock::now();
		cv.notify_all();
	}

	void MarkFailed()
	{
		std::lock_guard<std::mutex> g(m);
		failed = true;
		cv.notify_all();
	}
};

struct Block {
	uint32_t idx = 0;
	LaunchState *launch = nullptr;
	std::vector<uint8_t> ub;
	unsigned pipe_flags[kPipes][kPipes][kEvents] = {};
	unsigned long cross_waits[kFlagIds] = {};
	unsigned long sync_all_rounds = 0;
	bool nan_warned = false;
	int64_t cpu0_ns = ThreadCpuNs(); // the thread's CPU time when the block started
	int64_t offset_ns = 0;           // time spent waiting at collectives
};

thread_local Block *tl_block = nullptr;

// A device call outside a launch runs as block 0 of an implicit one-block
// launch owned by the calling thread, as pto-isa's CPU simulation allows (its
// CPU tests call the kernel function directly). It starts at the first such
// call with a fresh UB; aclInit / aclFinalize on that thread end it.
struct ImplicitLaunch {
	LaunchState launch{1};
	Block block;
};
thread_local std::unique_ptr<ImplicitLaunch> tl_implicit;

bool InImplicitLaunch()
{
	return tl_implicit != nullptr && tl_block == &tl_implicit->block;
}

void EndImplicitLaunch()
{
	if (InImplicitLaunch())
		tl_block = nullptr;
	tl_implicit.reset();
}

Block &Current()
{
	if (tl_block == nullptr) {
		tl_implicit.reset(new ImplicitLaunch);
		tl_implicit->block.launch = &tl_implicit->launch;
		tl_implicit->block.ub.assign(UbBytes() + 32, 0xA5);
		tl_block = &tl_implicit->block;
	}
	return *tl_block;
}

std::mutex g_err_mutex;
std::string g_last_error;

void RecordError(const std::string &msg)
{
	std::lock_guard<std::mutex> g(g_err_mutex);
	g_last_error = msg;
}

// Run one launch: every block is its own thread, so a collective never waits
// on a block that has no thread to run on (blocks > cores cannot deadlock).
int RunLaunch(uint32_t blockDim, const std::function<void()> &body)
{
	LaunchState launch(blockDim);
	std::vector<std::thread> threads;
	threads.reserve(blockDim);
	for (uint32_t b = 0; b < blockDim; b++) {
		threads.emplace_back([&launch, &body, b] {
			Block blk;
			blk.idx = b;
			blk.launch = &launch;
			// the UB starts with junk, as on the board, never zeros
			blk.ub.assign(UbBytes() + 32, 0xA5);
			tl_block = &blk;
			try {
				body();
			} catch (const KernelAbort &) {
				launch.MarkFailed();
			}
			tl_block = nullptr;
			std::lock_guard<std::mutex> g(launch.m);
			launch.status[b].state = BlockStatus::Returned;
			launch.returned++;
			launch.Changed();
		});
	}
	for (auto &t : threads)
		t.join();
	return launch.failed ? ACL_ERROR_RT_AICORE_EXCEPTION : ACL_SUCCESS;
}

// ---- device printf -------------------------------------------------------

// Lines are delivered to fd 1 by one thread, each no sooner than the delay
// after it was printed: like the board's log path they can arrive after the
// stream has synchronised, and they land wherever fd 1 points by then.
class Printer {
public:
	void Push(std::string line)
	{
		std::unique_lock<std::mutex> g(m_);
		if (!started_) {
			started_ = true;
			thread_ = std::thread([this] { Run(); });
		}
		q_.push_back({ Clock::now() + std::chrono::milliseconds(Cfg().print_delay_ms.load()), std::move(line) });
		cv_.notify_all();
	}

	// Deliver everything still queued, then stop the thread.
	void Stop()
	{
		std::unique_lock<std::mutex> g(m_);
		if (!started_)
			return;
		stop_ = true;
		cv_.notify_all();
		g.unlock();
		thread_.join();
		g.lock();
		started_ = false;
		stop_ = false;
	}

private:
	struct Item {
		Clock::time_point due;
		std::string text;
	};

	void Run()
	{
		std::unique_lock<std::mutex> g(m_);
		for (;;) {
			cv_.wait(g, [this] { return stop_ || !q_.empty(); });
			if (q_.empty())
				return; // stop_ and drained
			const Clock::time_point due = q_.front().due;
			if (!stop_ && Clock::now() < due) {
				cv_.wait_until(g, due);
				continue;
			}
			if (Clock::now() < due) {
				g.unlock();
				std::this_thread::sleep_until(due);
				g.lock();
			}
			std::string text = std::move(q_.front().text);
			q_.pop_front();
			g.unlock();
			WriteAll(text);
			g.lock();
		}
	}

	static void WriteAll(const std::string &s)
	{
		size_t off = 0;
		while (off < s.size()) {
			ssize_t n = ::write(STDOUT_FILENO, s.data() + off, s.size() - off);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return; // stdout closed: the line is lost, as on the board
			off += static_cast<size_t>(n);
		}
	}

	std::mutex m_;
	std::condition_variable cv_;
	std::deque<Item> q_;
	std::thread thread_;
	bool started_ = false;
	bool stop_ = false;
};

Printer &ThePrinter()
{
	static Printer *p = new Printer; // never destroyed: aclFinalize stops it
	return *p;
}

std::atomic<unsigned long> g_vbs32_issues{ 0 };
std::atomic<unsigned> g_vbs32_max_repeat{ 0 };

const char *PipeName(int p)
{
	static const char *const names[] = { "PIPE_S",   "PIPE_V",    "PIPE_M",   "PIPE_MTE1", "PIPE_MTE2",
					     "PIPE_MTE3", "PIPE_ALL", "PIPE_V2", "PIPE_FIX" };
	return p >= 0 && p < static_cast<int>(sizeof(names) / sizeof(names[0])) ? names[p] : "PIPE_?";
}

} // namespace

// ---- device.h ------------------------------------------------------------

Target CurrentTarget() { return Cfg().target; }

const char *TargetName(Target t) { return t == Target::A5 ? "A5" : "A2/A3"; }

size_t UbBytes() { return CurrentTarget() == Target::A5 ? 256 * 1024 : 192 * 1024; }

void Fail(const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	std::vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	std::string where = tl_block ? "block " + std::to_string(tl_block->idx) : std::string("host");
	if (InImplicitLaunch())
		where += " (kernel called outside a launch)";
	const std::string line = "pksim: " + where + ": " + msg;
	std::fprintf(stderr, "%s\n", line.c_str());
	RecordError(line);
	if (InImplicitLaunch())
		std::abort(); // no launch to fail: stop the process, as a kernel exception would
	throw KernelAbort{};
}

uint32_t BlockIdx() { return Current().idx; }
uint32_t BlockNum() { return Current().launch->blocks; }

uint8_t *UbBase()
{
	// 32-byte aligned base inside the block's buffer
	uintptr_t p = reinterpret_cast<uintptr_t>(Current().ub.data());
	return reinterpret_cast<uint8_t *>((p + 31) & ~static_cast<uintptr_t>(31));
}

// A block's simulated time: the launch's start (steady_clock, which counts
// from boot like SYS_CNT), plus the CPU time the block's own thread has used,
// plus what it spent waiting at collectives for later blocks.
static int64_t BlockNs(const Block &b)
{
	return b.launch->start_ns + (ThreadCpuNs() - b.cpu0_ns) + b.offset_ns;
}

// After a wait: the block cannot be earlier than the last set it waited for.
static void CatchUp(Block &b, int64_t releaseNs)
{
	const int64_t now = BlockNs(b);
	if (now < releaseNs)
		b.offset_ns += releaseNs - now;
}

int64_t SystemCycle()
{
	const int64_t ns = BlockNs(Current());
	const unsigned __int128 cycles = static_cast<unsigned __int128>(ns) * CycleHz() / 1000000000u;
	return static_cast<int64_t>(cycles);
}

void DevicePrintf(const char *fmt, ...)
{
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = std::vsnprintf(nullptr, 0, fmt, ap);
	va_end(ap);
	std::string s;
	if (n > 0) {
		s.resize(static_cast<size_t>(n) + 1);
		std::vsnprintf(&s[0], s.size(), fmt, ap2);
		s.resize(static_cast<size_t>(n));
	}
	va_end(ap2);
	if (!s.empty())
		ThePrinter().Push(std::move(s));
}

void PipeFlagSet(int src, int dst, int event)
{
	if (src < 0 || src >= kPipes || dst < 0 || dst >= kPipes || event < 0 || event >= kEvents)
		Fail("set_flag: invalid pipe or event id");
	Current().pipe_flags[src][dst][event]++;
}

void PipeFlagWait(int src, int dst, int event)
{
	if (src < 0 || src >= kPipes || dst < 0 || dst >= kPipes || event < 0 || event >= kEvents)
		Fail("wait_flag: invalid pipe or event id");
	unsigned &n = Current().pipe_flags[src][dst][event];
	if (n == 0)
		Fail("wait_flag(%s, %s, EVENT_ID%d) without a matching set_flag: the board would hang", PipeName(src),
		     PipeName(dst), event);
	n--;
}

// One line per block for the hang report: what it waits on, or what it did
// before it returned.
static std::string DescribeBlock(const LaunchState &l, uint32_t i)
{
	const BlockStatus &st = l.status[i];
	std::string s = "  block " + std::to_string(i);
	if (st.state == BlockStatus::Waiting && st.wait_flag >= 0)
		return s + " waits in CrossCoreWaitFlag(flag " + std::to_string(st.wait_flag) + ") for " +
		       std::to_string(st.want) + " sets, " + std::to_string(l.cross_sets[st.wait_flag]) + " so far";
	if (st.state == BlockStatus::Waiting)
		return s + " waits in SyncAll for " + std::to_string(st.want) + " arrivals, " +
		       std::to_string(l.sync_all_arrivals) + " so far";
	s += " returned; it set";
	bool any = false;
	for (int f = 0; f < kFlagIds; f++) {
		if (st.sets[f] == 0 && l.cross_sets[f] == 0)
			continue;
		s += (any ? ", flag " : " flag ") + std::to_string(f) + " " + std::to_string(st.sets[f]) + "x";
		any = true;
	}
	if (!any)
		s += " no flag";
	return s + " and arrived at SyncAll " + std::to_string(st.sync_alls) + "x";
}

// Every block still running waits and nothing changed for the bound: no
// block can release another. Fail the launch naming each block.
static void ReportHang(LaunchState &l)
{
	std::string msg = "launch of " + std::to_string(l.blocks) + (l.blocks == 1 ? " block" : " blocks") +
	                  " hung: every block that has not returned waits, and nothing changed for " +
	                  std::to_string(Cfg().hang_timeout_ms.load()) + " ms (PKSIM_HANG_TIMEOUT_MS)";
	for (uint32_t i = 0; i < l.blocks; i++)
		msg += "\n" + DescribeBlock(l, i);
	const std::string line = "pksim: " + msg;
	std::fprintf(stderr, "%s\n", line.c_str());
	RecordError(line);
	l.failed = true;
	l.cv.notify_all();
	if (InImplicitLaunch())
		std::abort();
}

// Wait under G until READY() or the launch fails; the watchdog checks the
// launch every poll interval while waiting.
template <typename Ready>
static void WaitReleased(Block &b, std::unique_lock<std::mutex> &g, const char *what, int flag, unsigned long want,
                         Ready ready)
{
	LaunchState *l = b.launch;
	BlockStatus &st = l->status[b.idx];
	st.state = BlockStatus::Waiting;
	st.wait_what = what;
	st.wait_flag = flag;
	st.want = want;
	l->waiting++;
	l->Changed();
	const auto bound = std::chrono::milliseconds(std::max(10u, Cfg().hang_timeout_ms.load()));
	const auto poll = std::min<Clock::duration>(bound, std::chrono::milliseconds(50));
	while (!ready() && !l->failed) {
		l->cv.wait_for(g, poll);
		if (!ready() && !l->failed && l->waiting + l->returned == l->blocks &&
		    Clock::now() - l->last_change >= bound)
			ReportHang(*l);
	}
	st.state = BlockStatus::Running;
	l->waiting--;
	if (!ready())
		throw KernelAbort{}; // the launch failed: release without a message of its own
}

static void CheckCross(const char *what, int mode, int flag)
{
	if (flag < 0 || flag >= kFlagIds)
		Fail("%s: flag id %d outside 0..15", what, flag);
	if (mode != 0)
		Fail("%s: mode %d synchronises AIC/AIV groups; the simulation runs AIV blocks only (use mode 0)",
		     what, mode);
}

// Record the simulated time of a set / arrival of ROUND (the latest wins).
static void NoteRound(std::vector<int64_t> &rounds, unsigned long round, int64_t ns)
{
	if (rounds.size() <= round)
		rounds.resize(round + 1, 0);
	rounds[round] = std::max(rounds[round], ns);
}

void CrossCoreSet(int mode, int flag)
{
	CheckCross("CrossCoreSetFlag", mode, flag);
	Block &b = Current();
	LaunchState *l = b.launch;
	const int64_t now = BlockNs(b);
	std::lock_guard<std::mutex> g(l->m);
	NoteRound(l->flag_round_ns[flag], l->status[b.idx].sets[flag]++, now);
	l->cross_sets[flag]++;
	l->Changed();
}

void CrossCoreWait(int mode, int flag)
{
	CheckCross("CrossCoreWaitFlag", mode, flag);
	Block &b = Current();
	LaunchState *l = b.launch;
	const unsigned long round = b.cross_waits[flag];
	const unsigned long want = (round + 1) * l->blocks;
	std::unique_lock<std::mutex> g(l->m);
	WaitReleased(b, g, "CrossCoreWaitFlag", flag, want, [&] { return l->cross_sets[flag] >= want; });
	b.cross_waits[flag]++;
	const int64_t release = l->flag_round_ns[flag][round];
	g.unlock();
	CatchUp(b, release);
}

void SyncAllBlocks()
{
	Block &b = Current();
	LaunchState *l = b.launch;
	const int64_t now = BlockNs(b);
	const unsigned long round = b.sync_all_rounds;
	const unsigned long want = (round + 1) * l->blocks;
	std::unique_lock<std::mutex> g(l->m);
	NoteRound(l->sync_round_ns, l->status[b.idx].sync_alls++, now);
	l->sync_all_arrivals++;
	l->Changed();
	WaitReleased(b, g, "SyncAll", -1, want, [&] { return l->sync_all_arrivals >= want; });
	b.sync_all_rounds++;
	const int64_t release = l->sync_round_ns[round];
	g.unlock();
	CatchUp(b, release);
}

void NoteVbs32(unsigned repeat)
{
	if (repeat == 0 || repeat > 255)
		Fail("VBS32: repeat %u outside 1..255", repeat);
	g_vbs32_issues++;
	unsigned cur = g_vbs32_max_repeat.load();
	while (repeat > cur && !g_vbs32_max_repeat.compare_exchange_weak(cur, repeat)) {
	}
}

void NoteNanSorted(const char *instr, long count)
{
	Block &b = Current();
	if (count == 0 || b.nan_warned)
		return;
	b.nan_warned = true;
	std::fprintf(stderr,
	             "pksim: block %u: warning: %s sorted %ld NaN value%s; the simulation orders NaN below -inf, "
	             "equal NaNs by index (the board's NaN order is not specified); further NaN warnings of this "
	             "block are suppressed\n",
	             b.idx, instr, count, count == 1 ? "" : "s");
}

Vbs32Stats TakeVbs32Stats()
{
	Vbs32Stats s{ g_vbs32_issues.exchange(0), g_vbs32_max_repeat.exchange(0) };
	return s;
}

// ---- host.h --------------------------------------------------------------

bool SetTarget(const char *name)
{
	if (std::strcmp(name, "a2a3") == 0)
		Cfg().target = Target::A2A3;
	else if (std::strcmp(name, "a5") == 0)
		Cfg().target = Target::A5;
	else
		return false;
	return true;
}

void SetCycleHz(uint64_t hz) { Cfg().cycle_hz = hz; }

uint64_t CycleHz()
{
	if (Cfg().cycle_hz != 0)
		return Cfg().cycle_hz;
	return CurrentTarget() == Target::A5 ? 1000000000u : 50000000u;
}

void SetPrintDelayMs(unsigned ms) { Cfg().print_delay_ms = ms; }
void SetHangTimeoutMs(unsigned ms)
{
	Cfg().hang_timeout_ms = ms;
}
unsigned PrintDelayMs() { return Cfg().print_delay_ms.load(); }

} // namespace pksim

// ---- streams and events --------------------------------------------------

struct pksim_event {
	std::mutex m;
	std::condition_variable cv;
	bool recorded = false;
	pksim::Clock::time_point when;
};

// A stream runs its tasks in order on its own thread; the host only waits
// when it synchronises.
struct pksim_stream {
	std::mutex m;
	std::condition_variable cv;
	std::deque<std::function<int()>> q;
	bool busy = false;
	bool stop = false;
	aclError error = ACL_SUCCESS;
	std::thread worker;

	pksim_stream() : worker([this] { Run(); }) {}

	void Run()
	{
		std::unique_lock<std::mutex> g(m);
		for (;;) {
			cv.wait(g, [this] { return stop || !q.empty(); });
			if (q.empty())
				return;
			std::function<int()> task = std::move(q.front());
			q.pop_front();
			busy = true;
			const bool skip = error != ACL_SUCCESS;
			g.unlock();
			// after a kernel failure the stream is unusable until synchronised
			const int rc = skip ? ACL_SUCCESS : task();
			g.lock();
			busy = false;
			if (rc != ACL_SUCCESS && error == ACL_SUCCESS)
				error = rc;
			cv.notify_all();
		}
	}

	void Push(std::function<int()> task)
	{
		std::lock_guard<std::mutex> g(m);
		q.push_back(std::move(task));
		cv.notify_all();
	}

	aclError Sync()
	{
		std::unique_lock<std::mutex> g(m);
		cv.wait(g, [this] { return q.empty() && !busy; });
		aclError e = error;
		error = ACL_SUCCESS;
		return e;
	}

	~pksim_stream()
	{
		{
			std::lock_guard<std::mutex> g(m);
			stop = true;
			cv.notify_all();
		}
		worker.join();
	}
};

namespace pksim {

aclError EnqueueLaunch(aclrtStream stream, uint32_t blockDim, std::function<void()> body)
{
	if (stream == nullptr || blockDim == 0 || blockDim > 65535)
		return ACL_ERROR_INVALID_PARAM;
	stream->Push([blockDim, body = std::move(body)] { return RunLaunch(blockDim, body); });
	return ACL_SUCCESS;
}

} // namespace pksim

aclError aclInit(const char *)
{
	pksim::EndImplicitLaunch();
	return ACL_SUCCESS;
}

aclError aclFinalize()
{
	pksim::EndImplicitLaunch();
	pksim::ThePrinter().Stop();
	return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId) { return deviceId == 0 ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }
aclError aclrtResetDevice(int32_t) { return ACL_SUCCESS; }

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy)
{
	if (devPtr == nullptr || size == 0)
		return ACL_ERROR_INVALID_PARAM;
	// GM allocations are 64-byte aligned (one cache line), like the board's
	*devPtr = std::aligned_alloc(64, (size + 63) / 64 * 64);
	return *devPtr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}

aclError aclrtFree(void *devPtr)
{
	std::free(devPtr);
	return ACL_SUCCESS;
}

aclError aclrtMallocHost(void **hostPtr, size_t size) { return aclrtMalloc(hostPtr, size, ACL_MEM_MALLOC_NORMAL_ONLY); }
aclError aclrtFreeHost(void *hostPtr) { return aclrtFree(hostPtr); }

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind)
{
	if (dst == nullptr || src == nullptr || count > destMax)
		return ACL_ERROR_INVALID_PARAM;
	std::memmove(dst, src, count);
	return ACL_SUCCESS;
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream)
{
	if (devPtr == nullptr || stream == nullptr || count > maxCount)
		return ACL_ERROR_INVALID_PARAM;
	stream->Push([devPtr, value, count] {
		std::memset(devPtr, value, count);
		return ACL_SUCCESS;
	});
	return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream *stream)
{
	if (stream == nullptr)
		return ACL_ERROR_INVALID_PARAM;
	*stream = new pksim_stream;
	return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream)
{
	if (stream == nullptr)
		return ACL_ERROR_INVALID_PARAM;
	stream->Sync();
	delete stream;
	return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream)
{
	if (stream == nullptr)
		return ACL_ERROR_INVALID_PARAM;
	return stream->Sync();
}

aclError aclrtCreateEvent(aclrtEvent *event)
{
	if (event == nullptr)
		return ACL_ERROR_INVALID_PARAM;
	*event = new pksim_event;
	return ACL_SUCCESS;
}

aclError aclrtDestroyEvent(aclrtEvent event)
{
	delete event;
	return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
	if (event == nullptr || stream == nullptr)
		return ACL_ERROR_INVALID_PARAM;
	{
		std::lock_guard<std::mutex> g(event->m);
		event->recorded = false;
	}
	stream->Push([event] {
		std::lock_guard<std::mutex> g(event->m);
		event->when = pksim::Clock::now();
		event->recorded = true;
		event->cv.notify_all();
		return ACL_SUCCESS;
	});
	return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event)
{
	if (event == nullptr)
		return ACL_ERROR_INVALID_PARAM;
	std::unique_lock<std::mutex> g(event->m);
	event->cv.wait(g, [event] { return event->recorded; });
	return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent start, aclrtEvent end)
{
	if (ms == nullptr || start == nullptr || end == nullptr)
		return ACL_ERROR_INVALID_PARAM;
	std::lock_guard<std::mutex> g1(start->m);
	std::lock_guard<std::mutex> g2(end->m);
	if (!start->recorded || !end->recorded)
		return ACL_ERROR_RT_EVENT_NOT_COMPLETE;
	*ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
	return ACL_SUCCESS;
}

const char *aclGetRecentErrMsg()
{
	static thread_local std::string copy;
	std::lock_guard<std::mutex> g(pksim::g_err_mutex);
	copy = pksim::g_last_error;
	return copy.c_str();
}
