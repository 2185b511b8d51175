#!/bin/bash
# rules_names.sh BIN_DIR SRC_DIR - the names the tool writes live in
# rules/names.ini, and the rule files are refused when a key is missing:
# - every generated identifier, taken from rules/names.ini (not from a list
#   here), is flagged by probe-check in a file holding it, and so are the
#   base probe's print and a probe-style log line;
# - every {prefix}WORD a rules/timing.ini template writes is one of them;
# - a rule file missing a required key is refused (exit 2, the file left as
#   it was) with a message naming the file, the section and the key;
# - a names.ini in the run-time rules directory is not read (the binary is
#   built with its own).
source "$(dirname "$0")/block-lib.bash" "$@"
names=$src/rules/names.ini

# value KEY SECTION: one value of names.ini
value() { sed -n "/^\[$1\]/,/^\[/{s/^$2 = //p}" "$names"; }
prefix=$(value timing prefix)
[ -n "$prefix" ] || fail "rules/names.ini: no [timing] prefix"

# every identifier of [timing] (but the prefix) and [printf]
# (a section: from its header to the next one)
ids=$(for sec in timing printf; do sed -n "/^\[$sec\]/,/^\[/{/^prefix = /d;s/^[a-z_0-9]* = //p}" "$names"; done |
	sed "s/{prefix}/${prefix}_/;s/{name}/STAGE_A/;s/{event}/load_done/")
n=0
for id in $ids; do
	case $id in *[!A-Za-z0-9_]*) fail "names.ini: '$id' is not an identifier"; continue ;; esac
	printf 'void f(unsigned long x)\n{\n    unsigned long %s = x;\n}\n' "$id" > "$scratch/k.cpp"
	out=$(probe-check "$scratch/k.cpp" 2>&1)
	rc=$?
	case $rc:$out in 1:*"k.cpp:3:"*) n=$((n + 1)) ;; *) fail "probe-check does not flag generated identifier '$id' (exit $rc): $out" ;; esac
done
[ "$n" -ge 10 ] && ok "probe-check flags each of the $n generated identifiers of rules/names.ini"

base=$(value probe base) start=$(value log start)
printf 'void f(unsigned long x)\n{\n    printf("[%s] %%lu\\n", x);\n    printf("[S] %s%%lu\\n", x);\n}\n' "$base" "$start" > "$scratch/k.cpp"
out=$(probe-check "$scratch/k.cpp" 2>&1)
case $out in *"k.cpp:3:"*"k.cpp:4:"*) ok "probe-check flags the base probe's print and a probe log line" ;;
*) fail "base probe '$base' or log key '$start' not flagged: $out" ;; esac

# the templates of rules/timing.ini write only names of names.ini
words=$(sed -n '/^\[timing\]/,/^\[/{s/^[a-z_0-9]* = {prefix}\([A-Za-z0-9_]*\).*/\1/p}' "$names")
for w in $(grep -o '{prefix}[A-Za-z0-9_]*' "$src/rules/timing.ini" | sed 's/{prefix}//' | sort -u); do
	printf '%s\n' $words | grep -qx "$w" || fail "rules/timing.ini writes {prefix}$w, which rules/names.ini [timing] does not list"
done
ok "every {prefix}WORD of rules/timing.ini is a name of rules/names.ini"

# a rule file missing a key: refused, naming file, section and key
rules=$scratch/rules
cp -r "$src/rules" "$rules"
case_dir=$src/testdata/insert/pto_simpler_base
cp "$case_dir/kernel_exp.cpp" "$case_dir/tensor.h" "$case_dir/intrinsic.h" "$scratch/"
before=$(cat "$scratch/kernel_exp.cpp")
refused() { # file section key command...
	local file=$1 section=$2 key=$3
	shift 3
	cp "$src/rules/$file" "$rules/$file"
	sed -i "/^\[$section\]/,/^\[/{/^$key = /d}" "$rules/$file"
	local out rc
	out=$(cd "$scratch" && PROBEKIT_RULES_DIR=$rules "$@" 2>&1)
	rc=$?
	cp "$src/rules/$file" "$rules/$file"
	[ "$rc" = 2 ] || fail "$file without [$section] $key: exit $rc, expected 2: $out"
	case $out in *"rules/$file"*"[$section] needs '$key'"*) ok "rules/$file without [$section] $key is refused, naming it" ;;
	*) fail "$file without [$section] $key: the message does not name file, section and key: $out" ;; esac
	[ "$(cat "$scratch/kernel_exp.cpp")" = "$before" ] || fail "$file without [$section] $key: the kernel changed"
}
tt="probe-inject --timing-tensor --host-by-hand --slots 4 kernel_exp.cpp"
refused timing.ini host launch_declare_1 $tt
refused timing.ini host orchestration $tt
refused timing.ini code tensor $tt
refused timing.ini slot mix_aiv $tt
refused timing.ini python compare_def $tt
refused timing.ini kernel tail_call $tt
refused async.ini print guard probe-inject --base kernel_exp.cpp
refused api.ini pto cycle probe-inject --base kernel_exp.cpp
refused api.ini code sim_if probe-inject --base kernel_exp.cpp
refused api.ini kinds default probe-inject --base kernel_exp.cpp
refused api.ini code print_line probe-inject --base kernel_exp.cpp
refused timing.ini simpler add_inout $tt
refused timing.ini launch acl $tt
refused timing.ini pypto decorator $tt
refused timing.ini test_script func_id $tt
# a word a template writes ({test_script.tensorarg}) missing: the template is refused, naming both
sed -i '/^\[test_script\]/,/^\[/{/^tensorarg = /d}' "$rules/timing.ini"
out=$(cd "$scratch" && PROBEKIT_RULES_DIR=$rules $tt 2>&1)
rc=$?
cp "$src/rules/timing.ini" "$rules/timing.ini"
case $rc:$out in 2:*"rules/timing.ini: [python] test_tensorarg names {test_script.tensorarg}, which the file does not set"*)
	ok "a template naming a word the rules lack is refused, naming both" ;;
*) fail "timing.ini without [test_script] tensorarg: exit $rc: $out" ;; esac

# a host dialect's word is one entry of the rules, looked for and written
# alike: with [simpler] add_output renamed, a host adding its tensors with
# the new name gets the timing tensor added with it; the help names the
# rules' [pypto] decorator
sed -i 's/^add_output = add_output$/add_output = put_output/; s/^decorator = pl\.jit\.extern$/decorator = pt.jit.extern/' "$rules/timing.ini"
mkdir "$scratch/dialect"
cp "$src/testdata/timing/host-inout/kernel.cpp" "$src/testdata/timing/host-inout/kernel_api.h" "$scratch/dialect/"
sed 's/add_output/put_output/' "$src/testdata/timing/host-inout/host.cpp" > "$scratch/dialect/host.cpp"
out=$(cd "$scratch/dialect" && PROBEKIT_RULES_DIR=$rules probe-inject --timing-tensor kernel.cpp --host host.cpp --slots 4 2>&1)
rc=$?
if [ "$rc" = 0 ] && grep -q 'task.put_output(task.make_timing_tensor(4, 8));' "$scratch/dialect/host.cpp"; then
	ok "a renamed [simpler] add_output is the call found and the call written"
else
	fail "[simpler] add_output = put_output: exit $rc: $out"$'\n'"$(cat "$scratch/dialect/host.cpp")"
fi
out=$(PROBEKIT_RULES_DIR=$rules probe-inject --timing-tensor --help)
case $out in *"a pypto @pt.jit.extern signature"*) ok "the help names the rules' [pypto] decorator" ;;
*) fail "[pypto] decorator = pt.jit.extern: the help does not say it" ;; esac
cp "$src/rules/timing.ini" "$rules/timing.ini"

# a check rule naming a generated name that names.ini does not have
printf '[x]\npattern = \\b{name:timing.no_such_name}\n' > "$scratch/own.ini"
out=$(probe-check --rules "$scratch/own.ini" "$scratch/kernel_exp.cpp" 2>&1)
rc=$?
case $rc:$out in 2:*"own.ini:2:"*"no_such_name"*) ok "a check rule naming a missing name is refused" ;;
*) fail "{name:timing.no_such_name}: exit $rc: $out" ;; esac

# names.ini is compiled in: a copy in the rules directory is not read
sed -i "s/^prefix = .*/prefix = other/" "$rules/names.ini"
out=$(cd "$scratch" && PROBEKIT_RULES_DIR=$rules probe-inject --timing-tensor --slots 4 --stdout kernel_exp.cpp 2>/dev/null)
case $out in *"${prefix}_read_cycle"*) ok "the binary writes its own names, whatever the rules directory holds" ;;
*) fail "a run-time names.ini changed the generated names" ;; esac
finish
