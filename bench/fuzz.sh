#!/usr/bin/env bash
# Fuzz the block engine, the rule loader, probe-report's readers (log,
# timing tensors, JSON) and the AST insertion (insert) and
# print, per target, how many inputs ran and how many findings there were.
#
#   bash bench/fuzz.sh [SECONDS] [TARGET...]     (default: 60 s each, all targets)
#
# SECONDS=0 only replays the seed corpus through each target (deterministic;
# tests/sh/block_fuzz_seeds.sh runs it under ctest).
# Targets live in tests/fuzz/fuzz_<name>.c; seeds in tests/fuzz/corpus/<name>/.
# Each is built with clang-14 -fsanitize=fuzzer,address,undefined (Debian's
# clang-14 and libclang-rt-14-dev) from the tool/ sources it needs, then run
# for SECONDS on a scratch copy of its seeds (the seeds in git never change).
# A finding is any crash, property failure, leak, timeout or OOM: libFuzzer
# writes the input to $FUZZ_OUT/findings/<target>-*; the script exits 1 when
# there is one, or when a target ran nothing (it died before its first input)
# or failed its seed replay. Environment: FUZZ_OUT (default build-fuzz), CC (default
# clang-14), FUZZ_JOBS (parallel fork workers per target, default 1).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
shift $(($# > 0 ? 1 : 0))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(block rules log tensor json insert)
out=${FUZZ_OUT:-$here/build-fuzz}
cc=${CC:-clang-14}
command -v "$cc" >/dev/null || { echo "fuzz.sh: $cc not found (apt-get install clang-14 libclang-rt-14-dev)" >&2; exit 2; }
mkdir -p "$out/findings" "$out/corpus" "$out/logs"
out=$(cd "$out" && pwd)

# tool sources each target links (the block engine, the rule loader, or one
# of probe-report's readers)
declare -A sources=(
	[block]="util.c buf.c edit.c emit.c journal.c scan.c marks.c timing_strip.c source.c"
	[rules]="util.c rules.c litset.c embed.c"
	[log]="util.c report_log.c"
	[tensor]="util.c report_tensor.c"
	[json]="util.c report_tensor.c report_json.c"
	[insert]="util.c buf.c edit.c emit.c journal.c scan.c marks.c timing_strip.c source.c rules.c litset.c embed.c probeset.c check_walk.c check_ignore.c
		cmd_strip.c inject_opts.c $(cd "$here/tool" && echo clang/ast_*.c)"
)
declare -A extra=(
	[block]="-dict=$here/tests/fuzz/block.dict -max_len=16384"
	[rules]="-max_len=4096"
	[log]="-dict=$here/tests/fuzz/log.dict -max_len=4096"
	[tensor]="-max_len=4096"
	[json]="-dict=$here/tests/fuzz/json.dict -max_len=4096"
	[insert]="-max_len=1024"
)

build() { # build NAME: $out/fuzz_NAME
	local t=$1 srcs=() more=()
	# the generated names the tool spells (rules/names.ini), as the CMake build makes them
	cmake -DIN="$here/rules/names.ini" -DOUT="$out/names.h" -P "$here/cmake/NamesHeader.cmake" || return 1
	for s in ${sources[$t]}; do srcs+=("$here/tool/$s"); done
	if [ "$t" = rules ] || [ "$t" = insert ]; then
		# the built-in rules table as the CMake build embeds it: names.ini is
		# read only from there, and insert serves the stubs to clang from it
		local files
		files=$(cd "$here/rules" && find . -type f ! -name '.*' ! -name 'README*' | sed 's|^\./||' | sort | paste -sd'|')
		cmake -DOUT="$out/rules_embedded.c" -DROOT="$here/rules" -DFILES="$files" \
			-P "$here/cmake/EmbedFiles.cmake" || return 1
		srcs+=("$out/rules_embedded.c")
	fi
	if [ "$t" = insert ]; then
		# libclang; kernels from tests/fuzz/kernels
		# libclang of the LLVM that llvm-config names (the build's choice:
		# llvm-config-14 first, as cmake/ProbekitDeps.cmake)
		local llvm_config inc lib
		llvm_config=${LLVM_CONFIG:-$(command -v llvm-config-14 || command -v llvm-config || true)}
		[ -n "$llvm_config" ] || { echo "fuzz.sh: no llvm-config-14 (set LLVM_CONFIG)" >&2; return 1; }
		inc=$("$llvm_config" --includedir) lib=$("$llvm_config" --libdir)
		more=(-DFUZZ_KERNELS_DIR="\"$here/tests/fuzz/kernels\"" -I"$inc"
			-DPROBEKIT_CLANG_RESOURCE_DIR="\"$("$cc" -print-resource-dir)\""
			"$lib/libclang.so" -Wl,-rpath,"$lib")
	fi
	"$cc" -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-DFUZZ_RULES_DIR="\"$here/rules\"" -I"$here/tool" -I"$here/tool/clang" -I"$out" \
		"$here/tests/fuzz/fuzz_$t.c" "${srcs[@]}" ${more[@]+"${more[@]}"} \
		-lpcre2-8 -linih -ljansson -o "$out/fuzz_$t"
}

printf '%-8s %8s %12s %10s %8s %9s\n' target seconds executions exec/s corpus findings
total_findings=0
dead=() # targets that ran nothing (or whose replay failed): a failure too
for t in "${targets[@]}"; do
	[ -n "${sources[$t]:-}" ] || { echo "fuzz.sh: unknown target '$t' (${!sources[*]})" >&2; exit 2; }
	if ! build "$t" 2>"$out/logs/build-$t.log"; then
		echo "fuzz.sh: building fuzz_$t failed:" >&2
		cat "$out/logs/build-$t.log" >&2
		exit 2
	fi
	work=$out/corpus/$t
	mkdir -p "$work"
	before=$(find "$out/findings" -name "$t-*" | wc -l)
	# ASan's leak check stays on: a leak is a finding too
	if [ "$secs" = 0 ]; then
		# replay the seeds only: deterministic, for the test suite
		(cd "$out/logs" && "$out/fuzz_$t" ${extra[$t]} -runs=0 -timeout=10 \
			-artifact_prefix="$out/findings/$t-" "$here/tests/fuzz/corpus/$t" >"$out/logs/$t.log" 2>&1) ||
			dead+=("$t")
		execs=$(find "$here/tests/fuzz/corpus/$t" -type f | wc -l)
	else
		# fork mode with -ignore_crashes: a finding is saved and fuzzing goes
		# on, so one run reports every finding it can reach in the time given
		(cd "$out/logs" && "$out/fuzz_$t" "$work" "$here/tests/fuzz/corpus/$t" ${extra[$t]} \
			-fork="${FUZZ_JOBS:-1}" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
			-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
			-artifact_prefix="$out/findings/$t-" >"$out/logs/$t.log" 2>&1)
		# fork mode's progress lines: "#EXECS: cov: ... corp: N ..."; the last one counts
		execs=$(grep -aoE '^#[0-9]+: cov:' "$out/logs/$t.log" | tail -1 | tr -dc 0-9)
		execs=${execs:-0}
		[ "$execs" -gt 0 ] || dead+=("$t")
	fi
	after=$(find "$out/findings" -name "$t-*" | wc -l)
	found=$((after - before))
	total_findings=$((total_findings + found))
	printf '%-8s %8s %12s %10s %8s %9s\n' "$t" "$secs" "$execs" "$((execs / (secs > 0 ? secs : 1)))" \
		"$(find "$work" -type f | wc -l)" "$found"
	if [ "$found" -gt 0 ]; then
		# replay each new finding once and group them by what failed
		echo "  $found findings in $out/findings/$t-* (replay: $out/fuzz_$t FILE), by kind:" >&2
		find "$out/findings" -name "$t-*" -newer "$out/logs/build-$t.log" | while read -r f; do
			timeout 20 "$out/fuzz_$t" "$f" 2>&1 | grep -a -m1 -E 'property failed|ERROR: [A-Za-z]+Sanitizer|runtime error|ERROR: libFuzzer' |
				sed -E 's/^==[0-9]+== ?//; s/ \(.*fuzz_[a-z]+\.c:[0-9]+\)$//; s/0x[0-9a-f]+/ADDR/g' || echo "(did not reproduce)"
		done | sort | uniq -c | sort -rn | sed 's/^/   /' >&2
	fi
done
if [ ${#dead[@]} -gt 0 ]; then
	echo "fuzz.sh: ran nothing or failed its seed replay: ${dead[*]} (see $out/logs/)" >&2
	exit 1
fi
[ "$total_findings" = 0 ]
