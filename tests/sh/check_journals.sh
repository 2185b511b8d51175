#!/usr/bin/env bash
# check_journals.sh - probe-check reports every pending journal of the folders
# it meets, each folder's once, in the order of the files (the folders are
# read in parallel by the workers, printed in order after them), whatever
# the number of jobs; a journal is a finding (exit 1).
source "$(dirname "$0")/block-lib.bash" "$@"
t=$scratch/t
mkdir -p "$t/a/b" "$t/c" "$t/d"
for f in a/x.cpp a/b/y.cpp a/z.cpp c/w.cpp d/v.cpp top.cpp; do
	echo "int f();" >"$t/$f"
done
# folder a is met again after its subfolder b: its journal still once
touch "$t/a/.probekit-txn.123.abcdef" "$t/c/.probekit-txn.9.zzzzzz" "$t/.probekit-txn.1.qqqqqq"
mkdir -p "$scratch/probe-sweep.out" && touch "$scratch/probe-sweep.out/.journal"
line() { echo "$1: pending journal of an interrupted multi-file write: the files it names may be half old, half new (the next probe-inject or probe-strip of a file here finishes it, or refuses it)"; }
{
	echo "probe-sweep.out/.journal: pending journal of an unfinished probe-sweep: the files it lists may still have a probe on ('probe-sweep --recover' puts them back, or refuses it)"
	line t/a/.probekit-txn.123.abcdef
	line t/c/.probekit-txn.9.zzzzzz
	line t/.probekit-txn.1.qqqqqq
} >"$scratch/expected"
for j in 1 2 4; do
	(cd "$scratch" && probe-check -j "$j" t t/a/x.cpp >"$scratch/out.$j" 2>&1)
	rc=$?
	[ $rc -eq 1 ] && ok "-j $j: exit 1" || fail "-j $j: exit $rc, not 1"
	same "-j $j: each journal once, in the files' order" "$scratch/expected" "$scratch/out.$j"
done
# standard input first: the file after it still has its folder read
(cd "$t/c" && echo "int y;" | probe-check - w.cpp >"$scratch/out.stdin" 2>&1)
line ./.probekit-txn.9.zzzzzz >"$scratch/expected.stdin"
same "standard input, then a file: its folder's journal" "$scratch/expected.stdin" "$scratch/out.stdin"
finish
