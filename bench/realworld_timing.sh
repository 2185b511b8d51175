#!/usr/bin/env bash
# The timing-tensor pass over a real tree, on copies under BUILD_DIR (the tree
# is never written).
# A simpler tree (it has src/a2a3): every example and system test that has a
# test script and an orchestration, grouped by architecture and runtime
# (examples/a2a3|a5/RUNTIME/*, tests/st/a2a3|a5/RUNTIME/*, the worker
# examples and tests). For every incore kernel the test script names (every
# kernel under kernels/ when it names them by computation):
#   probe-inject --timing-tensor --host ORCH.cpp --test-script TEST.py KERNEL
#   (a test script the tool refuses, one that builds its arguments elsewhere
#   or writes a signature over several lines: the kernel and orchestration
#   are then measured without it, --func-id from the script's tables; when
#   that run is refused because a test script beside the orchestration names
#   it, again with the script the refusal names, as a user would; the same
#   script as the first run, which the tool cannot edit: with
#   --test-script-by-hand, the user adding its TensorArg; counted apart)
#   - accepted? the timing tensor read through the descriptor or the accessor?
#   - the instrumented orchestration: g++ -fsyntax-only against the tree's
#     runtime headers, for the first MAX_COMPILE kernels of each example whose
#     clean orchestration compiles (g++ takes seconds a file);
#   - probe-strip on every changed file: the copy equals the original byte for
#     byte; probe-check flags the instrumented files (exit 1).
# A pypto-lib tree (it has models/): every @pl.jit.extern of qwen3's
# paged_attention_cce.py with its entry, the helper headers, the extern's
# callers in the other model files (--edit), the same checks.
# An Ascend C tree: asc-devkit's examples (.asc files holding kernel and
# `<<<>>>` launch: --host FILE FILE) or ops-transformer's op_kernel kernels
# (--host the op's kernel test when its ICPU_RUN_KF launches the kernel;
# --host-by-hand when no host is found, counted apart):
# accepted, the launch updated, the timing parameter before workspace /
# tiling, the helpers above the kernel's whole declaration, probe-check
# flags, probe-strip restores.
#   bench/realworld_timing.sh TREE [BUILD_DIR]     (MAX_COMPILE=N, default 6)
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:?usage: bench/realworld_timing.sh TREE [BUILD_DIR]}
tree=$(cd "$tree" && pwd)
build=$(cd "${2:-$here/build}" && pwd)
max_compile=${MAX_COMPILE:-6}
bin=$build/bin
[ -x "$bin/probe-inject" ] || { echo "no $bin/probe-inject: build first" >&2; exit 2; }
work=${WORK_DIR:-$build/realworld-timing}
rm -rf "$work"
mkdir -p "$work"
if [ -d "$tree/models/qwen3_14b" ]; then
  src=$tree/models/qwen3_14b
  hdr=kernels/paged_attention_cce/kernel/fai_body.hpp
  # every extern of paged_attention_cce.py: its entry (the _X_ENTRY path its
  # decorator names) and the other model files calling it
  for ext in $(grep -A1 '^@pl.jit.extern' -r "$src/paged_attention_cce.py" >/dev/null; awk '/^@pl.jit.extern/{e=1} e&&/^def /{sub(/^def /,""); sub(/\(.*/,""); print; e=0}' "$src/paged_attention_cce.py"); do
    var=$(awk -v n="$ext" '/^@pl.jit.extern/{d=""} /source=/{match($0,/source=[A-Z_]+/); d=substr($0,RSTART+7,RLENGTH-7)} $0 ~ "^def "n"\\(" {print d; exit}' "$src/paged_attention_cce.py")
    entry=$(grep "^$var = " "$src/paged_attention_cce.py" | grep -o '"[^"]*"' | tr -d '"' | tr '\n' '/' | sed 's|/$||')
    entry=kernels/paged_attention_cce/$entry
    callers=$(cd "$src" && grep -l "^ *[a-z_]* = $ext(\|^ *$ext(" --include='*.py' -r . | sed 's|^\./||' | grep -v '^paged_attention_cce.py$')
    copy=$work/qwen3_14b.$ext
    cp -r "$src" "$copy"
    (cd "$copy" && "$bin/probe-inject" --timing-tensor --slots 72 --host "paged_attention_cce.py:$ext" \
      $(for c in $callers; do echo --edit "$c"; done) "$entry") >"$copy.log" 2>&1
    rc=$?
    echo "== $ext: $entry${callers:+, callers in $callers}: probe-inject exit $rc"
    [ $rc -eq 0 ] || { grep -v 'could not parse' "$copy.log" | head -3; continue; }
    grep 'warning: .*mixed' "$copy.log" | sed 's/^/   /' | cut -c1-160
    echo "   $hdr: $( (diff -u "$src/$hdr" "$copy/$hdr" | grep -o 'args\[/\* TIMING_PROBE: @timing-was "[0-9]*" \*/[0-9]*' |
      sed 's/args\[\/\* TIMING_PROBE: @timing-was "\([0-9]*\)" \*\/\([0-9]*\)/args[\1] -> args[\2]/' | sort -u | tr '\n' ' '))"
    echo "   python lines naming the timing tensor: $(cat "$copy"/*.py | grep -c 'pk_tt_timing')"
    echo "   $(grep -o 'pk_tt_out = .*;' "$copy/$entry")"
    changed=$(diff -rq "$src" "$copy" | sed -n "s|^Files $src/*\(.*\) and .* differ\$|\1|p")
    (cd "$copy" && "$bin/probe-check" $changed >/dev/null 2>&1); echo "   probe-check exit $? on $(echo $changed | wc -w) changed files (1: leftovers flagged)"
    find "$copy" -name '*.timing.json' -delete
    (cd "$copy" && "$bin/probe-strip" $changed) >>"$copy.log" 2>&1
    diff -r "$src" "$copy" >/dev/null && echo "   restored byte for byte" || echo "   NOT RESTORED"
    rm -rf "$copy"
  done
  exit 0
fi
# ---- Ascend C direct-signature kernels (asc-devkit examples, ops-transformer) ----
# direct_one DIR KERNEL [HOST]: on a copy of DIR (paths relative to it)
D_k=0 D_a=0 D_hb=0 D_l=0 D_nl=0 D_wt=0 D_h=0 D_f=0 D_r=0
direct_one() {
  local dir=$1 src=$2 host=${3:-} copy log rc res next
  D_k=$((D_k + 1))
  copy=$work/direct.$D_k
  rm -rf "$copy"; cp -r "$dir" "$copy"; log=$copy.log
  # no host found: the user changes it (--host-by-hand, as the refusal of a
  # run naming no host says); counted apart from the launches updated
  local hostarg=(--host-by-hand)
  [ -z "$host" ] || hostarg=(--host "$host")
  (cd "$copy" && "$bin/probe-inject" --timing-tensor --slots 64 "${hostarg[@]}" "$src") </dev/null >"$log" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "refused: $(grep -m1 -v 'warning' "$log" | sed "s|$copy/||g" | cut -c1-150)" >>"$work/direct.refusals"
    printf '  %-70s refused\n' "${src}"
    rm -rf "$copy"; return
  fi
  D_a=$((D_a + 1)); res="accepted"
  [ -n "$host" ] || { D_hb=$((D_hb + 1)); res="$res host-by-hand"; }
  if [ -n "$host" ]; then
    if grep -q 'pk_tt_timing = ' "$copy/$host"; then D_l=$((D_l + 1)); res="$res launch-updated"
    else D_nl=$((D_nl + 1)); res="$res NO-LAUNCH"; fi
  fi
  grep -q 'pk_tt_timing/\* TIMING_PROBE: @timing-end \*/ *,' "$copy/$src" &&
    grep -qi 'workspace\|tiling' "$dir/$src" && { D_wt=$((D_wt + 1)); res="$res before-workspace/tiling"; }
  next=$(awk '/TIMING_PROBE: @timing helper/{h=1; next} h{print; exit}' "$copy/$src")
  if echo "$next" | grep -Eq '^(template|extern|__global__|__aicore__|__mix__|__vector__|__cube__|\[|static|inline|void|__attribute__|#|//|/\*|[[:space:]]*$)'; then
    D_h=$((D_h + 1)); res="$res helpers-above"
  else
    res="$res HELPERS-INSIDE($next)"
  fi
  "$bin/probe-check" "$copy/$src" ${host:+"$copy/$host"} >/dev/null 2>&1
  [ $? -eq 1 ] && { D_f=$((D_f + 1)); res="$res flagged"; }
  find "$copy" -name '*.timing.json' -delete
  (cd "$copy" && "$bin/probe-strip" "$src" ${host:+"$host"}) >>"$log" 2>&1
  if diff -r "$dir" "$copy" >/dev/null; then D_r=$((D_r + 1)); res="$res restored"; else res="$res NOT-RESTORED"; fi
  printf '  %-70s %s\n' "${src}" "$res"
  rm -rf "$copy"
}
direct_summary() {
  echo "   $1: kernels $D_k  accepted $D_a (no host found, --host-by-hand: $D_hb)  launch-updated $D_l (host given, no launch: $D_nl)  timing-before-workspace/tiling $D_wt  helpers-above-declaration $D_h  probe-check-flagged $D_f  restored $D_r"
  [ -f "$work/direct.refusals" ] && sort "$work/direct.refusals" | sed 's/:[0-9]*:/:N:/' | cut -c1-120 | sort | uniq -c | sort -rn | head -12
}
if [ -d "$tree/examples/01_simd_cpp_api" ]; then
  echo "== asc-devkit examples: .asc files with a __global__ kernel, the launch in the same file (--host FILE FILE)"
  while IFS= read -r f; do
    direct_one "$(dirname "$f")" "$(basename "$f")" "$(grep -q '<<<\|ACLRT_LAUNCH_KERNEL' "$f" && basename "$f")"
  done < <(grep -rl --include='*.asc' '__global__' "$tree/examples" | sort)
  direct_summary "asc-devkit examples"
  exit 0
fi
if [ -d "$tree/attention" ] && [ -d "$tree/moe" ]; then
  echo "== ops-transformer: op_kernel/*.cpp with a __global__ kernel; --host the op's kernel test (ICPU_RUN_KF) when it launches it"
  while IFS= read -r f; do
    op=${f%/op_kernel/*}
    name=$(grep -o '__global__[^(]* \([A-Za-z_][A-Za-z_0-9]*\) *(' "$f" | head -1 | sed 's/ *($//; s/.* //')
    host=$(grep -rl --include='test_*.cpp' "ICPU_RUN_KF( *$name *," "$op/tests" 2>/dev/null | head -1)
    direct_one "$op" "${f#"$op"/}" "${host:+${host#"$op"/}}"
  done < <(grep -rl --include='*.cpp' '__global__' "$tree" | grep '/op_kernel/' | grep -v '/tests/' | sort)
  direct_summary "ops-transformer"
  exit 0
fi
if [ -d "$tree/src/a2a3" ]; then
# ---- simpler: every example / system test with an orchestration ----
# incs ARCH RT: the include flags of one runtime (its headers, common, platform)
incs() {
  inc=()
  while IFS= read -r d; do inc+=("-I$d"); done < <(find "$tree/src/$1/runtime/$2" "$tree/src/common" -type d 2>/dev/null
    echo "$tree/src/$1/platform/include")
}
# sources TEST: the literal "source" strings of a test script
sources() { grep -o '"source": *"[^"]*"' "$1" | sed 's/.*"source": *"//; s/"$//'; }
# func_id_of TEST SRC: the literal func_id next to SRC, or a (N, "name", ...) table row
func_id_of() {
  local id
  id=$(grep -B3 "\"source\": *\"$2\"" "$1" | grep -o '"func_id": *[0-9]*' | grep -o '[0-9]*$' | head -1)
  [ -n "$id" ] || id=$(grep -o "( *[0-9]* *, *\"$(basename "$2" .cpp)\"" "$1" | grep -o '[0-9]*' | head -1)
  echo "$id"
}
byhand=""
T_k=0 T_a=0 T_at=0 T_an=0 T_ab=0 T_al=0 T_d=0 T_c=0 T_cc=0 T_r=0 T_f=0
# probe-inject --timing-tensor in COPY, output to LOG: --slots 24 (a stand-in
# for the launch's core slots); when the tool counts more rows than that (several
# tasks submit the kernel: one row per task and block), again with its count.
tt_inject() {
  local copy=$1 log=$2 rows
  shift 2
  (cd "$copy" && "$bin/probe-inject" --timing-tensor --slots 24 "$@") >"$log" 2>&1 && return 0
  rows=$(grep -o -- '--slots 24, but .*pass --slots [0-9]*' "$log" | grep -o '[0-9]*$')
  [ -n "$rows" ] || return 2
  (cd "$copy" && "$bin/probe-inject" --timing-tensor --slots "$rows" "$@") >"$log" 2>&1
}

# one_kernel EX ORCH TEST SRC: inject, check, strip one kernel on a copy of EX
one_kernel() {
  local ex=$1 orch=$2 test=$3 src=$4 name copy log rc res rel_test fid
  name=$(echo "${ex#"$tree"/}" | tr '/' '.')
  k=$((k + 1))
  copy=$work/$name.$k
  rm -rf "$copy"; cp -r "$ex" "$copy"
  log=$copy.log
  rel_test=$test
  how=test
  if [ "$byhand" = "$ex/$test" ]; then
    # a kernel of the example whose script was found unedited before: as a
    # user would, straight to --test-script-by-hand
    fid=$(func_id_of "$ex/$test" "$src")
    tt_inject "$copy" "$log" --host "$orch" --test-script-by-hand ${fid:+--func-id "$fid"} "$src"
    rc=$?; how=byhand; rel_test=""
  else
    tt_inject "$copy" "$log" --host "$orch" ${test:+--test-script "$test"} "$src"
    rc=$?
  fi
  if [ $how = test ] && [ $rc -ne 0 ] && [ -n "$test" ] && grep -q "test script\|TensorArg\|^probekit: $test:" "$log"; then
    fid=$(func_id_of "$ex/$test" "$src")
    tt_inject "$copy" "$log.2" --host "$orch" ${fid:+--func-id "$fid"} "$src"
    rc=$?
    how=alone
    [ $rc -eq 0 ] && { rel_test=""; mv "$log.2" "$log"; }
    # the orchestration alone is refused when a test script beside it names
    # it, the refusal naming the script to add: run again with it, as a user
    # would (the same script as the first run: both refusals stand)
    named=$(grep -o 'add --test-script [^ ;]*' "$log.2" 2>/dev/null | head -1 | sed 's/^add --test-script //')
    if [ $rc -ne 0 ] && [ -n "$named" ]; then
      if [ "$named" = "$test" ]; then
        # the script the first run refused to edit: the user adds its
        # TensorArg (--test-script-by-hand, as that refusal now says)
        tt_inject "$copy" "$log.3" --host "$orch" --test-script-by-hand ${fid:+--func-id "$fid"} "$src"
        rc=$?; how=byhand
        [ $rc -eq 0 ] && { rel_test=""; mv "$log.3" "$log"; byhand=$ex/$test; }
      else
        case $named in ../*|/*) how=outside ;; *)
          tt_inject "$copy" "$log.3" --host "$orch" --test-script "$named" "$src"
          rc=$?; how=named
          [ $rc -eq 0 ] && { rel_test=$named; mv "$log.3" "$log"; } ;;
        esac
      fi
    fi
  fi
  res="refused"
  if [ $rc -eq 0 ]; then
    a=$((a + 1)); res="accepted"
    case $how/$rel_test in
      test/?*) at=$((at + 1)); res="$res +test" ;;
      named/?*) an=$((an + 1)); res="$res +named-test" ;;
      byhand/*) ab=$((ab + 1)); res="$res test-script-by-hand" ;;
      *) al=$((al + 1)); res="$res alone" ;;
    esac
    if grep -q 'pk_tt_out = .*\(->buffer\.addr\|tensor_data<\)' "$copy/$src"; then
      d=$((d + 1)); res="$res desc"
    fi
    if [ "$ncomp" -lt "$max_compile" ] && [ "$clean_ok" = 1 ]; then
      ncomp=$((ncomp + 1)); cc=$((cc + 1))
      if g++ -std=c++17 -fsyntax-only "${inc[@]}" "$copy/$orch" >>"$log" 2>&1; then
        c=$((c + 1)); res="$res orch-compiles"
      else
        res="$res ORCH-FAILS"
      fi
    fi
    "$bin/probe-check" "$copy/$src" "$copy/$orch" ${rel_test:+"$copy/$rel_test"} >/dev/null 2>&1
    [ $? -eq 1 ] && { f=$((f + 1)); res="$res flagged"; }
    find "$copy" -name '*.timing.json' -delete
    (cd "$copy" && "$bin/probe-strip" $(diff -rq "$ex" "$copy" | sed -n "s|^Files $ex/*\(.*\) and .* differ\$|\1|p")) >>"$log" 2>&1
    if diff -r "$ex" "$copy" >/dev/null; then
      r=$((r + 1)); res="$res restored"
    else
      res="$res NOT-RESTORED"
    fi
  else
    # the refusal: the last run's (the first run's when it was not run again)
    why=$(grep -m1 -v 'warning' "$log" | cut -c1-160)
    case $how in named|byhand) [ -f "$log.3" ] && why=$(grep -m1 -v 'warning' "$log.3" | cut -c1-160) ;; esac
    res="$res: $why"
    echo "$why" | sed "s/^probekit: [^ ]*: //; s/'[^']*'/'X'/g; s/[0-9][0-9]*/N/g" | cut -c1-110 >>"$work/simpler.refusals"
  fi
  printf '  %-58s %s\n' "${copy#"$work"/} $src" "$res"
  rm -rf "$copy"
}
# group LABEL ARCH RT DIR...: every example DIR with a test script and an orchestration
group() {
  local label=$1 arch=$2 rt=$3 ex test orch srcs src
  shift 3
  incs "$arch" "$rt"
  k=0 a=0 at=0 an=0 ab=0 al=0 d=0 c=0 cc=0 r=0 f=0 outside=0
  echo "== $label"
  for ex in "$@"; do
    ex=${ex%/}
    for test in "$ex"/test_*.py; do
      [ -f "$test" ] || continue
      orch=$(sources "$test" | grep orchestration | head -1)
      [ -n "$orch" ] && [ -f "$ex/$orch" ] || orch=$(cd "$ex" && find . -path '*orchestration*' -name '*.cpp' | sed 's|^\./||' | head -1)
      [ -n "$orch" ] || continue
      g++ -std=c++17 -fsyntax-only "${inc[@]}" "$ex/$orch" >/dev/null 2>&1 && clean_ok=1 || clean_ok=0
      ncomp=0
      srcs=$(sources "$test" | grep -v orchestration | sort -u)
      [ -n "$srcs" ] || srcs=$(cd "$ex" && find kernels -name '*.cpp' -not -path '*orchestration*' | sort)
      for src in $srcs; do
        case $src in ../*|/*) outside=$((outside + 1)); continue ;; esac
        [ -f "$ex/$src" ] || { outside=$((outside + 1)); continue; }
        one_kernel "$ex" "$orch" "$(basename "$test")" "$src"
      done
    done
  done
  echo "   $label: kernels $k  accepted $a (with the test script $at, with the script a refusal named $an, test script by hand $ab, orchestration alone $al)  descriptor-read $d  orchestration-compiles $c of $cc checked  restored $r  probe-check-flagged $f  (kernels outside the example dir: $outside)"
  T_k=$((T_k + k)) T_a=$((T_a + a)) T_at=$((T_at + at)) T_an=$((T_an + an)) T_ab=$((T_ab + ab)) T_al=$((T_al + al)) T_d=$((T_d + d)) T_c=$((T_c + c)) T_cc=$((T_cc + cc)) T_r=$((T_r + r)) T_f=$((T_f + f))
}

  for arch in a2a3 a5; do
    for rt in tensormap_and_ringbuffer host_build_graph; do
      group "examples/$arch/$rt" $arch $rt "$tree"/examples/$arch/$rt/*/
      group "tests/st/$arch/$rt" $arch $rt "$tree"/tests/st/$arch/$rt/*/ "$tree"/tests/st/$arch/$rt/*/*/
    done
  done
  group "examples/workers + tests/st (other)" a2a3 tensormap_and_ringbuffer "$tree"/examples/workers/*/*/ \
    "$tree"/tests/st/worker/*/*/ "$tree"/tests/st/[!aw]*/
  echo "all: kernels $T_k  accepted $T_a (with the test script $T_at, with the script a refusal named $T_an, test script by hand $T_ab, orchestration alone $T_al)  descriptor-read $T_d  orchestration-compiles $T_c of $T_cc checked  restored $T_r  probe-check-flagged $T_f"
  [ -f "$work/simpler.refusals" ] && sort "$work/simpler.refusals" | uniq -c | sort -rn | head -15
  exit 0
fi
