#!/usr/bin/env bash
# report_tsort32.sh - probe-report end to end on the real logs of the TSORT32
# probe variants (docs/kernel.md): one probe per run, their statistics against the
# harness's own summary, and the findings a wrong run must raise.
# usage: report_tsort32.sh BIN_DIR SRC_DIR
# A missing variant binary is a failure, never a silent pass.
set -u
bin=$1
report=$bin/probe-report
fail() { echo "FAIL: $*" >&2; exit 1; }
for p in STAGE_A STAGE_B STAGE_B_WAIT; do
	[ -x "$bin/tsort32_probe_$p" ] || fail "no $bin/tsort32_probe_$p: build the kernels (PROBEKIT_KERNELS=ON)"
done
[ -x "$report" ] || fail "no $report"
work=$(mktemp -d "${TMPDIR:-/tmp}/pk-report-e2e.XXXXXX")
trap 'rm -rf "$work"' EXIT
run() { # PROBE REPEAT -> $work/PROBE.log
	"$bin/tsort32_probe_$1" --case half-5x100 --warmup 1 --repeat "$2" --late-window-ms 300 \
		--print-delay-ms 20 > "$work/$1.log" 2> "$work/$1.err" || fail "tsort32_probe_$1 failed: $(cat "$work/$1.err")"
}
run STAGE_A 3
run STAGE_B 3
run STAGE_B_WAIT 3

# One probe per run, --repeat matching the harness: a clean report (exit 0).
"$report" --repeat 3 --format json -o "$work/r.json" "$work/STAGE_A.log" "$work/STAGE_B.log" \
	"$work/STAGE_B_WAIT.log" 2> "$work/r.err"
rc=$?
[ $rc -eq 0 ] || fail "clean runs: exit $rc, expected 0: $(cat "$work/r.err")"
[ ! -s "$work/r.err" ] || fail "clean runs: unexpected stderr: $(cat "$work/r.err")"

# Our numbers against the harness's own summary line for each probe, e.g.
# "probe STAGE_B: 3 runs, dur min 558 median 585.0 mean 585.0 max 612 ...".
python3 - "$work" <<'EOF' || exit 1
import json, re, sys
work = sys.argv[1]
r = json.load(open(f"{work}/r.json"))
probes = {p["probe"]: p for p in r["tables"]["probes"]}
for name in ("STAGE_A", "STAGE_B", "STAGE_B_WAIT"):
    log = open(f"{work}/{name}.log").read()
    m = re.search(rf"probe {name}: (\d+) runs, dur min (\d+) median ([\d.]+) mean ([\d.]+) max (\d+)", log)
    if not m:
        sys.exit(f"FAIL: no harness summary for {name} in its log")
    p = probes.get(name)
    if not p:
        sys.exit(f"FAIL: probe-report has no row for {name}")
    want = (int(m[1]), int(m[2]), float(m[3]), float(m[4]), int(m[5]))
    got = (p["count"], p["min"], float(p["median"]), float(p["mean"]), p["max"])
    if want[:3] != got[:3] or want[4] != got[4] or abs(want[3] - got[3]) > 0.051:
        sys.exit(f"FAIL: {name}: harness says {want}, probe-report {got}")
    if p["dur_mismatch"] != 0:
        sys.exit(f"FAIL: {name}: dur mismatch reported on a real log")
tl = {t["probe"]: t for t in r["tables"]["timeline"]}
if set(tl) != {"STAGE_A", "STAGE_B", "STAGE_B_WAIT"}:
    sys.exit(f"FAIL: timeline rows {sorted(tl)}")
if r["warnings"]:
    sys.exit(f"FAIL: warnings on clean runs: {r['warnings']}")
# The kernel's wait against STAGE_B: usually not inside it (a consumer starts after its wait), so no
# share of the stage but a stage of its own; on a loaded machine the real times can nest it. Either
# way the row must agree with itself: a share only when nested, and then sub median / stage median.
ratios = [x for x in r["tables"].get("ratios", []) if x["sub_probe"] == "STAGE_B_WAIT"]
if len(ratios) != 1 or ratios[0]["stage"] != "STAGE_B" or ratios[0]["nested"] not in ("yes", "no"):
    sys.exit(f"FAIL: STAGE_B_WAIT vs STAGE_B: {ratios}")
w = ratios[0]
if w["nested"] == "no" and w["ratio"] is not None:
    sys.exit(f"FAIL: a share of STAGE_B for a wait outside it: {w}")
if w["nested"] == "yes" and (w["ratio"] is None or abs(w["ratio"] - w["sub_median"] / w["stage_median"]) > 0.006):
    sys.exit(f"FAIL: the nested wait's share is not its median over the stage's: {w}")
# The pipeline gap on the real numbers: each gap is its start minus the previous end,
# negative values kept.
# A wait nested in its stage is outside the chain and has no gap; the chain's first stage has none.
rows = r["tables"]["timeline"]
nested = {"STAGE_B_WAIT"} if w["nested"] == "yes" else set()
chain = [t for t in rows if t["probe"] not in nested]
if [t["gap"] is None for t in rows] != [t is chain[0] or t["probe"] in nested for t in rows]:
    sys.exit(f"FAIL: gaps {rows} (nested: {sorted(nested)})")
for prev, t in zip(chain, chain[1:]):
    if t["gap"] != t["rel_start"] - prev["rel_end"]:
        sys.exit(f"FAIL: gap of {t['probe']} is not start - previous end: {rows}")
EOF

# Two probes' logs as one run: contamination (docs/method.md, "One probe per run"), exit 1.
cat "$work/STAGE_A.log" "$work/STAGE_B.log" > "$work/both.log"
"$report" --repeat 6 "$work/both.log" > /dev/null 2> "$work/both.err"
rc=$?
[ $rc -eq 1 ] || fail "contaminated run: exit $rc, expected 1"
grep -q "probes in one run.*enable one probe per run" "$work/both.err" || fail "contaminated run: no one-probe-per-run warning: $(cat "$work/both.err")"

# Three repeats read as one: more lines than --repeat (warmup leak), exit 1.
"$report" "$work/STAGE_B.log" > /dev/null 2> "$work/leak.err"
rc=$?
[ $rc -eq 1 ] || fail "repeat 3 read with --repeat 1: exit $rc, expected 1"
grep -q "more than --repeat 1" "$work/leak.err" || fail "no repeat warning: $(cat "$work/leak.err")"

# The same log through every format; the trace and JSON must parse.
for f in text csv json trace svg; do
	"$report" --repeat 3 --format $f "$work/STAGE_B.log" > "$work/out.$f" 2>&1 || fail "--format $f failed"
done
python3 -c 'import json, sys; json.load(open(sys.argv[1])); json.load(open(sys.argv[2]))' \
	"$work/out.json" "$work/out.trace" || fail "json/trace output does not parse"
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$work/out.svg" || fail "svg does not parse"
echo "ok report_tsort32"
