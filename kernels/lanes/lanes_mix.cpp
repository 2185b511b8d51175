// lanes_mix.cpp - one kernel source built twice, as simpler builds an incore
// for each core type (-D__DAV_CUBE__ for the cube core, -D__DAV_VEC__ for the
// vector cores), and run on the three lanes of a mixed task. Each lane sums
// its share of x: the AIC lane the block's first half, each AIV lane a
// quarter of the block's second half; it writes one element of y, at the row
// the lane owns (AIC: block; AIV: block count + block * 2 + sub-block).
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
	__gm__ float *mine = x + block * len;
	float acc = 0.0f;
#if defined(__DAV_CUBE__)
	for (int64_t i = 0; i < len / 2; i++)
		acc += mine[i];
	y[block] = acc;
#else
	const int32_t blocks = get_block_num(args);
	const int32_t sub = get_sub_block_id(args);
	const int64_t from = len / 2 + sub * (len / 4);
	for (int64_t i = from; i < from + len / 4; i++)
		acc += mine[i];
	y[blocks + block * 2 + sub] = acc;
#endif
}
