#!/usr/bin/env bash
# harness_cli.sh PROD_EXE STAGE_B_EXE - the harness CLI as a user meets it:
# --help, --list-cases, bad options and shapes, and the per-probe summary of
# `tsort32_probe_STAGE_B --warmup 1 --repeat 5`.
set -u
prod=$1
probe=$2
fail() { echo "FAIL: $*"; exit 1; }
err=$(mktemp)
trap 'rm -f "$err"' EXIT

help=$("$prod" --help) || fail "--help exited $?"
for opt in --warmup --repeat --late-window-ms --case --target --freq "exit: 0"; do
	printf '%s\n' "$help" | grep -q -- "$opt" || fail "--help does not mention $opt"
done
"$prod" --list-cases | grep -q '^float-2x13 ' || fail "--list-cases misses float-2x13"

"$prod" --bogus 2>"$err" && fail "--bogus accepted"
grep -q "unknown option '--bogus'" "$err" || fail "--bogus: $(cat "$err")"
"$prod" --rows 2 --blocks 3 --late-window-ms 0 2>"$err" >/dev/null
[ $? -eq 2 ] || fail "--blocks 3 for 2 rows not rejected"
grep -q "at most 2 blocks" "$err" || fail "--blocks 3: $(cat "$err")"
"$prod" --dtype double 2>"$err" && fail "--dtype double accepted"
grep -q "invalid value 'double' for --dtype" "$err" || fail "--dtype double: $(cat "$err")"

out=$("$probe" --warmup 1 --repeat 5 --print-delay-ms 20 --late-window-ms 500) || fail "STAGE_B run exited $?"
n=$(printf '%s\n' "$out" | grep -c '^\[STAGE_B\] start=[0-9]* end=[0-9]* dur=[0-9]*$')
[ "$n" -eq 5 ] || fail "expected 5 STAGE_B lines, got $n:
$out"
printf '%s\n' "$out" | grep -Eq '^probe STAGE_B: 5 runs, dur min [0-9]* median [0-9.]* mean [0-9.]* max [0-9]* spread [0-9]* cycles(, start-T_BASE median [0-9-]*)?$' ||
	fail "no per-probe summary:
$out"
printf '%s\n' "$out" | grep -q '^verify: .* bit-exact' || fail "no verification line"
printf '%s\n' "$out" | tail -n 1 | grep -qx 'result: PASS' || fail "last line is not result: PASS"
echo "ok"
