#!/usr/bin/env bash
# probe-check --staged checks what is in the git index, not the work tree
# (issue #2 item 9), in a throw-away repository.
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
# from a subdirectory the whole index is still checked
(cd src/sub && run_expect 1 "--staged from a subdirectory" probe-check --staged) || fail "--staged from a subdirectory"

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

# usage errors
run_expect 2 "--staged with paths" probe-check --staged src/k.cpp && has "--staged with paths: message" "--staged"
cd "$scratch" || exit 1
mkdir plain
(cd plain && run_expect 2 "--staged outside a git work tree" probe-check --staged &&
	has "not a work tree message" "probekit: --staged: not inside a git work tree") ||
	fail "--staged outside a git work tree"
finish
