// dynamic_quant_tabs_rawstr.cpp - per-token dynamic int8 quantisation.
//
// Indented with tabs (the team's editor setting), and carrying its own op
// description as raw string literals for the host registration code that
// shares the file. Those literals contain preprocessor-looking text such as
// "#endif" and "#if 0" which must not be taken for directives.
#include "kernel_operator.h"

#include <cstdint>

#if !defined(__CCE_KT_TEST__)
#define QUANT_DEVICE 1
#endif

namespace quant {

using namespace AscendC;

constexpr uint32_t kMaxCols = 8'192;		// digit separators (C++14)
constexpr uint64_t kMagic = 0x5155'414E'5431'0001ULL;
constexpr float kInt8Max = 127.0f;
constexpr float kTiny = 1.0e-12f;
constexpr double kBigScale = 1'000'000.5;
constexpr char kHash = '#';			// a char literal holding '#'
constexpr char kQuote = '"';
constexpr char kApos = '\'';

static const char *const kOpDesc = R"json({
	"op": "DynamicQuant",
	"note": "a line in a raw string may look like a directive:",
	"text": "#endif",
	"more": "#if 0 // not a probe, not a directive"
})json";

static const char *const kDeviceNote = R"(
#endif
#else
)";

struct QuantTiling {
	uint32_t rows;
	uint32_t cols;
	uint32_t rowsPerCore;
	uint32_t rowsPerLoop;
};

class DynamicQuant {
public:
	__aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR scale, const QuantTiling &t)
	{
		t_ = t;
		const uint32_t first = t_.rowsPerCore * GetBlockIdx();
		xGm_.SetGlobalBuffer((__gm__ half *)x + first * t_.cols, t_.rowsPerCore * t_.cols);
		yGm_.SetGlobalBuffer((__gm__ int8_t *)y + first * t_.cols, t_.rowsPerCore * t_.cols);
		sGm_.SetGlobalBuffer((__gm__ float *)scale + first, t_.rowsPerCore);
		pipe_.InitBuffer(inQ_, 2, t_.rowsPerLoop * t_.cols * sizeof(half));
		pipe_.InitBuffer(outQ_, 2, t_.rowsPerLoop * t_.cols * sizeof(int8_t));
		pipe_.InitBuffer(fbuf_, t_.rowsPerLoop * t_.cols * sizeof(float));
		pipe_.InitBuffer(hbuf_, t_.rowsPerLoop * t_.cols * sizeof(half));
		pipe_.InitBuffer(rbuf_, 256);
	}

	__aicore__ inline void Process()
	{
		const uint32_t loops = t_.rowsPerCore / t_.rowsPerLoop;
		for (uint32_t i = 0; i < loops; ++i) {
			LocalTensor<half> x = inQ_.AllocTensor<half>();
			DataCopy(x, xGm_[i * t_.rowsPerLoop * t_.cols], t_.rowsPerLoop * t_.cols);
			inQ_.EnQue(x);
	#if 0	// TIMING_PROBE: QUANT_ROW	tab-indented directive, tab before the comment
			constexpr uint32_t kPrintEvery = 1'000;	// a digit separator inside a probe part
			PipeBarrier<PIPE_ALL>();
			uint64_t probeStart = GetSystemCycle();
	#endif
			Quantise(i);
	#if 0	// TIMING_PROBE: QUANT_ROW
			PipeBarrier<PIPE_ALL>();
			uint64_t probeEnd = GetSystemCycle();
			if (GetBlockIdx() == 0 && i % kPrintEvery == 0) {
				printf("[QUANT_ROW] start=%lu end=%lu dur=%lu iter=%u\n", probeStart, probeEnd, probeEnd - probeStart, i);
			}
	#endif
			LocalTensor<int8_t> y = outQ_.DeQue<int8_t>();
			DataCopy(yGm_[i * t_.rowsPerLoop * t_.cols], y, t_.rowsPerLoop * t_.cols);
			outQ_.FreeTensor(y);
		}
	}

private:
	__aicore__ inline void Quantise(uint32_t i)
	{
		LocalTensor<half> x = inQ_.DeQue<half>();
		LocalTensor<int8_t> y = outQ_.AllocTensor<int8_t>();
		LocalTensor<float> f = fbuf_.Get<float>();
		LocalTensor<half> h = hbuf_.Get<half>();
		LocalTensor<float> r = rbuf_.Get<float>();
		Cast(f, x, RoundMode::CAST_NONE, t_.rowsPerLoop * t_.cols);
		for (uint32_t row = 0; row < t_.rowsPerLoop; ++row) {
			LocalTensor<float> fr = f[row * t_.cols];
			Abs(h.ReinterpretCast<float>(), fr, t_.cols);
			ReduceMax(r, h.ReinterpretCast<float>(), r[8], t_.cols, false);
			float amax = r.GetValue(0);
			float s = (amax > kTiny ? amax : kTiny) / kInt8Max;	/* scale = amax / 127 */
			sGm_.SetValue(i * t_.rowsPerLoop + row, s);
			Muls(fr, fr, 1.0f / s, t_.cols);
		}
		Cast(h, f, RoundMode::CAST_ROUND, t_.rowsPerLoop * t_.cols);
		Cast(y, h, RoundMode::CAST_TRUNC, t_.rowsPerLoop * t_.cols);
		outQ_.EnQue(y);
		inQ_.FreeTensor(x);
	}

	QuantTiling t_;
	TPipe pipe_;
	TQue<QuePosition::VECIN, 2> inQ_;
	TQue<QuePosition::VECOUT, 2> outQ_;
	TBuf<TPosition::VECCALC> fbuf_, hbuf_, rbuf_;
	GlobalTensor<half> xGm_;
	GlobalTensor<int8_t> yGm_;
	GlobalTensor<float> sGm_;
};

} // namespace quant

extern "C" __global__ __aicore__ void dynamic_quant(GM_ADDR x, GM_ADDR y, GM_ADDR scale, GM_ADDR ws, GM_ADDR tiling)
{
#if 0	// TIMING_PROBE: T_BASE
	uint64_t probeBase = GetSystemCycle();
	if (GetBlockIdx() == 0) {
		printf("[T_BASE] %lu\n", probeBase);
	}
#endif
	(void)ws;
	GET_TILING_DATA(t, tiling);
	if (t.cols > quant::kMaxCols) {
		return;
	}
	quant::DynamicQuant op;
	op.Init(x, y, scale, t);
	op.Process();
}

#ifndef QUANT_DEVICE
// host side: op registration reads the description above
namespace host {
inline const char *Describe() { return quant::kOpDesc; }
inline const char *Note() { return quant::kDeviceNote; }
inline bool Sane() { return quant::kHash == '#' && quant::kQuote == '"' && quant::kApos == '\'' && quant::kMagic != 0; }
inline const char *Path() { return "C:\\ascend\\include\\#endif\\"; }
} // namespace host
#endif