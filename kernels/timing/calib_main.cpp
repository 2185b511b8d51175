// calib_main.cpp - run the calibration kernel and report what one cycle read
// costs (back-to-back difference) and how much it varies, in integer cycles
// of the simulated counter. Never subtract one such number from a measured
// interval: instrumented and clean envelopes are measured separately
// (tsort32_timing --envelope, tsort32_timing_clean --envelope, overhead.sh).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "pksim/host.h"

extern "C" void calib_kernel(uint8_t *out, uint8_t *params);

int main(int argc, char **argv)
{
	int64_t samples = 2000;
	uint32_t blocks = 2;
	for (int i = 1; i + 1 < argc; i += 2) {
		std::string a = argv[i];
		if (a == "--samples")
			samples = std::atoll(argv[i + 1]);
		else if (a == "--blocks")
			blocks = static_cast<uint32_t>(std::atoi(argv[i + 1]));
	}
	if (samples <= 0 || blocks == 0) {
		std::fprintf(stderr, "usage: tsort32_timing_calib [--samples N] [--blocks B]\n");
		return 2;
	}
	aclrtStream stream = nullptr;
	void *out = nullptr, *params = nullptr;
	const size_t n = static_cast<size_t>(samples) * blocks;
	if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
	    aclrtCreateStream(&stream) != ACL_SUCCESS ||
	    aclrtMalloc(&out, n * 8, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
	    aclrtMalloc(&params, 8, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
		std::fprintf(stderr, "tsort32_timing_calib: runtime setup failed\n");
		return 1;
	}
	aclrtMemcpy(params, 8, &samples, 8, ACL_MEMCPY_HOST_TO_DEVICE);
	int rc = pksim::Launch(calib_kernel, blocks, stream, static_cast<uint8_t *>(out), static_cast<uint8_t *>(params));
	if (rc == ACL_SUCCESS)
		rc = aclrtSynchronizeStream(stream);
	std::vector<int64_t> d(n);
	if (rc == ACL_SUCCESS)
		rc = aclrtMemcpy(d.data(), n * 8, out, n * 8, ACL_MEMCPY_DEVICE_TO_HOST);
	aclrtFree(out);
	aclrtFree(params);
	aclrtDestroyStream(stream);
	aclrtResetDevice(0);
	aclFinalize();
	if (rc != ACL_SUCCESS) {
		std::fprintf(stderr, "tsort32_timing_calib: run failed (%d)\n", rc);
		return 1;
	}
	std::sort(d.begin(), d.end());
	double mean = 0, var = 0;
	for (int64_t v : d)
		mean += static_cast<double>(v);
	mean /= static_cast<double>(n);
	for (int64_t v : d)
		var += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
	const double sd = std::sqrt(var / static_cast<double>(n));
	std::printf("cycle read, back to back: %zu pairs on %u blocks at %llu Hz\n", n, blocks,
		    static_cast<unsigned long long>(pksim::CycleHz()));
	std::printf("  min %lld  median %lld  p99 %lld  max %lld  mean %.3f  stddev %.3f cycles\n",
		    static_cast<long long>(d.front()), static_cast<long long>(d[n / 2]),
		    static_cast<long long>(d[std::min(n - 1, n * 99 / 100)]), static_cast<long long>(d.back()), mean, sd);
	if (d.front() < 0) {
		std::fprintf(stderr, "tsort32_timing_calib: the counter went backwards\n");
		return 1;
	}
	return 0;
}
