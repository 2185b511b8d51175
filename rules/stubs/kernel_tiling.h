/* kernel_tiling.h - probekit's parse stub: see kernel_tiling/kernel_tiling.h. */
#include "kernel_tiling/kernel_tiling.h"
