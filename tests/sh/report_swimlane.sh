#!/usr/bin/env bash
# report_swimlane.sh - probe-report's merge of a timing capture with the chip
# swimlane (docs/report.md "One timeline with the chip swimlane"): the Perfetto
# trace is checked against the Chrome trace-event format by a JSON schema, and
# every phase span must lie inside a task bar on the same core track, with its
# cycles inside the task's. The checker must reject a trace with a phase moved
# out of its bar, so it cannot pass by accident. The swimlane is also found in
# the test's outputs/ folder, and two candidates there are refused by a note.
# usage: report_swimlane.sh BIN_DIR SRC_DIR
set -u
bin=$1 src=$2
report=$bin/probe-report
case_dir=$src/testdata/report/tensor-swimlane-merge
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$report" ] || fail "no $report"
python3 -c 'import jsonschema' 2>/dev/null || fail "python3-jsonschema is not installed (scripts/setup.sh)"
work=$(mktemp -d "${TMPDIR:-/tmp}/pk-report-swimlane.XXXXXX")
trap 'rm -rf "$work"' EXIT

cat > "$work/check.py" <<'PY'
import json, sys, jsonschema
num = {"type": "number"}
event = {
    "type": "object",
    "required": ["name", "ph", "pid"],
    "properties": {
        "name": {"type": "string"}, "cat": {"type": "string"},
        "ph": {"enum": ["X", "M", "B", "E", "i", "I", "C"]},
        "pid": {"type": "integer"}, "tid": {"type": "integer"},
        "ts": num, "dur": {"type": "number", "minimum": 0}, "args": {"type": "object"},
    },
    "allOf": [
        {"if": {"properties": {"ph": {"const": "X"}}},
         "then": {"required": ["ts", "dur", "tid"]}},
        {"if": {"properties": {"ph": {"const": "M"}}},
         "then": {"properties": {"name": {"enum": ["process_name", "thread_name", "process_sort_index",
                                                   "thread_sort_index"]},
                                 "args": {"type": "object", "required": ["name"]}}}},
    ],
}
schema = {"type": "object", "required": ["traceEvents"],
          "properties": {"traceEvents": {"type": "array", "items": event},
                         "otherData": {"type": "object"}}}
trace = json.load(open(sys.argv[1]))
jsonschema.validate(trace, schema)
ev = trace["traceEvents"]
tracks = {}
for e in ev:
    if e["ph"] == "X":
        tracks.setdefault((e["pid"], e["tid"]), []).append(e)
tasks = phases = 0
eps = 1e-6
for key, xs in tracks.items():
    bars = [e for e in xs if e["cat"] in ("task", "other task")]
    tasks += len(bars)
    for p in xs:
        if p["cat"] in ("task", "other task") or not p["name"].count(", slot "):
            continue
        phases += 1
        home = [b for b in bars if b["ts"] - eps <= p["ts"] and p["ts"] + p["dur"] <= b["ts"] + b["dur"] + eps
                and b["args"]["start_cycles"] <= p["args"]["start_cycles"]
                and p["args"]["end_cycles"] <= b["args"]["end_cycles"]]
        if len(home) != 1:
            sys.exit(f"phase {p['name']!r} on track {key} lies in {len(home)} task bars")
        if p["name"].split("task ")[-1].split()[0] != home[0]["name"].split()[1]:
            sys.exit(f"phase {p['name']!r} lies in the bar of {home[0]['name']!r}, not its own task")
if not tasks or not phases:
    sys.exit(f"{tasks} task bars and {phases} phases: nothing merged")
print(f"{tasks} task bars, {phases} phases inside their bars")
PY

cp "$case_dir"/kernel_add.cpp.timing.json "$case_dir"/kernel_add.cpp.timing.npy "$work/"
cp "$case_dir"/chip_swimlane_records.json "$work/"
"$report" --timing "$work/kernel_add.cpp.timing.npy" --format trace -o "$work/trace.json" 2> "$work/err" ||
	fail "probe-report --format trace: exit $?: $(cat "$work/err")"
out=$(python3 "$work/check.py" "$work/trace.json") || fail "the merged trace: $out"
[ "$out" = "9 task bars, 32 phases inside their bars" ] || fail "unexpected merge: $out"

# the checker rejects a phase moved out of its task bar
python3 - "$work/trace.json" "$work/bad.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
p = next(e for e in t["traceEvents"] if e["ph"] == "X" and ", slot " in e["name"])
p["ts"] += 100000.0
json.dump(t, open(sys.argv[2], "w"))
PY
python3 "$work/check.py" "$work/bad.json" > /dev/null 2>&1 && fail "the checker accepted a phase outside its bar"

# found in the test's outputs/ folder, when exactly one is not older than the capture
mkdir -p "$work/tree/kernels" "$work/tree/outputs/Case1_20260101"
mv "$work/kernel_add.cpp.timing.json" "$work/kernel_add.cpp.timing.npy" "$work/tree/kernels/"
touch -d '2000-01-01' "$work/tree/kernels/kernel_add.cpp.timing.npy"
mv "$work/chip_swimlane_records.json" "$work/tree/outputs/Case1_20260101/"
"$report" --timing "$work/tree/kernels/kernel_add.cpp.timing.npy" > "$work/found.out" 2>&1 ||
	fail "outputs/ swimlane: exit $?: $(cat "$work/found.out")"
grep -q "^note: swimlane: .*outputs/Case1_20260101/chip_swimlane_records.json" "$work/found.out" ||
	fail "the swimlane in outputs/ was not found: $(cat "$work/found.out")"
grep -q "task_cycles" "$work/found.out" || fail "found, but not joined"
mkdir -p "$work/tree/outputs/Case1_20260102"
cp "$work/tree/outputs/Case1_20260101/chip_swimlane_records.json" "$work/tree/outputs/Case1_20260102/"
"$report" --timing "$work/tree/kernels/kernel_add.cpp.timing.npy" > "$work/two.out" 2>&1 ||
	fail "two swimlanes: exit $?"
grep -q "^note: 2 chip_swimlane_records.json files in .* none read (name one with --swimlane FILE)" "$work/two.out" ||
	fail "two candidate swimlanes were not refused: $(cat "$work/two.out")"
grep -q "task_cycles" "$work/two.out" && fail "one of two swimlanes was read"
echo "ok"
