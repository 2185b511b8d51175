#!/usr/bin/env bash
# pto_isa_st.sh PTO_ISA_TREE [BUILD_DIR] [CASE...] - pto-isa's own CPU system
# test of an instruction (default: tsort32), unchanged, against this project's
# CPU simulation: its main.cpp and kernel are compiled as pto-isa compiles its
# CPU tests (-std=c++20 -D__CPU_SIM, its tests/common on the include path) but
# with kernels/sim/include instead of pto-isa's headers, linked with libpksim,
# its gen_data.py run for the inputs and goldens (needs python3-numpy), and
# every gtest case run in its own process. Prints one line per case.
# The tree is read only: everything is built under BUILD_DIR/pto-isa-st.
#   bench/pto_isa_st.sh /path/to/pto-isa build tsort32
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tree=$(cd "${1:?usage: bench/pto_isa_st.sh PTO_ISA_TREE [BUILD_DIR] [CASE...]}" && pwd)
build=$(cd "${2:-$here/build}" && pwd)
shift $(($# >= 2 ? 2 : 1))
cases=${*:-tsort32}
lib=$build/kernels/libpksim.a
[ -f "$lib" ] || { echo "no $lib: configure with -DPROBEKIT_KERNELS=ON and build" >&2; exit 2; }
# Debian's python3-numpy is for Debian's python3, whatever python3 PATH finds
py=${PYTHON:-python3}
$py -c 'import numpy' 2>/dev/null || py=/usr/bin/python3
$py -c 'import numpy' 2>/dev/null || { echo "gen_data.py needs numpy: apt-get install python3-numpy" >&2; exit 2; }
[ -f /usr/include/gtest/gtest.h ] || { echo "needs googletest: apt-get install libgtest-dev" >&2; exit 2; }
cxx=${CXX:-g++}
rev=$(git -C "$tree" rev-parse HEAD 2>/dev/null || echo "not a git work tree")
echo "pto-isa at $tree ($rev); simulation $lib"
status=0
for c in $cases; do
	src=$tree/tests/cpu/st/testcase/$c
	[ -f "$src/main.cpp" ] || { echo "$c: no $src/main.cpp"; status=1; continue; }
	work=$build/pto-isa-st/$c
	rm -rf "$work"
	mkdir -p "$work/bin"
	# the goldens go to ../<Suite>.<case> from the binary's directory
	(cd "$work" && $py "$src/gen_data.py" >gen.log 2>&1) || { echo "$c: gen_data.py failed"; status=1; continue; }
	if ! $cxx -std=c++20 -D__CPU_SIM -O1 -I"$here/kernels/sim/include" -I"$tree/tests/common" \
		"$src"/*.cpp "$lib" -lgtest -lgtest_main -pthread -o "$work/bin/$c" 2>"$work/build.log"; then
		echo "$c: does not compile against the simulation:"
		grep -m10 'error' "$work/build.log"
		status=1
		continue
	fi
	echo "$c: compiles unchanged and links"
	# one process per gtest case: a case the simulation aborts does not hide the others
	for t in $(cd "$work/bin" && ./"$c" --gtest_list_tests | awk '/^[^ ]/ { s = $1 } /^  / { print s $1 }'); do
		(cd "$work/bin" && ./"$c" --gtest_filter="$t" >"$work/$t.log" 2>&1)
		rc=$?
		if [ $rc = 0 ]; then
			echo "  $t: passed"
		else
			echo "  $t: exit $rc: $(grep -m1 -E 'pksim:|Failure|FAILED' "$work/$t.log")"
		fi
	done
done
exit $status
