// orchestration of kernel_entry: the accumulator is read and written, so it
// goes in with add_inout, the last of the tensors
#include "orchestration.h"

void build_accumulate(Task &task, Tensor &x, Tensor &y, Tensor &acc, int32_t n)
{
    task.add_input(x);
    task.add_output(y);
    task.add_inout(acc);
    task.add_output(task.make_timing_tensor(block_dim, 8));  // TIMING_PROBE: @timing output (args[3])
    task.add_scalar(n);
}
