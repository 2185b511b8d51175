// lanes_scale.cpp - a vector kernel that scales its block's share of x into
// y by a factor the task passes (y[i] = x[i] * factor).
#include <cstdint>
#include <cstring>

#include "intrinsic.h"
#include "pto/pto-inst.hpp"
#include "tensor.h"

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
	__gm__ ChipTensor *x_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
	__gm__ ChipTensor *y_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
	__gm__ float *x = reinterpret_cast<__gm__ float *>(x_t->buffer.addr) + x_t->start_offset;
	__gm__ float *y = reinterpret_cast<__gm__ float *>(y_t->buffer.addr) + y_t->start_offset;
	const uint64_t bits = static_cast<uint64_t>(args[2]);
	float factor;
	std::memcpy(&factor, &bits, sizeof(factor));
	const int64_t n = static_cast<int64_t>(x_t->shapes[0]) / get_block_num(args);
	for (int64_t i = get_block_idx(args) * n; i < (get_block_idx(args) + 1) * n; i++)
		y[i] = x[i] * factor;
}
