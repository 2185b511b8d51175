#!/usr/bin/env bash
# sweep_tsort32.sh - probe-sweep --all over the bundled TSORT32 kernel, its
# --run compiling the kernel with the compiler directly against the CPU
# simulation (the harness compiled once, the simulation and the golden
# reference from the build) and running it: one log per probe holding only
# that probe's lines and T_BASE, numerics verified in every run, the combined
# report on stdout and in DIR/report.txt, and the source byte-identical.
# The sweep works on a copy of the kernel: other tests read the original.
#   bash tests/sh/sweep_tsort32.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
[ -x "$bin/probe-sweep" ] || { fail "no $bin/probe-sweep"; finish; }
libs="$bin/../kernels/libpksim.a $bin/../kernels/libtsort32_golden.a"
for l in $libs; do
	[ -f "$l" ] || skip "no $l: configure with -DPROBEKIT_KERNELS=ON"
done
cxx=${CXX:-c++}
command -v "$cxx" >/dev/null || skip "no C++ compiler ($cxx)"
cd "$scratch" || exit 1
flags="-std=c++17 -I$src/kernels/tsort32 -I$src/kernels/sim/include"
# a sanitized build's libraries need the sanitizer runtimes at link time
grep -q '^PROBEKIT_SANITIZE:BOOL=ON' "$bin/../CMakeCache.txt" 2>/dev/null &&
	flags="$flags -fsanitize=address,undefined"
$cxx $flags -O1 -c "$src/kernels/tsort32/harness.cpp" -o harness.o || { fail "harness.o"; finish; }
cp "$src/kernels/tsort32/tsort32_kernel.cpp" tsort32_kernel.cpp
cp tsort32_kernel.cpp orig.cpp
probes=$(probe-list --names tsort32_kernel.cpp | grep -vx T_BASE)

run="$cxx $flags -O0 tsort32_kernel.cpp harness.o $libs -pthread -o \"\$PROBE_LOG.bin\" &&
 \"\$PROBE_LOG.bin\" --case half-5x100 --warmup 1 --repeat 1 --late-window-ms 300 --print-delay-ms 20"
probe-sweep --all --out sweep --run "$run" tsort32_kernel.cpp >report.out 2>sweep.err
rc=$?
[ "$rc" = 0 ] && ok "the sweep exits 0" || { fail "the sweep exited $rc"; cat sweep.err >&2; }
same "the kernel source is byte-identical after the sweep" orig.cpp tsort32_kernel.cpp
[ -e sweep/.journal ] && fail "the journal was left behind"
n=0
for p in $probes; do
	n=$((n + 1))
	log=sweep/$p.log
	[ -s "$log" ] || { fail "no $log"; continue; }
	grep -q '^result: PASS$' "$log" || fail "$p: the run did not pass: $(tail -3 "$log")"
	[ "$(grep -c "^\[$p\] start=[0-9]* end=[0-9]* dur=[0-9]*$" "$log")" = 1 ] || fail "$p: not one line of its own"
	[ "$(grep -c '^\[T_BASE\] [0-9]*$' "$log")" = 1 ] || fail "$p: not one T_BASE line"
	others=$(grep -E '^\[[A-Za-z_0-9]+\] ' "$log" | grep -v -e "^\[$p\] " -e '^\[T_BASE\] ')
	[ -z "$others" ] || fail "$p: other probes' lines in its log: $others"
	grep -q "^$p	ok	0	1	" sweep/sweep.tsv || fail "$p: no ok row in sweep.tsv"
	grep -q "\[$n/[0-9]*\] $p: exit 0, [0-9.]* s, [0-9]* line(s)" sweep.err || fail "$p: no progress line"
	grep -q "^$p  *1 " sweep/report.txt || fail "$p: no row of one sample in the report"
done
[ "$n" -ge 6 ] && ok "$n probes swept, each log its own probe and T_BASE, every run verified" || fail "only $n probes"
same "the report printed is the report written" sweep/report.txt report.out
grep -q "probe-sweep: $n of $n probe(s) ok" sweep.err && ok "summary" || fail "no summary: $(tail -2 sweep.err)"
finish
