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
            "signature": [D.IN, D.IN, D.OUT, D.INOUT],  # TIMING_PROBE: @timing-line "            \"signature\": [D.IN, D.IN, D.OUT],"
        },
        "incores": [
            {
                "func_id": 0,
                "source": "kernels/aic/kernel_qk.cpp",
                "core_type": "aic",
                "signature": [D.IN, D.IN, D.OUT, D.INOUT],  # TIMING_PROBE: @timing-line "                \"signature\": [D.IN, D.IN, D.OUT],"
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
            TensorArg("s", torch.zeros(ROWS, dtype=torch.float32)),  # TIMING_PROBE: @timing-line "            TensorArg(\"s\", torch.zeros(ROWS, dtype=torch.float32))"
            TensorArg("pk_tt_timing", torch.zeros((8) * 8, dtype=torch.int64)),  # TIMING_PROBE: @timing golden timing output (zeros)
        )

    def compute_golden(self, args, params):
        args.s[:] = 1.0
    # TIMING_PROBE: @timing comparator
    def compare_outputs(self, test_args, golden_args, output_names, params):  # TIMING_PROBE: @timing comparator
        import os, re, struct  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_case = next((pk_tt_item.get("name") for pk_tt_item in getattr(self, "CASES", ()) if pk_tt_item.get("params") is params), None)  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_words = [int(pk_tt_item) for pk_tt_item in test_args.pk_tt_timing.reshape(-1).tolist()]  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_header = "{'descr': '<i8', 'fortran_order': False, 'shape': (%d, 8), }" % (len(pk_tt_words) // 8)  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_header += " " * (63 - (10 + len(pk_tt_header)) % 64) + "\n"  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_path = "kernels/aic/kernel_qk.cpp" + ".timing" + ("" if pk_tt_case is None else "." + re.sub(r"[^A-Za-z0-9_-]", "_", str(pk_tt_case))) + ".npy"  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), pk_tt_path)  # TIMING_PROBE: @timing capture the actual timing tensor
        pk_tt_header = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(pk_tt_header)) + pk_tt_header.encode("latin1")  # TIMING_PROBE: @timing capture the actual timing tensor
        with open(pk_tt_path, "wb") as pk_tt_file: pk_tt_file.write(pk_tt_header + struct.pack("<%dq" % len(pk_tt_words), *pk_tt_words))  # TIMING_PROBE: @timing capture the actual timing tensor
        super().compare_outputs(test_args, golden_args, [pk_n for pk_n in output_names if pk_n != "pk_tt_timing"], params)  # TIMING_PROBE: @timing numeric outputs only


if __name__ == "__main__":
    SceneTestCase.run_module(__name__)
