"""acc = sum of tiles, arguments added one statement at a time."""

import torch
from simpler.task_interface import ArgDirection as D

from simpler_setup import Scalar, SceneTestCase, TaskArgsBuilder, TensorArg, scene_test

SIZE = 128
LAYERS = 2
SCALES = (0.5, 1.5)


@scene_test(level=2, runtime="host_build_graph")
class TestTileGraphLoops(SceneTestCase):
    CALLABLE = {
        "orchestration": {
            "source": "kernels/orchestration/tile_orch.cpp",
            "function_name": "aicpu_orchestration_entry",
            # acc, then a tile and a bias per layer
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

    CASES = [{"name": "two_layers", "platforms": ["a2a3sim"], "params": {}}]

    def generate_args(self, params):
        del params
        args = []
        args.append(TensorArg("acc", torch.zeros(SIZE, dtype=torch.float32)))
        if LAYERS:
            args.append(TensorArg("tile_0", torch.ones(SIZE, dtype=torch.float32)))
            args.append(TensorArg("bias_0", torch.full((SIZE,), 0.25, dtype=torch.float32)))
        args.append(TensorArg("tile_1", torch.full((SIZE,), 2.0, dtype=torch.float32)))
        args.append(TensorArg("bias_1", torch.full((SIZE,), 0.25, dtype=torch.float32)))  # the last tensor
        args.append(Scalar("scale_0", SCALES[0]))
        args.append(Scalar("scale_1", SCALES[1]))
        return TaskArgsBuilder(*args)

    def compute_golden(self, args, params):
        del params
        for layer in range(LAYERS):
            args.acc[:] += getattr(args, f"tile_{layer}") + getattr(args, f"bias_{layer}")


if __name__ == "__main__":
    SceneTestCase.run_module(__name__)
