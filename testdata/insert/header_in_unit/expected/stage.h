// stage.h - the copy-in stage, included by add_kernel.cpp after the SDK
// header and the build's tiling type; it has no includes of its own.
#ifndef STAGE_H
#define STAGE_H

__aicore__ inline void CopyIn(AddTiling &t, GlobalTensor<half> &src, LocalTensor<half> &dst)
{
    DataCopy(dst, src, t.tileLength);
#ifdef ADD_DOUBLE_BUFFER
    event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(ev);
#if 1  // TIMING_PROBE: COPY_WAIT
    // wait probe, same-core event, no barrier: start = the wait is reached (the awaited pipe may still be busy), end = the wait returned
    uint64_t probeStart_COPY_WAIT = AscendC::GetSystemCycle();
#endif
    WaitFlag<HardEvent::MTE2_V>(ev);
#if 1  // TIMING_PROBE: COPY_WAIT
    uint64_t probeEnd_COPY_WAIT = AscendC::GetSystemCycle();
    if (AscendC::GetBlockIdx() == 0) {
        AscendC::printf("[COPY_WAIT] start=%lu end=%lu dur=%lu\n", probeStart_COPY_WAIT, probeEnd_COPY_WAIT, probeEnd_COPY_WAIT - probeStart_COPY_WAIT);
    }
#endif
#endif
}

#endif
