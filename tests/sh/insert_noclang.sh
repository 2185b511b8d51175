#!/bin/bash
# insert_noclang.sh BIN_DIR SRC_DIR - the block-only commands never load
# libclang, nor does probe-inject's help of any form or a command line its
# parser refuses; AST insertion without its module fails
# with one clear line and exit 2, writing nothing.
set -u
bin=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pk-noclang.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail=0
cp "$src/testdata/insert/existing_probe_neighbour/k.cpp" "$scratch/k.cpp"
cd "$scratch" || exit 2

if ldd "$bin/probe" | grep -q libclang; then
	echo "FAIL the probe executable links libclang"; fail=1
fi
# the dynamic loader reports every library it maps
for cmd in "probe-list k.cpp" "probe-check k.cpp" "probe-inject --probe W --stdout k.cpp" \
	"probe-strip --stdout k.cpp" "probe-inject --disable-all --stdout k.cpp" \
	"probe-inject --help" "probe-inject --timing-tensor --help" "probe-inject --probe N --begin x --help" \
	"probe-inject --probe NEW --begin after:Work k.cpp" "probe-inject --timing-tensor --host h.cpp --stdout k.cpp"; do
	# shellcheck disable=SC2086
	LD_DEBUG=files "$bin"/$cmd >/dev/null 2>"$scratch/ld.log"
	if grep -q 'libclang' "$scratch/ld.log"; then
		echo "FAIL '$cmd' loaded libclang"; fail=1
	fi
done
# ... while an insertion does load it
LD_DEBUG=files "$bin/probe-inject" --probe NEW --around Work --stdout k.cpp >/dev/null 2>"$scratch/ld.log"
grep -q 'libclang' "$scratch/ld.log" || { echo "FAIL insertion did not load libclang"; fail=1; }

# no module: one line, exit 2, the file untouched
before=$(stat -c '%i %Y' k.cpp; md5sum <k.cpp)
PROBEKIT_AST_MODULE=$scratch/missing.so "$bin/probe-inject" --probe NEW --around Work k.cpp 2>err
rc=$?
[ $rc = 2 ] || { echo "FAIL missing module: exit $rc, expected 2"; fail=1; }
[ "$(wc -l <err)" = 1 ] && grep -q '^probekit: .*missing.so' err ||
	{ echo "FAIL missing module message:"; cat err; fail=1; }
# a file that is not a module: dlopen's message, exit 2
echo "not a library" >bad.so
PROBEKIT_AST_MODULE=$scratch/bad.so "$bin/probe-inject" --probe NEW --around Work k.cpp 2>err
rc=$?
[ $rc = 2 ] && [ "$(wc -l <err)" = 1 ] && grep -q '^probekit: cannot load the libclang module: ' err ||
	{ echo "FAIL bad module: exit $rc:"; cat err; fail=1; }
after=$(stat -c '%i %Y' k.cpp; md5sum <k.cpp)
[ "$before" = "$after" ] || { echo "FAIL k.cpp changed"; fail=1; }
[ $fail = 0 ] && echo "ok: block commands stay clear of libclang; a missing module is one line"
exit $fail
