#!/usr/bin/env bash
# find_package(probekit) from an installed prefix alone: `cmake --install`
# this build into a scratch prefix, then configure, build and ctest
# tests/cmake_consumer (a kernel and harness of its own, LIBS
# probekit::pksim) with only that prefix: no source tree include paths, the
# build's bin/ off PATH. Also checks what else the install must hold: the
# version file, the man pages and the bash completion.
#   bash tests/sh/cmake_package.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
build=$(cd "$bin/.." && pwd)
grep -q '^PROBEKIT_KERNELS:BOOL=ON' "$build/CMakeCache.txt" ||
	skip "probekit built with -DPROBEKIT_KERNELS=OFF: no simulation (pksim) to install for a consumer"
prefix=$scratch/prefix
if ! cmake --install "$build" --prefix "$prefix" >"$scratch/install.log" 2>&1; then
	fail "cmake --install failed"
	tail -20 "$scratch/install.log" >&2
	finish
fi
for f in lib/cmake/probekit/probekitConfig.cmake lib/cmake/probekit/probekitConfigVersion.cmake \
	lib/cmake/probekit/ProbeVariants.cmake bin/probe bin/probe-inject include/probekit/sim/kernel_operator.h \
	share/man/man1/probe.1 share/man/man1/probe-inject.1 share/man/man1/probe-strip.1 \
	share/bash-completion/completions/probe share/bash-completion/completions/probe-strip; do
	[ -e "$prefix/$f" ] && ok "installed $f" || fail "not installed: $f"
done
command -v man >/dev/null && { MANPATH=$prefix/share/man man -w probe-strip 2>/dev/null | grep -q "^$prefix/" &&
	ok "man finds the installed probe-strip(1)" || fail "man -w probe-strip does not find the installed page"; }

# the consumer sees nothing of this tree: a clean PATH, only the prefix
clean_path=/usr/local/bin:/usr/bin:/bin
cb=$scratch/consumer
if ! env PATH="$clean_path" cmake -S "$src/tests/cmake_consumer" -B "$cb" -G Ninja -DCMAKE_BUILD_TYPE=Release \
	-DCMAKE_PREFIX_PATH="$prefix" >"$scratch/configure.log" 2>&1; then
	fail "consumer configure failed"
	tail -20 "$scratch/configure.log" >&2
	finish
fi
ok "find_package(probekit) from the prefix"
grep -q "^PROBEKIT_INJECT:FILEPATH=$prefix/bin/probe-inject" "$cb/CMakeCache.txt" &&
	ok "the variants use the installed probe-inject" || fail "PROBEKIT_INJECT is not the installed one"
if ! env PATH="$clean_path" cmake --build "$cb" -j2 >"$scratch/build.log" 2>&1; then
	fail "consumer build failed"
	grep -m5 -i 'error' "$scratch/build.log" >&2
	finish
fi
ok "the consumer builds (kernel_operator.h found through probekit::pksim)"
grep -q -- "-I$src/kernels" "$cb/build.ninja" && fail "the consumer's build reads this source tree's simulation headers"
if env PATH="$clean_path" ctest --test-dir "$cb" -j2 >"$scratch/ctest.log" 2>&1; then
	n=$(grep -c ' Passed ' "$scratch/ctest.log")
	[ "$n" -ge 6 ] && ok "the consumer's ctest passes ($n cases)" || fail "only $n consumer cases ran"
else
	fail "the consumer's ctest failed"
	grep -E 'Failed|\*\*\*' "$scratch/ctest.log" | head >&2
fi
finish
