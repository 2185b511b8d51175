"""y = (x * 2 + bias) * 0.5 + bias, in two scaling tasks after a copy."""

import torch
from simpler.task_interface import ArgDirection as D

from simpler_setup import SceneTestCase, TaskArgsBuilder, TensorArg, scene_test

SIZE = 8 * 128


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
                "source": source,
                "core_type": "aiv",
                "signature": [D.IN, D.IN, D.INOUT],
            }
            for func_id, source in enumerate(
                [
                    "kernels/aiv/kernel_copy.cpp",
                    "kernels/aiv/kernel_scale.cpp",
                ]
            )
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
