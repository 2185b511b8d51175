"""fill: one AIC task writes 42.0 at the start of every slot, for two slot counts."""

import torch
from simpler.task_interface import ArgDirection as D

from simpler_setup import SceneTestCase, TaskArgsBuilder, TensorArg, scene_test


@scene_test(level=2, runtime="tensormap_and_ringbuffer")
class TestFill(SceneTestCase):
    CALLABLE = {
        "orchestration": {
            "source": "kernels/orchestration/fill_orch.cpp",
            "function_name": "aicpu_orchestration_entry",
            "signature": [D.INOUT],
        },
        "incores": [
            {
                "func_id": 0,
                "name": "FILL",
                "source": "kernels/aic/kernel_fill.cpp",
                "core_type": "aic",
                "signature": [D.INOUT],
            },
        ],
    }

    CASES = [
        {
            "name": "Slots16",
            "platforms": ["a2a3sim"],
            "params": {"slots": 16},
        },
        {
            "name": "Slots 64 (wide)",
            "platforms": ["a2a3sim"],
            "params": {"slots": 64},
        },
    ]

    def generate_args(self, params):
        slots = int(params["slots"])
        return TaskArgsBuilder(
            TensorArg("out", torch.full((slots * 16,), -1.0, dtype=torch.float32))
        )

    def compute_golden(self, args, params):
        for s in range(int(params["slots"])):
            args.out[s * 16] = 42.0


if __name__ == "__main__":
    SceneTestCase.run_module(__name__)
