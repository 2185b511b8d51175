"""Tile addition, and a subclass that compares the outputs its own way."""

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
            "signature": [D.INOUT, D.IN, D.INOUT],  # TIMING_PROBE: @timing-line "            \"signature\": [D.INOUT, D.IN],"
        },
        "incores": [
            {
                "func_id": 0,
                "source": f"{KERNELS_BASE}/aiv/kernel_tile_add.cpp",
                "core_type": "aiv",
                "signature": [D.INOUT, D.IN, D.INOUT],  # TIMING_PROBE: @timing-line "                \"signature\": [D.INOUT, D.IN],"
            },
        ],
    }

    CASES = [{"name": "default", "platforms": ["a2a3sim"], "params": {}}]

    def generate_args(self, params):
        return TaskArgsBuilder(
            TensorArg("acc", torch.zeros(SIZE, dtype=torch.float32)),
            TensorArg("tile", torch.ones(SIZE, dtype=torch.float32)),
            TensorArg("pk_tt_timing", torch.zeros((1) * 8, dtype=torch.int64)),  # TIMING_PROBE: @timing golden timing output (zeros)
        )

    def compute_golden(self, args, params):
        args.acc[:] = args.acc + args.tile
    # TIMING_PROBE: @timing comparator
    def compare_outputs(self, test_args, golden_args, output_names, params):  # TIMING_PROBE: @timing comparator
        import os  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_dir = os.path.dirname(os.path.abspath(__file__))  # TIMING_PROBE: @timing capture the actual timing tensor
        torch.save(test_args.pk_tt_timing.clone(), os.path.join(pk_tt_dir, "pk_tt_timing.pt"))  # TIMING_PROBE: @timing capture the actual timing tensor
        super().compare_outputs(test_args, golden_args, [pk_n for pk_n in output_names if pk_n != "pk_tt_timing"], params)  # TIMING_PROBE: @timing numeric outputs only


@scene_test(level=2, runtime="tensormap_and_ringbuffer")
class TestTileAddChecked(TestTileAdd):
    """The same run, its outputs compared one by one."""

    def compare_outputs(self, test_args, golden_args, output_names, params):
        import os  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_dir = os.path.dirname(os.path.abspath(__file__))  # TIMING_PROBE: @timing capture the actual timing tensor
        torch.save(test_args.pk_tt_timing.clone(), os.path.join(pk_tt_dir, "pk_tt_timing.pt"))  # TIMING_PROBE: @timing capture the actual timing tensor
        output_names = [pk_n for pk_n in output_names if pk_n != "pk_tt_timing"]  # TIMING_PROBE: @timing numeric outputs only
        for name in output_names:
            assert torch.allclose(getattr(test_args, name), getattr(golden_args, name)), name


if __name__ == "__main__":
    SceneTestCase.run_module(__name__)
