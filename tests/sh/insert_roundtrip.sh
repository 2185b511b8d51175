#!/bin/bash
# insert_roundtrip.sh BIN_DIR SRC_DIR - every golden insertion, stripped again
# with probe-strip --probe NAME, gives back its input byte for byte,
# braces, split lines and the T_BASE it brought or turned on included; two
# probes inserted and stripped in either order give back the kernel, T_BASE
# staying while one of them is left; brace markers left behind when
# the blocks were deleted by hand fail probe-check and still strip.
set -u
bin=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pk-insert-rt.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail=0 n=0
for dir in "$src"/testdata/insert/*/; do
	[ -d "$dir/expected" ] || continue
	args=$(cat "$dir/args")
	name=$(sed -n 's/.*--probe \([A-Za-z_0-9]*\).*/\1/p' <<<"$args")
	[ -n "$name" ] || name=$(sed -n 's/.*--base.*/T_BASE/p' <<<"$args")
	for out in "$dir"/expected/*; do
		base=$(basename "$out")
		input="$dir/$base"
		[ "$base" = out.cpp ] && input="$dir/k.cpp"
		cp "$out" "$scratch/$base"
		n=$((n + 1))
		# the T_BASE the insertion added or turned on goes with it
		if ! "$bin/probe-strip" --probe "$name" "$scratch/$base" 2>"$scratch/err"; then
			echo "FAIL ${dir#$src/}: probe-strip --probe $name failed: $(cat "$scratch/err")"
			fail=1
		elif ! cmp -s "$scratch/$base" "$input"; then
			echo "FAIL ${dir#$src/}: strip did not restore $base"
			diff "$input" "$scratch/$base" | head -20
			fail=1
		fi
	done
done
# brace markers whose probe blocks were deleted by hand are reported by
# probe-check, and probe-strip (all probes) still removes them
cp "$src/testdata/insert/braceless_one_line_for/expected/k.cpp" "$scratch/k.cpp"
sed -i '/^#if 1  \/\/ TIMING_PROBE: ONE_FOR/,/^#endif/d' "$scratch/k.cpp"
if "$bin/probe-check" "$scratch/k.cpp" >"$scratch/out" 2>&1; then
	echo "FAIL probe-check passed a file with left-over brace markers"; fail=1
elif ! grep -q 'brace-marker' "$scratch/out"; then
	echo "FAIL probe-check does not report the left-over brace markers:"; cat "$scratch/out"; fail=1
fi
"$bin/probe-strip" "$scratch/k.cpp"
if ! cmp -s "$scratch/k.cpp" "$src/testdata/insert/braceless_one_line_for/k.cpp"; then
	echo "FAIL probe-strip did not remove the left-over markers"; fail=1
fi
# two probes in, then out in either order: T_BASE stays while one is left,
# goes with the last, and probe-check passes the result
k0=$src/testdata/insert/base_inserted_with_probe/k.cpp
for order in "ONE TWO" "TWO ONE"; do
	cp "$k0" "$scratch/k.cpp"
	"$bin/probe-inject" -q --probe ONE --around CopyIn "$scratch/k.cpp" &&
		"$bin/probe-inject" -q --probe TWO --off --around CopyOut "$scratch/k.cpp" ||
		{ echo "FAIL two probes: insertion failed"; fail=1; continue; }
	set -- $order
	"$bin/probe-strip" --probe "$1" "$scratch/k.cpp"
	grep -q '^#if [01]  // TIMING_PROBE: T_BASE (' "$scratch/k.cpp" ||
		{ echo "FAIL two probes: stripping $1 took T_BASE while $2 is left"; fail=1; }
	"$bin/probe-strip" --probe "$2" "$scratch/k.cpp"
	cmp -s "$scratch/k.cpp" "$k0" || { echo "FAIL two probes: stripping $order did not restore the kernel"; diff "$k0" "$scratch/k.cpp" | head; fail=1; }
	"$bin/probe-check" "$scratch/k.cpp" >/dev/null 2>&1 || { echo "FAIL two probes: probe-check fails after stripping $order"; fail=1; }
done
[ $n -gt 20 ] || { echo "FAIL only $n round trips found"; fail=1; }
[ $fail = 0 ] && echo "ok: $n insertions stripped back to their input"
exit $fail
