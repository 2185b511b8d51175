// orchestration of kernel_entry: tensors first, then scalars
#include "orchestration.h"

void build_task(Task &task, Tensor &x, Tensor &y, int32_t n, float alpha, uint64_t seed, bool flag)
{
    task.add_input(x);
    task.add_output(y);
    task.add_output(task.make_timing_tensor(block_dim, 8));  // TIMING_PROBE: @timing output (args[2])
    task.add_scalar(n);
    task.add_scalar(alpha);
    task.add_scalar(seed);
    task.add_scalar(flag);
}
