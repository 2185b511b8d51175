#!/usr/bin/env bash
# The pre-commit manifest (.pre-commit-hooks.yaml): valid,
# pass_filenames, types_or c/c++, entry probe-check; and, when the
# pre-commit framework is installed (scripts/setup.sh installs it), a real
# `pre-commit run` in a throw-away repository that must block a commit
# holding an enabled probe, in every kernel extension probe-check knows,
# and one holding an instrumented Python test script. A part that cannot
# run here is reported as skipped (the test then shows as skipped).
#   bash tests/sh/block_precommit.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
manifest=$src/.pre-commit-hooks.yaml
[ -f "$manifest" ] || { fail "no $manifest"; finish; }
cd "$scratch" || exit 1

# ---- the manifest's fields ---------------------------------------------------
python3 - "$manifest" <<'PY'
import sys
try:
    import yaml
except ImportError:
    sys.exit(77)
hooks = yaml.safe_load(open(sys.argv[1]))
assert isinstance(hooks, list) and hooks, "the manifest is a list of hooks"
ids = {h["id"]: h for h in hooks}
assert "probe-check" in ids, "a hook with id probe-check"
for h in hooks:
    for key in ("id", "name", "entry", "language"):
        assert key in h, f"hook {h.get('id')}: no {key}"
    assert h["entry"].split()[0] == "probe-check", f"hook {h['id']}: entry {h['entry']!r}"
    assert h.get("pass_filenames", True) is True, f"hook {h['id']}: pass_filenames"
    types = set(h.get("types_or", [])) | set(h.get("types", []))
    assert {"c", "c++"} <= types or "files" in h, f"hook {h['id']}: types_or c, c++"
print("ok: manifest fields")
PY
case $? in
0) ;;
77) partial_skip "manifest fields: python3-yaml is not installed" ;;
*) fail "manifest fields" ;;
esac

command -v pre-commit >/dev/null || { partial_skip "pre-commit run: the pre-commit framework is not installed"; finish; }
command -v git >/dev/null || skip "git is not installed"
run_expect 0 "pre-commit validate-manifest" pre-commit validate-manifest "$manifest"

export GIT_CONFIG_NOSYSTEM=1 HOME="$scratch" PRE_COMMIT_HOME="$scratch/cache" GIT_AUTHOR_NAME=t \
	GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
# a hook repository holding the manifest under test
git init -q hooks && cp "$manifest" hooks/ && git -C hooks add . && git -C hooks commit -qm hooks || fail "hook repo"
rev=$(git -C hooks rev-parse HEAD)
git init -q proj
cd proj || exit 1
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: $scratch/hooks
    rev: $rev
    hooks:
      - id: probe-check
YAML
kernel k.cpp
echo 'uint64_t t = GetSystemCycle(); // notes, not a kernel' >notes.txt
git add . && git commit -qm base || fail "project commit"

run_expect 0 "hook passes on a clean tree" pre-commit run probe-check --all-files
probe-inject --probe STAGE_A k.cpp >/dev/null
git add k.cpp
if run_expect 1 "hook fails on an enabled probe" pre-commit run probe-check --files k.cpp; then
	has "hook prints the finding" "k.cpp:10:5: error: probe 'STAGE_A' is enabled"
fi
run_expect 0 "non-kernel files are not passed to the hook" pre-commit run probe-check --files notes.txt
probe-inject --disable-all k.cpp >/dev/null
git add k.cpp

# every kernel extension probe-check recurses must reach the hook too
exts=$(probe-check --help | sed -n 's/.*--ext LIST.*(default \(.*\))$/\1/p' | tr -d . | tr , ' ')
[ -n "$exts" ] && ok "the extensions from --help: $exts" || fail "no default extension list in --help"
for ext in $exts; do
	if [ "$ext" = py ]; then # a test script the timing tensor edited
		cp "$src/testdata/timing/simpler-tasks/expected/test_scale.py" k_py.py
		git add k_py.py
		if run_expect 1 "hook checks a staged .py test script" pre-commit run probe-check --files k_py.py; then
			has "hook prints the timing mark of the .py" "k_py.py:17:61: error: timing-tensor mark left behind"
		fi
		git rm -q --cached k_py.py
		rm -f k_py.py
		continue
	fi
	kernel "k_$ext.$ext"
	probe-inject --probe STAGE_B "k_$ext.$ext" >/dev/null
	git add "k_$ext.$ext"
	run_expect 1 "hook checks a staged .$ext kernel" pre-commit run probe-check --files "k_$ext.$ext"
	git rm -q --cached "k_$ext.$ext"
	rm -f "k_$ext.$ext"
done
# a `repo: local` hook as users write it: entry probe-check --staged, with
# pre-commit passing the file names (pass_filenames left on)
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: local
    hooks:
      - id: probe-check-local
        name: probe-check --staged
        entry: $bin/probe-check --staged
        language: system
        types_or: [c, c++]
YAML
git add .pre-commit-config.yaml
cat >wait.cpp <<'K'
void Wait(volatile int *f)
{
    uint64_t t0 = GetSystemCycle();
    while (!*f && GetSystemCycle() - t0 < 1000) {
    }
}
K
git add wait.cpp && git commit -qm "timeout code" --no-verify || fail "commit wait.cpp"
run_expect 0 "local --staged hook: a commit with clean code passes" pre-commit run probe-check-local --files wait.cpp
sed -i 's|^    uint64_t t0 = GetSystemCycle();|&\n    uint64_t probe_t1 = GetSystemCycle();|' wait.cpp
git add wait.cpp
if run_expect 1 "local --staged hook: an added cycle read is flagged" pre-commit run probe-check-local --files wait.cpp; then
	has "local --staged hook: the added line" "wait.cpp:4:25: error: cycle read"
	case "$out" in *"wait.cpp:3:"*) fail "an old line was reported: $out" ;; *) ok "old lines are not reported" ;; esac
fi
run_expect 0 "local --staged hook: other files named, nothing of theirs staged" pre-commit run probe-check-local --files k.cpp
finish
