#!/bin/bash
# insert_cdb_file.sh BIN_DIR SRC_DIR - -p takes the build directory or the
# compile_commands.json file itself (as clang-tidy and clang-check do); a
# file of another name is refused with what -p takes, nothing written.
set -u
bin=$(cd "$1" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pk-insert-cdb-file.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail=0
mkdir -p "$scratch/src/inc" "$scratch/build"
cat >"$scratch/src/inc/tile_ops.h" <<'H'
#pragma once
void TileOp(int n);
H
cat >"$scratch/src/k.cpp" <<'K'
#include "kernel_operator.h"
#include "tile_ops.h"
using namespace AscendC;

__aicore__ inline void Run()
{
    TileOp(TILE);
}
K
cp "$scratch/src/k.cpp" "$scratch/orig.cpp"
cat >"$scratch/build/compile_commands.json" <<J
[{"directory": "$scratch/src",
  "file": "$scratch/src/k.cpp",
  "command": "ccec -x cce --cce-aicore-arch=dav-c220-vec -O2 -Iinc -DTILE=64 -c k.cpp -o k.o"}]
J
cd "$scratch" || exit 2
for p in build/compile_commands.json "$scratch/build/compile_commands.json"; do
	cp orig.cpp src/k.cpp
	if ! "$bin/probe-inject" --probe T --no-base -p "$p" --around TileOp src/k.cpp 2>err; then
		echo "FAIL -p $p:"; cat err; fail=1
	fi
	grep -q '^#if 1  // TIMING_PROBE: T$' src/k.cpp || { echo "FAIL -p $p: no probe written"; fail=1; }
done
# the file in the current directory: -p compile_commands.json (no slash)
cp orig.cpp src/k.cpp
cp build/compile_commands.json .
"$bin/probe-inject" --probe T --no-base -p compile_commands.json --around TileOp src/k.cpp 2>err ||
	{ echo "FAIL -p compile_commands.json:"; cat err; fail=1; }
rm compile_commands.json
grep -q '^#if 1  // TIMING_PROBE: T$' src/k.cpp || { echo "FAIL -p compile_commands.json: no probe"; fail=1; }
cp orig.cpp src/k.cpp
cp build/compile_commands.json build/other.json
"$bin/probe-inject" --probe T --no-base -p build/other.json --around TileOp src/k.cpp 2>err
rc=$?
[ $rc = 2 ] && grep -q 'other.json: -p takes a build directory or its compile_commands.json' err ||
	{ echo "FAIL -p other.json: exit $rc:"; cat err; fail=1; }
cmp -s src/k.cpp orig.cpp || { echo "FAIL a refused -p changed the file"; fail=1; }
[ $fail = 0 ] && echo "ok: -p takes the directory or the compile_commands.json file"
exit $fail
