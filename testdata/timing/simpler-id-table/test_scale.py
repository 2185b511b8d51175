"""y = (x * 2 + bias) * 0.5 + bias, in two scaling tasks after a copy."""

import torch
from simpler.task_interface import ArgDirection as D

from simpler_setup import SceneTestCase, TaskArgsBuilder, TensorArg, scene_test

SIZE = 8 * 128

# The incores as a table: (func_id, name, core_type, signature letters);
# each source is kernels/<core_type>/<name>.cpp.
_KERNELS = [
    (0, "kernel_copy", "aiv", "io"),
    (1, "kernel_scale", "aiv", "iix"),
]

_DIRS = {"i": D.IN, "o": D.OUT, "x": D.INOUT}


def _sig(letters):
    return [_DIRS[c] for c in letters]


@scene_test(level=2, runtime="tensormap_and_ringbuffer")
class TestScale(SceneTestCase):
    CALLABLE = {
        "orchestration": {
            "source": "kernels/orchestration/scale_orch.cpp",
            "function_name": "aicpu_orchestration_entry",
            "signature": [D.IN, D.IN, D.INOUT],
        },
        "incores": [
            {
                "func_id": func_id,
                "name": name,
                "source": f"kernels/{core_type}/{name}.cpp",
                "core_type": core_type,
                "signature": _sig(sig),
            }
            for func_id, name, core_type, sig in _KERNELS
        ],
    }

    CASES = [{"name": "default", "platforms": ["a2a3sim"], "params": {}}]

    def generate_args(self, params):
        return TaskArgsBuilder(
            TensorArg("x", torch.arange(SIZE, dtype=torch.float32)),
            TensorArg("bias", torch.ones(SIZE, dtype=torch.float32)),
            TensorArg("y", torch.zeros(SIZE, dtype=torch.float32))
        )

    def compute_golden(self, args, params):
        args.y[:] = (args.x * 2.0 + args.bias) * 0.5 + args.bias


if __name__ == "__main__":
    SceneTestCase.run_module(__name__)
