/* lib/matmul_intf.h - probekit's parse stub for the Ascend C matmul API:
 * the Matmul object's methods take any operands. Parse-only. */
#ifndef PROBEKIT_STUB_MATMUL_INTF_H
#define PROBEKIT_STUB_MATMUL_INTF_H
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {
enum class CubeFormat { ND, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class LayoutMode { NONE, BSNGD, SBNGD, BNGS1S2, NORMAL };
template <TPosition pos, CubeFormat fmt, typename T, bool trans = false, LayoutMode l = LayoutMode::NONE>
struct MatmulType {
	using Type = T;
};
struct MatmulConfig {
	bool doNorm, doBasicBlock, doMultiDataLoad;
};
constexpr MatmulConfig CFG_NORM = {true, false, false};
constexpr MatmulConfig CFG_MDL = {false, false, true};
} // namespace AscendC

namespace matmul {
template <typename A, typename B, typename C, typename Bias = C, const auto &cfg = AscendC::CFG_NORM,
          typename... Rest>
struct Matmul {
	template <typename... X> void Init(X &&...);
	template <typename... X> void SetTensorA(X &&...);
	template <typename... X> void SetTensorB(X &&...);
	template <typename... X> void SetBias(X &&...);
	template <typename... X> void SetOrgShape(X &&...);
	template <typename... X> void SetSingleShape(X &&...);
	template <typename... X> void SetTail(X &&...);
	template <typename... X> void SetWorkspace(X &&...);
	template <typename... X> void SetSubBlockIdx(X &&...);
	template <bool sync = true, typename... X> bool Iterate(X &&...);
	template <bool sync = true, typename... X> void IterateAll(X &&...);
	template <bool sync = true, typename... X> void GetTensorC(X &&...);
	template <typename... X> void WaitIterateAll(X &&...);
	void End();
	void ClearBias();
};
} // namespace matmul
namespace AscendC {
using matmul::Matmul;
}
#define REGIST_MATMUL_OBJ(...)
#endif
