// simpler_rt.cpp - the simpler runtime layer of the simulation
// (include/simpler/pto_orchestration_api.h): argument lists, the config
// check, and rt_submit_aiv_task as a pksim launch whose every block gets the
// packed arguments followed by its context slots.
#include "pto_orchestration_api.h"

#include <map>
#include <memory>
#include <mutex>

#include "intrinsic.h"
#include "pksim/host.h"

namespace {

std::mutex g_mu;
std::map<int32_t, pksimpler::KernelEntry> g_kernels;

// The orchestration being run (one at a time, on the calling thread).
struct Run {
	bool active = false;
	aclrtStream stream = nullptr;
	uint32_t blockDim = 0;
	std::string error;
};
Run g_run;

void Note(const std::string &e)
{
	if (g_run.error.empty())
		g_run.error = e;
}

// What one submit hands its blocks: the descriptors (owned here, so they
// outlive the asynchronous launch) and the packed arguments.
struct Payload {
	std::vector<ChipTensor> tensors;
	std::vector<int64_t> packed;
};

} // namespace

void ChipTaskArgs::add_tensor(const ChipTensor &t)
{
	if (!scalars_.empty() && error_.empty())
		error_ = "orchestration tensor " + std::to_string(tensors_.size()) + " added after a scalar";
	tensors_.emplace_back(t);
}

void CoreTaskArgs::AddTensor(const ChipTensor &t)
{
	// tensors first: a tensor after a scalar would shift every scalar the kernel reads
	if (!scalars_.empty() && error_.empty())
		error_ = "task tensor " + std::to_string(tensors_.size()) + " added after a scalar";
	tensors_.push_back(t);
}

TaskOutputTensors rt_submit_aiv_task(int32_t func_id, const CoreTaskArgs &params)
{
	if (!g_run.active) {
		Note("rt_submit_aiv_task outside pksimpler::RunOrchestration");
		return {};
	}
	pksimpler::KernelEntry entry = nullptr;
	{
		std::lock_guard<std::mutex> lock(g_mu);
		auto it = g_kernels.find(func_id);
		if (it != g_kernels.end())
			entry = it->second;
	}
	if (!entry) {
		Note("rt_submit_aiv_task: no kernel registered as func_id " + std::to_string(func_id));
		return {};
	}
	if (!params.error().empty()) {
		Note("rt_submit_aiv_task(" + std::to_string(func_id) + "): " + params.error());
		return {};
	}
	const size_t n = params.tensors().size() + params.scalars().size();
	if (n > static_cast<size_t>(SPMD_LOCAL_CONTEXT_INDEX)) {
		Note("rt_submit_aiv_task: " + std::to_string(n) + " arguments overlap the context slots");
		return {};
	}
	auto p = std::make_shared<Payload>();
	p->tensors = params.tensors();
	for (const ChipTensor &t : p->tensors)
		p->packed.push_back(static_cast<int64_t>(reinterpret_cast<uintptr_t>(&t)));
	for (uint64_t s : params.scalars())
		p->packed.push_back(static_cast<int64_t>(s));
	const uint32_t blockDim = g_run.blockDim;
	const aclError rc = pksim::EnqueueLaunch(g_run.stream, blockDim, [p, entry, blockDim]() {
		int64_t args[PKSIMPLER_PAYLOAD_WORDS] = {};
		for (size_t i = 0; i < p->packed.size(); i++)
			args[i] = p->packed[i];
		LocalContext local{ static_cast<int32_t>(pksim::BlockIdx()), static_cast<int32_t>(blockDim) };
		GlobalContext global{ 0 };
		args[SPMD_LOCAL_CONTEXT_INDEX] = static_cast<int64_t>(reinterpret_cast<uintptr_t>(&local));
		args[SPMD_GLOBAL_CONTEXT_INDEX] = static_cast<int64_t>(reinterpret_cast<uintptr_t>(&global));
		entry(args);
	});
	if (rc != ACL_SUCCESS)
		Note("rt_submit_aiv_task: launch failed: " + std::to_string(rc));
	return {};
}

namespace pksimpler {

void RegisterKernel(int32_t func_id, KernelEntry entry)
{
	std::lock_guard<std::mutex> lock(g_mu);
	g_kernels[func_id] = entry;
}

ChipTensor MakeTensor(void *addr, uint64_t bytes, DataType dtype, const std::vector<uint32_t> &shapes)
{
	ChipTensor t{};
	t.buffer.addr = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(addr));
	t.buffer.size = bytes;
	t.start_offset = 0;
	t.dtype = dtype;
	t.ndims = static_cast<uint32_t>(shapes.size() < MAX_TENSOR_DIMS ? shapes.size() : MAX_TENSOR_DIMS);
	for (uint32_t i = 0; i < t.ndims; i++)
		t.shapes[i] = shapes[i];
	return t;
}

std::string RunOrchestration(ConfigFn config, EntryFn entry, const ChipTaskArgs &args, aclrtStream stream,
			     uint32_t blockDim)
{
	if (!args.error().empty())
		return args.error();
	const PTO2OrchestrationConfig cfg = config(args);
	const int actual = args.tensor_count() + args.scalar_count();
	// as the runtime: fewer arguments than the orchestration expects is refused
	if (cfg.expected_arg_count > 0 && actual < cfg.expected_arg_count)
		return "arg_count " + std::to_string(actual) + " < expected " + std::to_string(cfg.expected_arg_count);
	if (g_run.active)
		return "RunOrchestration is not reentrant";
	g_run = Run{ true, stream, blockDim, "" };
	entry(args);
	g_run.active = false;
	return g_run.error;
}

} // namespace pksimpler
