#!/usr/bin/env bash
# The pre-commit manifest (.pre-commit-hooks.yaml, issue #2 item 9): valid,
# pass_filenames, types_or c/c++, entry probe-check; and, when the
# pre-commit framework is installed (scripts/setup.sh installs it), a real
# `pre-commit run` in a throw-away repository that must block a commit
# holding an enabled probe, in every kernel extension probe-check knows.
#   bash tests/sh/block_precommit.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
manifest=$src/.pre-commit-hooks.yaml
[ -f "$manifest" ] || { fail "no $manifest"; finish; }
cd "$scratch" || exit 1

# ---- the manifest's fields ---------------------------------------------------
python3 - "$manifest" <<'PY' || fail "manifest fields"
import sys
try:
    import yaml
except ImportError:
    print("PARTIAL SKIP: manifest fields: python3-yaml is not installed")
    sys.exit(0)
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

command -v pre-commit >/dev/null || { echo "PARTIAL SKIP: pre-commit run: the pre-commit framework is not installed"; finish; }
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
for ext in cc cxx c h hpp hh cu cce asc; do
	kernel "k_$ext.$ext"
	probe-inject --probe STAGE_B "k_$ext.$ext" >/dev/null
	git add "k_$ext.$ext"
	run_expect 1 "hook checks a staged .$ext kernel" pre-commit run probe-check --files "k_$ext.$ext"
	git rm -q --cached "k_$ext.$ext"
	rm -f "k_$ext.$ext"
done
finish
