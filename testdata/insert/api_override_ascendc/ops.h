// Helpers this kernel shares with Ascend C operators: it brings the Ascend C API.
#pragma once
#include "kernel_operator.h"
