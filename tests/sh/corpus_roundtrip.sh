#!/usr/bin/env bash
# Round trips of every testdata/corpus file through every block command,
# checked byte for byte.
#   bash tests/sh/corpus_roundtrip.sh BIN_DIR [SRC_DIR]
# For each file, and for each probe NAME that grep finds on its #if lines:
#   - probe-strip of a probe-free file is identical and not rewritten
#   - inject --probe NAME, then --disable NAME, gives the original bytes back
#   - inject --no-base --probe NAME, then strip --probe NAME, equals strip
#     --probe NAME of the original; with the base probe, full strips agree
#   - --diff output applied with patch equals the in-place result, and
#     --stdout / -o equal it too
#   - strip output holds no TIMING_PROBE text, passes probe-check --strict,
#     and strips again to itself without a rewrite
#   - stripping the names one by one ends where a full strip ends
#   - probe-list --format=json is valid JSON naming exactly the grep names
#   - probe-check on the clean corpus exits 0
# Prints "corpus: N files, M probes, K round trips, 0 lost"; exit 1 on any failure.
set -u
bin=$(cd "${1:?usage: corpus_roundtrip.sh BIN_DIR [SRC_DIR]}" && pwd) || exit 2
src=$(cd "${2:-$(dirname "$0")/../..}" && pwd) || exit 2
corpus=$src/testdata/corpus
for c in probe-inject probe-strip probe-list probe-check; do
	[ -x "$bin/$c" ] || { echo "corpus_roundtrip: no $bin/$c" >&2; exit 2; }
done
command -v patch >/dev/null || { echo "corpus_roundtrip: patch(1) is required" >&2; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/pk-corpus.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export LC_ALL=C

nfiles=0 nprobes=0 trips=0 lost=0 failures=0
sums_before=$(cd "$corpus" && sha256sum -- *)
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
# a byte-for-byte comparison whose failure means bytes were lost or changed
same() { # same WHAT EXPECTED ACTUAL
	if cmp -s "$2" "$3"; then
		trips=$((trips + 1))
	else
		lost=$((lost + 1))
		fail "$1: bytes differ"
		diff -u "$2" "$3" | head -20 >&2
	fi
}
run() { # run WHAT CMD... : the command must exit 0
	local what=$1 out
	shift
	if ! out=$("$@" 2>&1); then
		fail "$what: exit non-zero: $*"
		printf '%s\n' "$out" | head -5 >&2
		return 1
	fi
}
stamp() { stat -c '%i %y' "$1"; }

# Probe names on directive lines, found without the scanner (CR tolerated).
grep_names() {
	tr -d '\r' <"$1" |
		sed -nE 's/^[[:space:]]*#[[:space:]]*if[[:space:]]+[01][[:space:]]*(\/\/|\/\*)[[:space:]]*TIMING_PROBE:[[:space:]]*([A-Za-z_][A-Za-z0-9_]*).*/\2/p' |
		sort -u
}

json_names() { # json_names FILE: names from probe-list --format=json, sorted
	python3 -c '
import json, sys
doc = json.load(sys.stdin)
print("\n".join(sorted({p["name"] for p in doc["probes"]})))' <"$1"
}

# diff + patch must reproduce what the in-place run wrote
check_diff() { # check_diff WHAT ORIG INPLACE_RESULT CMD...
	local what=$1 orig=$2 want=$3
	shift 3
	local d=$scratch/d
	rm -rf "$d" && mkdir "$d" && cp -p "$orig" "$d/in"
	(cd "$d" && "$@" --diff in >patch.diff 2>err) || true
	if [ ! -s "$d/patch.diff" ]; then
		fail "$what: --diff printed nothing"
		return
	fi
	if ! (cd "$d" && patch -s --binary -o out.patched in <patch.diff >/dev/null 2>&1); then
		fail "$what: patch(1) rejected the --diff output"
		return
	fi
	same "$what --diff|patch" "$want" "$d/out.patched"
	same "$what --diff wrote nothing" "$orig" "$d/in"
	(cd "$d" && "$@" --stdout in >stdout.out) || fail "$what --stdout failed"
	same "$what --stdout" "$want" "$d/stdout.out"
	(cd "$d" && "$@" -o o.out in) || fail "$what -o failed"
	same "$what -o" "$want" "$d/o.out"
}

round_trips() { # round_trips FILE NAME
	local f=$1 name=$2 s1=$scratch/s1 s2=$scratch/s2
	local w=$scratch/w.${f##*.} base
	base=$(basename "$f")
	# enable then disable is the identity
	cp "$f" "$w"
	run "$base: inject $name" "$bin/probe-inject" --probe "$name" "$w" || return
	if cmp -s "$f" "$w"; then
		fail "$base: inject --probe $name changed nothing"
	fi
	local on
	on=$("$bin/probe-list" --format=json "$w" | python3 -c '
import json, sys
print(" ".join(p["state"] for p in json.load(sys.stdin)["probes"] if p["name"] == sys.argv[1]))' "$name")
	[ "$on" = "on" ] || fail "$base: after inject, probe-list says '$name' is '$on'"
	cp "$w" "$scratch/injected"
	check_diff "$base: inject $name" "$f" "$scratch/injected" "$bin/probe-inject" --probe "$name"
	run "$base: disable $name" "$bin/probe-inject" --disable "$name" "$w" || return
	same "$base: inject+disable $name" "$f" "$w"

	# inject then strip NAME equals strip NAME of the original
	"$bin/probe-strip" --probe "$name" --stdout "$f" >"$s1" || fail "$base: strip --probe $name"
	cp "$f" "$w"
	run "$base: inject --no-base $name" "$bin/probe-inject" --no-base --probe "$name" "$w" || return
	run "$base: strip --probe $name" "$bin/probe-strip" --probe "$name" "$w" || return
	same "$base: inject+strip $name" "$s1" "$w"
	check_diff "$base: strip --probe $name" "$f" "$s1" "$bin/probe-strip" --probe "$name"
	# with the base probe on too, full strips still agree
	"$bin/probe-strip" --stdout "$scratch/injected" >"$s2" || fail "$base: strip of injected $name"
	same "$base: inject+strip-all $name" "$scratch/stripped" "$s2"
	nprobes=$((nprobes + 1))
}

check_file() { # check_file FILE
	local f=$1 base names
	base=$(basename "$f")
	names=$(grep_names "$f")
	nfiles=$((nfiles + 1))

	# probe-list: valid JSON naming exactly what grep finds
	local lj=$scratch/list.json
	"$bin/probe-list" --format=json "$f" >"$lj" || fail "$base: probe-list exit $?"
	python3 -m json.tool "$lj" >/dev/null 2>&1 || fail "$base: probe-list --format=json is not valid JSON"
	[ "$(json_names "$lj")" = "$names" ] ||
		fail "$base: probe-list names [$(json_names "$lj" | tr '\n' ' ')] != grep names [$(echo "$names" | tr '\n' ' ')]"

	# the full strip: no probe text left, passes --strict, idempotent
	local st=$scratch/stripped
	"$bin/probe-strip" --stdout "$f" >"$st" || fail "$base: probe-strip --stdout"
	if grep -q TIMING_PROBE "$st"; then
		lost=$((lost + 1))
		fail "$base: strip output still holds TIMING_PROBE text"
	fi
	local sc=$scratch/sc.${f##*.}
	cp "$st" "$sc"
	"$bin/probe-check" --strict "$sc" >/dev/null 2>&1 || fail "$base: strip output fails probe-check --strict"
	local before
	before=$(stamp "$sc")
	run "$base: strip of stripped" "$bin/probe-strip" "$sc"
	same "$base: strip is idempotent" "$st" "$sc"
	[ "$before" = "$(stamp "$sc")" ] || fail "$base: strip rewrote an already stripped file"

	if [ -z "$names" ]; then
		# a probe-free file: every command leaves it identical and unwritten
		local w=$scratch/pf.${f##*.}
		cp -p "$f" "$w"
		before=$(stamp "$w")
		run "$base: strip" "$bin/probe-strip" "$w"
		run "$base: disable-all" "$bin/probe-inject" --disable-all "$w"
		run "$base: strip --disable" "$bin/probe-strip" --disable "$w"
		same "$base: probe-free strip" "$f" "$w"
		[ "$before" = "$(stamp "$w")" ] || fail "$base: probe-free file was rewritten (inode/mtime changed)"
		same "$base: probe-free strip --stdout" "$f" "$st"
		"$bin/probe-strip" --check "$w" || fail "$base: strip --check on a probe-free file exits $?"
		[ -z "$("$bin/probe-strip" --diff "$w")" ] || fail "$base: strip --diff of a probe-free file is not empty"
		return
	fi

	# a clean file with probes: disabling all of them changes nothing
	local w=$scratch/cl.${f##*.}
	cp -p "$f" "$w"
	before=$(stamp "$w")
	run "$base: disable-all" "$bin/probe-inject" --disable-all "$w"
	run "$base: strip --disable" "$bin/probe-strip" --disable "$w"
	[ "$before" = "$(stamp "$w")" ] || fail "$base: clean file rewritten by --disable-all / strip --disable"
	check_diff "$base: strip" "$f" "$st" "$bin/probe-strip"

	local name
	for name in $names; do
		round_trips "$f" "$name"
	done
	# stripping the names one by one ends where the full strip ends
	cp "$f" "$w"
	for name in $names; do
		run "$base: strip --probe $name (sequence)" "$bin/probe-strip" --probe "$name" "$w"
	done
	same "$base: per-name strips == full strip" "$st" "$w"
}

for f in "$corpus"/*; do
	case $f in
	*.md) continue ;;
	esac
	[ -f "$f" ] && check_file "$f"
done
[ "$nfiles" -ge 12 ] || fail "corpus has $nfiles files, expected at least 12"

# the committed corpus is clean: the gate passes on the whole directory
out=$("$bin/probe-check" "$corpus" 2>&1) || { fail "probe-check $corpus exits non-zero"; printf '%s\n' "$out" >&2; }
# and the corpus itself was never touched: every run worked on copies
[ "$(cd "$corpus" && sha256sum -- *)" = "$sums_before" ] || fail "a file in $corpus changed during the test"

echo "corpus: $nfiles files, $nprobes probes, $trips round trips, $lost lost"
[ "$failures" -eq 0 ] || { echo "corpus_roundtrip: $failures failure(s)" >&2; exit 1; }
