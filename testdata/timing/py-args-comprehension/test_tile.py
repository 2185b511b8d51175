"""Tile addition, run by two scene tests on different orchestrations."""

import torch
from simpler.task_interface import ArgDirection as D

from simpler_setup import SceneTestCase, TaskArgsBuilder, TensorArg, scene_test

KERNELS_BASE = "kernels"
ORCH_DIR = f"{KERNELS_BASE}/orchestration"
SIZE = 128


@scene_test(level=2, runtime="tensormap_and_ringbuffer")
class TestTileAdd(SceneTestCase):
    CALLABLE = {
        "orchestration": {
            "source": f"{ORCH_DIR}/tile_orch.cpp",
            "function_name": "aicpu_orchestration_entry",
            "signature": [D.INOUT, D.IN],
        },
        "incores": [
            {
                "func_id": 0,
                "source": f"{KERNELS_BASE}/aiv/kernel_tile_add.cpp",
                "core_type": "aiv",
                "signature": [D.INOUT, D.IN],
            },
        ],
    }

    CASES = [{"name": "default", "platforms": ["a2a3sim"], "params": {}}]

    def generate_args(self, params):
        return TaskArgsBuilder(
            *[TensorArg(n, f(SIZE, dtype=torch.float32)) for n, f in (("acc", torch.zeros), ("tile", torch.ones))]
        )

    def compute_golden(self, args, params):
        args.acc[:] = args.acc + args.tile


if __name__ == "__main__":
    SceneTestCase.run_module(__name__)
