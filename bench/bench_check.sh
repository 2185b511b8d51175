#!/usr/bin/env bash
# probe-check speed against grep and ripgrep, measured in the same run.
#   bench/bench_check.sh [BUILD_DIR] [MEGABYTES] [REAL_TREE...]
# Every pair of commands runs in alternation (bench/pairtime.py, BENCH_RUNS
# pairs, default 9) and the medians of the pair-by-pair ratios are printed,
# wall and CPU: a load spike on a shared machine hits both sides of a pair.
# 1. A generated tree of MEGABYTES (default 106) of kernel sources
#    (gen_tree.py), outside any git work tree (probe-check walks a directory
#    as git sees it: inside the build folder, which git ignores, it would
#    find nothing): probe-check, all cores and -j1, against
#    `LC_ALL=C grep -rnE` with the five probe patterns a user would type and
#    with every pattern of the rules. Target: ratio <= 1.0.
# 2. The same tree, and the REAL_TREEs together (if given): probe-check
#    against ripgrep with the same file types (`rg --no-require-git`:
#    .gitignore honoured outside git, as probe-check does), with the five
#    patterns and with the rules' patterns. Target on the real trees: <= 0.8.
# 3. One kernel file, 200 whole-process runs: probe-check and
#    probe-inject --check against `grep -c` (neither may pay for loading
#    libclang). Target: <= 2.0.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
mb=${2:-106}
real=("${@:3}")
bin=$build/bin
runs=${BENCH_RUNS:-9}
tree=${BENCH_TREE:-${TMPDIR:-/tmp}/probekit-bench-tree-$mb}
pair=(python3 "$here/bench/pairtime.py" --one-line -n "$runs" --)
[ -x "$bin/probe-check" ] || { echo "no $bin/probe-check: build first" >&2; exit 2; }
if git -C "$(dirname "$tree")" rev-parse --git-dir >/dev/null 2>&1; then
	echo "$tree is inside a git work tree: give BENCH_TREE outside one" >&2
	exit 2
fi
if [ ! -f "$tree/.done-$mb" ]; then
	rm -rf "$tree"
	python3 "$here/bench/gen_tree.py" "$tree" "$mb"
	touch "$tree/.done-$mb"
fi
size=$(du -sm "$tree" | cut -f1)

# the patterns probe-check runs: every pattern rule of rules/check*.ini,
# translated from PCRE2 to POSIX ERE for grep -E (a lookahead is dropped, so
# grep may match a little more, never less), plus the probe marker that the
# structural rules look for
mapfile -t pats < <(python3 - "$here/rules" <<'PY'
import configparser, glob, re, sys
# the rules' references, filled in as probe-check's loader does (rules.c):
# {api_cycle} from rules/api.ini, {name:S.K} / {names:S} / {names.ini:S.K}
# from rules/names.ini
api = configparser.ConfigParser(interpolation=None, inline_comment_prefixes=(" ;",), strict=False)
api.read(sys.argv[1] + "/api.ini")
cycles = []
for sec in api.sections():
    for key in ("cycle", "sim_cycle"):
        m = re.match(r"\s*([A-Za-z_]\w*)\s*\(", api[sec].get(key, ""))
        if m and m.group(1) not in cycles:
            cycles.append(m.group(1))
names = configparser.ConfigParser(interpolation=None, inline_comment_prefixes=(" ;",))
names.read(sys.argv[1] + "/names.ini")
prefix = names["timing"]["prefix"]
def esc(t):
    return re.sub(r"([.\[\](){}*+?|^$\\])", r"\\\1", t)
def name_pat(v):
    v = esc(v).replace(esc("{prefix}"), prefix + "[0-9]*_")
    return v.replace(esc("{name}"), "[[:alnum:]_]+").replace(esc("{event}"), "[[:alnum:]_]+")
def refs(pat):
    pat = pat.replace("{api_cycle}", "|".join(cycles))
    pat = re.sub(r"\{names\.ini:(\w+)\.(\w+)\}", lambda m: esc(names[m.group(1)][m.group(2)]), pat)
    pat = re.sub(r"\{name:(\w+)\.(\w+)\}", lambda m: name_pat(names[m.group(1)][m.group(2)]), pat)
    pat = re.sub(r"\{names:(\w+)\}", lambda m: "(" + "|".join(
        name_pat(v) for k, v in names[m.group(1)].items() if k != "prefix") + ")", pat)
    return pat
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
        pat = pat.replace("\\d", "[0-9]").replace("}?", "}").replace("(?m)", "")
        out += ["-e", refs(pat)]
print("\n".join(out))
PY
)
# the five patterns a user would grep for by hand: a marker, the cycle
# reads, the prints, the writeback
five=(-e 'TIMING_PROBE' -e '\b(GetSystemCycle|get_sys_cnt|read_cycle)[[:space:]]*\(' -e 'start=%' -e '\[T_BASE\]' -e 'dcci')
rg5=(-e 'TIMING_PROBE' -e '(?-u)\b(GetSystemCycle|get_sys_cnt|read_cycle)\s*\(' -e 'start=%' -e '\[T_BASE\]' -e 'dcci')
# rg's \b and classes are Unicode unless (?-u): ASCII, as PCRE2 without UCP
# reads them in probe-check
rgpats=()
for ((i = 0; i < ${#pats[@]}; i += 2)); do rgpats+=(-e "(?-u)${pats[i + 1]}"); done
# the extensions probe-check walks (its --help), as grep --include and rg -g
mapfile -t exts < <("$bin/probe-check" --help | sed -n 's/.*--ext LIST.*(default \(.*\))$/\1/p' | tr , '\n')
incl=() rgglob=()
for e in "${exts[@]}"; do incl+=(--include="*$e"); rgglob+=(-g "*$e"); done

# line LABEL A... --vs B...: the medians, and the ratio A/B
line() {
	local label=$1 i
	shift
	for ((i = 1; i <= $#; i++)); do [ "${!i}" = --vs ] && break; done
	local rc=0
	"${@:i+1}" >/dev/null 2>&1 || rc=$? # a baseline that fails would time nothing
	if [ "$rc" -gt 1 ]; then
		echo "  $label: the baseline exits $rc: ${*:i+1}" >&2
		return
	fi
	read -r aw ac bw bc rw rc < <("${pair[@]}" "$@")
	printf '  %-44s %7.3f s (cpu %6.3f)  baseline %7.3f s (cpu %6.3f)  ratio %5.2f (cpu %5.2f)\n' \
		"$label" "$aw" "$ac" "$bw" "$bc" "$rw" "$rc"
}

LC_ALL=C grep -rnE "${five[@]}" "${incl[@]}" "$tree" >/dev/null || true # warm the cache
echo "generated tree: $size MB of kernel sources ($tree), $runs pairs each"
line "probe-check / grep -rnE, five patterns" "$bin/probe-check" "$tree" --vs env LC_ALL=C grep -rnE "${five[@]}" "${incl[@]}" "$tree"
line "probe-check -j1 / grep -rnE, five patterns" "$bin/probe-check" -j1 "$tree" --vs env LC_ALL=C grep -rnE "${five[@]}" "${incl[@]}" "$tree"
line "probe-check / grep -rnE, the rules' patterns" "$bin/probe-check" "$tree" --vs env LC_ALL=C grep -rnE "${pats[@]}" "${incl[@]}" "$tree"

rg_vs() { # rg_vs LABEL DIR...
	local label=$1
	shift
	rg -n --no-require-git "${rg5[@]}" "${rgglob[@]}" "$@" >/dev/null 2>&1 || true # warm the cache
	local files rc=0 out
	files=$(rg --files --no-require-git "${rgglob[@]}" "$@" | wc -l)
	out=$("$bin/probe-check" "$@") || rc=$?
	echo "$label: $files files (rg --files); probe-check exit $rc, $(printf '%s\n' "$out" | grep -c ': error: ' || true) errors, $(printf '%s\n' "$out" | grep -c ': note: ' || true) notes"
	line "probe-check / rg, five patterns" "$bin/probe-check" "$@" --vs rg -n --no-require-git "${rg5[@]}" "${rgglob[@]}" "$@"
	line "probe-check -j1 / rg -j1, five patterns" "$bin/probe-check" -j1 "$@" --vs rg -j1 -n --no-require-git "${rg5[@]}" "${rgglob[@]}" "$@"
	line "probe-check / rg, the rules' patterns" "$bin/probe-check" "$@" --vs rg -n --no-require-git "${rgpats[@]}" "${rgglob[@]}" "$@"
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
