#!/usr/bin/env bash
# Which commit made probe-check slower: git bisect with a speed test.
#   bench/bisect_check.sh GOOD BAD TREE...
# Builds probekit (the `probe` target only) at GOOD, then `git bisect run`s
# between GOOD and BAD in a worktree of its own: at each step the commit's
# probe-check and GOOD's run in alternation over the TREEs (pairtime.py,
# medians of BISECT_RUNS pairs, default 9), and the commit is "bad" when its
# CPU time is above BISECT_THRESHOLD (default 1.08) times GOOD's. A commit that
# does not build is skipped. Prints each step's ratio and the first bad commit.
# The worktree and its builds are removed at the end; the repository's own
# checkout is not touched.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 3 ] || { echo "usage: $0 GOOD BAD TREE..." >&2; exit 2; }
good=$(git -C "$here" rev-parse --verify "$1^{commit}")
bad=$(git -C "$here" rev-parse --verify "$2^{commit}")
shift 2
trees=()
for t in "$@"; do trees+=("$(cd "$t" && pwd)"); done
work=$(mktemp -d "${TMPDIR:-/tmp}/pk-bisect.XXXXXX")
cleanup() {
	git -C "$work/src" bisect reset >/dev/null 2>&1 || true
	git -C "$here" worktree remove --force "$work/src" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
git -C "$here" worktree add --detach "$work/src" "$good" >/dev/null 2>&1

# build the checked-out commit; the binary is copied as DEST/probe-check
cat >"$work/build.sh" <<EOF
#!/usr/bin/env bash
cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \\
	-DPROBEKIT_KERNELS=OFF >/dev/null 2>&1 &&
	ninja -C "$work/build" -j2 probe >/dev/null 2>&1 &&
	mkdir -p "\$1" && cp "$work/build/bin/probe" "\$1/probe-check"
EOF
chmod +x "$work/build.sh"
"$work/build.sh" "$work/good" || { echo "GOOD ($good) does not build" >&2; exit 2; }

cat >"$work/step.sh" <<EOF
#!/usr/bin/env bash
# one bisect step: 0 as fast as GOOD, 1 slower, 125 does not build
c=\$(git rev-parse --short HEAD)
rm -rf "$work/cand"
if ! "$work/build.sh" "$work/cand"; then
	echo "\$c: does not build, skipped"
	exit 125
fi
read -r aw ac bw bc rw rc < <(python3 "$here/bench/pairtime.py" --one-line -n "${BISECT_RUNS:-9}" -- \
	"$work/cand/probe-check" ${trees[*]@Q} --vs "$work/good/probe-check" ${trees[*]@Q})
slow=\$(awk -v r="\$rc" -v t="${BISECT_THRESHOLD:-1.08}" 'BEGIN { print (r > t) }')
echo "\$c: cpu \$ac s against \$bc s at GOOD, ratio \$rc (wall \$rw): \$([ "\$slow" = 1 ] && echo slower || echo as fast)"
exit "\$slow"
EOF
chmod +x "$work/step.sh"
cd "$work/src"
git bisect start "$bad" "$good" >/dev/null
git bisect run "$work/step.sh" | grep -E '^[0-9a-f]+: |is the first bad commit' || true
git bisect log | grep '^# first bad commit' || true
