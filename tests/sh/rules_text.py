#!/usr/bin/env python3
"""rules_text.py RULES_DIR FILE... - rules/ is the only home of generated text.

Prints "FILE:LINE: WORD in a string literal" for every C string literal of
FILE... that spells a kernel API call or a generated name, and exits 1 when
there is one. The words come from the rules themselves, so the list cannot
drift from them:
- every function or template an API spelling of rules/api.ini calls (the
  cycle reads, barriers, block indices, print, writeback, fence), written
  as a call (`NAME(` or `NAME<`);
- every __word__ qualifier of rules/timing.ini [code] qualifiers
  (`__aicore__`...);
- the names of rules/names.ini the tool writes: the printf probe's
  variables, the base probe, the keys of a log line (the timing tensor's
  identifiers all start with a prefix the C code never spells).
Comments are left out; so are the strings of a message (pk_error, pk_warning,
pk_note, fprintf, usage texts), which talk about code, and those a statement
compares the source with (strcmp, memmem, ...), which read it: neither
writes code.
"""
import configparser
import re
import sys

API_KEYS = ("cycle", "sim_cycle", "barrier", "block", "subblock", "print", "writeback", "fence")
CXX = {"reinterpret_cast", "static_cast", "const_cast", "dynamic_cast", "sizeof", "defined"}
MESSAGE = re.compile(r"\b(pk_error|pk_warning|pk_note|pk_die|fprintf|fputs|puts|rp_note|rp_warn|add_error)\s*\(")
# a literal a statement compares the source with is read, not written
READ = re.compile(r"\b(strstr|strcmp|strncmp|memcmp|memmem|word_before|tt_tok_is|pyt_is|pk_word_in)\s*\(")


def ini(path):
    p = configparser.ConfigParser(interpolation=None, strict=False, comment_prefixes=(";", "#"),
                                  inline_comment_prefixes=None, delimiters=("=",))
    p.optionxform = str
    with open(path, encoding="utf-8") as f:
        p.read_file(f)
    return p


def words(rules):
    api = ini(f"{rules}/api.ini")
    found = set()
    for sec in api.sections():
        if sec == "kinds":
            continue
        for key in API_KEYS:
            v = api[sec].get(key, "")
            for m in re.finditer(r"([A-Za-z_]\w*)\s*([(<])", v):
                if m.group(1) not in CXX:
                    found.add(m.group(1) + m.group(2))
            if key == "print" and v.strip():
                found.add(v.strip() + "(")
    timing = ini(f"{rules}/timing.ini")
    names = ini(f"{rules}/names.ini")
    for sec in ("printf", "probe", "log"):
        for _, v in names[sec].items():
            found.add(re.sub(r"\{(name|event)\}$", "", v.strip()))
    found.update(re.findall(r"\b__[a-z]+__\b(?!\()", timing["code"].get("qualifiers", "")))
    return sorted(found)


def literals(text):
    """(line, literal text) of every string literal outside comments and of
    every statement that is not a message."""
    out, i, n, line = [], 0, len(text), 1
    stmt_start = 0
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            line += text.count("\n", i, n if j < 0 else j)
            i = n if j < 0 else j + 2
        elif c == "'":
            j = i + 1
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            before = text[stmt_start:i]
            if not MESSAGE.search(before) and not READ.search(before) and "usage" not in before:
                out.append((line, text[i + 1:j]))
            i = j + 1
        else:
            if c == "\n":
                line += 1
            if c in ";{}":
                stmt_start = i + 1
            i += 1
    return out


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    rules, files = argv[1], argv[2:]
    ws = words(rules)
    bad = 0
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for line, lit in literals(text):
            for w in ws:
                if w in lit:
                    print(f"{path}:{line}: {w} in a string literal (spell it in rules/)")
                    bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
