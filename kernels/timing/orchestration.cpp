// orchestration.cpp - the task builder of orchestration.h on the simulation's
// AscendCL (acl/acl.h).
#include "orchestration.h"

#include "acl/acl.h"

namespace pkorch {

Task::~Task()
{
	if (timing_.dev)
		aclrtFree(timing_.dev);
}

void Task::AddTensor(const Tensor &t, bool output)
{
	// the extern ABI packs tensors first: a tensor after a scalar would
	// shift every scalar the kernel reads
	if (!scalars_.empty() && error_.empty())
		error_ = "tensor " + std::to_string(tensors_.size()) + " added after a scalar";
	tensors_.push_back(t);
	isOutput_.push_back(output);
}

Tensor Task::make_timing_tensor(int64_t slots, int64_t rowWords)
{
	Tensor t;
	if (timing_.dev || slots <= 0 || rowWords <= 0 || rowWords % 8 != 0) {
		error_ = "bad or second timing tensor";
		return t;
	}
	t.bytes = static_cast<size_t>(slots) * static_cast<size_t>(rowWords) * sizeof(int64_t);
	if (aclrtMalloc(&t.dev, t.bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
		error_ = "cannot allocate the timing tensor";
		return Tensor();
	}
	std::vector<int64_t> zeros(t.bytes / sizeof(int64_t), 0);
	aclrtMemcpy(t.dev, t.bytes, zeros.data(), t.bytes, ACL_MEMCPY_HOST_TO_DEVICE);
	timing_ = t;
	timingSlots_ = slots;
	timingRowWords_ = rowWords;
	return t;
}

std::vector<int64_t> Task::Pack() const
{
	std::vector<int64_t> args;
	for (const Tensor &t : tensors_)
		args.push_back(static_cast<int64_t>(reinterpret_cast<uintptr_t>(t.dev)));
	args.insert(args.end(), scalars_.begin(), scalars_.end());
	return args;
}

} // namespace pkorch
