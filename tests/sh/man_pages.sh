#!/usr/bin/env bash
# The man pages: one per command (and probe(1)), each holding its command's
# --help text word for word. The built page must equal what man/manpage.cmake
# makes from the binary beside it now, and man(1) must render every line of
# the help text.
#   bash tests/sh/man_pages.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
mandir=$bin/../share/man/man1
version=$(sed -n 's/^#define PK_VERSION "\(.*\)"/\1/p' "$src/tool/pk.h")
for cmd in "" check inject list report strip sweep; do
	page=probe${cmd:+-$cmd}.1
	if [ ! -f "$mandir/$page" ]; then
		fail "no $page in $mandir (built by man/CMakeLists.txt)"
		continue
	fi
	cmake -DPROBE="$bin/probe" -DCMD="$cmd" -DVERSION="$version" -DOUT="$scratch/$page" \
		-P "$src/man/manpage.cmake" || fail "manpage.cmake failed for $page"
	same "$page is what the binary's --help gives now" "$scratch/$page" "$mandir/$page"
	command -v man >/dev/null || continue
	MANWIDTH=300 man -l "$scratch/$page" 2>/dev/null | sed 's/^ *//; s/ *$//' >"$scratch/rendered"
	probe ${cmd:-} --help | sed 's/^ *//; s/ *$//' | grep -v '^$' >"$scratch/help"
	missing=$(grep -vxF -f "$scratch/rendered" "$scratch/help")
	[ -z "$missing" ] && ok "man -l $page renders every --help line" || fail "$page: help lines not in the page: $missing"
	if [ -n "$cmd" ]; then
		MANWIDTH=300 man -l "$scratch/$page" 2>/dev/null | grep -q "^NAME" && ok "$page has NAME" || fail "$page: no NAME"
	fi
done
finish
