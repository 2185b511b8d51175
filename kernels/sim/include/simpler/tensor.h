// simpler/tensor.h - the tensor descriptor of the simpler runtime
// (hw-native-sys/simpler) as the probekit CPU simulation models it: the names
// and the fields a kernel reads (buffer.addr, start_offset, dtype, shapes),
// written for the simulation; not the runtime's own header. A kernel casts
// args[k] to `__gm__ ChipTensor *` and reads its data at
// buffer.addr + start_offset elements. Shared by kernels and host code.
#ifndef PKSIMPLER_TENSOR_H
#define PKSIMPLER_TENSOR_H

#include <cstdint>

#ifndef __gm__
#define __gm__
#endif

// Element types a descriptor can name (the subset the simulation needs).
enum class DataType : uint32_t { FLOAT32 = 0, FLOAT16, INT32, UINT32, INT64, UINT64, UINT8 };

inline uint32_t get_element_size(DataType dt)
{
	switch (dt) {
	case DataType::FLOAT16:
		return 2;
	case DataType::INT64:
	case DataType::UINT64:
		return 8;
	case DataType::UINT8:
		return 1;
	default:
		return 4;
	}
}

constexpr uint32_t MAX_TENSOR_DIMS = 5;

// A device allocation: address and size in bytes.
struct PTOBufferHandle {
	uint64_t addr;
	uint64_t size;
};

// A view of a buffer: start_offset and shapes count elements of dtype.
// Row-major and contiguous in the simulation (no strides are modelled).
struct alignas(64) ChipTensor {
	PTOBufferHandle buffer;
	uint64_t start_offset;
	uint32_t ndims;
	DataType dtype;
	uint32_t shapes[MAX_TENSOR_DIMS];

	uint64_t numel() const
	{
		uint64_t n = 1;
		for (uint32_t i = 0; i < ndims; i++)
			n *= shapes[i];
		return n;
	}
	uint64_t nbytes() const { return numel() * get_element_size(dtype); }
};

#endif
