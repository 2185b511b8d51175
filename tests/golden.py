#!/usr/bin/env python3
"""Run one golden case folder (see testdata/README.md) and compare byte for byte.

Checks stdout, stderr and exit code; every file named under expected/ must
match after the run; every other input file must be unchanged, with the same
inode and mtime (a file with nothing to change is never rewritten).

A case folder whose name ends in ".b" pins a known bug: its expected files say
what the tool should do. While the tool still does otherwise the case exits 77
(ctest shows it as skipped, with the differences printed); once the tool gets
it right the case fails, asking for the folder to be renamed without ".b".
"""
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

KNOWN_BUG_EXIT = 77  # ctest's SKIP_RETURN_CODE for golden cases
RESERVED = {"args", "stdin", "exit", "env", "expected.out", "expected.err", "expected", "expected.removed", "README",
            "README.md"}


def read(path, default=b""):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return default


def show(label, want, got):
    sys.stderr.write(f"--- {label}: expected ---\n{want.decode(errors='replace')}\n"
                     f"--- {label}: got ---\n{got.decode(errors='replace')}\n")


def main():
    args = sys.argv[1:]
    if len(args) != 3 or args[0] != "--bin":
        sys.exit("usage: golden.py --bin BINDIR CASEDIR")
    bindir, case = os.path.abspath(args[1]), os.path.abspath(args[2])
    words = shlex.split(read(os.path.join(case, "args")).decode())
    if not words:
        sys.exit(f"{case}: empty args")
    exe = os.path.join(bindir, words[0])
    if os.path.exists(exe):
        words[0] = exe
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env["LC_ALL"] = "C"
    env.pop("PROBEKIT_RULES_DIR", None)
    for line in read(os.path.join(case, "env")).decode().splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            env[k] = v
    failures = []
    with tempfile.TemporaryDirectory(prefix="pk-golden-") as scratch:
        before = {}
        for name in sorted(os.listdir(case)):
            if name in RESERVED:
                continue
            src, dst = os.path.join(case, name), os.path.join(scratch, name)
            if os.path.isdir(src):
                shutil.copytree(src, dst)
            else:
                shutil.copy2(src, dst)
        for root, _, files in os.walk(scratch):
            for f in files:
                p = os.path.join(root, f)
                st = os.stat(p)
                before[os.path.relpath(p, scratch)] = (read(p), st.st_ino, st.st_mtime_ns)
        stdin = read(os.path.join(case, "stdin"), None)
        proc = subprocess.run(words, cwd=scratch, env=env, capture_output=True,
                              input=stdin if stdin is not None else b"", timeout=120)
        want_exit = int(read(os.path.join(case, "exit"), b"0").strip() or b"0")
        if proc.returncode != want_exit:
            failures.append(f"exit code {proc.returncode}, expected {want_exit}")
        for label, want, got in (("stdout", read(os.path.join(case, "expected.out")), proc.stdout),
                                 ("stderr", read(os.path.join(case, "expected.err")), proc.stderr)):
            if want != got:
                failures.append(label + " differs")
                show(label, want, got)
        expected_dir = os.path.join(case, "expected")
        expected = {}
        if os.path.isdir(expected_dir):
            for root, _, files in os.walk(expected_dir):
                for f in files:
                    p = os.path.join(root, f)
                    expected[os.path.relpath(p, expected_dir)] = read(p)
        for rel, want in expected.items():
            got = read(os.path.join(scratch, rel), None)
            if got != want:
                failures.append(f"file {rel} differs")
                show(rel, want, got if got is not None else b"<missing>")
        removed = (read(os.path.join(case, "expected.removed"), b"") or b"").decode().split()
        for rel in removed:
            if os.path.lexists(os.path.join(scratch, rel)):
                failures.append(f"file {rel} should have been removed")
        for rel, (data, ino, mtime) in before.items():
            if rel in expected or rel in removed:
                continue
            p = os.path.join(scratch, rel)
            if not os.path.exists(p):
                failures.append(f"input {rel} was removed")
                continue
            st = os.stat(p)
            if read(p) != data:
                failures.append(f"input {rel} changed but expected/{rel} does not exist")
            elif st.st_ino != ino or st.st_mtime_ns != mtime:
                failures.append(f"input {rel} was rewritten (inode or mtime changed) with nothing to change")
        # a temporary file is written beside its target: look in every folder
        leftovers = sorted(os.path.relpath(os.path.join(root, f), scratch)
                           for root, _, files in os.walk(scratch)
                           for f in files if f.startswith(".probekit."))
        if leftovers:
            failures.append("temporary files left behind: " + ", ".join(leftovers))
    name = os.path.basename(case)
    if name.endswith(".b"):
        if failures:
            sys.stderr.write(f"KNOWN BUG {case}\n  " + "\n  ".join(failures) + "\n")
            print(f"known bug, still there: {name}")
            sys.exit(KNOWN_BUG_EXIT)
        sys.stderr.write(f"FAIL {case}\n  the known bug is fixed: rename the folder to {name[:-2]}\n")
        sys.exit(1)
    if failures:
        sys.stderr.write(f"FAIL {case}\n  " + "\n  ".join(failures) + "\n")
        sys.exit(1)
    print(f"ok {name}")


if __name__ == "__main__":
    main()
