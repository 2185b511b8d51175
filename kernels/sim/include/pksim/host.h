// pksim/host.h - host-side controls of the CPU simulation that have no
// AscendCL equivalent: the simulated target, the counter frequency, the
// device-print latency, and the kernel launch that stands in for
// `kernel<<<blockDim, nullptr, stream>>>(args...)`. Harnesses include this
// beside acl/acl.h; kernels never do.
#ifndef PKSIM_HOST_H
#define PKSIM_HOST_H

#include <cstdint>
#include <functional>
#include <tuple>
#include <utility>

#include "acl/acl.h"
#include "pksim/device.h"

namespace pksim {

// Defaults come from the environment: PKSIM_TARGET (a2a3 | a5),
// PKSIM_CYCLE_HZ (default 50 MHz on a2a3, 1 GHz on a5) and
// PKSIM_PRINT_DELAY_MS (default 100). Set before the first launch.
// GetSystemCycle() in a block counts that block's own thread CPU time at the
// frequency (plus waits at collectives), from the launch's start.
bool SetTarget(const char *name); // false if NAME is unknown
void SetCycleHz(uint64_t hz);
uint64_t CycleHz();
void SetPrintDelayMs(unsigned ms);
// A launch whose every running block waits (cross-core flag or SyncAll) with
// nothing changing for this long fails, naming each block and its wait.
// PKSIM_HANG_TIMEOUT_MS, default 3000 (at least 10).
void SetHangTimeoutMs(unsigned ms);
unsigned PrintDelayMs();

// Queue BODY on STREAM as one launch of BLOCKDIM blocks, each a thread.
aclError EnqueueLaunch(aclrtStream stream, uint32_t blockDim, std::function<void()> body);

// Launch KERNEL with ARGS on STREAM: asynchronous until the stream syncs.
template <typename... Params, typename... Args>
aclError Launch(void (*kernel)(Params...), uint32_t blockDim, aclrtStream stream, Args... args)
{
	static_assert(sizeof...(Params) == sizeof...(Args), "pksim::Launch: wrong number of kernel arguments");
	std::tuple<Params...> packed(args...);
	return EnqueueLaunch(stream, blockDim, [kernel, packed]() { std::apply(kernel, packed); });
}

} // namespace pksim

#endif
