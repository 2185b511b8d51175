#!/usr/bin/env python3
"""partition_check.py PROBE_REPORT MATRIX.bin EVENTS.json WORKDIR

The partition (docs/method.md) of TSORT32's saved timing matrix, computed here from the
raw int64 rows and by probe-report, must agree: E = min entry, R = max
producer_done, B = max collective_arrival, A = min collective_release,
F = max body_done; (R-E)+(B-R)+(A-B)+(F-A) = F-E; E <= R <= B <= A <= F.
Then a deliberately broken copy (one core's arrival stamped after another
core's release, its row still monotonic) must be rejected by both.
"""
import json
import os
import struct
import subprocess
import sys

NAMES = ["entry", "producer_done", "collective_arrival", "collective_release", "body_done"]


def load(path, words):
    data = open(path, "rb").read()
    if len(data) % (8 * words):
        sys.exit(f"{path}: {len(data)} bytes is not a whole number of {words}-word rows")
    v = struct.unpack(f"<{len(data) // 8}q", data)
    return [list(v[i:i + words]) for i in range(0, len(v), words)]


def partition(rows, col):
    """Return (bounds, problems) computed from the rows alone."""
    problems = []
    for s, r in enumerate(rows):
        stamps = [r[col[n]] for n in NAMES]
        if any(x == 0 for x in stamps):
            problems.append(f"slot {s}: a required stamp is zero")
        ordered = [r[c] for c in sorted(col.values())]
        if ordered != sorted(ordered):
            problems.append(f"slot {s}: stamps not monotonic")
    E = min(r[col["entry"]] for r in rows)
    R = max(r[col["producer_done"]] for r in rows)
    B = max(r[col["collective_arrival"]] for r in rows)
    A = min(r[col["collective_release"]] for r in rows)
    F = max(r[col["body_done"]] for r in rows)
    bounds = {"E": E, "R": R, "B": B, "A": A, "F": F}
    if (R - E) + (B - R) + (A - B) + (F - A) != F - E:
        problems.append("identity fails")
    seq = [E, R, B, A, F]
    for a, b, na, nb in zip(seq, seq[1:], "ERBA", "RBAF"):
        if a > b:
            problems.append(f"ordering fails: {na} ({a}) > {nb} ({b})")
    return bounds, problems


def report(tool, path, events, slots):
    p = subprocess.run([tool, "--format", "json", "--timing", path, "--slots", str(slots), "--events", events],
                       capture_output=True, text=True)
    if p.returncode == 2:
        sys.exit(f"probe-report failed on {path}:\n{p.stderr}")
    return p.returncode, json.loads(p.stdout)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    tool, matrix, events, work = sys.argv[1:]
    emap = json.load(open(events))
    col = {e["name"]: e["column"] for e in emap["events"]}
    missing = [n for n in NAMES if n not in col]
    if missing:
        sys.exit(f"{events}: no column for {missing}: the timing build must stamp them")
    rows = load(matrix, emap["row_words"])
    fail = 0

    bounds, problems = partition(rows, col)
    if problems:
        print("FAIL: the saved matrix:", "; ".join(problems))
        fail = 1
    rc, doc = report(tool, matrix, events, len(rows))
    got = {b["boundary"]: b["cycles"] for b in doc["tables"].get("boundaries", [])}
    if rc != 0 or doc["warnings"]:
        print(f"FAIL: probe-report exit {rc}, warnings {doc['warnings']}")
        fail = 1
    if any(got.get(k) != v for k, v in bounds.items()):
        print(f"FAIL: probe-report boundaries {got} != {bounds}")
        fail = 1
    if not any("identity" in n and "holds" in n for n in doc["notes"]):
        print(f"FAIL: probe-report does not state the identity: {doc['notes']}")
        fail = 1
    rel = {k: v - bounds["E"] for k, v in bounds.items()}
    if not fail:
        print(f"ok: E<=R<=B<=A<=F over {len(rows)} slots, relative cycles {rel}")

    # the broken copy: core i arrives after core j (the first released) left
    ca, cr = col["collective_arrival"], col["collective_release"]
    j = min(range(len(rows)), key=lambda s: rows[s][cr])
    i = max((s for s in range(len(rows)) if s != j), key=lambda s: rows[s][cr], default=None)
    if i is None:
        print("FAIL: one slot only: no cross-core ordering to break")
        return 1
    broken = [list(r) for r in rows]
    late = broken[j][cr] + 1
    broken[i][ca] = late
    for c in sorted(col.values()):  # keep row i monotonic: only the cross-core order is wrong
        if c > ca and broken[i][c] < late:
            broken[i][c] = late
    bpath = os.path.join(work, "timing-broken.bin")
    with open(bpath, "wb") as f:
        f.write(b"".join(struct.pack(f"<{len(r)}q", *r) for r in broken))
    _, bproblems = partition(broken, col)
    if not any("ordering fails" in p for p in bproblems):
        print(f"FAIL: the broken copy passes this script's check: {bproblems}")
        fail = 1
    rc, doc = report(tool, bpath, events, len(broken))
    if rc != 1 or not any("ordering" in w and "fails" in w for w in doc["warnings"]):
        print(f"FAIL: probe-report accepted the broken copy (exit {rc}, warnings {doc['warnings']})")
        fail = 1
    else:
        print(f"ok: broken copy rejected: {[w for w in doc['warnings'] if 'ordering' in w][0]}")
    return fail


if __name__ == "__main__":
    sys.exit(main())
