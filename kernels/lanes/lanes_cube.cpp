// lanes_cube.cpp - the cube lane of a mixed task whose vector lanes run
// another kernel (lanes_vec.cpp): it sums the first half of its block's x
// into y[block]. Both kernels read the task's scalar (args[2]).
#include <cstdint>

#include "intrinsic.h"
#include "pto/pto-inst.hpp"
#include "tensor.h"

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
	__gm__ ChipTensor *x_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
	__gm__ ChipTensor *y_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
	__gm__ float *x = reinterpret_cast<__gm__ float *>(x_t->buffer.addr) + x_t->start_offset;
	__gm__ float *y = reinterpret_cast<__gm__ float *>(y_t->buffer.addr) + y_t->start_offset;
	const int64_t len = static_cast<int64_t>(args[2]); // elements of one block
	const int32_t block = get_block_idx(args);
	float acc = 0.0f;
	for (int64_t i = 0; i < len / 2; i++)
		acc += x[block * len + i];
	y[block] = acc;
}
