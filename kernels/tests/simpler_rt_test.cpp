// simpler_rt_test.cpp - the simulation's simpler runtime layer
// (sim/include/simpler): a kernel reads its tensor through the descriptor,
// its block from the context slots, its clock as the runtime's kernels read it
// (sys_cnt_now_ticks() under __CPU_SIM, get_sys_cnt() on the device); the
// orchestration run refuses what the runtime refuses.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "pto/pto-inst.hpp"
#include "tensor.h"
#include "intrinsic.h"
#if defined(__CPU_SIM)
#include "aicpu/device_time.h"
#endif
#include "pto_orchestration_api.h"
#include "pksim/host.h"

namespace {

// out[block] = { block_idx, block_num, sub_block_id, GetBlockIdx(), cycle > 0, scalar }
extern "C" __aicore__ void probe_kernel(__gm__ int64_t *args)
{
	__gm__ ChipTensor *out_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
	__gm__ int64_t *out = reinterpret_cast<__gm__ int64_t *>(out_t->buffer.addr) + out_t->start_offset;
	const int64_t scalar = args[1];
	__gm__ int64_t *row = out + get_block_idx(args) * 8;
	row[0] = get_block_idx(args);
	row[1] = get_block_num(args);
	row[2] = get_sub_block_id(args);
	row[3] = AscendC::GetBlockIdx();
#if defined(__CPU_SIM)
	row[4] = sys_cnt_now_ticks() > 0 ? 1 : 0;
#else
	row[4] = get_sys_cnt() > 0 ? 1 : 0;
#endif
	row[5] = scalar;
	dcci(reinterpret_cast<__gm__ void *>(row), cache_line_t::SINGLE_CACHE_LINE);
	dsb(DSB_DDR);
}

// a mixed task's lane: out[block * 3 + lane] = { block_idx, block_num, sub_block_id, lane + 1 }
template <int kLane>
void LaneKernel(__gm__ int64_t *args)
{
	__gm__ ChipTensor *out_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
	__gm__ int64_t *out = reinterpret_cast<__gm__ int64_t *>(out_t->buffer.addr) + out_t->start_offset;
	const int lane = kLane == 0 ? 0 : 1 + get_sub_block_id(args);
	__gm__ int64_t *row = out + (get_block_idx(args) * 3 + lane) * 8;
	row[0] = get_block_idx(args);
	row[1] = get_block_num(args);
	row[2] = kLane == 0 ? 0 : get_sub_block_id(args);
	row[3] = lane + 1;
}

int g_expected = 1;
int g_funcId = 7;
bool g_scalarFirst = false;
// 0: an AIV task; 1: a mixed task {9, 10, 10} of 2 blocks; 2: {7, -1, -1}
// (an AIV kernel on the AIC lane); 3: no lane; 4: 33 tensors; 5: block_num 0
int g_mode = 0;

PTO2OrchestrationConfig Config(const ChipTaskArgs &)
{
	return PTO2OrchestrationConfig{ g_expected };
}

void Entry(const ChipTaskArgs &orch_args)
{
	const ChipTensor &out = orch_args.tensor(0).ref();
	CoreTaskArgs params;
	if (g_mode > 0) {
		MixedKernels mk;
		if (g_mode == 1 || g_mode == 5)
			mk = MixedKernels{ 9, 10, 10 };
		else if (g_mode == 2)
			mk.aic_kernel_id = 7;
		for (int i = 0; i < (g_mode == 4 ? 33 : 1); i++)
			params.add_output(out);
		params.launch_spec.set_block_num(g_mode == 5 ? 0 : 2);
		rt_submit_task(mk, params);
		return;
	}
	if (g_scalarFirst)
		params.add_scalar(1);
	params.add_output(out);
	params.add_scalar(int32_t{ -42 });
	rt_submit_aiv_task(g_funcId, params);
}

int failures = 0;
void Expect(bool ok, const char *what)
{
	if (!ok) {
		std::fprintf(stderr, "simpler_rt_test: FAIL: %s\n", what);
		failures++;
	}
}

} // namespace

int main()
{
	aclInit(nullptr);
	aclrtSetDevice(0);
	aclrtStream stream = nullptr;
	aclrtCreateStream(&stream);
	const uint32_t blocks = 3;
	// the view starts 8 elements into the buffer: start_offset must be honoured
	std::vector<int64_t> host((blocks + 1) * 8, -1);
	void *dev = nullptr;
	aclrtMalloc(&dev, host.size() * 8, ACL_MEM_MALLOC_HUGE_FIRST);
	aclrtMemcpy(dev, host.size() * 8, host.data(), host.size() * 8, ACL_MEMCPY_HOST_TO_DEVICE);
	ChipTensor out = pksimpler::MakeTensor(dev, host.size() * 8, DataType::INT64, { blocks + 1, 8 });
	out.start_offset = 8;
	ChipTaskArgs args;
	args.add_tensor(out);
	pksimpler::RegisterKernel(7, probe_kernel);

	std::string err = pksimpler::RunOrchestration(Config, Entry, args, stream, blocks);
	Expect(err.empty(), ("a good run: " + err).c_str());
	Expect(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "the launch completes");
	aclrtMemcpy(host.data(), host.size() * 8, dev, host.size() * 8, ACL_MEMCPY_DEVICE_TO_HOST);
	Expect(host[0] == -1, "nothing written before start_offset");
	for (uint32_t b = 0; b < blocks; b++) {
		const int64_t *r = &host[(b + 1) * 8];
		Expect(r[0] == b && r[3] == b, "get_block_idx(args) is the block, as GetBlockIdx()");
		Expect(r[1] == blocks, "get_block_num(args) is the launch's block count");
		Expect(r[2] == 0, "get_sub_block_id(args) is 0");
		Expect(r[4] == 1, "the cycle counter counts");
		Expect(r[5] == -42, "the scalar follows the tensors");
	}

	g_expected = 2;
	err = pksimpler::RunOrchestration(Config, Entry, args, stream, blocks);
	Expect(err == "arg_count 1 < expected 2", ("fewer arguments than expected: " + err).c_str());
	g_expected = 1;
	g_funcId = 8;
	err = pksimpler::RunOrchestration(Config, Entry, args, stream, blocks);
	Expect(err.find("no kernel registered as func_id 8") != std::string::npos, ("unknown func_id: " + err).c_str());
	g_funcId = 7;
	g_scalarFirst = true;
	err = pksimpler::RunOrchestration(Config, Entry, args, stream, blocks);
	Expect(err.find("added after a scalar") != std::string::npos, ("tensor after a scalar: " + err).c_str());

	g_scalarFirst = false;

	// a mixed task: 2 blocks (launch_spec), each an AIC lane and two AIV lanes
	pksimpler::RegisterKernel(9, LaneKernel<0>, pksimpler::CoreType::AIC);
	pksimpler::RegisterKernel(10, LaneKernel<1>, pksimpler::CoreType::AIV);
	std::vector<int64_t> lanes(2 * 3 * 8, -1);
	void *ldev = nullptr;
	aclrtMalloc(&ldev, lanes.size() * 8, ACL_MEM_MALLOC_HUGE_FIRST);
	aclrtMemcpy(ldev, lanes.size() * 8, lanes.data(), lanes.size() * 8, ACL_MEMCPY_HOST_TO_DEVICE);
	ChipTaskArgs largs;
	largs.add_tensor(pksimpler::MakeTensor(ldev, lanes.size() * 8, DataType::INT64, { 6, 8 }));
	g_mode = 1;
	err = pksimpler::RunOrchestration(Config, Entry, largs, stream, blocks);
	Expect(err.empty(), ("a mixed task: " + err).c_str());
	aclrtSynchronizeStream(stream);
	aclrtMemcpy(lanes.data(), lanes.size() * 8, ldev, lanes.size() * 8, ACL_MEMCPY_DEVICE_TO_HOST);
	for (int b = 0; b < 2; b++)
		for (int l = 0; l < 3; l++) {
			const int64_t *r = &lanes[static_cast<size_t>(b * 3 + l) * 8];
			Expect(r[0] == b && r[1] == 2, "a mixed task's lanes see the block and launch_spec's block count");
			Expect(r[2] == (l == 2 ? 1 : 0) && r[3] == l + 1, "AIC, AIV0 (sub-block 0), AIV1 (sub-block 1)");
		}
	g_mode = 2;
	err = pksimpler::RunOrchestration(Config, Entry, largs, stream, blocks);
	Expect(err.find("kernel 7 is built for AIV, submitted on the AIC lane") != std::string::npos,
	       ("a kernel on the other core type's lane: " + err).c_str());
	g_mode = 3;
	err = pksimpler::RunOrchestration(Config, Entry, largs, stream, blocks);
	Expect(err.find("at least one active slot") != std::string::npos, ("a task with no lane: " + err).c_str());
	g_mode = 4;
	err = pksimpler::RunOrchestration(Config, Entry, largs, stream, blocks);
	Expect(err.find("Too many tensor args (max 32)") != std::string::npos, ("33 tensors: " + err).c_str());
	g_mode = 5;
	err = pksimpler::RunOrchestration(Config, Entry, largs, stream, blocks);
	Expect(err.find("block_num must be >= 1") != std::string::npos, ("block_num 0: " + err).c_str());
	aclrtFree(ldev);

	aclrtSynchronizeStream(stream);
	aclrtFree(dev);
	aclrtDestroyStream(stream);
	aclrtResetDevice(0);
	aclFinalize();
	if (failures)
		return 1;
	std::printf("simpler_rt_test: descriptor, context slots, cycle counter, mixed tasks and run checks pass\n");
	return 0;
}
