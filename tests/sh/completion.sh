#!/usr/bin/env bash
# The bash completion (tool/completion/probe.bash): command names after
# `probe` and `probe help`, each command's options as its --help lists them,
# probe names of the files on the line after --probe/--disable, the formats
# after --format.
#   bash tests/sh/completion.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
cd "$scratch" || exit 1
source "$src/tool/completion/probe.bash" || fail "the completion file does not load"
kernel k.cpp
# complete WORD...: COMPREPLY for the line WORD... (the last word is the one completed)
complete_line() {
	COMP_WORDS=("$@")
	COMP_CWORD=${cword:-$(($# - 1))}
	COMPREPLY=()
	_probekit
	reply=" ${COMPREPLY[*]} "
}
# expect WHAT WORD...: every WORD in $reply
expect() {
	local what=$1 w
	shift
	for w in "$@"; do
		case "$reply" in *" $w "*) ;; *) fail "$what: no '$w' in:$reply"; return ;; esac
	done
	ok "$what"
}
complete_line probe ""
expect "probe <TAB>: the commands" check inject list report strip sweep help
# every command of the binary's table (tool/main.c), and each name it answers to
for c in $(sed -n 's/^ *{"\([a-z]*\)", cmd_.*/\1/p' "$src/tool/main.c"); do
	case "$reply" in *" $c "*) ;; *) fail "probe <TAB>: no '$c' (a command of tool/main.c)" ;; esac
	complete -p "probe-$c" >/dev/null 2>&1 || fail "no completion registered for probe-$c"
done
complete_line probe-sweep --fa
expect "probe-sweep --fa<TAB>" --fail-fast
complete_line probe-sweep k.cpp --probes ST
expect "probe-sweep k.cpp --probes ST<TAB>: the file's probes" STAGE_A STAGE_B
complete_line probe help s
expect "probe help s<TAB>" strip
complete_line probe-strip --di
expect "probe-strip --di<TAB>" --diff --disable
complete_line probe inject --dis
expect "probe inject --dis<TAB>" --disable --disable-all
complete_line probe-report --for
expect "probe-report --for<TAB>" --format
complete_line probe-report --format ""
expect "probe-report --format <TAB>" text csv json trace svg
complete_line probe-inject k.cpp --probe ST
expect "probe-inject k.cpp --probe ST<TAB>: the file's probes" STAGE_A STAGE_B
cword=2 complete_line probe-inject --disable "" k.cpp
expect "probe-inject --disable <TAB> k.cpp" STAGE_A STAGE_B T_BASE
complete_line probe-inject --timing-tensor --ho
expect "probe-inject --ho<TAB>: the timing tensor's options" --host --host-out
complete_line probe inject --aro
expect "probe inject --aro<TAB>: placement options" --around
complete_line probe-inject --timing-tensor --core-type ""
expect "probe-inject --core-type <TAB>" aiv aic mix
complete_line probe-inject --timing-tensor --target ""
expect "probe-inject --target <TAB>: the profiles" simpler ascendc
for t in $(sed -n 's/^\[target\.\([a-z0-9_]*\)\]$/\1/p' "$src/rules/timing.ini"); do
	case " simpler ascendc " in *" $t "*) ;; *) fail "rules/timing.ini has target '$t'; the completion does not offer it" ;; esac
done
complete_line probe-sweep --ti
expect "probe-sweep --ti<TAB>" --timeout
complete_line probe-strip k.
expect "probe-strip k.<TAB>: files" k.cpp
finish
