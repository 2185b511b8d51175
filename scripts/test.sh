#!/usr/bin/env bash
# Build and run the whole suite twice: a normal build, a brief fuzz run, then
# everything again under ASan+UBSan.
#   scripts/test.sh            both
#   scripts/test.sh --fast     the normal build only
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
run() {
  local dir=$1; shift
  cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
  cmake --build "$dir" -j"$jobs"
  ctest --test-dir "$dir" --output-on-failure -j"$jobs"
}
echo "== normal build (build/)"
run build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPROBEKIT_KERNELS=ON -DPROBEKIT_WERROR=ON
if [ "${1:-}" != "--fast" ]; then
  echo "== fuzzing, briefly (libFuzzer, ASan+UBSan; bench/fuzz.sh runs longer)"
  FUZZ_OUT=build-fuzz bash bench/fuzz.sh "${PROBEKIT_FUZZ_SECONDS:-20}"
  echo "== ASan+UBSan build (build-asan/)"
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  run build-asan -DCMAKE_BUILD_TYPE=Debug -DPROBEKIT_SANITIZE=ON -DPROBEKIT_KERNELS=ON -DPROBEKIT_WERROR=ON
fi
