#!/usr/bin/env bash
# timing_samefile.sh - a timing-tensor run that names one file in two roles
# (the same path twice, a symbolic link, a hard link, a pypto --host
# model.py:EXTERN with --edit model.py) ends at once with exit 2, naming both
# roles, and changes nothing; it used to wait for ever on its own lock. Each
# run is bounded by timeout(1), so a hang fails the test instead of hanging it.
#   bash tests/sh/timing_samefile.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
command -v timeout >/dev/null || skip "no timeout(1)"
cd "$scratch" || exit 1
cp -r "$src/testdata/timing/simpler-tasks" st
cp -r "$src/testdata/timing/pypto-callers" pc
cp -r st st.orig
cp -r pc pc.orig
# bounded WHAT DIR ARGS...: probe-inject ARGS in DIR ends within 30 s with exit 2
bounded() {
	local what=$1 dir=$2
	shift 2
	local rc=0
	(cd "$dir" && timeout 30 "$bin/probe-inject" "$@") >out.txt 2>err.txt || rc=$?
	case $rc in
	2) grep -q "are one file" err.txt && ok "$what: refused, naming the roles" ||
		fail "$what: exit 2 without naming the roles: $(cat err.txt)" ;;
	124) fail "$what: still running after 30 s (waits on its own lock)" ;;
	*) fail "$what: exit $rc: $(cat err.txt)" ;;
	esac
}
tt=(--timing-tensor --slots 8 --host kernels/orchestration/scale_orch.cpp)
bounded "--host and --test-script the same path" st "${tt[@]}" \
	--test-script kernels/orchestration/scale_orch.cpp kernels/aiv/kernel_scale.cpp
ln -s test_scale.py st/t2.py
bounded "--edit a symbolic link to the test script" st "${tt[@]}" --test-script test_scale.py --edit t2.py \
	kernels/aiv/kernel_scale.cpp
ln st/test_scale.py st/t3.py
bounded "--test-script a hard link of an --edit file" st "${tt[@]}" --test-script t3.py --edit test_scale.py \
	kernels/aiv/kernel_scale.cpp
bounded "--edit the kernel itself" st "${tt[@]}" --test-script test_scale.py --edit kernels/aiv/kernel_scale.cpp \
	kernels/aiv/kernel_scale.cpp
bounded "pypto --host model.py:EXTERN with --edit model.py" pc --timing-tensor --slots 8 \
	--host norm_externs.py:row_norm_cce --edit norm_externs.py kernels/norm_cce/entry/entry.cpp
rm -f st/t2.py st/t3.py
diff -r st.orig st >/dev/null && ok "the simpler files are unchanged" || fail "a refused run changed files: $(diff -r st.orig st)"
diff -r pc.orig pc >/dev/null && ok "the pypto files are unchanged" || fail "a refused run changed files"
no_temp_files st
no_temp_files pc
finish
