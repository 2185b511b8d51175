// exp of one 64x64 float tile whose packed arguments are unsigned: the
// runtime packs the tensor descriptors into args[] and calls kernel_entry.
#include <cstdint>
#include <pto/pto-inst.hpp>

#include "tensor.h"

using namespace pto;

#ifndef __aicore__
#define __aicore__ [aicore]
#endif

extern "C" __aicore__ __attribute__((always_inline)) void kernel_entry(__gm__ uint64_t *args) {
    __gm__ ChipTensor *in_t = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ ChipTensor *out_t = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
    __gm__ float *in = reinterpret_cast<__gm__ float *>(in_t->buffer.addr) + in_t->start_offset;
    __gm__ float *out = reinterpret_cast<__gm__ float *>(out_t->buffer.addr) + out_t->start_offset;

    using Global = GlobalTensor<float, Shape<1, 1, 1, 64, 64>, Stride<1, 1, 1, 64, 1>>;
    using TileT = Tile<TileType::Vec, float, 64, 64, BLayout::RowMajor, -1, -1>;
    TileT src(64, 64);
    TileT dst(64, 64);
    TASSIGN(src, 0x0);
    TASSIGN(dst, 0x10000);
    Global gin(in);
    Global gout(out);

    TLOAD(src, gin);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TEXP(dst, src);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gout, dst);
}
