// tsort32_entry.cpp - TSORT32 behind a simpler-runtime kernel entry
// (kernel_entry(args), hw-native-sys/simpler): args[] holds every tensor as
// the address of its descriptor (ChipTensor: data at buffer.addr +
// start_offset elements), then every scalar; the block's index and count come
// from the runtime's context slots through get_block_idx(args) /
// get_block_num(args). The entry unpacks them and runs the clean kernel code
// of kernels/tsort32 unchanged. On the simulation the simpler headers are
// kernels/sim/include/simpler. The timing build is generated from this file by
// probe-inject --timing-tensor (profile simpler).
#include "tensor.h"
#include "intrinsic.h"

#include "tsort32_kernel.cpp"

namespace {

__aicore__ inline void Tsort32Run(GM_ADDR dst, GM_ADDR src, GM_ADDR idx, GM_ADDR work, const Tsort32Tiling &tiling)
{
	if (tiling.dtype == TSORT32_HALF)
		Tsort32Dispatch<half>(dst, src, idx, work, tiling);
	else
		Tsort32Dispatch<float>(dst, src, idx, work, tiling);
}

// A tensor's first element, in bytes (start_offset counts elements).
__aicore__ inline GM_ADDR TensorData(__gm__ ChipTensor *t)
{
	return reinterpret_cast<GM_ADDR>(t->buffer.addr) + t->start_offset * get_element_size(t->dtype);
}

} // namespace

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
	__gm__ ChipTensor *dst_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
	__gm__ ChipTensor *src_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
	__gm__ ChipTensor *idx_t = reinterpret_cast<__gm__ ChipTensor *>(args[2]);
	__gm__ ChipTensor *work_t = reinterpret_cast<__gm__ ChipTensor *>(args[3]);
	const uint32_t dtype = static_cast<uint32_t>(args[4]);
	const int32_t rows = static_cast<int32_t>(args[5]);
	const uint64_t cols = static_cast<uint64_t>(args[6]);
	const int64_t idxRows = args[7];
	// the runtime's block count is the launch's: the kernel spreads its rows over it
	if (get_block_idx(args) >= get_block_num(args))
		return;
	const Tsort32Tiling tiling = { dtype, static_cast<uint32_t>(rows), static_cast<uint32_t>(cols),
				       static_cast<uint32_t>(idxRows) };
	Tsort32Run(TensorData(dst_t), TensorData(src_t), TensorData(idx_t), TensorData(work_t), tiling);
}
