#!/usr/bin/env bash
# timing_capture.sh BIN_DIR SRC_DIR - the capture probe-inject writes into a
# simpler test script saves what probe-report reads with no option: the
# golden case simpler-two-cases is instrumented, its comparator run once per
# case (the runtime's Python stood in for by small modules: a tensor with
# reshape/tolist, the harness's base class), and each case must leave its own
# KERNEL.timing.CASE.npy beside the kernel: NumPy version 1.0, '<i8', shape
# (rows, 8), the words as the tensor held them; probe-report --timing FILE
# then finds the event map beside it and reads every row.
set -euo pipefail
bin=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
py=${PYTHON3:-python3}
command -v "$py" >/dev/null || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case_dir=$src/testdata/timing/simpler-two-cases
cp -r "$case_dir"/kernels "$case_dir"/test_fill.py "$tmp"/
cd "$tmp"
# the golden's command line, run here
eval "$bin/$(cat "$case_dir/args")" 2>/dev/null
mkdir -p stubs/simpler
cat > stubs/torch.py <<'PY'
# A stand-in for the few torch calls the test script makes.
float32, int64 = "float32", "int64"


class Tensor:
    def __init__(self, words):
        self.words = list(words)

    def reshape(self, *shape):
        return self

    def tolist(self):
        return list(self.words)


def zeros(n, dtype=None):
    return Tensor([0] * n)


def full(shape, value, dtype=None):
    return Tensor([value] * shape[0])
PY
cat > stubs/simpler/__init__.py <<'PY'
PY
cat > stubs/simpler/task_interface.py <<'PY'
class ArgDirection:
    IN, OUT, INOUT = "IN", "OUT", "INOUT"
PY
cat > stubs/simpler_setup.py <<'PY'
# The harness's base class: its comparator records what it was asked to compare.
compared = []


class SceneTestCase:
    def compare_outputs(self, test_args, golden_args, output_names, params):
        compared.append(list(output_names))

    @staticmethod
    def run_module(name):
        pass


def scene_test(**kw):
    return lambda cls: cls


def TaskArgsBuilder(*args):
    return args


def TensorArg(name, value):
    return (name, value)
PY
cat > run.py <<'PY'
# Run the instrumented comparator once per case, as the harness does: the
# case's own params object, the ACTUAL tensor on the test arguments.
import importlib.util
import sys
import types

sys.path.insert(0, "stubs")
import simpler_setup
import torch

spec = importlib.util.spec_from_file_location("test_fill", "test_fill.py")
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
MAGIC = 0x54494D4500000000
for n, case in enumerate(mod.TestFill.CASES):
    # one row: entry, body_done, task token, block, lane (AIC: 0), magic + slot
    row = [1000 + n, 1500 + n, 0, 0, 0, 0, 0, MAGIC]
    args = types.SimpleNamespace(pk_tt_timing=torch.Tensor(row), out=torch.Tensor([0]))
    mod.TestFill().compare_outputs(args, None, ["out", "pk_tt_timing"], case["params"])
assert simpler_setup.compared == [["out"], ["out"]], simpler_setup.compared
PY
"$py" run.py
fail=0
check() { # FILE WORD0: a NumPy 1.0 file of int64 words shaped (1, 8), entry WORD0
  "$py" - "$1" "$2" <<'PY' || fail=1
import ast, struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x93NUMPY\x01\x00", data[:8]
hlen = struct.unpack("<H", data[8:10])[0]
assert (10 + hlen) % 64 == 0, hlen
head = ast.literal_eval(data[10:10 + hlen].decode("latin1"))
assert head == {"descr": "<i8", "fortran_order": False, "shape": (1, 8)}, head
words = struct.unpack("<8q", data[10 + hlen:])
assert words[0] == int(sys.argv[2]) and words[7] == 0x54494D4500000000, words
PY
}
for f in kernels/aic/kernel_fill.cpp.timing.Slots16.npy kernels/aic/kernel_fill.cpp.timing.Slots_64__wide_.npy; do
  [ -f "$f" ] || { echo "FAIL: no $f (got: $(ls kernels/aic))"; fail=1; continue; }
done
[ "$fail" = 0 ] || exit 1
check kernels/aic/kernel_fill.cpp.timing.Slots16.npy 1000
check kernels/aic/kernel_fill.cpp.timing.Slots_64__wide_.npy 1001
# probe-report with the capture alone: the map is found beside it
out=$("$bin/probe-report" --timing kernels/aic/kernel_fill.cpp.timing.Slots16.npy 2>&1) || {
  echo "FAIL: probe-report exit $?:"; echo "$out"; exit 1; }
case $out in
  *"kernel_fill.cpp.timing.json"*) ;;
  *) echo "FAIL: probe-report did not name the event map beside the capture:"; echo "$out"; fail=1 ;;
esac
[ "$fail" = 0 ] && echo "ok: two cases, two captures, each read by probe-report"
exit $fail
