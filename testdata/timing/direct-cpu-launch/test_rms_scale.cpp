// test_rms_scale.cpp - the kernel's CPU debug test: each case allocates its
// buffers and launches the kernel with ICPU_RUN_KF.
#include "cpu_debug.h"

extern "C" __global__ __aicore__ void rms_scale(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR workspace,
                                                GM_ADDR tiling);

TEST_F(rms_scale_test, small)
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(256);
    uint8_t *gamma = (uint8_t *)AscendC::GmAlloc(256);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(256);
    uint8_t *workspace = (uint8_t *)AscendC::GmAlloc(1024);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(32);
    ICPU_RUN_KF(rms_scale, 8, x, gamma, y, workspace, tiling);
    AscendC::GmFree(x);
}

TEST_F(rms_scale_test, large)
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(65536);
    uint8_t *gamma = (uint8_t *)AscendC::GmAlloc(65536);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(65536);
    uint8_t *workspace = (uint8_t *)AscendC::GmAlloc(1024);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(32);
    // ICPU_RUN_KF(rms_scale, 1, x, gamma, y, workspace, tiling);  a commented launch stays as it is
    ICPU_RUN_KF(rms_scale, 48, x, gamma, y, workspace, tiling);
    AscendC::GmFree(x);
}
