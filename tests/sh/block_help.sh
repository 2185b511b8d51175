#!/usr/bin/env bash
# --help and --version of every block command: help on
# stdout with exit 0, every long option the command accepts and every exit
# code (0, 1, 2) documented; a stable version line; usage errors exit 2 with
# one "probekit: ..." line. The option list is read from the command's
# getopt table in tool/, so an option added without help text fails here.
#   bash tests/sh/block_help.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
version=$(sed -n 's/^#define PK_VERSION "\(.*\)"/\1/p' "$src/tool/pk.h")
[ -n "$version" ] || fail "no PK_VERSION in tool/pk.h"
grep -q "project(probekit VERSION $version" "$src/CMakeLists.txt" &&
	ok "CMake project version is PK_VERSION" || fail "CMakeLists.txt project VERSION differs from PK_VERSION $version"

for cmd in inject strip list check; do
	help=$("probe-$cmd" --help 2>"$scratch/err")
	rc=$?
	[ "$rc" = 0 ] && ok "probe-$cmd --help exits 0" || fail "probe-$cmd --help exit $rc"
	[ -s "$scratch/err" ] && fail "probe-$cmd --help wrote to stderr: $(head -1 "$scratch/err")"
	case "$help" in "usage: probe-$cmd "*) ok "probe-$cmd --help starts with its usage" ;;
	*) fail "probe-$cmd --help does not start with 'usage: probe-$cmd'" ;; esac
	[ "$(probe-"$cmd" -h)" = "$help" ] && ok "probe-$cmd -h = --help" || fail "probe-$cmd -h differs from --help"
	[ "$(probe "$cmd" --help)" = "$help" ] && ok "probe $cmd --help = probe-$cmd --help" ||
		fail "probe $cmd --help differs"
	# exit codes: a line starting "exit:" then 0, 1 and 2 described
	codes=$(printf '%s\n' "$help" | sed -n '/^exit:/,$p' | tr '\n' ' ')
	for c in 0 1 2; do
		case "$codes" in *"$c "*) ;; *) fail "probe-$cmd --help: exit code $c not documented" ;; esac
	done
	# every long option of the getopt table (own, emit and common ones);
	# probe-inject's table, for all its forms, is in inject_opts.c
	table=$src/tool/cmd_$cmd.c
	[ "$cmd" = inject ] && table=$src/tool/inject_opts.c
	opts=$(grep -o '{ *"[a-z-]*", *\(no\|required\|optional\)_argument' "$table" | sed 's/{ *"\([a-z-]*\)".*/\1/')
	[ -n "$opts" ] || fail "no long options read from $table (has the table's layout changed?)"
	grep -q PK_EMIT_LONGOPTS "$table" && opts="$opts stdout diff check output"
	for o in $opts help version; do
		case "$help" in *"--$o"*) ;; *) fail "probe-$cmd --help does not document --$o" ;; esac
	done
	ok "probe-$cmd --help documents $(echo $opts | wc -w) options and the exit codes"

	v=$("probe-$cmd" --version)
	[ "$v" = "probe-$cmd (probekit) $version" ] && ok "probe-$cmd --version: $v" ||
		fail "probe-$cmd --version: '$v', expected 'probe-$cmd (probekit) $version'"
	[ "$(probe "$cmd" --version)" = "$v" ] || fail "probe $cmd --version differs"

	run_expect 2 "probe-$cmd --bogus" "probe-$cmd" --bogus &&
		[ "$out" = "probekit: unknown option '--bogus' (see --help)" ] && ok "probe-$cmd --bogus message" ||
		fail "probe-$cmd --bogus: '$out'"
	# a mistyped long option (its first letter doubled) names the one meant
	o=$(echo $opts | cut -d' ' -f1)
	typo=--${o:0:1}$o
	run_expect 2 "probe-$cmd $typo" "probe-$cmd" "$typo" &&
		[ "$out" = "probekit: unknown option '$typo'; did you mean '--$o'? (see --help)" ] &&
		ok "probe-$cmd $typo: did you mean --$o" || fail "probe-$cmd $typo: '$out'"
done
for t in "report formatt format" "sweep repeatt repeat"; do # their help is tested elsewhere
	set -- $t
	run_expect 2 "probe-$1 --$2" "probe-$1" "--$2" x.log &&
		[ "$out" = "probekit: unknown option '--$2'; did you mean '--$3'? (see --help)" ] &&
		ok "probe-$1 --$2: did you mean --$3" || fail "probe-$1 --$2: '$out'"
done
run_expect 2 "probe-inject --probe without a value" probe-inject --probe &&
	has "missing value message" "probekit: option '--probe' needs a value (see --help)"
run_expect 2 "probe-check --format=xml" probe-check --format=xml . &&
	has "bad format message" "probekit: unknown format 'xml'"

# the multi-call binary itself
run_expect 0 "probe --help" probe --help && for cmd in inject strip list check; do
	has "probe --help lists $cmd" "  $cmd "
done
run_expect 2 "probe with no command" probe && has "probe alone prints usage" "usage: probe <command>"
run_expect 2 "probe with an unknown command" probe bogus &&
	has "unknown command message" "probekit: 'bogus' is not a probekit command"
run_expect 2 "probe with a misspelt command" probe injet &&
	has "misspelt command: did you mean" "probekit: 'injet' is not a probekit command; did you mean 'inject'?"
# probe help [COMMAND]: the command's --help, the listing without one
for cmd in inject strip list check report; do
	[ "$(probe help "$cmd")" = "$(probe-"$cmd" --help)" ] && ok "probe help $cmd = probe-$cmd --help" ||
		fail "probe help $cmd differs from probe-$cmd --help"
done
[ "$(probe help)" = "$(probe --help)" ] && ok "probe help = probe --help" || fail "probe help differs from probe --help"
run_expect 2 "probe help with an unknown command" probe help bogus &&
	has "probe help bogus message" "probekit: 'bogus' is not a probekit command"
v=$(probe --version)
case "$v" in *"(probekit) $version") ok "probe --version: $v" ;; *) fail "probe --version: '$v'" ;; esac
# README documents the exit codes too
grep -qi '^#.*exit codes' "$src/README.md" && ok "README has an exit codes section" || fail "README: no exit codes section"
finish
