// test_rms_scale.cpp - the kernel's CPU debug test: each case allocates its
// buffers and launches the kernel with ICPU_RUN_KF.
#include "cpu_debug.h"

extern "C" __global__ __aicore__ void rms_scale(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, /* TIMING_PROBE: @timing-was "" */GM_ADDR pk_tt_timing, /* TIMING_PROBE: @timing-end */GM_ADDR workspace,
                                                GM_ADDR tiling);

TEST_F(rms_scale_test, small)
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(256);
    uint8_t *gamma = (uint8_t *)AscendC::GmAlloc(256);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(256);
    uint8_t *workspace = (uint8_t *)AscendC::GmAlloc(1024);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(32);
    uint8_t *pk_tt_timing = reinterpret_cast<uint8_t *>(AscendC::GmAlloc(static_cast<size_t>(48) * 64));  // TIMING_PROBE: @timing launch buffer
    memset(pk_tt_timing, 0, static_cast<size_t>(48) * 64);  // TIMING_PROBE: @timing launch buffer
    ICPU_RUN_KF(rms_scale, 8, x, gamma, y, /* TIMING_PROBE: @timing-was "" */pk_tt_timing, /* TIMING_PROBE: @timing-end */workspace, tiling);
    AscendC::GmFree(x);
}

TEST_F(rms_scale_test, large)
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(65536);
    uint8_t *gamma = (uint8_t *)AscendC::GmAlloc(65536);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(65536);
    uint8_t *workspace = (uint8_t *)AscendC::GmAlloc(1024);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(32);
    uint8_t *pk_tt_timing = reinterpret_cast<uint8_t *>(AscendC::GmAlloc(static_cast<size_t>(48) * 64));  // TIMING_PROBE: @timing launch buffer
    memset(pk_tt_timing, 0, static_cast<size_t>(48) * 64);  // TIMING_PROBE: @timing launch buffer
    // ICPU_RUN_KF(rms_scale, 1, x, gamma, y, workspace, tiling);  a commented launch stays as it is
    ICPU_RUN_KF(rms_scale, 48, x, gamma, y, /* TIMING_PROBE: @timing-was "" */pk_tt_timing, /* TIMING_PROBE: @timing-end */workspace, tiling);
    AscendC::GmFree(x);
}
