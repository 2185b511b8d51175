#!/usr/bin/env bash
# timing_samefile.sh - a timing-tensor run that names one file in two roles
# (the same path twice, a symbolic link, a hard link) loads it once, as one
# input: it used to wait for ever on its own lock, then was refused. Each
# case runs bounded by timeout(1), so a hang fails the test instead of
# hanging it, and its files must come out as the run naming each file once
# writes them (the golden case's expected/ tree). Roles that read one file as
# C++ and as Python (an orchestration given as the test script) are refused,
# naming both, and nothing changes.
#   bash tests/sh/timing_samefile.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
command -v timeout >/dev/null || skip "no timeout(1)"
cd "$scratch" || exit 1
# bounded WANT WHAT DIR ARGS...: probe-inject ARGS in DIR ends within 30 s with exit WANT
bounded() {
	local want=$1 what=$2 dir=$3
	shift 3
	local rc=0
	(cd "$dir" && timeout 30 "$bin/probe-inject" "$@") >out.txt 2>err.txt || rc=$?
	case $rc in
	"$want") ok "$what: exit $want" ;;
	124) fail "$what: still running after 30 s (waits on its own lock)" ;;
	*) fail "$what: exit $rc, expected $want: $(cat err.txt)" ;;
	esac
}
# fresh CASE DIR: a copy of golden case CASE's inputs in DIR
fresh() {
	rm -rf "$2"
	cp -r "$src/testdata/timing/$1" "$2"
	rm -rf "$2/expected" "$2/args" "$2/expected.err" "$2/exit"
}
# as_golden WHAT CASE DIR [FILE=AS...]: every file of CASE's expected/ tree
# is in DIR as expected (FILE=AS: expected/FILE is checked as DIR/AS, and the
# event map, which names the files the run changed, names AS for FILE)
as_golden() {
	local what=$1 case=$2 exp=$src/testdata/timing/$2/expected dir=$3 bad=0 f
	shift 3
	while IFS= read -r f; do
		local got=$f m rename=(-e '')
		for m in "$@"; do
			[ "${m%%=*}" = "$f" ] && got=${m#*=}
			rename+=(-e "s|/${m%%=*}\"|/${m#*=}\"|")
		done
		case $f in
		*.timing.json) sed "${rename[@]}" "$exp/$f" | cmp -s - "$dir/$got" ;;
		*) cmp -s "$exp/$f" "$dir/$got" ;;
		esac || { bad=1; fail "$what: $got differs from the golden $case/expected/$f"; }
	done < <(cd "$exp" && find . -type f | sed 's|^\./||')
	[ "$bad" = 0 ] && ok "$what: files as the golden case $case writes them"
}
st=(--timing-tensor --slots 8 --host kernels/orchestration/scale_orch.cpp)
k=kernels/aiv/kernel_scale.cpp

fresh simpler-tasks st
ln -s test_scale.py st/t2.py
bounded 0 "--edit a symbolic link to the test script" st "${st[@]}" --test-script test_scale.py --edit t2.py "$k"
as_golden "--edit a symbolic link to the test script" simpler-tasks st

fresh simpler-tasks st
ln st/test_scale.py st/t3.py
bounded 0 "--test-script a hard link of an --edit file" st "${st[@]}" --test-script t3.py --edit test_scale.py "$k"
# the run writes the file under its first name (atomic rename: the other link keeps the old bytes)
as_golden "--test-script a hard link of an --edit file" simpler-tasks st test_scale.py=t3.py

fresh simpler-tasks st
bounded 0 "--edit the kernel itself" st "${st[@]}" --test-script test_scale.py --edit "$k" "$k"
as_golden "--edit the kernel itself" simpler-tasks st

fresh simpler-tasks st
ln -s "$k" st/same.cpp
bounded 0 "--edit the kernel through a link, twice" st "${st[@]}" --test-script test_scale.py --edit same.cpp \
	--edit "$k" "$k"
as_golden "--edit the kernel through a link, twice" simpler-tasks st

fresh direct-launch dl
ln -s scale.asc dl/launch.asc
bounded 0 "the kernel as --host through a symbolic link" dl --timing-tensor --slots 8 --host launch.asc scale.asc
as_golden "the kernel as --host through a symbolic link" direct-launch dl
[ -L dl/launch.asc ] && ok "the link stays a link" || fail "the link was replaced by a file"

fresh direct-launch dl
cp -r dl dl.orig
bounded 2 "the kernel as --host with --host-out" dl --timing-tensor --slots 8 --host scale.asc --host-out h.asc \
	-o out.asc scale.asc
grep -q "leave out --host-out" err.txt && ok "the refusal says to leave out --host-out" ||
	fail "the refusal does not say what to do: $(cat err.txt)"
diff -r dl.orig dl >/dev/null && ok "the refused run wrote nothing" || fail "a refused run changed files"

fresh pypto-callers pc
ln -s norm_externs.py pc/ne.py
bounded 0 "pypto --edit naming the --host file through a link" pc --timing-tensor --slots 8 \
	--host norm_externs.py:row_norm_cce --edit layer.py --edit ne.py kernels/norm_cce/entry/entry.cpp
as_golden "pypto --edit naming the --host file through a link" pypto-callers pc

fresh pypto-callers pc
bounded 0 "pypto --edit naming the --host file and a caller twice" pc --timing-tensor --slots 8 \
	--host norm_externs.py:row_norm_cce --edit norm_externs.py --edit layer.py --edit ./layer.py \
	kernels/norm_cce/entry/entry.cpp
as_golden "pypto --edit naming the --host file and a caller twice" pypto-callers pc

fresh simpler-tasks st
cp -r st st.orig
bounded 2 "--host and --test-script the same path" st "${st[@]}" \
	--test-script kernels/orchestration/scale_orch.cpp "$k"
grep -q "named as --host and as --test-script" err.txt && ok "the refusal names both roles" ||
	fail "the refusal does not name both roles: $(cat err.txt)"
diff -r st.orig st >/dev/null && ok "the refused run changed nothing" || fail "a refused run changed files"
no_temp_files st
no_temp_files pc
no_temp_files dl
finish
