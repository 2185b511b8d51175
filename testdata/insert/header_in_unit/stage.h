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
    WaitFlag<HardEvent::MTE2_V>(ev);
#endif
}

#endif
