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
            "signature": [D.INOUT, D.IN, D.IN, D.IN, D.IN, D.INOUT],  # TIMING_PROBE: @timing-line "            \"signature\": [D.INOUT, D.IN, D.IN, D.IN, D.IN],"
        },
        "incores": [
            {
                "func_id": 0,
                "source": "kernels/aiv/kernel_tile_add.cpp",
                "core_type": "aiv",
                "signature": [D.INOUT, D.IN, D.IN, D.INOUT],  # TIMING_PROBE: @timing-line "                \"signature\": [D.INOUT, D.IN, D.IN],"
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
        args.insert(max((i + 1 for i, a in enumerate(args) if isinstance(a, TensorArg)), default=0), TensorArg("pk_tt_timing", torch.zeros((10) * 8, dtype=torch.int64)))  # TIMING_PROBE: @timing golden timing output (zeros)
        return TaskArgsBuilder(*args)

    def compute_golden(self, args, params):
        del params
        for layer in range(LAYERS):
            args.acc[:] += getattr(args, f"tile_{layer}") + getattr(args, f"bias_{layer}")
    # TIMING_PROBE: @timing comparator
    def compare_outputs(self, test_args, golden_args, output_names, params):  # TIMING_PROBE: @timing comparator
        import os, re, struct  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_case = next((pk_tt_item.get("name") for pk_tt_item in getattr(self, "CASES", ()) if pk_tt_item.get("params") is params), None)  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_words = [int(pk_tt_item) for pk_tt_item in test_args.pk_tt_timing.reshape(-1).tolist()]  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_header = "{'descr': '<i8', 'fortran_order': False, 'shape': (%d, 8), }" % (len(pk_tt_words) // 8)  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_header += " " * (63 - (10 + len(pk_tt_header)) % 64) + "\n"  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_path = "kernels/aiv/kernel_tile_add.cpp" + ".timing" + ("" if pk_tt_case is None else "." + re.sub(r"[^A-Za-z0-9_-]", "_", str(pk_tt_case))) + ".npy"  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), pk_tt_path)  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_header = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(pk_tt_header)) + pk_tt_header.encode("latin1")  # TIMING_PROBE: @timing capture the actual timing tensor
        with open(pk_tt_path, "wb") as pk_tt_file: pk_tt_file.write(pk_tt_header + struct.pack("<%dq" % len(pk_tt_words), *pk_tt_words))  # TIMING_PROBE: @timing capture the actual timing tensor
        super().compare_outputs(test_args, golden_args, [pk_n for pk_n in output_names if pk_n != "pk_tt_timing"], params)  # TIMING_PROBE: @timing numeric outputs only


if __name__ == "__main__":
    SceneTestCase.run_module(__name__)
