#!/usr/bin/env bash
# The timing-tensor pass over a simpler tree's examples that have an
# orchestration: for every kernel a test script lists as an incore, on a copy
# under BUILD_DIR (the tree is never written):
#   probe-inject --timing-tensor --host ORCH.cpp --test-script TEST.py KERNEL
#   - accepted? the timing tensor read through the descriptor or the accessor?
#   - the instrumented orchestration: g++ -fsyntax-only against the tree's
#     runtime headers (the clean one too, as the baseline);
#   - probe-strip on every file: the copy equals the original byte for byte;
#   - probe-check flags the instrumented files (exit 1) and passes the stripped.
# A test script that builds its arguments elsewhere (no TensorArg to extend)
# is refused; the kernel and orchestration are then measured without it.
# A pypto-lib tree (it has models/): qwen3's paged_attention_cce extern, its
# attention entry and the helper header it includes, the same checks.
#   bench/realworld_timing.sh SIMPLER_TREE|PYPTO_LIB_TREE [BUILD_DIR] [RUNTIME]
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:?usage: bench/realworld_timing.sh SIMPLER_TREE [BUILD_DIR] [RUNTIME]}
build=${2:-$here/build}
rt=${3:-tensormap_and_ringbuffer}
bin=$build/bin
[ -x "$bin/probe-inject" ] || { echo "no $bin/probe-inject: build first" >&2; exit 2; }
work=$build/realworld-timing
rm -rf "$work"
mkdir -p "$work"
if [ -d "$tree/models/qwen3_14b" ]; then
  copy=$work/qwen3_14b
  cp -r "$tree/models/qwen3_14b" "$copy"
  files="paged_attention_cce.py kernels/paged_attention_cce/attention/entry.cpp kernels/paged_attention_cce/kernel/fai_body.hpp"
  (cd "$copy" && "$bin/probe-inject" --timing-tensor --slots 72 --host paged_attention_cce.py:paged_attention_cce \
    kernels/paged_attention_cce/attention/entry.cpp) >"$copy.log" 2>&1
  rc=$?
  echo "paged_attention_cce extern + attention/entry.cpp: probe-inject exit $rc"
  (cd "$copy" && diff -u "$tree/models/qwen3_14b/kernels/paged_attention_cce/kernel/fai_body.hpp" \
    kernels/paged_attention_cce/kernel/fai_body.hpp | grep -o 'args\[/\* TIMING_PROBE: @timing-was "[0-9]*" \*/[0-9]*' |
    sed 's/args\[\/\* TIMING_PROBE: @timing-was "\([0-9]*\)" \*\/\([0-9]*\)/args[\1] -> args[\2]/' | sort -u | tr '\n' ' ')
  echo
  grep -c 'pk_tt_timing' "$copy/paged_attention_cce.py" | sed 's/^/python lines naming the timing tensor: /'
  grep -o 'pk_tt_out = .*;' "$copy/kernels/paged_attention_cce/attention/entry.cpp"
  (cd "$copy" && "$bin/probe-check" $files >/dev/null 2>&1); echo "probe-check exit $? (1: leftovers flagged)"
  find "$copy" -name '*.timing.json' -delete
  (cd "$copy" && "$bin/probe-strip" $files) >>"$copy.log" 2>&1
  diff -r "$tree/models/qwen3_14b" "$copy" >/dev/null && echo "restored byte for byte" || echo "NOT RESTORED"
  exit 0
fi
inc=()
while IFS= read -r d; do inc+=("-I$d"); done < <(find "$tree/src/a2a3/runtime/$rt" "$tree/src/common" -type d 2>/dev/null; echo "$tree/src/a2a3/platform/include")
kernels=0 accepted=0 descriptor=0 compiled=0 clean_compiled=0 restored=0 flagged=0
for ex in "$tree"/examples/a2a3/"$rt"/*/; do
  orch=$(find "$ex" -path '*orchestration*' -name '*.cpp' | head -1)
  test=$(find "$ex" -maxdepth 1 -name 'test_*.py' | head -1)
  [ -n "$orch" ] && [ -n "$test" ] || continue
  name=$(basename "$ex")
  g++ -std=c++17 -fsyntax-only "${inc[@]}" "$orch" >/dev/null 2>&1 && clean_ok=1 || clean_ok=0
  # the incore sources the test script names
  for src in $(grep -o '"source": *"kernels/[^"]*"' "$test" | grep -v orchestration | sed 's/.*"kernels/kernels/; s/"$//'); do
    [ -f "$ex/$src" ] || continue
    kernels=$((kernels + 1))
    clean_compiled=$((clean_compiled + clean_ok))
    copy=$work/$name.$kernels
    cp -r "$ex" "$copy"
    rel_orch=${orch#"$ex"}
    rel_test=${test#"$ex"}
    log=$copy.log
    (cd "$copy" && "$bin/probe-inject" --timing-tensor --slots 24 --host "$rel_orch" \
      --test-script "$rel_test" "$src") >"$log" 2>&1
    rc=$?
    res="refused"
    if [ $rc -ne 0 ] && grep -q 'no TensorArg' "$log"; then
      (cd "$copy" && "$bin/probe-inject" --timing-tensor --slots 24 --host "$rel_orch" --func-id \
        "$(grep -B3 "\"source\": *\"$src\"" "$rel_test" | grep -o '"func_id": *[0-9]*' | grep -o '[0-9]*$' | head -1)" \
        "$src") >"$log" 2>&1
      rc=$?
      rel_test=""
      res="refused (no test script)"
    fi
    if [ $rc -eq 0 ]; then
      accepted=$((accepted + 1))
      res="accepted${rel_test:+ +test}"
      if grep -q 'pk_tt_out = .*\(->buffer\.addr\|tensor_data<\)' "$copy/$src"; then
        descriptor=$((descriptor + 1)); res="$res desc"
      fi
      if g++ -std=c++17 -fsyntax-only "${inc[@]}" "$copy/$rel_orch" >>"$log" 2>&1; then
        compiled=$((compiled + 1)); res="$res orch-compiles"
      else
        res="$res ORCH-FAILS(clean:$clean_ok)"
      fi
      "$bin/probe-check" "$copy/$src" "$copy/$rel_orch" ${rel_test:+"$copy/$rel_test"} >/dev/null 2>&1
      [ $? -eq 1 ] && { flagged=$((flagged + 1)); res="$res flagged"; }
      find "$copy" -name '*.timing.json' -delete
      (cd "$copy" && "$bin/probe-strip" "$src" "$rel_orch" $rel_test $(git -C "$copy" diff --no-index --name-only "$ex" "$copy" 2>/dev/null | sed "s|^$copy/||" | grep -v "^$src\$" | grep -v "^$rel_orch\$" | grep -v "^$rel_test\$")) >>"$log" 2>&1
      if diff -r "$ex" "$copy" >/dev/null; then
        restored=$((restored + 1)); res="$res restored"
      else
        res="$res NOT-RESTORED"
      fi
    else
      res="$res: $(grep -m1 -v 'warning' "$log" | cut -c1-150)"
    fi
    printf '%-40s %-45s %s\n' "$name" "$src" "$res"
  done
done
echo "kernels $kernels  accepted $accepted  descriptor-read $descriptor  orchestration-compiles $compiled (clean: $clean_compiled)  restored $restored  probe-check-flagged $flagged"
