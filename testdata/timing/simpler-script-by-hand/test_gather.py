"""out = table[idx], the arguments built by a helper the class does not hold."""

import torch
from simpler.task_interface import ArgDirection as D

from simpler_setup import SceneTestCase, scene_test

from gather_args import build_gather_args

ROWS, WIDTH = 16, 64


@scene_test(level=2, runtime="tensormap_and_ringbuffer")
class TestGather(SceneTestCase):
    CALLABLE = {
        "orchestration": {
            "source": "kernels/orchestration/gather_orch.cpp",
            "function_name": "aicpu_orchestration_entry",
            "signature": [D.IN, D.IN, D.INOUT],
        },
        "incores": [
            {
                "func_id": 0,
                "source": "kernels/aiv/kernel_gather.cpp",
                "core_type": "aiv",
                "signature": [D.IN, D.IN, D.INOUT],
            },
        ],
    }

    CASES = [{"name": "default", "platforms": ["a2a3sim"], "params": {}}]

    def generate_args(self, params):
        return build_gather_args(ROWS, WIDTH)

    def compute_golden(self, args, params):
        args.out[:] = args.table.view(-1, WIDTH)[args.idx.long()].reshape(-1)


if __name__ == "__main__":
    SceneTestCase.run_module(__name__)
