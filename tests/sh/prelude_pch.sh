#!/usr/bin/env bash
# prelude_pch.sh - the prelude precompiled at build time (lib/probekit_prelude.pch)
# changes nothing a run prints or writes: the same insertions, warnings and
# refusals with it, without it and with a damaged one (refused by libclang,
# the prelude parsed as text again). It is used only with the default
# arguments and while the prelude served is the one built in.
source "$(dirname "$0")/block-lib.bash" "$@"
[ -f "$bin/../lib/probekit_prelude.pch" ] || skip "no lib/probekit_prelude.pch in this build"
# install-like trees: with the file, without it, with a damaged one
for t in with without damaged; do
	mkdir -p "$scratch/$t/bin" "$scratch/$t/lib" "$scratch/$t/share"
	cp "$bin/probe" "$scratch/$t/bin/"
	ln -s probe "$scratch/$t/bin/probe-inject"
	cp "$bin/../lib/probekit_ast.so" "$scratch/$t/lib/"
	cp -r "$bin/../share/probekit" "$scratch/$t/share/"
done
cp "$bin/../lib/probekit_prelude.pch" "$scratch/with/lib/"
head -c 4096 "$bin/../lib/probekit_prelude.pch" >"$scratch/damaged/lib/probekit_prelude.pch"
unset PROBEKIT_RULES_DIR

mkdir -p "$scratch/k"
cp "$src/kernels/tsort32/"*.h "$src/kernels/tsort32/tsort32_kernel.cpp" "$scratch/k/"
"$bin/probe-strip" "$scratch/k/tsort32_kernel.cpp" || fail "strip of the kernel copy"
# a program declaring names the prelude also gives (the clash parse again)
cat >"$scratch/k/clash.cpp" <<'K'
#include <cstdint>
enum pipe_t { PIPE_S, PIPE_V, PIPE_ALL };
struct half {
	uint16_t v;
};
extern "C" __global__ __aicore__ void clash_kernel(__gm__ uint8_t *x)
{
	half h{};
	Produce(x, h);
	pipe_barrier(PIPE_ALL);
}
K
# an insertion whose probe line cannot compile where it goes
cat >"$scratch/k/bad.cpp" <<'K'
#define get_sys_cnt not_declared_here
extern "C" __global__ __aicore__ void bad_kernel(__gm__ uint8_t *x)
{
	Produce(x);
}
K
# run NAME ARGS...: every tree, stdout, stderr and exit kept per tree
run() {
	local n=$1
	shift
	for t in with without damaged; do
		(cd "$scratch/k" && PROBEKIT_TEST_READS="$scratch/$t.$n.reads" "$scratch/$t/bin/probe-inject" "$@" \
			>"$scratch/$t.$n.out" 2>"$scratch/$t.$n.err")
		echo $? >"$scratch/$t.$n.rc"
		sed -i "s|$scratch/$t/|TREE/|g" "$scratch/$t.$n.err"
	done
	for t in without damaged; do
		for f in out err rc; do
			same "$n: $f with and $t the precompiled prelude" "$scratch/with.$n.$f" "$scratch/$t.$n.$f"
		done
	done
}
run around --probe P --around TSORT32#1 --stdout tsort32_kernel.cpp
run base --probe P --base --stdout tsort32_kernel.cpp
run clash --probe P --around Produce#1 --stdout clash.cpp
run bad --probe P --around Produce#1 --stdout bad.cpp
[ "$(cat "$scratch/with.around.rc")" = 0 ] || fail "around: exit $(cat "$scratch/with.around.rc")"
[ "$(cat "$scratch/with.bad.rc")" = 2 ] || fail "bad: exit $(cat "$scratch/with.bad.rc"), not the refusal"
grep -q "does not parse here" "$scratch/with.bad.err" || fail "bad: no refusal of the inserted line"

# used: with the default arguments, from the tree that has it
grep -q 'probekit_prelude\.pch$' "$scratch/with.around.reads" && ok "the prelude came precompiled" ||
	fail "the precompiled prelude was not used with the default arguments"
grep -q 'probekit_prelude\.pch$' "$scratch/damaged.around.reads" &&
	fail "a damaged precompiled prelude counted as used" || ok "a damaged one is refused and the text parsed"
# not used with a flag of the user's, nor with a prelude other than the built-in one
run flags --probe P --around TSORT32#1 --stdout tsort32_kernel.cpp -- -DTSORT32_EXTRA=1
grep -q 'probekit_prelude\.pch' "$scratch/with.flags.reads" &&
	fail "used with a -D after --" || ok "not used with a flag after --"
cp -r "$scratch/with/share/probekit/rules" "$scratch/rules"
echo "/* a user's change */" >>"$scratch/rules/stubs/probekit_prelude.h"
(cd "$scratch/k" && PROBEKIT_RULES_DIR="$scratch/rules" PROBEKIT_TEST_READS="$scratch/own.reads" \
	"$scratch/with/bin/probe-inject" --probe P --around TSORT32#1 --stdout tsort32_kernel.cpp >"$scratch/own.out" 2>/dev/null) ||
	fail "own prelude: the run failed"
grep -q 'probekit_prelude\.pch' "$scratch/own.reads" && fail "used with a prelude other than the built-in one" ||
	ok "not used with a rules directory's own prelude"
same "own prelude: the same insertion" "$scratch/with.around.out" "$scratch/own.out"
finish
