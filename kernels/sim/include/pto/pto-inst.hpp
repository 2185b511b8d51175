// pto/pto-inst.hpp - the PTO tile API (pto-isa's public names and template
// parameter orders) as the probekit CPU simulation provides it: Tile,
// Shape, Stride, GlobalTensor, TASSIGN, TLOAD, TSTORE and TSORT32 with the
// exact TSORT32 semantics of docs/kernel.md. Kernels include this as on the board.
// Deviations from pto-isa are listed in docs/kernel.md.
#ifndef PKSIM_PTO_INST_HPP
#define PKSIM_PTO_INST_HPP

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "kernel_operator.h"
#include "pto/common/constants.hpp"
#include "pto/common/type.hpp"

// pto-isa builds its CPU tests with -D__CPU_SIM and expects the host runtime
// (aclInit, aclrtMalloc, aclrtMemcpy, streams, ACL_MEM_* / ACL_MEMCPY_*)
// through this header, so the test body and the kernel share one include.
#if defined(__CPU_SIM)
#include "acl/acl.h"
#endif

#define AICORE
#define PTO_INST inline

// What pto-isa's CPU stubs offer a kernel besides the tile API: the two-argument
// writeback of one data-cache line (dcci(ptr, cache_line_t::SINGLE_CACHE_LINE),
// as pto-isa and simpler's kernels spell it) and the memory fence. Simulated GM
// is host memory, so only the argument contract is checked.
template <typename T>
inline void dcci(__gm__ T *addr, cache_line_t line)
{
	dcci(addr, line, dcci_dst_t::CACHELINE_OUT);
}
enum dsb_mode_t { DSB_ALL = 0, DSB_DDR, DSB_UB, DSB_SEQ };
inline void dsb(dsb_mode_t) {}

namespace pto {

constexpr int DYNAMIC = -1;
constexpr int TSORT32_BLOCK = 32;         // elements per VBS32 block
constexpr int TSORT32_REPEAT_MAX = REPEAT_MAX; // blocks per VBS32 issue
constexpr int TSORT32_MAX_UB_TMP = 8160;  // 32 * 255 (elements on A2/A3, bytes on A5)

// pto instructions return an event handle; the simulation completes every
// instruction before returning, so the handle carries nothing.
struct RecordEvent {};

namespace detail {

// Five integers, each static or DYNAMIC; dynamic ones come from the
// constructor in order (pto::Shape / pto::Stride share this).
template <int N1, int N2, int N3, int N4, int N5>
struct Dims5 {
	static constexpr int staticDims[5] = { N1, N2, N3, N4, N5 };
	static constexpr int dynamicCount = (N1 == DYNAMIC) + (N2 == DYNAMIC) + (N3 == DYNAMIC) +
					    (N4 == DYNAMIC) + (N5 == DYNAMIC);
	int dims[5] = { N1, N2, N3, N4, N5 };

	Dims5() { static_assert(dynamicCount == 0, "pto: this shape/stride has dynamic dimensions to pass"); }
	template <typename... I, typename = std::enable_if_t<(sizeof...(I) > 0)>>
	Dims5(I... values)
	{
		static_assert(sizeof...(I) == dynamicCount,
			      "pto: pass exactly one value per DYNAMIC dimension");
		const int given[] = { static_cast<int>(values)... };
		int k = 0;
		for (int d = 0; d < 5; d++)
			if (staticDims[d] == DYNAMIC)
				dims[d] = given[k++];
	}
};

} // namespace detail

template <int N1 = 1, int N2 = 1, int N3 = 1, int N4 = 1, int N5 = 1>
struct Shape : detail::Dims5<N1, N2, N3, N4, N5> {
	using detail::Dims5<N1, N2, N3, N4, N5>::Dims5;
	static constexpr int staticShape[5] = { N1, N2, N3, N4, N5 };
};

template <int S1 = 1, int S2 = 1, int S3 = 1, int S4 = 1, int S5 = 1>
struct Stride : detail::Dims5<S1, S2, S3, S4, S5> {
	using detail::Dims5<S1, S2, S3, S4, S5>::Dims5;
	static constexpr int staticStride[5] = { S1, S2, S3, S4, S5 };
};

template <typename Element_, typename Shape_, typename Stride_, Layout Layout_ = Layout::ND>
struct GlobalTensor {
	using DType = __gm__ Element_;
	using ShapeType = Shape_;
	using StrideType = Stride_;
	static constexpr Layout layout = Layout_;

	GlobalTensor() : ptr_(nullptr) {}
	explicit GlobalTensor(DType *ptr) : ptr_(ptr) {}
	GlobalTensor(DType *ptr, const Shape_ &shape) : ptr_(ptr), shape_(shape) {}
	GlobalTensor(DType *ptr, const Shape_ &shape, const Stride_ &stride)
		: ptr_(ptr), shape_(shape), stride_(stride)
	{
	}

	DType *data() const { return ptr_; }
	int GetShape(GlobalTensorDim d) const { return shape_.dims[static_cast<int>(d)]; }
	int GetStride(GlobalTensorDim d) const { return stride_.dims[static_cast<int>(d)]; }
	template <GlobalTensorDim d>
	static constexpr int GetShape()
	{
		static_assert(Shape_::staticShape[static_cast<int>(d)] != DYNAMIC, "pto: dimension is dynamic");
		return Shape_::staticShape[static_cast<int>(d)];
	}
	void SetAddr(DType *ptr) { ptr_ = ptr; }

private:
	DType *ptr_;
	Shape_ shape_{};
	Stride_ stride_{};
};

template <TileType Loc_, typename Element_, int Rows_, int Cols_, BLayout BLayout_ = BLayout::RowMajor,
	  int RowValid_ = Rows_, int ColValid_ = Cols_, SLayout SLayout_ = SLayout::NoneBox, int SFractalSize_ = 512,
	  PadValue PadVal_ = PadValue::Null>
class Tile {
public:
	using DType = Element_;
	static constexpr TileType Loc = Loc_;
	static constexpr int Rows = Rows_;
	static constexpr int Cols = Cols_;
	static constexpr BLayout BFractal = BLayout_;
	static constexpr SLayout SFractal = SLayout_;
	static constexpr int ValidRow = RowValid_;
	static constexpr int ValidCol = ColValid_;
	static constexpr int RowStride = BLayout_ == BLayout::RowMajor ? Cols_ : 1;
	static constexpr int ColStride = BLayout_ == BLayout::RowMajor ? 1 : Rows_;
	static constexpr size_t Bytes = static_cast<size_t>(Rows_) * Cols_ * sizeof(Element_);

	static_assert(Rows_ > 0 && Cols_ > 0, "pto: Tile rows and cols must be positive");
	static_assert(RowValid_ == DYNAMIC || (RowValid_ > 0 && RowValid_ <= Rows_), "pto: RowValid out of range");
	static_assert(ColValid_ == DYNAMIC || (ColValid_ > 0 && ColValid_ <= Cols_), "pto: ColValid out of range");
	static_assert(!(BLayout_ == BLayout::RowMajor && SLayout_ == SLayout::NoneBox) ||
			      (Cols_ * sizeof(Element_)) % 32 == 0,
		      "pto: an unboxed row-major Tile needs Cols * sizeof(T) to be a multiple of 32 bytes");

	Tile() : validRow_(RowValid_), validCol_(ColValid_)
	{
		static_assert(RowValid_ != DYNAMIC && ColValid_ != DYNAMIC,
			      "pto: a Tile with a DYNAMIC valid dimension takes (validRow, validCol)");
	}
	Tile(size_t validRow, size_t validCol)
		: validRow_(static_cast<int>(validRow)), validCol_(static_cast<int>(validCol))
	{
		Check(validRow, RowValid_, Rows_, "row");
		Check(validCol, ColValid_, Cols_, "col");
	}

	int GetValidRow() const { return validRow_; }
	int GetValidCol() const { return validCol_; }
	uint64_t GetAddr() const { return ubOffset_; }
	bool Assigned() const { return data_ != nullptr; }
	DType *data() const
	{
		if (data_ == nullptr)
			pksim::Fail("Tile used before TASSIGN placed it in the unified buffer");
		return data_;
	}
	void Place(DType *p, uint64_t off)
	{
		data_ = p;
		ubOffset_ = off;
	}

private:
	static void Check(size_t v, int fixed, int cap, const char *what)
	{
		if (fixed != DYNAMIC && v != static_cast<size_t>(fixed))
			pksim::Fail("Tile: valid %s %zu differs from the static %d", what, v, fixed);
		if (v == 0 || v > static_cast<size_t>(cap))
			pksim::Fail("Tile: valid %s %zu outside 1..%d", what, v, cap);
	}

	int validRow_;
	int validCol_;
	DType *data_ = nullptr;
	uint64_t ubOffset_ = 0;
};

template <typename T>
struct is_tile : std::false_type {};
template <TileType L, typename E, int R, int C, BLayout B, int RV, int CV, SLayout S, int F, PadValue P>
struct is_tile<Tile<L, E, R, C, B, RV, CV, S, F, P>> : std::true_type {};

// TASSIGN(tile, byteOffset): place a tile in this block's unified buffer.
template <typename TileT, typename Addr, std::enable_if_t<is_tile<TileT>::value && std::is_integral<Addr>::value, int> = 0>
PTO_INST void TASSIGN(TileT &tile, Addr byteOffset)
{
	const uint64_t off = static_cast<uint64_t>(byteOffset);
	if (off % 32 != 0)
		pksim::Fail("TASSIGN: UB offset 0x%llx is not 32-byte aligned", static_cast<unsigned long long>(off));
	if (off + TileT::Bytes > pksim::UbBytes())
		pksim::Fail("TASSIGN: tile of %zu bytes at UB offset 0x%llx ends past the %zu-byte unified buffer (%s)",
			    TileT::Bytes, static_cast<unsigned long long>(off), pksim::UbBytes(),
			    pksim::TargetName(pksim::CurrentTarget()));
	tile.Place(reinterpret_cast<typename TileT::DType *>(pksim::UbBase() + off), off);
}

// TASSIGN(globalTensor, ptr): rebind a GlobalTensor's GM pointer.
template <typename E, typename S, typename St, Layout L>
PTO_INST void TASSIGN(GlobalTensor<E, S, St, L> &gt, typename GlobalTensor<E, S, St, L>::DType *ptr)
{
	gt.SetAddr(ptr);
}

namespace detail {

// The 2-D extent a GlobalTensor describes: dims 0..3 flatten into rows.
struct Extent {
	long rows;
	long cols;
};

template <typename G>
inline Extent ExtentOf(const G &g)
{
	long rows = 1;
	for (int d = 0; d < 4; d++)
		rows *= g.GetShape(static_cast<GlobalTensorDim>(d));
	return { rows, g.GetShape(GlobalTensorDim::DIM_4) };
}

template <typename G>
inline long GmOffset(const G &g, long row, long col)
{
	long off = 0;
	long rest = row;
	for (int d = 3; d >= 0; d--) {
		const long n = g.GetShape(static_cast<GlobalTensorDim>(d));
		off += (rest % n) * g.GetStride(static_cast<GlobalTensorDim>(d));
		rest /= n;
	}
	return off + col * g.GetStride(GlobalTensorDim::DIM_4);
}

template <typename TileT, typename G>
inline void CheckTransfer(const char *op, const TileT &, const G &g, Extent e)
{
	static_assert(std::is_same<typename TileT::DType, std::remove_cv_t<typename G::DType>>::value,
		      "pto: TLOAD/TSTORE tile and GlobalTensor element types differ");
	if (g.data() == nullptr)
		pksim::Fail("%s: GlobalTensor has no GM address", op);
	if (e.rows <= 0 || e.cols <= 0 || e.rows > TileT::Rows || e.cols > TileT::Cols)
		pksim::Fail("%s: GlobalTensor extent %ldx%ld does not fit the %dx%d tile", op, e.rows, e.cols,
			    TileT::Rows, TileT::Cols);
}

} // namespace detail

// TLOAD(tile, global): GM -> UB over the GlobalTensor's extent (MTE2).
template <typename TileT, typename G, typename... WaitEvents>
PTO_INST RecordEvent TLOAD(TileT &dst, G &src, WaitEvents &...)
{
	const auto e = detail::ExtentOf(src);
	detail::CheckTransfer("TLOAD", dst, src, e);
	typename TileT::DType *ub = dst.data();
	for (long r = 0; r < e.rows; r++)
		for (long c = 0; c < e.cols; c++)
			std::memcpy(&ub[r * TileT::RowStride + c * TileT::ColStride], &src.data()[detail::GmOffset(src, r, c)],
				    sizeof(typename TileT::DType));
	return {};
}

// TSTORE(global, tile): UB -> GM over the GlobalTensor's extent (MTE3).
template <typename G, typename TileT, typename... WaitEvents>
PTO_INST RecordEvent TSTORE(G &dst, TileT &src, WaitEvents &...)
{
	const auto e = detail::ExtentOf(dst);
	detail::CheckTransfer("TSTORE", src, dst, e);
	const typename TileT::DType *ub = src.data();
	for (long r = 0; r < e.rows; r++)
		for (long c = 0; c < e.cols; c++)
			std::memcpy(&dst.data()[detail::GmOffset(dst, r, c)], &ub[r * TileT::RowStride + c * TileT::ColStride],
				    sizeof(typename TileT::DType));
	return {};
}

namespace detail {

template <typename T>
inline float SortKey(T v)
{
	return static_cast<float>(v);
}

// The lowest value: the tail pad that sorts after every valid element.
template <typename T>
inline T LowestPad()
{
	return T(-std::numeric_limits<float>::infinity());
}

// The TSORT32 order, a strict weak order on (value, index): larger value
// first; NaN (any sign or payload) is the smallest value, below -inf, as the
// A2/A3 code's -NaN tail pad and numpy's argsort(-x) golden both assume;
// -0.0 equals +0.0; equal values (two NaNs too) keep the smaller index first.
inline bool Sort32Before(float ka, uint32_t ia, float kc, uint32_t ic)
{
	const bool na = ka != ka, nc = kc != kc;
	if (na != nc)
		return nc;
	if (!na && ka != kc)
		return ka > kc;
	return ia < ic;
}

// One VBS32 issue: sort `repeat` consecutive 32-element blocks of values and
// indices, writing 8-byte tuples. `valid` is how many elements of the last
// block are real; pads (beyond it) never reach dst (only valid outputs are
// meaningful). Returns how many NaN values it sorted.
template <typename T>
inline long Vbs32(uint8_t *dstRow, const T *vals, const uint32_t *idx, unsigned repeat, unsigned lastValid)
{
	pksim::NoteVbs32(repeat);
	struct Pair {
		T v;
		uint32_t i;
	};
	long nans = 0;
	for (unsigned b = 0; b < repeat; b++) {
		const unsigned n = b + 1 == repeat ? lastValid : TSORT32_BLOCK;
		Pair p[TSORT32_BLOCK];
		for (unsigned k = 0; k < n; k++) {
			p[k] = { vals[b * TSORT32_BLOCK + k], idx[b * TSORT32_BLOCK + k] };
			nans += SortKey(p[k].v) != SortKey(p[k].v);
		}
		std::stable_sort(p, p + n, [](const Pair &a, const Pair &c) {
			return Sort32Before(SortKey(a.v), a.i, SortKey(c.v), c.i);
		});
		for (unsigned k = 0; k < n; k++) {
			uint8_t tuple[8] = {};
			std::memcpy(tuple, &p[k].v, sizeof(T)); // half: [f16, 0x0000, u32]
			std::memcpy(tuple + 4, &p[k].i, 4);
			std::memcpy(dstRow + (static_cast<size_t>(b) * TSORT32_BLOCK + k) * 8, tuple, 8);
		}
	}
	return nans;
}

// Sort `blocks` blocks, split into VBS32 issues of at most 255 (a longer row: 255 + the rest).
template <typename T>
inline long SortBlocks(uint8_t *dstRow, const T *vals, const uint32_t *idx, unsigned blocks, unsigned lastValid)
{
	long nans = 0;
	for (unsigned first = 0; first < blocks; first += TSORT32_REPEAT_MAX) {
		const unsigned rep = std::min<unsigned>(TSORT32_REPEAT_MAX, blocks - first);
		const bool last = first + rep == blocks;
		nans += Vbs32(dstRow + static_cast<size_t>(first) * TSORT32_BLOCK * 8, vals + first * TSORT32_BLOCK,
		              idx + first * TSORT32_BLOCK, rep, last ? lastValid : TSORT32_BLOCK);
	}
	return nans;
}

template <typename Dst, typename Src, typename Idx>
inline void CheckSort32Static()
{
	using T = typename Src::DType;
	static_assert(std::is_same<T, float>::value || std::is_same<T, half>::value,
		      "TSORT32: src must be half or float");
	static_assert(std::is_same<typename Dst::DType, T>::value, "TSORT32: dst and src must have the same type");
	static_assert(std::is_same<typename Idx::DType, uint32_t>::value, "TSORT32: idx must be uint32_t");
	static_assert(Dst::Loc == TileType::Vec && Src::Loc == TileType::Vec && Idx::Loc == TileType::Vec,
		      "TSORT32: all tiles must be TileType::Vec");
	static_assert(Dst::BFractal == BLayout::RowMajor && Src::BFractal == BLayout::RowMajor &&
			      Idx::BFractal == BLayout::RowMajor,
		      "TSORT32: all tiles must be BLayout::RowMajor");
}

template <typename Dst, typename Src, typename Idx>
inline void CheckSort32Runtime(const Dst &dst, const Src &src, const Idx &idx)
{
	const int rows = src.GetValidRow(), cols = src.GetValidCol();
	if (idx.GetValidRow() != 1 && idx.GetValidRow() < rows)
		pksim::Fail("TSORT32: idx has %d valid rows for %d src rows (give 1 to broadcast)", idx.GetValidRow(),
			    rows);
	if (idx.GetValidCol() < cols)
		pksim::Fail("TSORT32: idx has %d valid cols for %d src cols", idx.GetValidCol(), cols);
	if (dst.GetValidRow() < rows)
		pksim::Fail("TSORT32: dst has %d valid rows for %d src rows", dst.GetValidRow(), rows);
	if (static_cast<size_t>(Dst::Cols) * sizeof(typename Dst::DType) < static_cast<size_t>(cols) * 8)
		pksim::Fail("TSORT32: a dst row holds %zu bytes; %d tuples need %d (8 bytes each)",
			    static_cast<size_t>(Dst::Cols) * sizeof(typename Dst::DType), cols, cols * 8);
}

// The unified-buffer bytes [begin, end) an instruction touches in a tile:
// from its first element to the end of the last row's last touched element.
struct UbRange {
	uint64_t begin;
	uint64_t end;
};

template <typename TileT> inline UbRange Touched(const TileT &t, long rows, long elemsPerRow)
{
	(void)t.data(); // an unplaced tile fails here, before its offset is read
	const uint64_t n = static_cast<uint64_t>((rows - 1) * TileT::RowStride + elemsPerRow);
	return {t.GetAddr(), t.GetAddr() + n * sizeof(typename TileT::DType)};
}

// Operands of one instruction must not share UB bytes when the instruction
// writes one of them: the result would depend on the order of its internal
// steps, which differs between the board and any simulation.
inline void CheckDisjoint(const char *instr, const char *written, UbRange w, const char *other, UbRange o)
{
	if (w.begin < o.end && o.begin < w.end)
		pksim::Fail("%s: %s [0x%llx, 0x%llx) overlaps %s [0x%llx, 0x%llx) in the unified buffer; %s writes "
		            "%s, so give each tile its own UB range (TASSIGN)",
		            instr, written, static_cast<unsigned long long>(w.begin),
		            static_cast<unsigned long long>(w.end), other, static_cast<unsigned long long>(o.begin),
		            static_cast<unsigned long long>(o.end), instr, written);
}

// dst is written; src and idx are read.
template <typename Dst, typename Src, typename Idx>
inline void CheckSort32Operands(const Dst &dst, const Src &src, const Idx &idx)
{
	const long rows = src.GetValidRow(), cols = src.GetValidCol();
	const UbRange d = Touched(dst, rows, cols * 8 / static_cast<long>(sizeof(typename Dst::DType)));
	CheckDisjoint("TSORT32", "dst", d, "src", Touched(src, rows, cols));
	CheckDisjoint("TSORT32", "dst", d, "idx", Touched(idx, idx.GetValidRow() == 1 ? 1 : rows, cols));
}

template <typename Dst, typename Src, typename Idx>
inline void SortRows(Dst &dst, Src &src, Idx &idx)
{
	using T = typename Src::DType;
	const int rows = src.GetValidRow(), cols = src.GetValidCol();
	const int idxStride = idx.GetValidRow() == 1 ? 0 : Idx::RowStride; // 1xC broadcast
	long nans = 0;
	for (int r = 0; r < rows; r++) {
		uint8_t *d = reinterpret_cast<uint8_t *>(dst.data() + r * Dst::RowStride);
		nans += SortBlocks<T>(d, src.data() + r * Src::RowStride, idx.data() + r * idxStride,
		                      static_cast<unsigned>(cols / TSORT32_BLOCK), TSORT32_BLOCK);
	}
	pksim::NoteNanSorted("TSORT32", nans);
}

// Elements of tmp the 4-argument form needs (the rule is in docs/kernel.md).
template <typename T>
inline long Sort32TmpElems(pksim::Target t, long cols)
{
	const long aligned = (cols + TSORT32_BLOCK - 1) / TSORT32_BLOCK * TSORT32_BLOCK;
	const bool small = t == pksim::Target::A2A3 ? cols <= TSORT32_MAX_UB_TMP
						    : cols * static_cast<long>(sizeof(T)) <= TSORT32_MAX_UB_TMP;
	return small ? aligned : TSORT32_BLOCK;
}

} // namespace detail

// TSORT32(dst, src, idx): each 32-element block of every row, with its
// indices, sorted by value descending, smaller index first on ties.
// Needs validCol % 32 == 0. Takes no wait events.
template <typename DstTileData, typename SrcTileData, typename IdxTileData>
PTO_INST RecordEvent TSORT32(DstTileData dst, SrcTileData src, IdxTileData idx)
{
	detail::CheckSort32Static<DstTileData, SrcTileData, IdxTileData>();
	if (src.GetValidCol() % TSORT32_BLOCK != 0)
		pksim::Fail("TSORT32: validCol %d is not a multiple of 32; the 3-argument form sorts whole "
			    "32-element blocks, use TSORT32(dst, src, idx, tmp) for a tail",
			    src.GetValidCol());
	detail::CheckSort32Runtime(dst, src, idx);
	detail::CheckSort32Operands(dst, src, idx);
	detail::SortRows(dst, src, idx);
	return {};
}

// TSORT32(dst, src, idx, tmp): any validCol; the tail block is padded to 32
// with the lowest value in tmp. Small rows (A2/A3: C <= 8160 elements; A5:
// C * sizeof(T) <= 8160 bytes) are copied whole into tmp and sorted from
// there; larger rows sort their full blocks from src and only the tail from
// tmp. tmp must hold ceil32(C) elements for a small row, 32 otherwise.
template <typename DstTileData, typename SrcTileData, typename IdxTileData, typename TmpTileData>
PTO_INST RecordEvent TSORT32(DstTileData dst, SrcTileData src, IdxTileData idx, TmpTileData tmp)
{
	using T = typename SrcTileData::DType;
	detail::CheckSort32Static<DstTileData, SrcTileData, IdxTileData>();
	static_assert(std::is_same<typename TmpTileData::DType, T>::value, "TSORT32: tmp must have the src type");
	static_assert(TmpTileData::Loc == TileType::Vec, "TSORT32: tmp must be TileType::Vec");
	detail::CheckSort32Runtime(dst, src, idx);
	const pksim::Target target = pksim::CurrentTarget();
	const long cols = src.GetValidCol();
	const long need = detail::Sort32TmpElems<T>(target, cols);
	const long have = static_cast<long>(tmp.GetValidRow()) * tmp.GetValidCol();
	if (have < need)
		pksim::Fail("TSORT32: tmp holds %ld elements; validCol %ld of %s needs %ld on %s (the tmp rule: ceil32(C) "
			    "when C %s <= 8160, else 32)",
			    have, cols, std::is_same<T, float>::value ? "float" : "half", need,
			    pksim::TargetName(target),
			    target == pksim::Target::A2A3 ? "elements" : "* sizeof(T) bytes");
	const long tail = cols % TSORT32_BLOCK;
	if (tail != 0) {
		// only a tail goes through tmp (the board's A2/A3 code likewise)
		const detail::UbRange t = detail::Touched(tmp, 1, need);
		const long rows = src.GetValidRow();
		detail::CheckDisjoint("TSORT32", "tmp", t, "dst",
		                      detail::Touched(dst, rows, cols * 8 / static_cast<long>(sizeof(T))));
		detail::CheckDisjoint("TSORT32", "tmp", t, "src", detail::Touched(src, rows, cols));
		detail::CheckDisjoint("TSORT32", "tmp", t, "idx",
		                      detail::Touched(idx, idx.GetValidRow() == 1 ? 1 : rows, cols));
	}
	detail::CheckSort32Operands(dst, src, idx);
	if (tail == 0) {
		detail::SortRows(dst, src, idx);
		return {};
	}
	const unsigned blocks = static_cast<unsigned>((cols + TSORT32_BLOCK - 1) / TSORT32_BLOCK);
	const int idxStride = idx.GetValidRow() == 1 ? 0 : IdxTileData::RowStride;
	T *t = tmp.data();
	long nans = 0;
	for (int r = 0; r < src.GetValidRow(); r++) {
		uint8_t *d = reinterpret_cast<uint8_t *>(dst.data() + r * DstTileData::RowStride);
		const T *s = src.data() + r * SrcTileData::RowStride;
		const uint32_t *ix = idx.data() + r * idxStride;
		if (need != TSORT32_BLOCK || blocks == 1) {
			// small row: the whole row moves to tmp, its tail is padded there
			std::memcpy(t, s, static_cast<size_t>(cols) * sizeof(T));
			for (long k = cols; k < static_cast<long>(blocks) * TSORT32_BLOCK; k++)
				t[k] = detail::LowestPad<T>();
			nans += detail::SortBlocks<T>(d, t, ix, blocks, static_cast<unsigned>(tail));
		} else {
			// large row: full blocks straight from src, the tail alone via tmp
			nans += detail::SortBlocks<T>(d, s, ix, blocks - 1, TSORT32_BLOCK);
			const long first = cols - tail;
			std::memcpy(t, s + first, static_cast<size_t>(tail) * sizeof(T));
			for (long k = tail; k < TSORT32_BLOCK; k++)
				t[k] = detail::LowestPad<T>();
			nans += detail::SortBlocks<T>(d + first * 8, t, ix + first, 1, static_cast<unsigned>(tail));
		}
	}
	pksim::NoteNanSorted("TSORT32", nans);
	return {};
}

} // namespace pto

#endif
