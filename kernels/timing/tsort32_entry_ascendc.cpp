// tsort32_entry_ascendc.cpp - TSORT32 behind a pypto-style extern entry
// (kernel_entry(args)) whose tensors are raw GM addresses: every tensor, then
// every scalar, packed in args[]; the entry unpacks them and runs the clean
// kernel code of kernels/tsort32 unchanged. Only the generation / invocation
// timing build (tsort32_timing_inv) uses it, on the ascendc profile, which
// it predates (docs/timing.md). The main timing build uses tsort32_entry.cpp.
// Tsort32Run is repeated from there on purpose: the timing events are placed
// at its calls and thread through it, so it stays in the file that is edited.
#include "tsort32_kernel.cpp"

namespace {

__aicore__ inline void Tsort32Run(GM_ADDR dst, GM_ADDR src, GM_ADDR idx, GM_ADDR work, const Tsort32Tiling &tiling)
{
	if (tiling.dtype == TSORT32_HALF)
		Tsort32Dispatch<half>(dst, src, idx, work, tiling);
	else
		Tsort32Dispatch<float>(dst, src, idx, work, tiling);
}

} // namespace

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
	GM_ADDR dst = reinterpret_cast<GM_ADDR>(args[0]);
	GM_ADDR src = reinterpret_cast<GM_ADDR>(args[1]);
	GM_ADDR idx = reinterpret_cast<GM_ADDR>(args[2]);
	GM_ADDR work = reinterpret_cast<GM_ADDR>(args[3]);
	const uint32_t dtype = static_cast<uint32_t>(args[4]);
	const int32_t rows = static_cast<int32_t>(args[5]);
	const uint64_t cols = static_cast<uint64_t>(args[6]);
	const int64_t idxRows = args[7];
	const Tsort32Tiling tiling = { dtype, static_cast<uint32_t>(rows), static_cast<uint32_t>(cols),
				       static_cast<uint32_t>(idxRows) };
	Tsort32Run(dst, src, idx, work, tiling);
}
