#!/usr/bin/env bash
# report_timing.sh - probe-report end to end on the timing tensor the TSORT32
# timing build (docs/timing.md) captures: its .npy and .bin, read with the event map
# probe-inject --timing-tensor wrote, validated per slot and partitioned; the
# numbers checked against the harness's own table; a stale row must be caught.
# usage: report_timing.sh BIN_DIR SRC_DIR
# A missing timing build or event map is a failure, never a silent pass.
set -u
bin=$1
report=$bin/probe-report
exe=$bin/tsort32_timing
map=$bin/../kernels/timing/tsort32_timing_gen/tsort32_entry.cpp.timing.json
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$exe" ] || fail "no $exe: build the kernels (PROBEKIT_KERNELS=ON)"
[ -f "$map" ] || fail "no event map $map"
[ -x "$report" ] || fail "no $report"
work=$(mktemp -d "${TMPDIR:-/tmp}/pk-report-timing.XXXXXX")
trap 'rm -rf "$work"' EXIT

blocks=4
"$exe" --expect-timing --events "$map" --rows 8 --cols 64 --blocks $blocks --warmup 1 --repeat 2 \
	--save "$work/t" > "$work/run.out" 2> "$work/run.err" || fail "tsort32_timing failed: $(cat "$work/run.err")"
[ -f "$work/t.npy" ] && [ -f "$work/t.bin" ] || fail "no saved tensor"
slots=$(python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); h=d[10:10+int.from_bytes(d[8:10],"little")].decode(); import re; print(re.search(r"shape.: \((\d+),", h)[1])' "$work/t.npy")
active="0-$((blocks - 1))"

"$report" --timing "$work/t.npy" --events "$map" --active "$active" --format json -o "$work/npy.json" 2> "$work/npy.err"
rc=$?
[ $rc -eq 0 ] || fail "captured tensor: exit $rc, expected 0: $(cat "$work/npy.err")"
"$report" --timing "$work/t.bin" --slots "$slots" --events "$map" --active "$active" --format json \
	-o "$work/bin.json" 2> "$work/bin.err" || fail "the .bin copy: $(cat "$work/bin.err")"

# Same boundaries from .npy and .bin; F-E equals the harness's largest
# body_done relative to the earliest entry ("timing rows" table).
python3 - "$work" <<'EOF' || exit 1
import json, sys
work = sys.argv[1]
a, b = json.load(open(f"{work}/npy.json")), json.load(open(f"{work}/bin.json"))
if a["tables"]["boundaries"] != b["tables"]["boundaries"]:
    sys.exit("FAIL: .npy and .bin give different boundaries")
iv = {r["interval"]: r["cycles"] for r in a["tables"]["intervals"]}
lines = open(f"{work}/run.out").read().splitlines()
i = next(k for k, l in enumerate(lines) if l.startswith("timing rows"))
head = lines[i + 1].split()
rows = []
for l in lines[i + 2:]:
    f = l.split()
    if not f or not f[0].isdigit():
        break
    rows.append(dict(zip(head, f)))
col = head.index("body_done")
fe = max(int(r["body_done"]) for r in rows if int(r["slot"]) < 4)
if iv.get("F-E") != fe:
    sys.exit(f"FAIL: F-E {iv.get('F-E')} but the harness's rows say {fe}")
if a["warnings"]:
    sys.exit(f"FAIL: warnings on a clean capture: {a['warnings']}")
EOF

# A stale row: slot 1's magic from another invocation. Reported by slot, exit 1.
python3 - "$work" "$map" <<'EOF' || exit 1
import json, struct, sys
work, m = sys.argv[1], json.load(open(sys.argv[2]))
d = bytearray(open(f"{work}/t.npy", "rb").read())
off = 10 + int.from_bytes(d[8:10], "little")
pos = off + (1 * m["row_words"] + m["magic_column"]) * 8
struct.pack_into("<q", d, pos, struct.unpack_from("<q", d, pos)[0] + 100)
open(f"{work}/stale.npy", "wb").write(d)
EOF
"$report" --timing "$work/stale.npy" --events "$map" --active "$active" > /dev/null 2> "$work/stale.err"
rc=$?
[ $rc -eq 1 ] || fail "stale row: exit $rc, expected 1"
grep -q "slot 1: magic column" "$work/stale.err" || fail "stale row not reported by slot: $(cat "$work/stale.err")"
echo "ok report_timing"
