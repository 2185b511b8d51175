"""The mixed task of kernels/lanes/lanes_other_orch.cpp in the shape of a simpler
scene test: its incores say which source each func_id builds, which is how
probe-inject --timing-tensor finds the other lane's kernel (lanes_vec.cpp) whose
scalar read shifts with the instrumented one's. The build edits a copy of it;
the run itself is the C++ harness (lanes_harness.cpp) on the simulation."""

import torch
from simpler.task_interface import ArgDirection as D

from simpler_setup import SceneTestCase, TaskArgsBuilder, TensorArg, scene_test

BLOCKS = 2
LEN = 16


@scene_test(level=2, runtime="tensormap_and_ringbuffer")
class TestLanesOther(SceneTestCase):
    CALLABLE = {
        "orchestration": {
            "source": "lanes_other_orch.cpp",
            "function_name": "aicpu_orchestration_entry",
            "signature": [D.IN, D.OUT],
        },
        "incores": [
            {
                "func_id": 0,
                "source": "lanes_cube.cpp",
                "core_type": "aic",
                "signature": [D.IN, D.OUT],
            },
            {
                "func_id": 1,
                "source": "lanes_vec.cpp",
                "core_type": "aiv",
                "signature": [D.IN, D.OUT],
            },
        ],
    }

    CASES = [{"name": "default", "platforms": ["a2a3sim"], "params": {}}]

    def generate_args(self, params):
        return TaskArgsBuilder(
            TensorArg("x", torch.arange(BLOCKS * LEN, dtype=torch.float32) % LEN + 1),
            TensorArg("y", torch.zeros(BLOCKS * 3, dtype=torch.float32)),
        )

    def compute_golden(self, args, params):
        x = args.x.reshape(BLOCKS, LEN)
        for b in range(BLOCKS):
            args.y[b] = x[b, : LEN // 2].sum()
            for s in range(2):
                q = LEN // 2 + s * LEN // 4
                args.y[BLOCKS + b * 2 + s] = x[b, q : q + LEN // 4].sum()


if __name__ == "__main__":
    SceneTestCase.run_module(__name__)
