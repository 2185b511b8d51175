// lanes_vec.cpp - the vector lanes of the mixed task of lanes_cube.cpp: each
// sub-block sums a quarter of its block's x (the second half) into
// y[block count + block * 2 + sub-block].
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
	const int32_t sub = get_sub_block_id(args);
	const int64_t from = len / 2 + sub * (len / 4);
	float acc = 0.0f;
	for (int64_t i = from; i < from + len / 4; i++)
		acc += x[block * len + i];
	y[get_block_num(args) + block * 2 + sub] = acc;
}
