/* Parse stub: the simpler runtime's simulated system counter, which a kernel
 * built for the CPU simulation reads instead of the device's get_sys_cnt().
 * probekit's parse finds this file only when the kernel's own include path
 * has none; a build uses the platform's header. */
#pragma once
#include <stdint.h>
uint64_t sys_cnt_now_ticks();
