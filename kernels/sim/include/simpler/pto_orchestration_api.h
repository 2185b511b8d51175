// simpler/pto_orchestration_api.h - the orchestration side of the simpler
// runtime (hw-native-sys/simpler) on the probekit CPU simulation: names and
// call shapes as the runtime's orchestrations use them, implementation of the
// simulation's own (kernels/sim/src/simpler_rt.cpp). Host code only.
//
// Modelled:
//   ChipTaskArgs        the orchestration's external tensors and scalars
//                       (orch_args.tensor(K).ref(), orch_args.scalar(K)),
//                       tensors first
//   PTO2OrchestrationConfig{.expected_arg_count}
//                       checked by pksimpler::RunOrchestration: the run is
//                       refused when fewer arguments are passed (tensors plus
//                       scalars), as the runtime does
//   CoreTaskArgs        add_input / add_output / add_inout (a tensor; the
//                       kernel gets the address of its descriptor) and
//                       add_scalar (integers widened, floating point by its
//                       bits); refused as the runtime refuses them: a tensor
//                       after a scalar, more than 32 tensors or 16 scalars
//                       (the task's error, reported at its submit), a
//                       temporary tensor (it does not compile)
//   launch_spec         set_block_num(N): the task's blocks (N < 1 refused);
//                       unset, the run's block count (the runtime's is 1)
//   rt_submit_task      a MixedKernels task: every block runs its AIC lane
//                       (aic_kernel_id) and its AIV lanes (aiv0 / aiv1, the
//                       sub-block 0 / 1 get_sub_block_id(args) reads), each
//                       with its own payload: the packed arguments, then the
//                       context slots get_block_idx(args) & co. read. Refused:
//                       no active lane, a kernel registered for the other
//                       core type than its lane's, an unknown func_id
//   rt_submit_aiv_task, rt_submit_aic_task
//                       one-lane tasks (AIV0, AIC), as the runtime's wrappers
// Not modelled: dependencies between tasks (the stream runs submits in
// order), runtime-allocated outputs (add_output(TensorCreateInfo)), scopes,
// strides.
#ifndef PKSIMPLER_PTO_ORCHESTRATION_API_H
#define PKSIMPLER_PTO_ORCHESTRATION_API_H

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "acl/acl.h"
#include "tensor.h"

// One external tensor of the orchestration.
class ChipTensorArg {
public:
	explicit ChipTensorArg(const ChipTensor &t) : t_(t) {}
	const ChipTensor &ref() const { return t_; }

private:
	ChipTensor t_;
};

// What the host hands the orchestration: tensors first, then scalars.
class ChipTaskArgs {
public:
	void add_tensor(const ChipTensor &t);
	void add_scalar(uint64_t v) { scalars_.push_back(v); }
	const ChipTensorArg &tensor(int32_t i) const { return tensors_.at(static_cast<size_t>(i)); }
	uint64_t scalar(int32_t i) const { return scalars_.at(static_cast<size_t>(i)); }
	int32_t tensor_count() const { return static_cast<int32_t>(tensors_.size()); }
	int32_t scalar_count() const { return static_cast<int32_t>(scalars_.size()); }
	const std::string &error() const { return error_; }

private:
	std::vector<ChipTensorArg> tensors_;
	std::vector<uint64_t> scalars_;
	std::string error_;
};

struct PTO2OrchestrationConfig {
	int expected_arg_count;
};

// The runtime's argument capacity of one task.
constexpr int32_t MAX_TENSOR_ARGS = 32;
constexpr int32_t MAX_SCALAR_ARGS = 16;
constexpr int32_t INVALID_KERNEL_ID = -1;

// The lanes of one task: an AIC kernel and up to two AIV kernels.
struct MixedKernels {
	int32_t aic_kernel_id{ INVALID_KERNEL_ID };
	int32_t aiv0_kernel_id{ INVALID_KERNEL_ID };
	int32_t aiv1_kernel_id{ INVALID_KERNEL_ID };
};

// How many logical blocks a task runs (not set: the run's count).
class PTO2LaunchSpec {
public:
	void set_block_num(int16_t n)
	{
		block_num_ = n;
		set_ = true;
	}
	int16_t block_num() const { return block_num_; }
	bool block_num_set() const { return set_; }

private:
	int16_t block_num_ = 0;
	bool set_ = false;
};

// One task's arguments, packed for the kernel as args[]: every tensor's
// descriptor address in the order added, then every scalar.
class CoreTaskArgs {
public:
	void add_input(const ChipTensor &t) { AddTensor(t); }
	void add_output(const ChipTensor &t) { AddTensor(t); }
	void add_inout(const ChipTensor &t) { AddTensor(t); }
	// the runtime keeps the address: a temporary would dangle
	void add_input(const ChipTensor &&) = delete;
	void add_output(const ChipTensor &&) = delete;
	void add_inout(const ChipTensor &&) = delete;
	template <typename T>
	void add_scalar(T v)
	{
		static_assert(std::is_arithmetic<T>::value, "add_scalar takes a number");
		if (scalars_.size() >= static_cast<size_t>(MAX_SCALAR_ARGS)) {
			if (error_.empty())
				error_ = "Too many scalar args (max " + std::to_string(MAX_SCALAR_ARGS) + ")";
			return;
		}
		uint64_t packed = 0;
		if constexpr (std::is_floating_point<T>::value) {
			static_assert(sizeof(T) <= sizeof(packed), "scalar wider than a packed slot");
			std::memcpy(&packed, &v, sizeof(T));
		} else {
			packed = static_cast<uint64_t>(static_cast<int64_t>(v));
		}
		scalars_.push_back(packed);
	}
	const std::vector<ChipTensor> &tensors() const { return tensors_; }
	const std::vector<uint64_t> &scalars() const { return scalars_; }
	const std::string &error() const { return error_; }
	PTO2LaunchSpec launch_spec;

private:
	void AddTensor(const ChipTensor &t);
	std::vector<ChipTensor> tensors_;
	std::vector<uint64_t> scalars_;
	std::string error_;
};

// What a submit returns; runtime-allocated outputs are not modelled.
struct TaskOutputTensors {
	int32_t count = 0;
};

TaskOutputTensors rt_submit_task(const MixedKernels &mixed_kernels, const CoreTaskArgs &params);
TaskOutputTensors rt_submit_aiv_task(int32_t func_id, const CoreTaskArgs &params);
TaskOutputTensors rt_submit_aic_task(int32_t func_id, const CoreTaskArgs &params);

// The simulation's side of the runtime: what the simpler host runner and its
// kernel registration do, reduced to calls a harness makes.
namespace pksimpler {

using KernelEntry = void (*)(int64_t *args);
using ConfigFn = PTO2OrchestrationConfig (*)(const ChipTaskArgs &);
using EntryFn = void (*)(const ChipTaskArgs &);

// The core type a kernel is built for (simpler builds an incore once per
// core type; a lane runs only a kernel of its own type).
enum class CoreType { AIV, AIC };

// The kernel a submit of func_id launches.
void RegisterKernel(int32_t func_id, KernelEntry entry, CoreType type = CoreType::AIV);

// A host-made descriptor over ADDR (BYTES long, offset 0) of the given shape.
ChipTensor MakeTensor(void *addr, uint64_t bytes, DataType dtype, const std::vector<uint32_t> &shapes);

// Run one orchestration: CONFIG's expected_arg_count checked against ARGS,
// then ENTRY, whose submits are queued on STREAM with BLOCK_DIM blocks each
// (asynchronous until the stream syncs). Returns "" or what went wrong (a
// bad argument list, an unknown func_id, a tensor after a scalar).
std::string RunOrchestration(ConfigFn config, EntryFn entry, const ChipTaskArgs &args, aclrtStream stream,
			     uint32_t blockDim);

} // namespace pksimpler

#endif
