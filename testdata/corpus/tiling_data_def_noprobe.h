/* tiling_data_def_noprobe.h - host-side tiling declarations in the
 * BEGIN_TILING_DATA_DEF style, shared by the operators of this directory.
 * A probe-free header: probe-strip must not touch it. */
#ifndef CORPUS_TILING_DATA_DEF_H
#define CORPUS_TILING_DATA_DEF_H

#include "register/tilingdata_base.h"

namespace optiling {

BEGIN_TILING_DATA_DEF(AddCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileNum);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)

BEGIN_TILING_DATA_DEF(SoftmaxTiling)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, cols);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoop);
TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SoftmaxCustom, SoftmaxTiling)

BEGIN_TILING_DATA_DEF(MatmulLeakyTiling)
TILING_DATA_FIELD_DEF(int32_t, M);
TILING_DATA_FIELD_DEF(int32_t, N);
TILING_DATA_FIELD_DEF(int32_t, K);
TILING_DATA_FIELD_DEF(int32_t, baseM);
TILING_DATA_FIELD_DEF(int32_t, baseN);
TILING_DATA_FIELD_DEF(int32_t, tilesPerCore);
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MatmulLeakyreluCustom, MatmulLeakyTiling)

/* Tiling keys: the kernel dispatches on TILING_KEY_IS(n). */
enum class SoftmaxKey : uint32_t {
	kHalfScaled = 1,
	kFloatScaled = 2,
	kFloatPlain = 3,
};

#if defined(CORPUS_TILING_DEBUG) && !defined(NDEBUG)
#	define CORPUS_TILING_LOG(fmt, ...) printf("[tiling] " fmt "\n", ##__VA_ARGS__)
#else
#	define CORPUS_TILING_LOG(fmt, ...) ((void)0)
#endif

} // namespace optiling

#endif /* CORPUS_TILING_DATA_DEF_H */
