#!/usr/bin/env bash
# probe-check walks a directory the way git sees it: tracked and
# untracked-not-ignored files (.gitignore, .git/info/exclude, the global
# excludes), .probekitignore on top, nested repositories by their own rules,
# one git process per repository; --no-ignore walks everything; a named file
# is always checked. (Outside git: testdata/check/walk_*.)
#   bash tests/sh/check_walk.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
command -v git >/dev/null || skip "git is not installed"
cd "$scratch" || exit 1
export GIT_CONFIG_NOSYSTEM=1 HOME="$scratch" GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com \
	GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
left() { # left FILE: a kernel with an enabled probe (a finding whatever the rules' heuristics)
	mkdir -p "$(dirname "$1")"
	kernel "$1"
	probe-inject --probe STAGE_A --no-base "$1" >/dev/null
}
# lists WHAT WANT...: the files with findings in $out are exactly WANT
lists() {
	local what=$1 got want
	shift
	got=$(printf '%s\n' "$out" | grep -o '^[^:]*' | sort -u | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort -u | tr '\n' ' ')
	[ "$got" = "$want" ] && ok "$what" || fail "$what: got [$got], expected [$want]"
}

git init -q repo && cd repo || exit 1
left src/a.cpp
left build/gen/a_probe_STAGE_A.cpp # what an in-tree build generates
left src/local.cpp                  # excluded in .git/info/exclude
left src/global.cpp                 # excluded by the global excludes file
left src/forced.cpp                 # ignored, but tracked (git add -f)
left vendor/v.cpp                   # tracked, skipped by .probekitignore
left src/untracked.cpp              # untracked, not ignored: checked
printf 'build/\nforced.cpp\n' >.gitignore
echo 'src/local.cpp' >>.git/info/exclude
printf '[core]\n\texcludesFile = %s/global-ignore\n' "$scratch" >"$HOME/.gitconfig"
echo 'global.cpp' >"$scratch/global-ignore"
echo '/vendor/' >.probekitignore
git add .gitignore .probekitignore src/a.cpp vendor/v.cpp && git add -f src/forced.cpp && git commit -qm base ||
	fail "commit"

run_expect 1 "walk as git sees it" probe-check . &&
	lists "tracked + untracked-not-ignored, minus .probekitignore" ./src/a.cpp ./src/forced.cpp ./src/untracked.cpp
run_expect 1 "a subdirectory: the root's .probekitignore still applies" probe-check vendor src &&
	lists "subdirectories" src/a.cpp src/forced.cpp src/untracked.cpp
run_expect 1 "--no-ignore walks everything" probe-check --no-ignore . &&
	lists "--no-ignore" ./build/gen/a_probe_STAGE_A.cpp ./src/a.cpp ./src/forced.cpp ./src/global.cpp \
		./src/local.cpp ./src/untracked.cpp ./vendor/v.cpp
run_expect 1 "a named ignored file is checked" probe-check build/gen/a_probe_STAGE_A.cpp src/local.cpp &&
	lists "named files" build/gen/a_probe_STAGE_A.cpp src/local.cpp
run_expect 1 "--exclude in git" probe-check --exclude 'forced*' --exclude untracked.cpp . &&
	lists "--exclude" ./src/a.cpp

# a nested repository (untracked in the outer one) follows its own ignores
git init -q inner
left inner/k.cpp
left inner/out/k_probe.cpp
echo 'out/' >inner/.gitignore
git -C inner add .gitignore k.cpp && git -C inner commit -qm inner || fail "inner commit"
# and a nested directory whose .gitignore is the outer repository's business
run_expect 1 "nested repository" probe-check . &&
	lists "nested repository: its tracked files, not its ignored ones" ./inner/k.cpp ./src/a.cpp \
		./src/forced.cpp ./src/untracked.cpp

# one git process per repository, not per directory
mkdir -p many && for i in $(seq 1 40); do mkdir -p "many/d$i/e" && echo 'int x;' >"many/d$i/e/k.cpp"; done
real_git=$(command -v git)
mkdir -p "$scratch/shim" && cat >"$scratch/shim/git" <<SH
#!/bin/sh
echo "\$*" >>"$scratch/git.log"
exec "$real_git" "\$@"
SH
chmod +x "$scratch/shim/git"
PATH="$scratch/shim:$PATH" run_expect 1 "walk with a counting git" probe-check .
n=$(grep -c 'ls-files' "$scratch/git.log")
[ "$n" -eq 2 ] && ok "two repositories, two git ls-files" || fail "git ls-files ran $n times for 2 repositories"
n=$(wc -l <"$scratch/git.log")
[ "$n" -le 2 ] && ok "no other git process in a walk" || fail "$n git processes: $(cat "$scratch/git.log")"

# outside git (no .git above): .gitignore is still honoured
cd "$scratch" && mkdir plain && cd plain || exit 1
left src/a.cpp
left build/b.cpp
echo 'build/' >.gitignore
run_expect 1 "outside git" probe-check . && lists "outside git: .gitignore honoured" ./src/a.cpp
finish
