// vadd_harness.cpp - one launch of vadd_kernel on the simulation; exit 0
// only when every output element is x + y. Probe lines reach stdout through
// the simulated device printf, drained by aclFinalize.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "pksim/host.h"

// GM_ADDR is uint8_t * in the simulation; the host side does not include the device header
extern "C" void vadd_kernel(uint8_t *x, uint8_t *y, uint8_t *z, uint32_t n);

#define CHECK(call)                                                                    \
	do {                                                                           \
		if ((call) != ACL_SUCCESS) {                                           \
			std::fprintf(stderr, "%s failed: %s\n", #call, aclGetRecentErrMsg()); \
			return 1;                                                      \
		}                                                                      \
	} while (0)

int main()
{
	const uint32_t n = 1000, blocks = 4;
	const size_t bytes = n * sizeof(float);
	std::vector<float> x(n), y(n), z(n);
	for (uint32_t i = 0; i < n; i++) {
		x[i] = static_cast<float>(i);
		y[i] = 0.5f * static_cast<float>(i);
	}
	CHECK(aclInit(nullptr));
	CHECK(aclrtSetDevice(0));
	void *dx = nullptr, *dy = nullptr, *dz = nullptr;
	CHECK(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK(aclrtMemcpy(dy, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
	aclrtStream stream = nullptr;
	CHECK(aclrtCreateStream(&stream));
	CHECK(pksim::Launch(vadd_kernel, blocks, stream, static_cast<uint8_t *>(dx), static_cast<uint8_t *>(dy),
			    static_cast<uint8_t *>(dz), n));
	CHECK(aclrtSynchronizeStream(stream));
	CHECK(aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
	CHECK(aclrtDestroyStream(stream));
	CHECK(aclrtFree(dx));
	CHECK(aclrtFree(dy));
	CHECK(aclrtFree(dz));
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	for (uint32_t i = 0; i < n; i++) {
		if (z[i] != x[i] + y[i]) {
			std::fprintf(stderr, "z[%u] = %g, expected %g\n", i, z[i], x[i] + y[i]);
			return 1;
		}
	}
	std::fprintf(stderr, "vadd: %u elements match\n", n);
	return 0;
}
