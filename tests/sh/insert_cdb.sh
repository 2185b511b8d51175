#!/bin/bash
# insert_cdb.sh BIN_DIR SRC_DIR - probe-inject -p BUILD_DIR parses with the
# flags of compile_commands.json (relative -I against the entry's directory,
# Ascend flags rewritten), and `-- ARGS` adds compiler arguments; without
# them the parse warns.
set -u
bin=$(cd "$1" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pk-insert-cdb.XXXXXX")
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
# without the flags the header is missing: a warning, and the statement is
# still found from its tokens
if ! "$bin/probe-inject" --probe T --no-base --around TileOp --stdout src/k.cpp >out 2>err; then
	echo "FAIL not inserted without the build's flags:"; cat err; fail=1
fi
grep -q "could not parse" err || { echo "FAIL no parse warning without flags:"; cat err; fail=1; }
cmp -s src/k.cpp orig.cpp || { echo "FAIL --stdout changed the file"; fail=1; }

if ! "$bin/probe-inject" --probe T --no-base -p build --around TileOp src/k.cpp 2>err; then
	echo "FAIL -p build:"; cat err; fail=1
fi
[ -s err ] && { echo "FAIL -p build printed:"; cat err; fail=1; }
grep -q '^#if 1  // TIMING_PROBE: T$' src/k.cpp || { echo "FAIL -p build: no probe written"; fail=1; }

cp orig.cpp src/k.cpp
if ! "$bin/probe-inject" --probe T --no-base --around TileOp --stdout src/k.cpp -- -Isrc/inc -DTILE=8 >out 2>err; then
	echo "FAIL -- extra args:"; cat err; fail=1
fi
grep -q 'TIMING_PROBE: T$' out || { echo "FAIL -- extra args: no probe in the output"; fail=1; }

"$bin/probe-inject" --probe T --no-base -p "$scratch/nowhere" --around TileOp src/k.cpp 2>err
[ $? = 2 ] && grep -q 'no compile_commands.json' err || { echo "FAIL missing database:"; cat err; fail=1; }
[ $fail = 0 ] && echo "ok: -p and -- give the parse its flags"
exit $fail
