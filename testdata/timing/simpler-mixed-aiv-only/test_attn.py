"""Scaled scores of q and k, one mixed task whose cube and vector lanes are two kernels."""

import torch
from simpler.task_interface import ArgDirection as D

from simpler_setup import SceneTestCase, TaskArgsBuilder, TensorArg, scene_test

ROWS = 8
LEN = 64


@scene_test(level=2, runtime="tensormap_and_ringbuffer")
class TestAttn(SceneTestCase):
    CALLABLE = {
        "orchestration": {
            "source": "kernels/orchestration/attn_orch.cpp",
            "function_name": "aicpu_orchestration_entry",
            "signature": [D.IN, D.IN, D.OUT],
        },
        "incores": [
            {
                "func_id": 0,
                "source": "kernels/aic/kernel_qk.cpp",
                "core_type": "aic",
                "signature": [D.IN, D.IN, D.OUT],
            },
            {
                "func_id": 1,
                "source": "kernels/aiv/kernel_scale_rows.cpp",
                "core_type": "aiv",
                "signature": [D.IN, D.IN, D.OUT],
            },
        ],
    }

    CASES = [{"name": "default", "platforms": ["a2a3sim"], "params": {}}]

    def generate_args(self, params):
        return TaskArgsBuilder(
            TensorArg("q", torch.ones(ROWS * LEN, dtype=torch.float32)),
            TensorArg("k", torch.ones(LEN, dtype=torch.float32)),
            TensorArg("s", torch.zeros(ROWS, dtype=torch.float32))
        )

    def compute_golden(self, args, params):
        args.s[:] = 1.0


if __name__ == "__main__":
    SceneTestCase.run_module(__name__)
