#!/usr/bin/env bash
# The main job on the bundled TSORT32 kernel, start to finish, on a machine
# without an NPU: list its probes, show what enabling one changes, gate the
# clean source, then build (the tool runs at build time) and run the
# instrumented variant on the CPU simulation, and summarise its probe lines;
# then the timing-tensor build (the simpler runtime's ABI: its instrumented
# entry and orchestration shown as diffs) and its partition; last, probe-sweep runs every
# probe in turn on the real source (enable, build, run, put back) and reports.
set -euo pipefail
cd "$(dirname "$0")/.."
probe=${PROBE:-STAGE_B}
kernel=kernels/tsort32/tsort32_kernel.cpp
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPROBEKIT_KERNELS=ON >/dev/null
cmake --build build -j"$jobs" >/dev/null
bin=build/bin
say() { printf '\n== %s\n' "$*"; }

say "probes in $kernel"
"$bin/probe-list" "$kernel"
say "enable $probe (shown as a diff; the clean source is never edited)"
"$bin/probe-inject" --probe "$probe" --diff "$kernel" || [ $? = 1 ] # 1: the diff shows changes
say "pre-commit gate on the clean source"
"$bin/probe-check" "$kernel" && echo "probe-check: clean"
say "instrumented build tsort32_probe_$probe (generated at build time), on the CPU simulation"
mkdir -p build/main-job
"$bin/tsort32_probe_$probe" --warmup 1 --repeat 5 | tee "build/main-job/$probe.log"
say "probe-report on that log"
"$bin/probe-report" --repeat 5 "build/main-job/$probe.log"
gen=build/kernels/timing/tsort32_timing_gen
say "timing build, profile simpler: what probe-inject --timing-tensor wrote at build time into the kernel entry"
echo "(descriptor read of the timing tensor args[4], get_sys_cnt() stamps, slot get_block_idx(args), scalars shifted)"
diff -u kernels/timing/tsort32_entry.cpp "$gen/tsort32_entry.cpp" || [ $? = 1 ] # 1: the files differ
say "... and into the simpler orchestration (external tensor orch_args.tensor(4), expected_arg_count 4 -> 5)"
diff -u kernels/timing/tsort32_orch.cpp "$gen/tsort32_orch.cpp" || [ $? = 1 ]
say "timing build (events inside Tsort32Body), run through the simpler runtime layer of the CPU simulation"
events=$gen/tsort32_entry.cpp.timing.json
"$bin/tsort32_timing" --expect-timing --events "$events" --save build/main-job/timing \
  --rows 8 --cols 64 --blocks 4 --warmup 1 --repeat 3
say "probe-report on its timing tensor (the partition and the collective diagnostics)"
"$bin/probe-report" --timing build/main-job/timing.npy --events "$events"
say "production build: probe-check --strict on the generated source"
"$bin/probe-check" --strict build/kernels/tsort32_variants/prod/tsort32_kernel.cpp && echo "probe-check --strict: no probe remains"
say "probe-sweep: every probe in turn on the real source (enable it and T_BASE, build, run on the CPU simulation, put back), one report"
sweep=build/main-job/sweep
cxx=${CXX:-c++}
flags="-std=c++17 -O2 -I kernels/tsort32 -I kernels/sim/include"
mkdir -p "$sweep"
cp "$kernel" build/main-job/kernel-before-sweep.cpp
$cxx $flags -c kernels/tsort32/harness.cpp -o "$sweep/harness.o"
"$bin/probe-sweep" --all --out "$sweep" --report-arg=--repeat=5 --run "$cxx $flags $kernel $sweep/harness.o build/kernels/libtsort32_golden.a \
build/kernels/libpksim.a -pthread -o $sweep/tsort32_\$PROBE && $sweep/tsort32_\$PROBE --case half-5x100 --warmup 1 \
--repeat 5 --late-window-ms 300 --print-delay-ms 20" "$kernel"
cmp "$kernel" build/main-job/kernel-before-sweep.cpp && echo "probe-sweep: $kernel is byte-identical to before the sweep"
