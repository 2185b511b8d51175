/* pto/pto-inst.hpp - probekit's parse stub for the PTO ISA header (pto-isa).
 * Used ONLY when neither the SDK nor a simulation provides the header, so
 * libclang sees a complete AST; declarations only, never compiled into a
 * kernel. Signatures follow pto-isa's public docs (Tile, GlobalTensor,
 * TASSIGN, TLOAD, TSTORE, TSORT32, set_flag/wait_flag). */
#ifndef PROBEKIT_STUB_PTO_INST_HPP
#define PROBEKIT_STUB_PTO_INST_HPP

#include "kernel_operator.h"

namespace pto {

constexpr int DYNAMIC = -1;
enum class TileType { Vec, Mat, Left, Right, Acc, Bias, Scaling };
enum class BLayout { RowMajor, ColMajor };
enum class SLayout { NoneBox, RowMajor, ColMajor };
enum class PadValue { Null, Zero, Max, Min };

template <TileType Loc, typename T, int Rows, int Cols, BLayout BL = BLayout::RowMajor, int RowValid = Rows,
	  int ColValid = Cols, SLayout SL = SLayout::NoneBox, int Fractal = 512, PadValue P = PadValue::Null>
struct Tile {
	using DType = T;
	static constexpr int kRows = Rows, kCols = Cols;
	Tile();
	Tile(int validRow, int validCol);
	int GetValidRow() const;
	int GetValidCol() const;
	T *data() const;
};

template <int... N> struct Shape {
	Shape();
	template <typename... A> Shape(A...);
};
template <int... N> struct Stride {
	Stride();
	template <typename... A> Stride(A...);
};

/* the same template as AscendC::GlobalTensor (see kernel_operator.h) */
using ::AscendC::GlobalTensor;

template <typename TileT, typename... A> void TASSIGN(TileT &tile, A...);
template <typename... A> void TLOAD(A &&...);
template <typename... A> void TSTORE(A &&...);
template <typename... A> void TSORT32(A &&...);
template <typename... A> void TMOV(A &&...);
template <typename... A> void TADD(A &&...);
template <typename... A> void TMUL(A &&...);
template <typename... A> void TEXP(A &&...);
template <typename... A> void TMATMUL(A &&...);
template <typename... A> void TEXTRACT(A &&...);
template <typename... A> void TCVT(A &&...);

using ::set_flag;
using ::wait_flag;
using ::pipe_barrier;

} // namespace pto

#endif
