#!/usr/bin/env bash
# timing_py_valid.sh BIN_DIR SRC_DIR - every Python file the golden timing
# cases expect probe-inject to write (test scripts, pypto models) is valid
# Python to the interpreter that runs it: it compiles (what py_compile does:
# the parse, and the checks of assignment targets and statements past it).
# The inputs too, but for the cases whose input is refused as unreadable
# (exit 2).
set -euo pipefail
src=$2
py=${PYTHON3:-python3}
command -v "$py" >/dev/null || { echo "SKIP: no python3"; exit 0; }
fail=0 n=0
parse() {
  if ! "$py" -c 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec", dont_inherit=True)' "$1" 2>"$tmp"; then
    echo "FAIL: $1 is not valid Python:"; sed 's/^/    /' "$tmp"; fail=1
  fi
  n=$((n + 1))
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
while IFS= read -r -d '' f; do
  parse "$f"
done < <(find "$src/testdata/timing" -path '*/expected/*' -name '*.py' -print0)
out=$n
while IFS= read -r -d '' f; do
  case=$(dirname "$f")
  while [ ! -f "$case/args" ]; do case=$(dirname "$case"); done
  [ -f "$case/exit" ] && continue
  parse "$f"
done < <(find "$src/testdata/timing" -name '*.py' -not -path '*/expected/*' -print0)
if [ "$out" -lt 10 ]; then
  echo "FAIL: only $out generated Python files found under testdata/timing/*/expected"; fail=1
fi
echo "checked $n Python files ($out generated)"
exit $fail
