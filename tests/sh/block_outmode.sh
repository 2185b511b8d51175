#!/usr/bin/env bash
# -o OUT onto an existing file keeps that file's mode (a 0640 output stays
# 0640, an executable script stays executable); a new OUT gets 0666 less
# the umask, as any new file.
#   bash tests/sh/block_outmode.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
cd "$scratch" || exit 1
kernel k.cpp
umask 022
echo old >out.cpp
chmod 0640 out.cpp
run_expect 0 "inject -o onto an existing file" probe-inject --probe STAGE_A -o out.cpp k.cpp
[ "$(stat -c %a out.cpp)" = 640 ] && ok "existing -o OUT keeps mode 0640" || fail "mode now $(stat -c %a out.cpp)"
grep -q '^#if 1  // TIMING_PROBE: STAGE_A' out.cpp && ok "-o wrote the result" || fail "-o output lacks the probe"
echo old >prod.cpp
chmod 0755 prod.cpp
run_expect 0 "strip -o onto an executable file" probe-strip -o prod.cpp k.cpp
[ "$(stat -c %a prod.cpp)" = 755 ] && ok "existing -o OUT keeps mode 0755" || fail "mode now $(stat -c %a prod.cpp)"
run_expect 0 "strip -o to a new file" probe-strip -o new.cpp k.cpp
[ "$(stat -c %a new.cpp)" = 644 ] && ok "a new -o OUT gets 0666 less the umask" || fail "new file mode $(stat -c %a new.cpp)"
# probe-report -o goes through the same writer
printf '[T_BASE] 100\n[STAGE_A] start=110 end=150 dur=40\n' >run.log
echo old >report.txt
chmod 0600 report.txt
run_expect 0 "probe-report -o onto an existing file" probe-report -o report.txt run.log
[ "$(stat -c %a report.txt)" = 600 ] && ok "probe-report -o keeps mode 0600" || fail "mode now $(stat -c %a report.txt)"
no_temp_files .
finish
