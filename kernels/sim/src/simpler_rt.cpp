// simpler_rt.cpp - the simpler runtime layer of the simulation
// (include/simpler/pto_orchestration_api.h): argument lists, the config
// check, and rt_submit_task as a pksim launch whose every block and lane gets
// the packed arguments followed by its context slots.
#include "pto_orchestration_api.h"

#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "intrinsic.h"
#include "pksim/host.h"

namespace {

struct Registered {
	pksimpler::KernelEntry entry;
	pksimpler::CoreType type;
};

std::mutex g_mu;
std::map<int32_t, Registered> g_kernels;

// The orchestration being run (one at a time, on the calling thread).
struct Run {
	bool active = false;
	aclrtStream stream = nullptr;
	uint32_t blockDim = 0;
	std::string error;
	uint64_t nextTask = 0; // the local id of the run's next task
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
	if (tensors_.size() >= static_cast<size_t>(MAX_TENSOR_ARGS)) {
		if (error_.empty())
			error_ = "Too many tensor args (max " + std::to_string(MAX_TENSOR_ARGS) + ")";
		return;
	}
	tensors_.push_back(t);
}

namespace {

// One lane of a task: its kernel and the sub-block its AIV core reports.
struct Lane {
	pksimpler::KernelEntry entry;
	int32_t sub_block;
};

// The kernel of FUNC_ID for a lane of core type TYPE (LANE names it), or
// nullptr with the run's error noted.
pksimpler::KernelEntry LaneKernel(int32_t func_id, pksimpler::CoreType type, const char *lane)
{
	std::lock_guard<std::mutex> lock(g_mu);
	auto it = g_kernels.find(func_id);
	if (it == g_kernels.end()) {
		Note(std::string("rt_submit_task: no kernel registered as func_id ") + std::to_string(func_id));
		return nullptr;
	}
	if (it->second.type != type) {
		Note(std::string("rt_submit_task: kernel ") + std::to_string(func_id) + " is built for " +
		     (it->second.type == pksimpler::CoreType::AIC ? "AIC" : "AIV") + ", submitted on the " + lane +
		     " lane");
		return nullptr;
	}
	return it->second.entry;
}

} // namespace

TaskOutputTensors rt_submit_task(const MixedKernels &mk, const CoreTaskArgs &params)
{
	if (!g_run.active) {
		Note("rt_submit_task outside pksimpler::RunOrchestration");
		return {};
	}
	if (!params.error().empty()) {
		Note("rt_submit_task: " + params.error());
		return {};
	}
	MixedKernels m = mk;
	// as the runtime: a lone AIV1 kernel runs on the AIV0 lane
	if (m.aic_kernel_id == INVALID_KERNEL_ID && m.aiv0_kernel_id == INVALID_KERNEL_ID)
		std::swap(m.aiv0_kernel_id, m.aiv1_kernel_id);
	std::vector<Lane> lanes;
	const int32_t ids[3] = { m.aic_kernel_id, m.aiv0_kernel_id, m.aiv1_kernel_id };
	static const char *const names[3] = { "AIC", "AIV0", "AIV1" };
	for (int l = 0; l < 3; l++) {
		if (ids[l] == INVALID_KERNEL_ID)
			continue;
		const auto type = l == 0 ? pksimpler::CoreType::AIC : pksimpler::CoreType::AIV;
		pksimpler::KernelEntry e = LaneKernel(ids[l], type, names[l]);
		if (!e)
			return {};
		lanes.push_back(Lane{ e, l == 2 ? 1 : 0 });
	}
	if (lanes.empty()) {
		Note("rt_submit_task: MixedKernels must have at least one active slot");
		return {};
	}
	const bool set = params.launch_spec.block_num_set();
	const int32_t want = set ? params.launch_spec.block_num() : static_cast<int32_t>(g_run.blockDim);
	if (want < 1) {
		Note("rt_submit_task: block_num must be >= 1");
		return {};
	}
	const size_t n = params.tensors().size() + params.scalars().size();
	if (n > static_cast<size_t>(SPMD_LOCAL_CONTEXT_INDEX)) {
		Note("rt_submit_task: " + std::to_string(n) + " arguments overlap the context slots");
		return {};
	}
	auto p = std::make_shared<Payload>();
	p->tensors = params.tensors();
	for (const ChipTensor &t : p->tensors)
		p->packed.push_back(static_cast<int64_t>(reinterpret_cast<uintptr_t>(&t)));
	for (uint64_t s : params.scalars())
		p->packed.push_back(static_cast<int64_t>(s));
	const uint32_t blocks = static_cast<uint32_t>(want);
	// the task's token as the runtime's dispatch context carries it: ring 0, the run's next local id
	const uint64_t token = g_run.nextTask++;
	// one simulated block per (block, lane): block-major, each lane its own payload
	const aclError rc = pksim::EnqueueLaunch(
		g_run.stream, blocks * static_cast<uint32_t>(lanes.size()), [p, lanes, blocks, token]() {
			const uint32_t i = pksim::BlockIdx();
			const Lane &lane = lanes[i % lanes.size()];
			int64_t args[PKSIMPLER_PAYLOAD_WORDS] = {};
			for (size_t k = 0; k < p->packed.size(); k++)
				args[k] = p->packed[k];
			LocalContext local{ static_cast<int32_t>(i / lanes.size()), static_cast<int32_t>(blocks),
					    AsyncCtx{ PTO2TaskId{ token } } };
			GlobalContext global{ lane.sub_block };
			args[SPMD_LOCAL_CONTEXT_INDEX] = static_cast<int64_t>(reinterpret_cast<uintptr_t>(&local));
			args[SPMD_GLOBAL_CONTEXT_INDEX] = static_cast<int64_t>(reinterpret_cast<uintptr_t>(&global));
			lane.entry(args);
		});
	if (rc != ACL_SUCCESS)
		Note("rt_submit_task: launch failed: " + std::to_string(rc));
	return {};
}

TaskOutputTensors rt_submit_aiv_task(int32_t func_id, const CoreTaskArgs &params)
{
	MixedKernels mk;
	mk.aiv0_kernel_id = func_id;
	return rt_submit_task(mk, params);
}

TaskOutputTensors rt_submit_aic_task(int32_t func_id, const CoreTaskArgs &params)
{
	MixedKernels mk;
	mk.aic_kernel_id = func_id;
	return rt_submit_task(mk, params);
}

namespace pksimpler {

void RegisterKernel(int32_t func_id, KernelEntry entry, CoreType type)
{
	std::lock_guard<std::mutex> lock(g_mu);
	g_kernels[func_id] = Registered{ entry, type };
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
	g_run = Run{ true, stream, blockDim, "", 0 };
	entry(args);
	g_run.active = false;
	return g_run.error;
}

} // namespace pksimpler
