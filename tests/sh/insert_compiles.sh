#!/bin/bash
# insert_compiles.sh BIN_DIR SRC_DIR - "the tool never writes code that does
# not compile": for every golden insertion whose input
# compiles against the built-in stubs, the output compiles too, with the
# probe enabled, warnings as errors.
set -u
src=$(cd "$2" && pwd)
cxx=$(command -v clang++-14 || command -v clang++) || { echo "no clang++"; exit 2; }
flags=(-fsyntax-only -x c++ -std=c++17 -Wall -Wextra -Werror -Wno-unused-parameter
	-Wno-unused-variable -Wno-unused-function -Wno-unused-const-variable -idirafter "$src/rules/stubs")
err=$(mktemp "${TMPDIR:-/tmp}/pk-insert-cc.XXXXXX")
trap 'rm -f "$err"' EXIT
fail=0 n=0 skipped=0
for out in "$src"/testdata/insert/*/expected/*.cpp; do
	dir=$(dirname "$(dirname "$out")")
	input=$dir/$(basename "$out")
	[ -f "$input" ] || input=$dir/k.cpp
	# a case's own headers (a runtime's tensor.h, intrinsic.h) beside its input
	if ! "$cxx" "${flags[@]}" -I "$dir" "$input" 2>/dev/null; then
		skipped=$((skipped + 1)) # the input itself needs more than the stubs
		continue
	fi
	n=$((n + 1))
	if ! "$cxx" "${flags[@]}" -I "$dir" "$out" 2>"$err"; then
		echo "FAIL ${out#$src/} does not compile:"; head -5 "$err"; fail=1
	fi
done
[ $n -gt 30 ] || { echo "FAIL only $n outputs checked"; fail=1; }
[ $fail = 0 ] && echo "ok: $n inserted files compile ($skipped inputs need more than the stubs)"
exit $fail
