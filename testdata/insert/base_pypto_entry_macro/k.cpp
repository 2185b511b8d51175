#include "kernel_operator.h"

#define AICORE __aicore__

AICORE inline void helper(__gm__ int64_t *args) { (void)args; }

extern "C" AICORE void kernel_entry(__gm__ int64_t *args)
{
    helper(args);
}
