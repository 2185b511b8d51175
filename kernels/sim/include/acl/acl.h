// acl/acl.h - the slice of the AscendCL host runtime (aclrt*) the probekit
// harnesses use, as the CPU simulation provides it: device memory, streams
// on which launches and events are asynchronous until synchronised, events
// with elapsed time. Host code only; kernels include kernel_operator.h.
#ifndef PKSIM_ACL_H
#define PKSIM_ACL_H

#include <cstddef>
#include <cstdint>

typedef int aclError;
typedef struct pksim_stream *aclrtStream;
typedef struct pksim_event *aclrtEvent;

#define ACL_SUCCESS 0
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_BAD_ALLOC 200000
#define ACL_ERROR_RT_AICORE_EXCEPTION 507015
#define ACL_ERROR_RT_EVENT_NOT_COMPLETE 507020

typedef enum aclrtMemMallocPolicy {
	ACL_MEM_MALLOC_HUGE_FIRST = 0,
	ACL_MEM_MALLOC_HUGE_ONLY,
	ACL_MEM_MALLOC_NORMAL_ONLY,
} aclrtMemMallocPolicy;

typedef enum aclrtMemcpyKind {
	ACL_MEMCPY_HOST_TO_HOST = 0,
	ACL_MEMCPY_HOST_TO_DEVICE,
	ACL_MEMCPY_DEVICE_TO_HOST,
	ACL_MEMCPY_DEVICE_TO_DEVICE,
} aclrtMemcpyKind;

aclError aclInit(const char *configPath);
// Waits for every pending device print, then stops the printer.
aclError aclFinalize();
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtFree(void *devPtr);
aclError aclrtMallocHost(void **hostPtr, size_t size);
aclError aclrtFreeHost(void *hostPtr);
aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind);
aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream);

aclError aclrtCreateStream(aclrtStream *stream);
aclError aclrtDestroyStream(aclrtStream stream);
// Returns the first kernel failure since the previous synchronisation.
aclError aclrtSynchronizeStream(aclrtStream stream);

aclError aclrtCreateEvent(aclrtEvent *event);
aclError aclrtDestroyEvent(aclrtEvent event);
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
aclError aclrtSynchronizeEvent(aclrtEvent event);
aclError aclrtEventElapsedTime(float *ms, aclrtEvent start, aclrtEvent end);

const char *aclGetRecentErrMsg();

#endif
