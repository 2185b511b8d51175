#!/usr/bin/env bash
# probe-check --format=sarif as GitHub code scanning takes it: valid against
# the SARIF 2.1.0 schema (the subset probe-check writes, in
# testdata/check/sarif-2.1.0-subset.schema.json), every rule with
# fullDescription and help (text and markdown), informationUri, a
# partialFingerprint on every result that survives lines moving, and
# file:// URIs without uriBaseId for files outside the repository.
#   bash tests/sh/check_sarif.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
command -v git >/dev/null || skip "git is not installed"
python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema is not installed (scripts/setup.sh)"
schema=$src/testdata/check/sarif-2.1.0-subset.schema.json
cd "$scratch" || exit 1
export GIT_CONFIG_NOSYSTEM=1 HOME="$scratch"
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE

# validate FILE [EXPECT_BAD]: the schema and the GitHub fields
validate() {
	python3 - "$schema" "$1" <<'PY'
import json, re, sys, urllib.parse
import jsonschema
schema, log = (json.load(open(p)) for p in sys.argv[1:3])
errs = [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(log)]
def absolute(u):
    return re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", u) is not None
def reference(u):
    return not re.search(r"[\s\"<>\\^`{|}]", u) and urllib.parse.urlsplit(u) is not None
for run in log.get("runs", []):
    drv = run["tool"]["driver"]
    if not absolute(drv.get("informationUri", "")):
        errs.append("driver.informationUri missing or not absolute")
    for r in drv.get("rules", []):
        for k in ("fullDescription", "help"):
            if not r.get(k, {}).get("text"):
                errs.append(f"rule {r['id']}: no {k}.text")
        if not r.get("help", {}).get("markdown"):
            errs.append(f"rule {r['id']}: no help.markdown")
    for res in run.get("results", []):
        if not res.get("partialFingerprints"):
            errs.append(f"result {res['ruleId']}: no partialFingerprints")
        for loc in res["locations"]:
            a = loc["physicalLocation"]["artifactLocation"]
            if not reference(a["uri"]):
                errs.append(f"uri {a['uri']!r} is not a URI reference")
            if "uriBaseId" in a and (absolute(a["uri"]) or a["uri"].startswith("/")):
                errs.append(f"uri {a['uri']!r}: absolute with uriBaseId")
            if "uriBaseId" not in a and not a["uri"].startswith("file:///"):
                errs.append(f"uri {a['uri']!r}: relative without uriBaseId")
for e in errs:
    print("invalid:", e)
sys.exit(1 if errs else 0)
PY
}

git init -q repo && cd repo || exit 1
mkdir -p src
kernel src/k.cpp
probe-inject --probe STAGE_A --no-base src/k.cpp >/dev/null
cat >src/wait.cpp <<'K'
void Wait(volatile int *f)
{
    uint64_t t0 = GetSystemCycle();
    while (!*f && GetSystemCycle() - t0 < 1000) {
    }
}
K
mkdir -p "$scratch/outside"
kernel "$scratch/outside/o k.cpp"
probe-inject --probe STAGE_B "$scratch/outside/o k.cpp" >/dev/null
run_expect 1 "sarif run" probe-check --format=sarif src "$scratch/outside/o k.cpp"
printf '%s\n' "$out" >log1.sarif
if validate log1.sarif; then ok "SARIF passes the schema and carries the GitHub fields"; else fail "SARIF invalid"; fi
has "a note is level note" '"level": "note"'
has "outside the repository: a file:// URI" '"uri": "file://'"$scratch"'/outside/o%20k.cpp"'
has "inside: repository-relative" '"uri": "src/k.cpp"'

# the fingerprints stay when lines above the findings move
sed -i '1i // a new first line\n// and a second' src/k.cpp
run_expect 1 "sarif after lines moved" probe-check --format=sarif src
printf '%s\n' "$out" >log2.sarif
fp() { python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]=="src/k.cpp":
        print(*r["partialFingerprints"].values())' "$1" | sort; }
if [ -n "$(fp log1.sarif)" ] && [ "$(fp log1.sarif)" = "$(fp log2.sarif)" ]; then
	ok "partialFingerprints stable across moved lines"
else
	fail "fingerprints changed: $(fp log1.sarif) / $(fp log2.sarif)"
fi

# the validator can fail: a wrong level and a missing help are caught
python3 - log1.sarif >bad.sarif <<'PY'
import json, sys
log = json.load(open(sys.argv[1]))
log["runs"][0]["results"][0]["level"] = "fatal"
del log["runs"][0]["tool"]["driver"]["rules"][0]["help"]
print(json.dumps(log))
PY
if validate bad.sarif >/dev/null; then fail "a broken SARIF passed the validator"; else ok "the validator rejects a broken SARIF"; fi
finish
