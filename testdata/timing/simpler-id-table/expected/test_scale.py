"""y = (x * 2 + bias) * 0.5 + bias, in two scaling tasks after a copy."""

import torch
from simpler.task_interface import ArgDirection as D

from simpler_setup import SceneTestCase, TaskArgsBuilder, TensorArg, scene_test

SIZE = 8 * 128

# The incores as a table: (func_id, name, core_type, signature letters);
# each source is kernels/<core_type>/<name>.cpp.
_KERNELS = [
    (0, "kernel_copy", "aiv", "io"),
    (1, "kernel_scale", "aiv", "iix"),
]

_DIRS = {"i": D.IN, "o": D.OUT, "x": D.INOUT}


def _sig(letters):
    return [_DIRS[c] for c in letters]


@scene_test(level=2, runtime="tensormap_and_ringbuffer")
class TestScale(SceneTestCase):
    CALLABLE = {
        "orchestration": {
            "source": "kernels/orchestration/scale_orch.cpp",
            "function_name": "aicpu_orchestration_entry",
            "signature": [D.IN, D.IN, D.INOUT, D.INOUT],  # TIMING_PROBE: @timing-line "            \"signature\": [D.IN, D.IN, D.INOUT],"
        },
        "incores": [
            {
                "func_id": func_id,
                "name": name,
                "source": f"kernels/{core_type}/{name}.cpp",
                "core_type": core_type,
                "signature": _sig(sig),
            }
            for func_id, name, core_type, sig in _KERNELS
        ],
    }

    CASES = [{"name": "default", "platforms": ["a2a3sim"], "params": {}}]

    def generate_args(self, params):
        return TaskArgsBuilder(
            TensorArg("x", torch.arange(SIZE, dtype=torch.float32)),
            TensorArg("bias", torch.ones(SIZE, dtype=torch.float32)),
            TensorArg("y", torch.zeros(SIZE, dtype=torch.float32)),  # TIMING_PROBE: @timing-line "            TensorArg(\"y\", torch.zeros(SIZE, dtype=torch.float32))"
            TensorArg("pk_tt_timing", torch.zeros((8) * 8, dtype=torch.int64)),  # TIMING_PROBE: @timing golden timing output (zeros)
        )

    def compute_golden(self, args, params):
        args.y[:] = (args.x * 2.0 + args.bias) * 0.5 + args.bias
    # TIMING_PROBE: @timing comparator
    def compare_outputs(self, test_args, golden_args, output_names, params):  # TIMING_PROBE: @timing comparator
        import os, re, struct  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_case = next((pk_tt_item.get("name") for pk_tt_item in getattr(self, "CASES", ()) if pk_tt_item.get("params") is params), None)  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_words = [int(pk_tt_item) for pk_tt_item in test_args.pk_tt_timing.reshape(-1).tolist()]  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_header = "{'descr': '<i8', 'fortran_order': False, 'shape': (%d, 8), }" % (len(pk_tt_words) // 8)  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_header += " " * (63 - (10 + len(pk_tt_header)) % 64) + "\n"  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_path = "kernels/aiv/kernel_scale.cpp" + ".timing" + ("" if pk_tt_case is None else "." + re.sub(r"[^A-Za-z0-9_-]", "_", str(pk_tt_case))) + ".npy"  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), pk_tt_path)  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_header = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(pk_tt_header)) + pk_tt_header.encode("latin1")  # TIMING_PROBE: @timing capture the actual timing tensor
        with open(pk_tt_path, "wb") as pk_tt_file: pk_tt_file.write(pk_tt_header + struct.pack("<%dq" % len(pk_tt_words), *pk_tt_words))  # TIMING_PROBE: @timing capture the actual timing tensor
        super().compare_outputs(test_args, golden_args, [pk_n for pk_n in output_names if pk_n != "pk_tt_timing"], params)  # TIMING_PROBE: @timing numeric outputs only


if __name__ == "__main__":
    SceneTestCase.run_module(__name__)
