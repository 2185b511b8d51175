// stages.h - the kernel's phases, in a header the timing build may edit.
#pragma once
#include "kernel_api.h"

template <typename T>
__aicore__ inline void Exchange(int32_t flag/* TIMING_PROBE: @timing-was "" */, uint64_t *pk_tt_ev = nullptr/* TIMING_PROBE: @timing-end */)
{
    if (pk_tt_ev) pk_tt_ev[1] = static_cast<uint64_t>(AscendC::GetSystemCycle());  // TIMING_PROBE: @timing event collective_arrival (arrival)
    CrossCoreSetFlag(flag);
    CrossCoreWaitFlag(flag);
    if (pk_tt_ev) pk_tt_ev[2] = static_cast<uint64_t>(AscendC::GetSystemCycle());  // TIMING_PROBE: @timing event collective_release (release)
}

__aicore__ inline void Stage(__gm__ float *xs, __gm__ float *ys, int32_t n/* TIMING_PROBE: @timing-was "" */, uint64_t *pk_tt_ev = nullptr/* TIMING_PROBE: @timing-end */)
{
    Produce(xs, n);
    if (pk_tt_ev) pk_tt_ev[0] = static_cast<uint64_t>(AscendC::GetSystemCycle());  // TIMING_PROBE: @timing event producer_done (phase)
    Exchange<float>(1/* TIMING_PROBE: @timing-was "" */, pk_tt_ev/* TIMING_PROBE: @timing-end */);
    Consume(ys, n);
}

__aicore__ inline void Drain(int32_t n/* TIMING_PROBE: @timing-was "" */, uint64_t *pk_tt_ev = nullptr/* TIMING_PROBE: @timing-end */)
{
    if (n > 0)
    {  // TIMING_PROBE: @timing brace
        pipe_barrier(PIPE_ALL);
        if (pk_tt_ev) pk_tt_ev[3] = static_cast<uint64_t>(AscendC::GetSystemCycle());  // TIMING_PROBE: @timing event drained (drain)
    }  // TIMING_PROBE: @timing brace
}
