// lanes_harness.cpp - host harness of the simpler-style cases of kernels/lanes
// (built once per case, LANES_CASE 1 mixed, 2 helper, 3 padding, 4 the other
// lane's kernel renumbered), for the
// clean build and the timing build probe-inject --timing-tensor generated at
// build time. It registers the case's kernels under their func_ids (the mixed
// case: the AIC and the AIV build of one source), hands the orchestration
// its external tensors (the timing build: one more, zeroed, which the
// generated config expects), runs it on the simulation's simpler runtime,
// checks the numbers, and with --expect-timing validates every row of the
// ACTUAL timing tensor against the event map (each row written by its own
// owner: magic + slot) and saves it for probe-report.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "pksim/host.h"
#include "pto_orchestration_api.h"
#include "timing_check.h"

extern "C" PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs &orch_args);
extern "C" void aicpu_orchestration_entry(const ChipTaskArgs &orch_args);
#if LANES_CASE == 1 || LANES_CASE == 4
#if LANES_CASE == 1
extern "C" void lanes_mix_aic(int64_t *args);
extern "C" void lanes_mix_aiv(int64_t *args);
#define LANES_AIC lanes_mix_aic
#define LANES_AIV lanes_mix_aiv
#else
extern "C" void lanes_other_aic(int64_t *args);
extern "C" void lanes_other_aiv(int64_t *args);
#define LANES_AIC lanes_other_aic
#define LANES_AIV lanes_other_aiv
#endif
#define LANES_MIXED 1
constexpr int kTensors = 2;
constexpr uint32_t kLen = 16;                   // elements of one block of x
constexpr uint32_t kX = 2 * kLen, kOut = 2 * 3; // 2 blocks; one AIC and two AIV outputs each
#else
extern "C" void kernel_entry(int64_t *args);
constexpr int kTensors = 3;
constexpr uint32_t kX = 32, kOut = kX;
#endif

namespace {

struct Dev {
	void *p = nullptr;
	size_t n = 0;
	explicit Dev(size_t bytes) : n(bytes) { aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST); }
	~Dev() { aclrtFree(p); }
	void Put(const void *h) { aclrtMemcpy(p, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE); }
	void Get(void *h) { aclrtMemcpy(h, n, p, n, ACL_MEMCPY_DEVICE_TO_HOST); }
};

// Who writes each row, as the case's orchestration submits its tasks (task
// tokens count the run's submits from 0): the mixed case's one task of 2
// blocks, its AIC rows first (lane 0), then block b's AIV sub-block s at
// 2 + 2b + s (lane 1 + s); the padding case's task of 2 blocks, then its
// task of 1 (lane 1). The other cases' tasks and blocks are set at run time
// or split between kernels: their identity is only required to be written.
std::vector<RowIdentity> ExpectedIdentity(size_t rows)
{
	std::vector<RowIdentity> id(rows);
#if LANES_CASE == 1
	for (size_t r = 0; r < rows; r++)
		id[r] = r < 2 ? RowIdentity{ 0, -1, static_cast<long long>(r), 0 }
			      : RowIdentity{ 0, -1, static_cast<long long>((r - 2) / 2), static_cast<long long>(1 + (r - 2) % 2) };
#elif LANES_CASE == 3
	for (size_t r = 0; r < rows; r++)
		id[r] = r < 2 ? RowIdentity{ 0, -1, static_cast<long long>(r), 1 } : RowIdentity{ 1, -1, 0, 1 };
#endif
	return id;
}

// What each output element must hold after the run.
std::vector<std::vector<float>> Expected(const std::vector<float> &x)
{
#if LANES_MIXED
	std::vector<float> y(kOut, 0.0f);
	for (uint32_t b = 0; b < 2; b++) {
		const float *m = &x[b * kLen];
		for (uint32_t i = 0; i < kLen / 2; i++)
			y[b] += m[i];
		for (uint32_t s = 0; s < 2; s++)
			for (uint32_t i = kLen / 2 + s * kLen / 4; i < kLen / 2 + (s + 1) * kLen / 4; i++)
				y[2 + b * 2 + s] += m[i];
	}
	return { y };
#else
	std::vector<float> y(kX), z(kX);
	for (uint32_t i = 0; i < kX; i++) {
		y[i] = x[i] * 2.0f;
		z[i] = x[i] * (LANES_CASE == 2 ? 3.0f : 2.0f);
	}
	return { y, z };
#endif
}

int Fail(const char *what)
{
	std::fprintf(stderr, "lanes: %s\n", what);
	return 1;
}

} // namespace

int main(int argc, char **argv)
{
	bool expectTiming = false;
	std::string events, save;
	for (int i = 1; i < argc; i++) {
		const std::string a = argv[i];
		if (a == "--expect-timing")
			expectTiming = true;
		else if (a == "--events" && i + 1 < argc)
			events = argv[++i];
		else if (a == "--save" && i + 1 < argc)
			save = argv[++i];
		else
			return std::fprintf(stderr, "usage: %s [--expect-timing --events MAP] [--save PREFIX]\n", argv[0]), 2;
	}
	TimingLayout layout;
	size_t rows = 0;
	if (expectTiming) {
		std::ifstream in(events);
		std::stringstream ss;
		ss << in.rdbuf();
		std::string err;
		if (!in || !ParseTimingLayout(ss.str(), &layout, &err))
			return Fail(("event map " + events + ": " + err).c_str());
		const size_t at = ss.str().find("\"slots\": ");
		rows = at == std::string::npos ? 0 : std::strtoul(ss.str().c_str() + at + 9, nullptr, 10);
		if (rows == 0)
			return Fail("the event map names no slot count");
	}
	aclInit(nullptr);
	aclrtSetDevice(0);
	aclrtStream stream = nullptr;
	aclrtCreateStream(&stream);
#if LANES_MIXED
	pksimpler::RegisterKernel(0, LANES_AIC, pksimpler::CoreType::AIC);
	pksimpler::RegisterKernel(1, LANES_AIV, pksimpler::CoreType::AIV);
#else
	pksimpler::RegisterKernel(0, kernel_entry);
#endif
	const int expected = aicpu_orchestration_config(ChipTaskArgs()).expected_arg_count;
	if (expected != kTensors + (expectTiming ? 1 : 0))
		return Fail("the orchestration's expected_arg_count does not match this build");

	std::vector<float> x(kX);
	for (uint32_t i = 0; i < kX; i++)
		x[i] = static_cast<float>(i % 16 + 1);
	const std::vector<std::vector<float>> want = Expected(x);
	Dev dx(kX * sizeof(float));
	dx.Put(x.data());
	std::vector<Dev *> outs;
	for (size_t o = 0; o < want.size(); o++)
		outs.push_back(new Dev(kOut * sizeof(float)));
	Dev timing(expectTiming ? rows * static_cast<size_t>(layout.rowWords) * sizeof(int64_t) : 8);
	std::vector<int64_t> matrix(timing.n / sizeof(int64_t), 0);
	timing.Put(matrix.data()); // cleared before the run: no stale row looks current

	ChipTaskArgs args;
#if LANES_MIXED
	const std::vector<uint32_t> xShape = { 2, kLen }; // [blocks, elements of a block]
#else
	const std::vector<uint32_t> xShape = { kX };
#endif
	args.add_tensor(pksimpler::MakeTensor(dx.p, dx.n, DataType::FLOAT32, xShape));
	for (Dev *d : outs)
		args.add_tensor(pksimpler::MakeTensor(d->p, d->n, DataType::FLOAT32, { kOut }));
	if (expectTiming)
		args.add_tensor(pksimpler::MakeTensor(timing.p, timing.n, DataType::INT64,
						      { static_cast<uint32_t>(rows), static_cast<uint32_t>(layout.rowWords) }));
	const std::string err =
		pksimpler::RunOrchestration(aicpu_orchestration_config, aicpu_orchestration_entry, args, stream, 1);
	if (!err.empty())
		return Fail(("orchestration: " + err).c_str());
	aclrtSynchronizeStream(stream);
	for (size_t o = 0; o < want.size(); o++) {
		std::vector<float> got(kOut);
		outs[o]->Get(got.data());
		if (got != want[o])
			return Fail("an output differs from the reference");
		delete outs[o];
	}
	std::printf("numerics: %zu output%s match the reference\n", want.size(), want.size() == 1 ? "" : "s");
	if (!expectTiming)
		return 0;
	timing.Get(matrix.data());
	int problems = 0;
	for (const std::string &p : ValidateTiming(matrix.data(), rows, layout, std::vector<bool>(rows, true))) {
		std::fprintf(stderr, "lanes: %s\n", p.c_str());
		problems++;
	}
	if (layout.identity[IdentityTask] < 0 || layout.identity[IdentityBlock] < 0 || layout.identity[IdentityLane] < 0) {
		std::fprintf(stderr, "lanes: the event map names no task, block or lane column (\"identity\")\n");
		problems++;
	}
	for (const std::string &p :
	     CheckIdentity(matrix.data(), rows, layout, std::vector<bool>(rows, true), ExpectedIdentity(rows))) {
		std::fprintf(stderr, "lanes: %s\n", p.c_str());
		problems++;
	}
	if (problems)
		return std::fprintf(stderr, "lanes: %d timing-matrix problems\n", problems), 1;
	std::printf("timing: %zu rows, each written by its own owner (magic + slot), stamps in order, "
		    "task / block / lane as expected\n",
		    rows);
	std::string serr;
	if (!save.empty() && !SaveTiming(save, matrix.data(), rows, layout.rowWords, &serr))
		return Fail(serr.c_str());
	aclrtDestroyStream(stream);
	aclFinalize();
	return 0;
}
