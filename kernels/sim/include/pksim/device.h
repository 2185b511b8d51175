// pksim/device.h - what the simulated device API (kernel_operator.h,
// pto/pto-inst.hpp) needs from the simulation runtime (sim/sim.cpp). Only the
// simulation's own headers include this; kernels include kernel_operator.h.
//
// Deliberately free of <cstdio>/<string>: the kernel's unqualified printf must
// resolve to AscendC::printf (the asynchronous device path), see
// kernel_operator.h.
#ifndef PKSIM_DEVICE_H
#define PKSIM_DEVICE_H

#include <cstddef>
#include <cstdint>

namespace pksim {

// What the simulated chip is: it decides the UB size, the TSORT32 tmp rule
// and the default GetSystemCycle() frequency (50 MHz on A2/A3, 1 GHz on A5).
enum class Target { A2A3, A5 };

Target CurrentTarget();
const char *TargetName(Target t);
size_t UbBytes();

// Thrown out of kernel code when the simulation rejects an operation; the
// launch catches it, marks itself failed and releases blocked blocks.
struct KernelAbort {};

// Print "pksim: block N: MSG" on stderr and abort the current block's launch.
[[noreturn]] void Fail(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

// The current block (thread) and its unified buffer.
uint32_t BlockIdx();
uint32_t BlockNum();
uint8_t *UbBase();

// The block's cycle counter at the configured frequency: the launch's start
// time plus the block's own thread CPU time, caught up at every collective
// release to the latest set / arrival it waited for.
int64_t SystemCycle();

// Device printf: formatted now, delivered later by the printer thread.
void DevicePrintf(const char *fmt, ...);

// Intra-core pipe flags (set_flag / wait_flag): checked for pairing.
void PipeFlagSet(int src, int dst, int event);
void PipeFlagWait(int src, int dst, int event);

// Cross-core flags: a wait really blocks until every block has set the flag.
void CrossCoreSet(int mode, int flag);
void CrossCoreWait(int mode, int flag);
void SyncAllBlocks();

// COUNT NaN values went through a sort by INSTR: the first time in a block's
// launch, a warning on stderr (NaN order is the simulation's choice).
void NoteNanSorted(const char *instr, long count);

// VBS32 issue statistics, for tests of the repeat-group split (255 blocks an issue).
void NoteVbs32(unsigned repeat);
struct Vbs32Stats {
	unsigned long issues;
	unsigned max_repeat;
};
Vbs32Stats TakeVbs32Stats(); // returns and resets (process-wide)

} // namespace pksim

#endif
