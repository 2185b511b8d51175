#!/usr/bin/env bash
# probe-check --staged checks what is in the git index, not the work tree
# (the pre-commit use), in a throw-away repository.
#   bash tests/sh/block_staged.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
command -v git >/dev/null || skip "git is not installed"
cd "$scratch" || exit 1
export GIT_CONFIG_NOSYSTEM=1 HOME="$scratch" GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com \
	GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
git init -q repo || fail "git init"
cd repo || exit 1
mkdir -p src/sub
kernel src/k.cpp
kernel "src/sub/we'ird name.cce"
echo 'notes about GetSystemCycle()' >README.txt
git add . && git commit -qm base || fail "git commit"

# the index holds an enabled probe, the work tree does not
probe-inject --probe STAGE_A --no-base src/k.cpp
git add src/k.cpp
probe-inject --disable-all src/k.cpp
run_expect 0 "work tree is clean" probe-check src/k.cpp
if run_expect 1 "--staged sees the enabled probe in the index" probe-check --staged; then
	has "--staged finding names the repository path" "src/k.cpp:10:5: error: probe 'STAGE_A' is enabled"
	has "--staged finds the end part too" "src/k.cpp:15:5: error: probe 'STAGE_A' is enabled"
fi
# from a subdirectory the whole index is still checked, its paths shown as
# from there (a terminal or editor opens them as printed)
(cd src/sub && run_expect 1 "--staged from a subdirectory" probe-check --staged &&
	has "--staged in src/sub: the path from there" "../k.cpp:10:5: error: probe 'STAGE_A' is enabled") ||
	fail "--staged from a subdirectory"
(cd src && run_expect 1 "--staged from src" probe-check --staged &&
	has "--staged in src: the path from there" $'\nk.cpp:15:5: error' ) || fail "--staged from src"

# the opposite: a clean index, a dirty work tree
git add src/k.cpp
probe-inject --probe STAGE_B "src/sub/we'ird name.cce"
run_expect 1 "work tree has an enabled probe" probe-check "src/sub/we'ird name.cce"
run_expect 0 "--staged: the index is clean" probe-check --staged
# a quote and a space in a staged name
git add "src/sub/we'ird name.cce"
if run_expect 1 "--staged with a quote and a space in the name" probe-check --staged; then
	has "--staged names the odd file" "src/sub/we'ird name.cce:23:5: error: probe 'STAGE_B' is enabled"
fi
git reset -q
# staged files that are not kernel sources, and staged deletions, are skipped
echo 'uint64_t t = GetSystemCycle();' >>README.txt
git add README.txt
git rm -q --cached src/k.cpp
run_expect 0 "--staged ignores non-kernel files and deletions" probe-check --staged
git reset -q
# SARIF from the index: repository-relative paths
probe-inject --probe STAGE_A --no-base src/k.cpp && git add src/k.cpp
if run_expect 1 "--staged --format=sarif" probe-check --staged --format=sarif; then
	has "SARIF uri is repository-relative" '"uri": "src/k.cpp"'
fi

# the file names pre-commit passes narrow the staged files (a `repo: local`
# hook with `entry: probe-check --staged` and pass_filenames left on)
run_expect 1 "--staged with the staged file named" probe-check --staged src/k.cpp
run_expect 0 "--staged with only a clean staged file named" probe-check --staged README.txt
(cd src && run_expect 1 "--staged, a name relative to a subdirectory" probe-check --staged ./k.cpp) ||
	fail "--staged, a name relative to a subdirectory"
run_expect 0 "--staged with a name that is not staged" probe-check --staged "src/sub/we'ird name.cce"
git reset -q && git checkout -q -- src/k.cpp

# A change is judged by what it adds: a file that already holds timeout
# cycle reads gets a probe-style print and two cycle reads; only the added
# lines are reported, the old reads are not.
cat >src/wait.cpp <<'K'
#include "kernel_operator.h"

__aicore__ inline void WaitFlag(__gm__ int *flag, uint64_t timeout)
{
    uint64_t begin = GetSystemCycle();
    while (*flag == 0) {
        if (GetSystemCycle() - begin > timeout) {
            break;
        }
    }
}

__aicore__ inline void Compute(int n)
{
    for (int i = 0; i < n; i++) {
        Step(i);
    }
}
K
git add src/wait.cpp && git commit -qm wait || fail "commit wait.cpp"
run_expect 0 "a full run: timeout cycle reads are notes" probe-check src/wait.cpp &&
	has "the timeout read is a note" "src/wait.cpp:5:22: note: cycle read"
base=$(git rev-parse HEAD)
sed -i 's|^    for (int i = 0; i < n; i++) {|    uint64_t t0 = GetSystemCycle();\n&|; s|^        Step(i);|&\n        uint64_t t1 = GetSystemCycle();\n        printf("[STEP] start=%lu end=%lu\\n", t0, t1);|' src/wait.cpp
git add src/wait.cpp
for mode in "--staged" "--diff-base $base"; do
	# shellcheck disable=SC2086
	if run_expect 1 "$mode: added reads and print" probe-check $mode; then
		has "$mode: the first added read" "src/wait.cpp:15:19: error: cycle read"
		has "$mode: the second added read" "src/wait.cpp:18:23: error: cycle read"
		has "$mode: the added print" "src/wait.cpp:19:17: error: probe-style print"
		n=$(printf '%s\n' "$out" | grep -c 'src/wait.cpp')
		[ "$n" -eq 3 ] && ok "$mode: only the added lines" || fail "$mode: $n findings, expected 3: $out"
	fi
done
run_expect 1 "the full run also fails now (the print is a sign)" probe-check src/wait.cpp
# structural rules see the whole file: an enabled probe outside the added lines
git commit -qm "wait instrumented" && base=$(git rev-parse HEAD)
kernel src/k2.cpp && probe-inject --probe STAGE_A --no-base src/k2.cpp && git add src/k2.cpp &&
	git commit -qm "k2 with an enabled probe" || fail "commit k2"
echo '// a comment' >>src/k2.cpp && git add src/k2.cpp
run_expect 1 "--staged: an enabled probe anywhere in a changed file" probe-check --staged &&
	has "--staged: structural finding off the added lines" "src/k2.cpp:10:5: error: probe 'STAGE_A' is enabled"
run_expect 2 "--diff-base with no such commit" probe-check --diff-base no-such-rev &&
	has "--diff-base: names the commit" "--diff-base: 'no-such-rev' is not a commit"
run_expect 2 "--staged and --diff-base together" probe-check --staged --diff-base HEAD
git reset -q

# a NUL byte in a staged file does not hide its enabled probe; a binary
# file without a marker is skipped and said so
git checkout -q -- . 2>/dev/null
cp src/k.cpp src/k3.cpp
probe-inject --probe STAGE_A --no-base src/k3.cpp
printf 'const char nul[] = "a\0b";\n' >>src/k3.cpp
printf 'int y;\0\n' >src/blob.cpp
git add src/k3.cpp src/blob.cpp
if run_expect 1 "--staged: an enabled probe in a file holding a NUL byte" probe-check --staged; then
	has "--staged: the probe beside a NUL byte" "src/k3.cpp:10:5: error: probe 'STAGE_A' is enabled"
	has "--staged: the skipped binary file is named" "note: src/blob.cpp: skipped: a binary file"
fi
git reset -q
rm -f src/k3.cpp src/blob.cpp

# usage errors
cd "$scratch" || exit 1
mkdir plain
(cd plain && run_expect 2 "--staged outside a git work tree" probe-check --staged &&
	has "not a work tree message" "probekit: --staged: not inside a git work tree") ||
	fail "--staged outside a git work tree"
finish
