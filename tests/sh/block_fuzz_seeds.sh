#!/usr/bin/env bash
# Every seed of the fuzz corpora (tests/fuzz/corpus/*, with the inputs that
# once found bugs) still passes every property of the fuzz targets: builds
# them with bench/fuzz.sh and replays the seeds, deterministic (no random
# fuzzing here; bench/fuzz.sh SECONDS does that).
#   bash tests/sh/block_fuzz_seeds.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
cc=${CC:-clang-14}
command -v "$cc" >/dev/null || skip "$cc is not installed (the fuzz targets need clang's libFuzzer)"
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$scratch/probe.c"
"$cc" -fsanitize=fuzzer "$scratch/probe.c" -o "$scratch/probe" 2>/dev/null ||
	skip "$cc cannot link -fsanitize=fuzzer (install libclang-rt-14-dev)"
if FUZZ_OUT="$scratch/fuzz" CC="$cc" bash "$src/bench/fuzz.sh" 0 >"$scratch/out" 2>&1; then
	ok "every seed passes: $(tail -n +2 "$scratch/out" | awk '{printf "%s %s seeds; ", $1, $3}')"
else
	fail "bench/fuzz.sh 0 (seed replay) failed"
	cat "$scratch/out" >&2
	tail -30 "$scratch/fuzz/logs/"*.log >&2 2>/dev/null
fi
finish
