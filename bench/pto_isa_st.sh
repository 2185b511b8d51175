#!/usr/bin/env bash
# pto_isa_st.sh PTO_ISA_TREE [BUILD_DIR] [CASE...] - pto-isa's own CPU system
# test of an instruction (default: tsort32), unchanged, against this project's
# CPU simulation: its main.cpp and kernel are compiled as pto-isa compiles its
# CPU tests (its flags: -std=c++20 -D__CPU_SIM -O2 -D_FORTIFY_SOURCE=2 ...,
# its tests/common on the include path) but with kernels/sim/include instead
# of pto-isa's headers, linked with libpksim, its gen_data.py run for the
# inputs and goldens (needs python3-numpy), and every gtest case run in its
# own process. Prints one line per case; exit 1 if a case does not build.
# The tree is read only: everything is built under BUILD_DIR/pto-isa-st.
# PTO_ISA_REV=COMMIT names the tree's commit when it is not a git work tree.
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
rev=${PTO_ISA_REV:-$(git -C "$tree" rev-parse HEAD 2>/dev/null || echo "not a git work tree; PTO_ISA_REV=COMMIT names it")}
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
	# pto-isa's flags for its CPU STs (tests/cpu/st/CMakeLists.txt, a Release
	# build with GCC before 14); only the include path of its headers differs
	if ! $cxx -std=c++20 -D__CPU_SIM -D_FORTIFY_SOURCE=2 -Wno-macro-redefined -Wno-ignored-attributes \
		-fstack-protector-strong -O2 -I"$here/kernels/sim/include" -I"$tree/tests/common" \
		-xc++ -include stdint.h -include stddef.h "$src"/main.cpp $(ls "$src/${c}_kernel.cpp" 2>/dev/null) \
		-x none "$lib" -lgtest -lgtest_main -pthread -lm -ldl -Wl,-z,relro -Wl,-z,now \
		-o "$work/bin/$c" 2>"$work/build.log"; then
		echo "$c: does not compile against the simulation:"
		grep -m10 'error' "$work/build.log"
		status=1
		continue
	fi
	echo "$c: compiles unchanged and links"
	# one process per gtest case: a case the simulation aborts does not hide the others
	for t in $(cd "$work/bin" && ./"$c" --gtest_list_tests | awk '/^[^ ]/ { s = $1 } /^  / { print s $1 }'); do
		# the subshell's own stderr (bash's "Aborted" notice) is not the case's
		(cd "$work/bin" && ./"$c" --gtest_filter="$t" >"$work/$t.log" 2>&1; echo $? >"$work/$t.rc") 2>/dev/null
		rc=$(cat "$work/$t.rc")
		if [ $rc = 0 ]; then
			# pto-isa's comparison has a tolerance (and lets an expected -inf
			# through); say also whether the output is its golden byte for byte
			same="output.bin differs from golden.bin in bytes"
			cmp -s "$work/$t/output.bin" "$work/$t/golden.bin" 2>/dev/null && same="output.bin byte-identical to golden.bin"
			echo "  $t: passed; $same"
		else
			echo "  $t: exit $rc: $(grep -m1 -E 'pksim:|Failure|FAILED' "$work/$t.log")"
		fi
	done
done
exit $status
