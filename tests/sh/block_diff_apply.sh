#!/usr/bin/env bash
# --diff writes what git diff writes: '--- a/PATH' and '+++ b/PATH', so
# `git apply` and `patch -p1` take it and give the same bytes as the
# in-place rewrite; it exits 1 when it shows changes, 0 when none.
#   bash tests/sh/block_diff_apply.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
command -v git >/dev/null || skip "no git"
cd "$scratch" || exit 1
git init -q repo && cd repo || exit 1
mkdir sub
kernel sub/k.cpp
kernel top.cpp
git add . && git -c user.name=t -c user.email=t@t commit -qm base
probe-inject --probe STAGE_A --stdout sub/k.cpp >../want-k.cpp
probe-inject --probe STAGE_A --stdout top.cpp >../want-top.cpp

probe-inject --probe STAGE_A --diff sub/k.cpp ./top.cpp >../p.diff
rc=$?
[ "$rc" = 1 ] && ok "--diff with changes: exit 1" || fail "--diff with changes: exit $rc"
head -2 ../p.diff | grep -qx -- '--- a/sub/k.cpp' && ok "a/ prefix" || fail "first header: $(head -1 ../p.diff)"
grep -qx -- '+++ b/top.cpp' ../p.diff && ok "b/ prefix, ./ dropped" || fail "no '+++ b/top.cpp'"
if out=$(git apply --check ../p.diff 2>&1) && git apply ../p.diff; then
	ok "git apply takes it"
	same "git apply gives the rewrite (sub/k.cpp)" ../want-k.cpp sub/k.cpp
	same "git apply gives the rewrite (top.cpp)" ../want-top.cpp top.cpp
else
	fail "git apply refused the diff: $out"
fi
git checkout -q -- .
if command -v patch >/dev/null; then
	patch -s -p1 <../p.diff && ok "patch -p1 takes it" || fail "patch -p1 refused the diff"
	same "patch -p1 gives the rewrite" ../want-k.cpp sub/k.cpp
	git checkout -q -- .
fi

out=$(probe-strip --stdout top.cpp >top.stripped && probe-strip --diff top.stripped)
rc=$?
[ "$rc" = 0 ] && ok "--diff with nothing to change: exit 0" || fail "--diff, nothing to change: exit $rc"
[ -z "$out" ] && ok "--diff with nothing to change prints nothing" || fail "printed: $out"
# an absolute path: the leading / is dropped, as git diff --no-index does
probe-inject --probe STAGE_A --diff "$PWD/top.cpp" >../abs.diff
grep -qx -- "--- a/${PWD#/}/top.cpp" ../abs.diff && ok "absolute path: a/ without a double slash" || fail "absolute: $(head -1 ../abs.diff)"
finish
