#!/bin/bash
# insert_e2e.sh BIN_DIR SRC_DIR - end to end for AST insertion:
# take the TSORT32 kernel, strip every probe, insert each variant
# below with probe-inject on the AST, build it against the CPU simulation
# (kernels/sim/include) with the kernel's own warning flags, run the harness
# and require: exit 0, outputs verified ("result: PASS"), the probe's line in
# the form [NAME] start=.. end=.. dur=..; then probe-strip must give back the clean kernel.
set -u
bin=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
ksrc=$src/kernels/tsort32
sim=$src/kernels/sim
cxx=${CXX:-c++}
work=$bin/../test-insert-e2e
rm -rf "$work"
mkdir -p "$work/clean" "$work/obj"
fail=0

cp "$ksrc"/*.h "$ksrc/tsort32_kernel.cpp" "$work/clean/"
"$bin/probe-strip" "$work/clean/tsort32_kernel.cpp" || exit 1
if grep -q '^#if [01]  // TIMING_PROBE' "$work/clean/tsort32_kernel.cpp"; then
	echo "FAIL the clean copy still holds probes"; exit 1
fi

flags=(-std=c++17 -O1 -Wall -Wextra -Werror -I "$sim/include" -I "$work/clean")
for f in "$ksrc/harness.cpp" "$ksrc/golden.cpp" "$sim/src/sim.cpp"; do
	"$cxx" "${flags[@]}" -I "$ksrc" -c "$f" -o "$work/obj/$(basename "$f" .cpp).o" || exit 1
done

# name | probe-inject placement arguments | what the line must look like
# (the *_SIM variants parse with the simulation's headers instead of the stubs)
variants=(
	"T_BASE|--base|base"
	"T_BASE_SIM|--base -- -I $sim/include|base"
	"STAGE_A_SIM|--begin before:TLOAD#1 --end after:CrossCoreSetFlag -- -I $sim/include|stage"
	"STAGE_A|--begin before:TLOAD#1 --end after:CrossCoreSetFlag|stage"
	"STAGE_A_LOAD|--begin before:TLOAD#1 --end after:wait_flag#1|stage"
	"STAGE_A_COMPUTE|--around TSORT32#1|stage"
	"STAGE_A_WRITEBACK|--begin before:set_flag#2 --end after:TSTORE#1|stage"
	"STAGE_B_WAIT|--wait CrossCoreWaitFlag|stage"
	"STAGE_B|--begin after:CrossCoreWaitFlag --end after:pipe_barrier|stage"
	"BODY_NARROW|--around Tsort32Body#1|stage"
	"KERNEL|--begin entry:tsort32_kernel --end exit:tsort32_kernel|stage"
	"SORT_BLOCKS|--all-blocks --around TSORT32#1|blocks"
	"SORT_OFF|--off --around TSORT32#1|none"
)
for v in "${variants[@]}"; do
	IFS='|' read -r name placement form <<<"$v"
	dir=$work/$name
	mkdir -p "$dir"
	# shellcheck disable=SC2086 # placement is a list of words
	if ! "$bin/probe-inject" --probe "$name" "$work/clean/tsort32_kernel.cpp" -o "$dir/tsort32_kernel.cpp" \
		$placement 2>"$dir/inject.err"; then
		echo "FAIL $name: probe-inject: $(cat "$dir/inject.err")"; fail=1; continue
	fi
	if ! "$cxx" "${flags[@]}" "$dir/tsort32_kernel.cpp" "$work/obj"/*.o -lpthread -o "$dir/run" \
		2>"$dir/build.err"; then
		echo "FAIL $name: does not compile against the simulation:"; head -20 "$dir/build.err"; fail=1; continue
	fi
	if ! "$dir/run" --warmup 1 --repeat 1 --late-window-ms 300 --print-delay-ms 20 >"$dir/out" 2>&1; then
		echo "FAIL $name: the run failed:"; tail -5 "$dir/out"; fail=1; continue
	fi
	grep -q '^result: PASS' "$dir/out" || { echo "FAIL $name: outputs not verified"; fail=1; }
	case $form in
	base) re="^\[$name\] [0-9]+\$" ;;
	stage) re="^\[$name\] (iter=[0-9]+ )?start=[0-9]+ end=[0-9]+ dur=[0-9]+\$" ;;
	blocks) re="^\[$name\] block=[0-9]+ start=[0-9]+ end=[0-9]+ dur=[0-9]+\$" ;;
	none) re="" ;;
	esac
	lines=$(grep -c "^\[$name\]" "$dir/out")
	if [ -z "$re" ]; then
		[ "$lines" = 0 ] || { echo "FAIL $name: an --off probe printed"; fail=1; }
	elif [ "$lines" = 0 ] || [ "$(grep "^\[$name\]" "$dir/out" | grep -cEv "$re")" != 0 ]; then
		echo "FAIL $name: no probe line of the form [NAME] start= end= dur=:"; grep "^\[" "$dir/out"; fail=1
	fi
	# an inserted stage probe brings the base probe with it, and it runs too
	if [ "$form" = stage ] && ! grep -qE '^\[T_BASE\] [0-9]+$' "$dir/out"; then
		echo "FAIL $name: no [T_BASE] line beside the inserted probe's"; fail=1
	fi
	cp "$dir/tsort32_kernel.cpp" "$dir/stripped.cpp"
	"$bin/probe-strip" --probe "$name" "$dir/stripped.cpp" # and the T_BASE it brought
	cmp -s "$dir/stripped.cpp" "$work/clean/tsort32_kernel.cpp" ||
		{ echo "FAIL $name: probe-strip did not restore the clean kernel"; fail=1; }
	[ $fail = 0 ] && echo "ok $name: $(grep -m1 "^\[$name\]" "$dir/out" || echo '(off: no line)')"
done
exit $fail
