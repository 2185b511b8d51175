#!/usr/bin/env bash
# probe-check speed against grep, measured in the same run.
#   bench/bench_check.sh [BUILD_DIR] [MEGABYTES] [REAL_TREE...]
# 1. A tree of >= 100 MB of kernel sources: probe-check vs `LC_ALL=C grep -rnE`
#    with the same patterns (the rules' patterns plus the probe marker). Target: ratio <= 1.0.
#    The same tree, and the REAL_TREEs together (if given): probe-check vs
#    ripgrep with the same patterns and file types, all cores and -j1 each
#    (`rg --no-require-git`: .gitignore honoured outside git, as probe-check does).
#    Target: ratio <= 1.0 for both.
# 2. One kernel file, whole process: probe-check and probe-inject --check vs
#    `grep -c` on the same file (neither may pay for loading libclang). Target: <= 2.0.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
mb=${2:-110}
real=("${@:3}")
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
# the extensions probe-check walks (its --help), as grep --include and rg -g
mapfile -t exts < <("$bin/probe-check" --help | sed -n 's/.*--ext LIST.*(default \(.*\))$/\1/p' | tr , '\n')
incl=() rgglob=()
for e in "${exts[@]}"; do incl+=(--include="*$e"); rgglob+=(-g "*$e"); done

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

# ripgrep, the tool users compare a checker's walk with; same patterns
# rg's \b and classes are Unicode unless (?-u): ASCII, as PCRE2 without UCP
# reads them in probe-check, and rg's fast engine
rgpats=()
for ((i = 0; i < ${#pats[@]}; i += 2)); do rgpats+=(-e "(?-u)${pats[i + 1]}"); done
# and the stronger baseline: five probe patterns only (a marker, the cycle
# reads, the prints, the writeback), what a user would grep for by hand
rg5=(-e 'TIMING_PROBE' -e '(?-u)\b(GetSystemCycle|get_sys_cnt|read_cycle)\s*\(' -e 'start=%' -e '\[T_BASE\]' -e 'dcci')
rg_vs() { # rg_vs LABEL DIR...
  local label=$1; shift
  rg -n --no-require-git "${rgpats[@]}" "${rgglob[@]}" "$@" >/dev/null 2>&1 || true   # warm the cache
  local r r1 r5 r51 q q1 files
  r=$(best rg -n --no-require-git "${rgpats[@]}" "${rgglob[@]}" "$@")
  r1=$(best rg -j1 -n --no-require-git "${rgpats[@]}" "${rgglob[@]}" "$@")
  r5=$(best rg -n --no-require-git "${rg5[@]}" "${rgglob[@]}" "$@")
  r51=$(best rg -j1 -n --no-require-git "${rg5[@]}" "${rgglob[@]}" "$@")
  q=$(best "$bin/probe-check" "$@")
  q1=$(best "$bin/probe-check" -j1 "$@")
  files=$(rg --files --no-require-git "${rgglob[@]}" "$@" | wc -l)
  local rc=0 out
  out=$("$bin/probe-check" "$@") || rc=$?
  python3 - "$label" "$files" "$r" "$r1" "$q" "$q1" "$r5" "$r51" "$rc" "$(printf '%s\n' "$out" | grep -c ': error: ' || true)" \
    "$(printf '%s\n' "$out" | grep -c ': note: ' || true)" <<'PY'
import sys
label, files = sys.argv[1], int(sys.argv[2])
r, r1, q, q1, r5, r51 = map(float, sys.argv[3:9])
rc, err, note = sys.argv[9:12]
print(f"{label}: {files} files (rg --files); probe-check exit {rc}, {err} errors, {note} notes")
print(f"  rg (all cores, baseline)       {r:8.3f} s")
print(f"  probe-check (all cores)        {q:8.3f} s   ratio {q/r:5.2f}  (target <= 1.0)")
print(f"  rg -j1 (baseline)              {r1:8.3f} s")
print(f"  probe-check -j1                {q1:8.3f} s   ratio {q1/r1:5.2f}  (target <= 1.0)")
print(f"  rg, five probe patterns        {r5:8.3f} s   probe-check ratio {q/r5:5.2f}")
print(f"  rg -j1, five probe patterns    {r51:8.3f} s   probe-check -j1 ratio {q1/r51:5.2f}")
PY
}
if command -v rg >/dev/null; then
  rg_vs "generated tree ($size MB)" "$tree"
  [ ${#real[@]} -eq 0 ] || rg_vs "real trees ($(du -scm "${real[@]}" | tail -1 | cut -f1) MB: ${real[*]})" "${real[@]}"
else
  echo "ripgrep is not installed (scripts/setup.sh installs it): no rg baseline"
fi

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
