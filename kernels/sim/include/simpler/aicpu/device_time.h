// simpler/aicpu/device_time.h - the simpler runtime's platform clock on the
// probekit CPU simulation. The runtime's own header (src/common/platform/
// include/aicpu/device_time.h) is on a kernel's include path in its CPU
// simulation, which declares no get_sys_cnt(): a kernel built with -D__CPU_SIM
// reads the counter with sys_cnt_now_ticks() (device ticks, 50 MHz on a2a3).
// Here it is the simulated block's cycle counter, the very one
// AscendC::GetSystemCycle() and, without __CPU_SIM, get_sys_cnt() read.
#ifndef PKSIMPLER_AICPU_DEVICE_TIME_H
#define PKSIMPLER_AICPU_DEVICE_TIME_H

#include <cstdint>

#include "pksim/device.h"

inline uint64_t sys_cnt_now_ticks() { return static_cast<uint64_t>(pksim::SystemCycle()); }

#endif
