"""acc = sum of tiles, each layer's tile and bias added in a replayed graph."""

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
        for layer in range(LAYERS):
            for part in ("tile", "bias"):
                value = float(layer + 1) if part == "tile" else 0.25
                args.append(TensorArg(f"{part}_{layer}", torch.full((SIZE,), value, dtype=torch.float32)))
            args.append(Scalar(f"scale_{layer}", SCALES[layer]))
        return TaskArgsBuilder(*args)

    def compute_golden(self, args, params):
        del params
        for layer in range(LAYERS):
            args.acc[:] += getattr(args, f"tile_{layer}") + getattr(args, f"bias_{layer}")


if __name__ == "__main__":
    SceneTestCase.run_module(__name__)
