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
//                       bits); a tensor after a scalar is an error
//   rt_submit_aiv_task  launches the kernel registered under func_id on the
//                       run's stream over the run's block count; every block
//                       gets its own payload: the packed arguments, then the
//                       context slots get_block_idx(args) & co. read
// Not modelled: dependencies between tasks (the stream runs submits in
// order), runtime-allocated outputs (add_output(TensorCreateInfo)), scopes,
// AIC and mixed tasks, strides.
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

// One task's arguments, packed for the kernel as args[]: every tensor's
// descriptor address in the order added, then every scalar.
class CoreTaskArgs {
public:
	void add_input(const ChipTensor &t) { AddTensor(t); }
	void add_output(const ChipTensor &t) { AddTensor(t); }
	void add_inout(const ChipTensor &t) { AddTensor(t); }
	template <typename T>
	void add_scalar(T v)
	{
		static_assert(std::is_arithmetic<T>::value, "add_scalar takes a number");
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

TaskOutputTensors rt_submit_aiv_task(int32_t func_id, const CoreTaskArgs &params);

// The simulation's side of the runtime: what the simpler host runner and its
// kernel registration do, reduced to calls a harness makes.
namespace pksimpler {

using KernelEntry = void (*)(int64_t *args);
using ConfigFn = PTO2OrchestrationConfig (*)(const ChipTaskArgs &);
using EntryFn = void (*)(const ChipTaskArgs &);

// The kernel rt_submit_aiv_task(func_id, ...) launches.
void RegisterKernel(int32_t func_id, KernelEntry entry);

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
