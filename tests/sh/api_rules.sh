#!/bin/bash
# api_rules.sh BIN_DIR SRC_DIR - rules/api.ini is the only home of the probe's
# spellings: a kind missing a key, or a [kinds] naming an unknown section, is
# refused (exit 2, nothing written) by insertion and by the timing tensor, and
# a spelling changed in the rules changes what both write.
source "$(dirname "$0")/block-lib.bash" "$@"
rules=$scratch/rules
cp -r "$src/rules" "$rules"
case_dir=$src/testdata/insert/pto_simpler_base
cp "$case_dir/kernel_exp.cpp" "$case_dir/tensor.h" "$case_dir/intrinsic.h" "$scratch/"
k=$scratch/kernel_exp.cpp
before=$(cat "$k")

run() { # expected-exit expected-stderr-text command...
	local want=$1 text=$2
	shift 2
	local out rc
	out=$(cd "$scratch" && PROBEKIT_RULES_DIR=$rules "$@" 2>&1)
	rc=$?
	[ "$rc" = "$want" ] || fail "$*: exit $rc, expected $want: $out"
	case $out in *"$text"*) ;; *) fail "$*: no '$text' in: $out" ;; esac
	[ "$want" = 2 ] && [ "$(cat "$k")" != "$before" ] && fail "$*: the file changed on a refusal"
}

# a key left out of [pto]: both forms refuse and name it
sed -i '/^\[pto\]/,/^\[/{/^fence =/d}' "$rules/api.ini"
run 2 "[pto] needs 'fence'" probe-inject --base kernel_exp.cpp
run 2 "[pto] needs 'fence'" probe-inject --timing-tensor --host-by-hand --slots 4 kernel_exp.cpp
cp "$src/rules/api.ini" "$rules/api.ini"

# the timing profile's kind missing from timing.ini
sed -i '/^\[code\]/,/^\[/{/^api =/d}' "$rules/timing.ini"
run 2 "[code] needs 'api'" probe-inject --timing-tensor --host-by-hand --slots 4 --target ascendc kernel_exp.cpp
cp "$src/rules/timing.ini" "$rules/timing.ini"

# a spelling changed in the rules is what both forms write
sed -i '/^\[pto\]/,/^\[/{s/^barrier = .*/barrier = my_barrier()/;s/^sim_cycle = .*/sim_cycle = my_sim_clock()/}' "$rules/api.ini"
# (declared in the kernel, since insertion refuses a call that does not parse)
sed -i '1i static inline void my_barrier() {}\nstatic inline unsigned long my_sim_clock() { return 0; }' "$scratch/kernel_exp.cpp"
out=$(cd "$scratch" && PROBEKIT_RULES_DIR=$rules probe-inject --probe P --around TLOAD --stdout kernel_exp.cpp 2>&1)
case $out in *"my_barrier();"*"my_sim_clock();"*) ok "insertion spells the rules' barrier and clock" ;;
*) fail "insertion did not take the rules' spellings: $out" ;; esac
out=$(cd "$scratch" && PROBEKIT_RULES_DIR=$rules probe-inject --timing-tensor --slots 4 --stdout kernel_exp.cpp 2>/dev/null)
case $out in *"static_cast<uint64_t>(my_sim_clock())"*) ok "the timing tensor spells the rules' clock" ;;
*) fail "the timing tensor did not take the rules' clock: $out" ;; esac
finish
