/* kernel_operator.h - probekit's parse stub for the Ascend C SDK header.
 * Used ONLY when the real SDK is absent, so libclang sees a complete AST:
 * declarations, no definitions; never compiled into a kernel. Most APIs
 * take any arguments (variadic templates) so kernels written against any SDK
 * version parse; the names the probe code uses are declared exactly. */
#ifndef PROBEKIT_STUB_KERNEL_OPERATOR_H
#define PROBEKIT_STUB_KERNEL_OPERATOR_H

#include <stddef.h>
#include <stdint.h>

#include "probekit_prelude.h"

#define GM_ADDR __gm__ uint8_t *
#define KERNEL_TASK_TYPE_DEFAULT(type)
#define KERNEL_TASK_TYPE(key, type)
/* tiling: the build generates the data structs; the macros name them */
#define REGISTER_TILING_DEFAULT(T)
#define REGISTER_TILING_FOR_TILINGKEY(key, T)
#define REGISTER_TILING_DATA_CLASS(op, T)
#define TILING_KEY_IS(key) (::AscendC::pk_stub_tiling_key == (key))
#define TILING_KEY_VAR ::AscendC::pk_stub_tiling_key
#define BEGIN_TILING_DATA_DEF(name) struct name {
#define TILING_DATA_FIELD_DEF(type, field) type field;
#define TILING_DATA_FIELD_DEF_ARR(type, n, field) type field[n];
#define TILING_DATA_FIELD_DEF_STRUCT(type, field) type field;
#define END_TILING_DATA_DEF }
#define GET_TILING_DATA_MEMBER(T, member, var, tiling) decltype(T::member) var = ::AscendC::pk_stub_tiling_as<decltype(T::member)>(tiling)
#define GET_TILING_DATA_PTR_WITH_STRUCT(T, var, tiling) const T *var = ::AscendC::pk_stub_tiling_as<const T *>(tiling)
/* operand types the build derives from the operator's definition */
#ifndef DTYPE_X
#define DTYPE_X half
#endif
#ifndef DTYPE_Y
#define DTYPE_Y half
#endif
#ifndef DTYPE_Z
#define DTYPE_Z half
#endif
#ifndef DTYPE_OUT
#define DTYPE_OUT half
#endif
/* the data-type codes a kernel compares the build's ORIG_DTYPE_* with
 * (`#if ORIG_DTYPE_X == DT_INT8`): macros in the SDK's device headers, so a
 * preprocessor branch chosen with -DORIG_DTYPE_X=DT_INT8 is taken */
#ifndef DT_FLOAT
#define DT_FLOAT 0
#define DT_FLOAT16 1
#define DT_INT8 2
#define DT_INT32 3
#define DT_UINT8 4
#define DT_INT16 6
#define DT_UINT16 7
#define DT_UINT32 8
#define DT_INT64 9
#define DT_UINT64 10
#define DT_DOUBLE 11
#define DT_BOOL 12
#define DT_COMPLEX64 16
#define DT_BF16 27
#define DT_INT4 29
#define DT_HIFLOAT8 34
#define DT_FLOAT8_E5M2 35
#define DT_FLOAT8_E4M3FN 36
#define DT_FLOAT8_E8M0 37
#endif
#define GET_TILING_DATA(var, tiling) auto var = ::AscendC::pk_stub_tiling(tiling)
#define GET_TILING_DATA_WITH_STRUCT(T, var, tiling) T var = ::AscendC::pk_stub_tiling_as<T>(tiling)
#define ASCEND_IS_AIV (::AscendC::g_coreType == ::AscendC::AIV)
#define ASCEND_IS_AIC (::AscendC::g_coreType == ::AscendC::AIC)
#define ASCEND_IS_NOT_AIV (::AscendC::g_coreType != ::AscendC::AIV)
#define ASCEND_IS_NOT_AIC (::AscendC::g_coreType != ::AscendC::AIC)
#define TRACE_START(x)
#define TRACE_STOP(x)
#define PRINTF ::AscendC::printf
#define DumpTensor(...) ((void)0)

namespace AscendC {

enum CoreType { AIC, AIV, MIX };
extern CoreType g_coreType;

enum class TPosition { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM, SPM, SHM, TSCM, MAX };
using QuePosition = TPosition;
enum class HardEvent { MTE2_V, V_MTE2, MTE3_V, V_MTE3, MTE2_MTE3, MTE3_MTE2, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE1_M, M_MTE1, M_FIX, FIX_M, MTE2_MTE1, MTE1_MTE2, V_V };
enum class RoundMode { CAST_NONE, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };
enum class CacheLine { SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE };
enum class DcciDst { CACHELINE_ALL, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

extern uint64_t pk_stub_tiling_key;
void InitSocState();
__gm__ uint8_t *GetUserWorkspace(__gm__ uint8_t *workspace);
__gm__ uint8_t *GetSysWorkSpacePtr();
template <typename... A> void SetSysWorkspace(A &&...);
template <typename... A> void SetAtomicType(A &&...);
template <typename... A> void Barrier(A &&...);
template <typename... A> void SetAivMode(A &&...);
int64_t GetSystemCycle();
int64_t GetBlockIdx();
int64_t GetBlockNum();
int64_t GetSubBlockIdx();
int64_t GetSubBlockNum();
int64_t GetTaskRation();
template <pipe_t pipe> void PipeBarrier();
template <HardEvent e> void SetFlag(int32_t id);
template <HardEvent e> void WaitFlag(int32_t id);
template <typename... A> void SyncAll(A &&...);
template <int mode = 0, pipe_t pipe = PIPE_S, typename... A> void CrossCoreSetFlag(A &&...);
template <int mode = 0, pipe_t pipe = PIPE_S, typename... A> void CrossCoreWaitFlag(A &&...);
template <typename... A> void SetCrossCoreSync(A &&...);
template <typename... A> void WaitCrossCoreSync(A &&...);
template <typename... A> void printf(const char *fmt, A &&...);
template <typename T> T pk_stub_tiling(T t);
template <typename T, typename U> T pk_stub_tiling_as(U u);

struct DataCopyParams {
	uint16_t blockCount = 0, blockLen = 0, srcStride = 0, dstStride = 0;
	DataCopyParams() = default;
	DataCopyParams(uint16_t c, uint16_t l, uint16_t s, uint16_t d);
};
struct DataCopyExtParams {
	uint16_t blockCount = 0;
	uint32_t blockLen = 0, srcStride = 0, dstStride = 0, rsv = 0;
	DataCopyExtParams() = default;
	DataCopyExtParams(uint16_t c, uint32_t l, uint32_t s, uint32_t d, uint32_t r);
};
template <typename T> struct DataCopyPadExtParams {
	bool isPad = false;
	uint8_t leftPadding = 0, rightPadding = 0;
	T paddingValue = T();
	DataCopyPadExtParams() = default;
	DataCopyPadExtParams(bool p, uint8_t l, uint8_t r, T v);
};

template <typename T> struct LocalTensor {
	using PrimType = T;
	T GetValue(uint32_t i) const;
	template <typename V> void SetValue(uint32_t i, V v);
	T &operator()(uint32_t i);
	LocalTensor operator[](uint32_t off) const;
	template <typename U> LocalTensor<U> ReinterpretCast() const;
	uint32_t GetSize() const;
	uint64_t GetPhyAddr() const;
	void SetSize(uint32_t n);
};

/* One GlobalTensor for both APIs: AscendC's (SetGlobalBuffer) and PTO's
 * (built from a pointer, a Shape and a Stride). pto::GlobalTensor names this
 * same template, so a kernel using both namespaces is not ambiguous. */
template <typename T, typename S = void, typename St = void> struct GlobalTensor {
	using PrimType = T;
	using DType = T;
	GlobalTensor();
	explicit GlobalTensor(__gm__ T *p);
	template <typename SS, typename... A> GlobalTensor(__gm__ T *p, SS shape, A... stride);
	template <typename P> void SetGlobalBuffer(P *p, uint64_t n = 0);
	T GetValue(uint64_t i) const;
	template <typename V> void SetValue(uint64_t i, V v);
	GlobalTensor operator[](uint64_t off) const;
	uint64_t GetSize() const;
	__gm__ T *GetPhyAddr() const;
	__gm__ T *data() const;
	template <typename... A> void SetL2CacheHint(A &&...);
};

template <TPosition pos, int32_t depth = 1, typename... A> struct TQue {
	template <typename T> LocalTensor<T> AllocTensor();
	template <typename T> void FreeTensor(LocalTensor<T> &t);
	template <typename T> void EnQue(const LocalTensor<T> &t);
	template <typename T> LocalTensor<T> DeQue();
	bool VacantInQue();
	bool HasTensorInQue();
};
template <TPosition src, TPosition dst, int32_t depth = 1, typename... A> struct TQueBind {
	template <typename T> LocalTensor<T> AllocTensor();
	template <typename T> void FreeTensor(LocalTensor<T> &t);
	template <typename T> void EnQue(const LocalTensor<T> &t);
	template <typename T> LocalTensor<T> DeQue();
};
template <TPosition pos = TPosition::VECCALC> struct TBuf {
	template <typename T> LocalTensor<T> Get();
	template <typename T> LocalTensor<T> Get(uint32_t n);
	template <typename T> LocalTensor<T> GetWithOffset(uint32_t n, uint32_t off);
};
struct TPipe {
	template <typename Q, typename... A> void InitBuffer(Q &q, A &&...);
	template <HardEvent e> int32_t FetchEventID();
	int32_t FetchEventID(HardEvent e);
	template <HardEvent e> int32_t AllocEventID();
	template <HardEvent e> void ReleaseEventID(int32_t id);
	void Reset();
	void Destroy();
};
TPipe *GetTPipePtr();

/* data movement, vector and cube APIs: any operands */
#define PK_STUB_ANY(name) template <typename... A> void name(A &&...)
#define PK_STUB_ANY_T(name) template <typename T0 = void, typename... TT, typename... A> void name(A &&...)
PK_STUB_ANY_T(DataCopy); PK_STUB_ANY_T(DataCopyPad); PK_STUB_ANY_T(Copy); PK_STUB_ANY_T(LoadData);
PK_STUB_ANY_T(Fixpipe); PK_STUB_ANY_T(Mmad); PK_STUB_ANY_T(Duplicate); PK_STUB_ANY_T(Add);
PK_STUB_ANY_T(Sub); PK_STUB_ANY_T(Mul); PK_STUB_ANY_T(Div); PK_STUB_ANY_T(Max); PK_STUB_ANY_T(Min);
PK_STUB_ANY_T(Adds); PK_STUB_ANY_T(Muls); PK_STUB_ANY_T(Maxs); PK_STUB_ANY_T(Mins); PK_STUB_ANY_T(Exp);
PK_STUB_ANY_T(Ln); PK_STUB_ANY_T(Abs); PK_STUB_ANY_T(Sqrt); PK_STUB_ANY_T(Rsqrt); PK_STUB_ANY_T(Relu);
PK_STUB_ANY_T(Reciprocal); PK_STUB_ANY_T(Cast); PK_STUB_ANY_T(Compare); PK_STUB_ANY_T(Select);
PK_STUB_ANY_T(ReduceSum); PK_STUB_ANY_T(ReduceMax); PK_STUB_ANY_T(ReduceMin); PK_STUB_ANY_T(WholeReduceSum);
PK_STUB_ANY_T(WholeReduceMax); PK_STUB_ANY_T(BlockReduceSum); PK_STUB_ANY_T(BlockReduceMax);
PK_STUB_ANY_T(Sort32); PK_STUB_ANY_T(MrgSort); PK_STUB_ANY_T(Sort); PK_STUB_ANY_T(Gather);
PK_STUB_ANY_T(Scatter); PK_STUB_ANY_T(Transpose); PK_STUB_ANY_T(Brcb); PK_STUB_ANY_T(SetAtomicAdd);
PK_STUB_ANY_T(SetAtomicNone); PK_STUB_ANY_T(SetMaskNorm); PK_STUB_ANY_T(SetMaskCount);
PK_STUB_ANY_T(SetVectorMask); PK_STUB_ANY_T(ResetMask); PK_STUB_ANY_T(InitGlobalMemory);
PK_STUB_ANY_T(DataCacheCleanAndInvalid); PK_STUB_ANY_T(IBSet); PK_STUB_ANY_T(IBWait);
PK_STUB_ANY_T(SetFixpipeNz2ndFlag); PK_STUB_ANY_T(SetLoadDataPaddingValue);
#undef PK_STUB_ANY
#undef PK_STUB_ANY_T

template <typename T> constexpr T CeilDiv(T a, T b) { return (a + b - 1) / b; }
template <typename T> constexpr T AlignUp(T a, T b) { return (a + b - 1) / b * b; }
constexpr int32_t ONE_BLK_SIZE = 32;
constexpr int32_t BLOCK_CUBE = 16;

} // namespace AscendC

#endif
