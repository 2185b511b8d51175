/* probekit_prelude.h - what the CCE compiler (bisheng) knows without any
 * header: the address-space and core qualifiers, the 16-bit float types, the
 * pipe and event enums and the intrinsics a kernel calls directly. probekit
 * gives it to every parse (-include) so that a real SDK or the PTO headers
 * on the include path parse better, never worse; every name is guarded, so
 * a definition from the command line or an earlier header wins. Parse-only
 * declarations, never compiled into a kernel. */
#ifndef PROBEKIT_PRELUDE_H
#define PROBEKIT_PRELUDE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h> /* printf: the CCE compiler has it built in */

/* the architecture the compiler targets by default (Atlas A2/A3, dav-c220);
 * -D__CCE_AICORE__=... selects another */
#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 220
#endif

#ifndef __global__
#define __global__ __attribute__((annotate("global")))
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef AICORE
#define AICORE __aicore__
#endif
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
#ifndef __mix__
#define __mix__(...)
#endif
#ifndef __simd_callee__
#define __simd_callee__
#endif
#ifndef __simd_vf__
#define __simd_vf__
#endif
#ifndef __simt_callee__
#define __simt_callee__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif
#ifndef __ssbuf__
#define __ssbuf__
#endif
#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif
#ifndef __inline__
#define __inline__ inline
#endif

#ifndef PROBEKIT_PRELUDE_TYPES
#define PROBEKIT_PRELUDE_TYPES
/* 16-bit floats as opaque value types: the parse needs the names, not the maths */
struct half {
	uint16_t bits;
	half() = default;
	template <typename U> half(U v);
	operator float() const;
};
struct bfloat16_t {
	uint16_t bits;
	bfloat16_t() = default;
	template <typename U> bfloat16_t(U v);
	operator float() const;
};

enum pipe_t {
	PIPE_S,
	PIPE_V,
	PIPE_M,
	PIPE_MTE1,
	PIPE_MTE2,
	PIPE_MTE3,
	PIPE_ALL,
	PIPE_MTE4,
	PIPE_MTE5,
	PIPE_V2,
	PIPE_FIX
};
enum event_t { EVENT_ID0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

void set_flag(pipe_t src, pipe_t dst, event_t id);
void wait_flag(pipe_t src, pipe_t dst, event_t id);
void set_flag(pipe_t src, pipe_t dst, int id);
void wait_flag(pipe_t src, pipe_t dst, int id);
void pipe_barrier(pipe_t pipe);
int64_t get_sys_cnt();
int64_t get_block_idx();
int64_t get_block_num();
int64_t get_subblockid();
int64_t get_subblockdim();
void dsb(int);
/* intrinsics whose operands the parse does not check */
#define PK_PRELUDE_ANY(name) template <typename... A> void name(A &&...)
PK_PRELUDE_ANY(dcci);
PK_PRELUDE_ANY(copy_gm_to_ubuf);
PK_PRELUDE_ANY(copy_ubuf_to_gm);
PK_PRELUDE_ANY(copy_ubuf_to_ubuf);
PK_PRELUDE_ANY(copy_gm_to_cbuf);
PK_PRELUDE_ANY(vconv_f322f16);
PK_PRELUDE_ANY(set_vector_mask);
PK_PRELUDE_ANY(set_mask_norm);
PK_PRELUDE_ANY(set_mask_count);
PK_PRELUDE_ANY(set_atomic_add);
PK_PRELUDE_ANY(set_atomic_none);
PK_PRELUDE_ANY(set_atomic_f32);
PK_PRELUDE_ANY(ffts_cross_core_sync);
PK_PRELUDE_ANY(wait_flag_dev);
PK_PRELUDE_ANY(set_ffts_base_addr);
PK_PRELUDE_ANY(set_ctrl);
PK_PRELUDE_ANY(set_padding);
PK_PRELUDE_ANY(set_nd_para);
#undef PK_PRELUDE_ANY
#endif

#endif
