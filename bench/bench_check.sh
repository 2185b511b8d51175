#!/usr/bin/env bash
# probe-check speed against grep, measured in the same run (issue #2 item 13).
#   bench/bench_check.sh [BUILD_DIR] [MEGABYTES]
# 1. A tree of >= 100 MB of kernel sources: probe-check vs `LC_ALL=C grep -rnE`
#    with the same patterns (the rules' patterns plus the probe marker). Target: ratio <= 1.0.
# 2. One kernel file, whole process: probe-check and probe-inject --check vs
#    `grep -c` on the same file (neither may pay for loading libclang). Target: <= 2.0.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
mb=${2:-110}
bin=$build/bin
tree=$build/bench-tree
[ -x "$bin/probe-check" ] || { echo "no $bin/probe-check: build first" >&2; exit 2; }
if [ ! -f "$tree/.done-$mb" ]; then
  rm -rf "$tree"
  python3 "$here/bench/gen_tree.py" "$tree" "$mb"
  touch "$tree/.done-$mb"
fi
size=$(du -sm "$tree" | cut -f1)

# the same patterns probe-check runs: every pattern rule of rules/check*.ini,
# translated from PCRE2 to POSIX ERE for grep -E (a lookahead is dropped, so
# grep may match a little more, never less), plus the probe marker that the
# structural rules look for
mapfile -t pats < <(python3 - "$here/rules" <<'PY'
import configparser, glob, re, sys
out = ["-e", "TIMING_PROBE"]
for f in sorted(glob.glob(sys.argv[1] + "/check*.ini")):
    cp = configparser.ConfigParser(interpolation=None, inline_comment_prefixes=(" ;",))
    cp.read(f)
    for sec in cp.sections():
        pat = cp[sec].get("pattern")
        if not pat or cp[sec].get("enabled", "yes") == "no" or cp[sec].get("strict", "no") == "yes":
            continue
        pat = re.sub(r"\(\?!(?:[^()]|\([^()]*\))*\)", "", pat)      # drop (?!...)
        pat = pat.replace("(?:", "(").replace("\\s", "[[:space:]]").replace("\\w", "[[:alnum:]_]")
        pat = pat.replace("\\d", "[0-9]").replace("}?", "}")
        out += ["-e", pat]
print("\n".join(out))
PY
)
incl=(--include='*.cpp' --include='*.cc' --include='*.cxx' --include='*.c' --include='*.h'
      --include='*.hpp' --include='*.hh' --include='*.cce' --include='*.asc' --include='*.cu')

best() { # best wall time in seconds of 5 runs of "$@" (stdout discarded)
  local b=""
  for _ in 1 2 3 4 5; do
    local s e
    s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N)
    b=$(python3 -c "import sys; t=$e-$s; b='$b'; print(t if not b or t<float(b) else b)")
  done
  echo "$b"
}

LC_ALL=C grep -rnE "${pats[@]}" "${incl[@]}" "$tree" >/dev/null || true   # warm the cache
g=$(best env LC_ALL=C grep -rnE "${pats[@]}" "${incl[@]}" "$tree")
p=$(best "$bin/probe-check" "$tree")
p1=$(best "$bin/probe-check" -j1 "$tree")
python3 - "$size" "$g" "$p" "$p1" <<'PY'
import sys
size, g, p, p1 = int(sys.argv[1]), *map(float, sys.argv[2:])
print(f"tree: {size} MB of kernel sources")
print(f"  LC_ALL=C grep -rnE (baseline)  {g:8.3f} s")
print(f"  probe-check (all cores)        {p:8.3f} s   ratio {p/g:5.2f}  (target <= 1.0)")
print(f"  probe-check -j1                {p1:8.3f} s   ratio {p1/g:5.2f}")
PY

# single file, whole-process cost, 200 runs each
k=$here/kernels/tsort32/tsort32_kernel.cpp
[ -f "$k" ] || k=$(ls "$tree"/op000/*.cpp | head -1)
loop() { local s e; s=$(date +%s.%N); for _ in $(seq 200); do "$@" >/dev/null 2>&1 || true; done; e=$(date +%s.%N); python3 -c "print($e-$s)"; }
gc=$(loop grep -c TIMING_PROBE "$k")
pc=$(loop "$bin/probe-check" "$k")
pi=$(loop "$bin/probe-inject" --probe STAGE_B --check "$k")
python3 - "$gc" "$pc" "$pi" "$k" <<'PY'
import sys
g, c, i = map(float, sys.argv[1:4])
print(f"one file ({sys.argv[4]}), 200 whole-process runs:")
print(f"  grep -c (baseline)             {g:8.3f} s")
print(f"  probe-check                    {c:8.3f} s   ratio {c/g:5.2f}  (target <= 2.0)")
print(f"  probe-inject --check           {i:8.3f} s   ratio {i/g:5.2f}  (target <= 2.0)")
PY
