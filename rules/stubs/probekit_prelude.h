/* probekit_prelude.h - what the CCE compiler (bisheng) knows without any
 * header: the address-space and core qualifiers, the 16-bit float types, the
 * pipe and event enums and the intrinsics a kernel calls directly. probekit
 * gives it to every parse (-include) so that a real SDK or the PTO headers
 * on the include path parse better, never worse. Parse-only declarations,
 * never compiled into a kernel.
 *
 * Every macro is guarded by its own name, so a definition from the command
 * line wins. Every declaration sits in a group `#ifndef PROBEKIT_NO_<name>`:
 * when the file being parsed (or a header it includes, such as a CPU
 * simulation's own `enum pipe_t`) declares the same name in a way that
 * clashes, probekit parses again with -DPROBEKIT_NO_<name> for each group a
 * clash pointed into, so the program's own declaration wins. Groups are not
 * nested, and none uses another's names (the pipe intrinsics are templates
 * for that reason). */
#ifndef PROBEKIT_PRELUDE_H
#define PROBEKIT_PRELUDE_H

#include <stddef.h>
#include <stdint.h>

/* printf: the CCE compiler has it built in. Declared, not <stdio.h>: its
 * thousand lines were a fifth of each parse of a small kernel (the
 * declaration is glibc's own, so a kernel that includes <stdio.h> or
 * <cstdio> itself redeclares it compatibly) */
#ifndef PROBEKIT_NO_printf
extern "C" int printf(const char *__restrict __format, ...);
#endif

/* the architecture the compiler targets by default (Atlas A2/A3, dav-c220);
 * -D__CCE_AICORE__=... selects another, -U__CCE_AICORE__ none (probekit
 * passes PROBEKIT_UNDEF___CCE_AICORE__ along with it) */
#if !defined(__CCE_AICORE__) && !defined(PROBEKIT_UNDEF___CCE_AICORE__)
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

/* 16-bit floats as opaque value types: the parse needs the names, not the maths */
#ifndef PROBEKIT_NO_half
struct half {
	uint16_t bits;
	half() = default;
	template <typename U> half(U v);
	operator float() const;
};
#endif
#ifndef PROBEKIT_NO_bfloat16_t
struct bfloat16_t {
	uint16_t bits;
	bfloat16_t() = default;
	template <typename U> bfloat16_t(U v);
	operator float() const;
};
#endif

#ifndef PROBEKIT_NO_pipe_t
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
#endif
#ifndef PROBEKIT_NO_event_t
enum event_t { EVENT_ID0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };
#endif

/* the pipe intrinsics take the program's own pipe_t and event_t when it has them */
#ifndef PROBEKIT_NO_set_flag
template <typename P, typename E> void set_flag(P src, P dst, E id);
#endif
#ifndef PROBEKIT_NO_wait_flag
template <typename P, typename E> void wait_flag(P src, P dst, E id);
#endif
#ifndef PROBEKIT_NO_pipe_barrier
template <typename P> void pipe_barrier(P pipe);
#endif
#ifndef PROBEKIT_NO_get_sys_cnt
int64_t get_sys_cnt();
#endif
#ifndef PROBEKIT_NO_get_block_idx
int64_t get_block_idx();
#endif
#ifndef PROBEKIT_NO_get_block_num
int64_t get_block_num();
#endif
#ifndef PROBEKIT_NO_get_subblockid
int64_t get_subblockid();
#endif
#ifndef PROBEKIT_NO_get_subblockdim
int64_t get_subblockdim();
#endif
#ifndef PROBEKIT_NO_dsb
template <typename K> void dsb(K kind);
#endif

/* intrinsics whose operands the parse does not check */
#ifndef PROBEKIT_NO_intrinsics
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
