#!/usr/bin/env bash
# timing_roundtrip.sh BIN_DIR SRC_DIR - probe-inject --timing-tensor then
# probe-strip gives back every kernel and host file byte for byte; what the
# injection writes compiles; probe-check flags it and passes the restored file.
set -euo pipefail
bin=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
cxx=${CXX:-c++}
check() { # NAME CMD... : run, report on failure
  local name=$1; shift
  if ! "$@" >"$work/out" 2>&1; then
    echo "FAIL $name: $*"; sed 's/^/    /' "$work/out"; fail=1
  fi
}

# every kernel of the golden cases that the injector accepts
for dir in "$src"/testdata/timing/*/; do
  name=$(basename "$dir")
  [ -f "$dir/kernel.cpp" ] || continue
  grep -q '^probe-inject' "$dir/args" || continue
  [ ! -f "$dir/exit" ] || continue
  d="$work/$name"; mkdir -p "$d"; cp "$dir/kernel.cpp" "$d/"; cp "$dir"/*.h "$d/" 2>/dev/null || true
  [ ! -f "$dir/host.cpp" ] || cp "$dir/host.cpp" "$d/"
  host=(--host-by-hand); [ ! -f "$d/host.cpp" ] || host=(--host "$d/host.cpp" --host-out "$d/host.tt.cpp" --slots 8)
  # a case naming the core type (a mixed kernel under a profile without a C++ AIC test)
  ! grep -q -- '--core-type' "$dir/args" || host+=($(grep -o -- '--core-type [a-z]*' "$dir/args"))
  # line:1000000 matches no statement: the tool must refuse and write nothing
  if "$bin/probe-inject" --timing-tensor --event done:phase=line:1000000 "$d/kernel.cpp" -o "$d/tt.cpp" \
       "${host[@]}" 2>/dev/null || [ -e "$d/tt.cpp" ] || [ -e "$d/host.tt.cpp" ]; then
    echo "FAIL $name: a refused injection wrote output"; fail=1
  fi
  check "$name: inject" "$bin/probe-inject" --timing-tensor "$d/kernel.cpp" -o "$d/tt.cpp" "${host[@]}"
  # bisheng-only spellings ([aicore], __mix__) do not compile with the host compiler
  grep -q '\[aicore\]\|__mix__' "$d/kernel.cpp" ||
  check "$name: compiles" "$cxx" -std=c++17 -fsyntax-only -Wall -Wextra -Wno-unused-parameter -Wno-unused-variable -I"$d" -I"$src/rules/stubs" "$d/tt.cpp"
  check "$name: check flags it" bash -c "! '$bin/probe-check' '$d/tt.cpp' >/dev/null"
  check "$name: strip" "$bin/probe-strip" "$d/tt.cpp" -o "$d/back.cpp"
  check "$name: restored" cmp "$d/kernel.cpp" "$d/back.cpp"
  check "$name: restored passes check" "$bin/probe-check" "$d/back.cpp"
  if [ -f "$d/host.cpp" ]; then
    check "$name: host strip" "$bin/probe-strip" --timing-tensor "$d/host.tt.cpp" -o "$d/host.back.cpp"
    check "$name: host restored" cmp "$d/host.cpp" "$d/host.back.cpp"
  fi
done

# events inside helpers: the kernel and the edited header come back byte for byte
d="$work/helpers"; mkdir -p "$d/gen"
cp "$src"/testdata/timing/helper-events/{kernel.cpp,stages.h,kernel_api.h} "$d/"
check "helpers: inject" "$bin/probe-inject" --timing-tensor --event producer_done=after:Produce@Stage \
  --event collective_arrival=before:CrossCoreSetFlag@Exchange --event drained:drain=after:pipe_barrier@Drain \
  --edit "$d/stages.h" --host-by-hand "$d/kernel.cpp" -o "$d/gen/kernel.cpp"
check "helpers: compiles" "$cxx" -std=c++17 -fsyntax-only -Wall -Wextra -Wno-unused-parameter -I"$d/gen" -I"$d" "$d/gen/kernel.cpp"
check "helpers: header edited" bash -c "! cmp -s '$d/stages.h' '$d/gen/stages.h'"
for f in kernel.cpp stages.h; do
  check "helpers: strip $f" "$bin/probe-strip" "$d/gen/$f" -o "$d/back.$f"
  check "helpers: restored $f" cmp "$d/$f" "$d/back.$f"
done
# a refused helper event (no path) writes neither file
if "$bin/probe-inject" --timing-tensor --host-by-hand --event p:phase=after:Produce@Nowhere --edit "$d/stages.h" \
     "$d/kernel.cpp" -o "$d/gen/none.cpp" 2>/dev/null || [ -e "$d/gen/none.cpp" ]; then
  echo "FAIL helpers: a refused injection wrote output"; fail=1
fi

# --generation and --invocation: the extra scalars come out again, kernel and host
for c in host-orchestration host-packed direct-signature; do
  d="$work/gen-$c"; mkdir -p "$d"; cp "$src/testdata/timing/$c"/*.cpp "$src/testdata/timing/$c"/*.h "$d/" 2>/dev/null
  host=(--host-by-hand); [ ! -f "$d/host.cpp" ] || host=(--host "$d/host.cpp" --host-out "$d/host.tt.cpp" --slots 8)
  # a case naming the core type (a mixed kernel under a profile without a C++ AIC test)
  ! grep -q -- '--core-type' "$dir/args" || host+=($(grep -o -- '--core-type [a-z]*' "$dir/args"))
  check "gen $c: inject" "$bin/probe-inject" --timing-tensor --generation launch_id --invocation inv --invocations 2 \
    "$d/kernel.cpp" -o "$d/tt.cpp" "${host[@]}"
  check "gen $c: compiles" "$cxx" -std=c++17 -fsyntax-only -Wall -Wextra -Wno-unused-parameter -Wno-unused-variable -I"$d" "$d/tt.cpp"
  check "gen $c: strip" "$bin/probe-strip" "$d/tt.cpp" -o "$d/back.cpp"
  check "gen $c: restored" cmp "$d/kernel.cpp" "$d/back.cpp"
  if [ -f "$d/host.cpp" ]; then
    check "gen $c: host strip" "$bin/probe-strip" --timing-tensor "$d/host.tt.cpp" -o "$d/host.back.cpp"
    check "gen $c: host restored" cmp "$d/host.cpp" "$d/host.back.cpp"
  fi
done

# kernel, host and event map go together: a host file that cannot be written
# takes back the kernel output already written
d="$work/undo"; mkdir -p "$d"
cp "$src"/testdata/timing/host-orchestration/{kernel.cpp,host.cpp,kernel_api.h} "$d/"
if "$bin/probe-inject" --timing-tensor "$d/kernel.cpp" -o "$d/out.cpp" --host "$d/host.cpp" \
     --host-out "$d/missing/host.cpp" --slots 8 2>/dev/null || [ -e "$d/out.cpp" ] || [ -e "$d/out.cpp.timing.json" ]; then
  echo "FAIL undo: a failed host write left the kernel output behind"; fail=1
fi

# the bundled kernel (direct signature, probe blocks present) against the simulation
k="$src/kernels/tsort32/tsort32_kernel.cpp"
if [ -f "$k" ]; then
  inc=(-I"$src/kernels/sim/include" -I"$src/kernels/tsort32")
  check "tsort32: inject" "$bin/probe-inject" --timing-tensor --host-by-hand "$k" -o "$work/tsort32.cpp" -- "${inc[@]}"
  check "tsort32: compiles" "$cxx" -std=c++17 -fsyntax-only -Wall -Wextra "${inc[@]}" "$work/tsort32.cpp"
  check "tsort32: strip --timing-tensor keeps the probes" "$bin/probe-strip" --timing-tensor "$work/tsort32.cpp" -o "$work/tsort32.back.cpp"
  check "tsort32: restored" cmp "$k" "$work/tsort32.back.cpp"
fi
[ $fail -eq 0 ] && echo "ok timing round trips"
exit $fail
