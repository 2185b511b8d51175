"""y = a * 2 + 1 in two stages whose kernels share a file name."""

import torch
from simpler.task_interface import ArgDirection as D

from simpler_setup import SceneTestCase, TaskArgsBuilder, TensorArg, scene_test

SIZE = 8


@scene_test(level=2, runtime="tensormap_and_ringbuffer")
class TestTwo(SceneTestCase):
    CALLABLE = {
        "orchestration": {
            "source": "kernels/orchestration/two_orch.cpp",
            "function_name": "aicpu_orchestration_entry",
            "signature": [D.IN, D.OUT, D.OUT],
        },
        "incores": [
            {
                "func_id": 0,
                "source": "kernels/prep/entry.cpp",
                "core_type": "aiv",
                "signature": [D.IN, D.OUT],
            },
            {
                "func_id": 1,
                "source": "kernels/main/entry.cpp",
                "core_type": "aiv",
                "signature": [D.IN, D.OUT],
            },
        ],
    }

    CASES = [{"name": "default", "platforms": ["a2a3sim"], "params": {}}]

    def generate_args(self, params):
        return TaskArgsBuilder(
            TensorArg("a", torch.ones(SIZE, dtype=torch.float32)),
            TensorArg("x", torch.zeros(SIZE, dtype=torch.float32)),
            TensorArg("y", torch.zeros(SIZE, dtype=torch.float32))
        )

    def compute_golden(self, args, params):
        args.x[:] = args.a * 2.0
        args.y[:] = args.x + 1.0


if __name__ == "__main__":
    SceneTestCase.run_module(__name__)
