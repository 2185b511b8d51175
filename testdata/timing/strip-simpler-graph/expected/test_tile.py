"""acc = sum of tiles, through a graph of two tile additions replayed per layer."""

import torch
from simpler.task_interface import ArgDirection as D

from simpler_setup import SceneTestCase, TaskArgsBuilder, TensorArg, scene_test

SIZE = 128


@scene_test(level=2, runtime="host_build_graph")
class TestTileGraph(SceneTestCase):
    CALLABLE = {
        "orchestration": {
            "source": "kernels/orchestration/tile_orch.cpp",
            "function_name": "aicpu_orchestration_entry",
            "signature": [D.INOUT, D.IN, D.IN, D.IN, D.IN],
        },
        "incores": [
            {
                "func_id": 0,
                "source": "kernels/aiv/kernel_tile_add.cpp",
                "core_type": "aiv",
                "signature": [D.INOUT, D.IN, D.IN],
            },
        ],
    }

    CASES = [{"name": "three_layers", "platforms": ["a2a3sim"], "params": {}}]

    def generate_args(self, params):
        return TaskArgsBuilder(
            TensorArg("acc", torch.zeros(SIZE, dtype=torch.float32)),
            TensorArg("tile_0", torch.ones(SIZE, dtype=torch.float32)),
            TensorArg("tile_1", torch.full((SIZE,), 2.0, dtype=torch.float32)),
            TensorArg("tile_2", torch.full((SIZE,), 3.0, dtype=torch.float32)),
            TensorArg("bias", torch.full((SIZE,), 0.25, dtype=torch.float32)),
        )

    def compute_golden(self, args, params):
        b = args.bias
        args.acc[:] = (args.tile_0 + b) * (1.0 + 0.5 + 0.5) + (args.tile_1 + b) * (1.0 + 1.0) + (args.tile_2 + b) * (1.5 + 1.5)


if __name__ == "__main__":
    SceneTestCase.run_module(__name__)
