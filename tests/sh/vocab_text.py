#!/usr/bin/env python3
"""vocab_text.py RULES_DIR FILE... - the host dialects' words live in rules/.

Prints "FILE:LINE: WORD in a string literal" for every C string literal of
FILE... (comments left out) that spells a word of the host dialects the tool
looks for, and exits 1 when there is one. The words are the values of the
dialect sections of rules/timing.ini ([simpler], [launch], [pypto],
[test_script], and [device], the kernel's own marks; a value may be a
blank-separated list), so the list cannot drift from the rules: add_input,
rt_submit_ (a prefix), _task (a suffix), TensorArg, pl.Tensor, ASCEND_IS_AIC,
KERNEL_TYPE_MIX_ (a prefix), GM_ADDR, ...

Unlike rules_text.py (text the tool writes), every literal counts here: code,
a comparison with the source (pk_tok_is, strcmp, memcmp, ...) and a message
alike, since a message naming a word takes it from the rules (printf's %s).
Two kinds of literal are not words:
- a key of rules/timing.ini handed to a rules lookup (tt_rule(r, "simpler",
  "add_input") names the entry, it does not spell the word), or listed in
  tt_schema.c, the file's list of required keys;
- a reference {SECTION.KEY} to an entry, filled in from the rules (the
  help text does so);
- a key of the tool's own event map (json_object_set_new(m, "core_type",
  ...)): the tool's file format, which probe-report reads;
- a word that is also plain English (all lower-case letters: tensor, scalar,
  source, mixed, ...) inside text: it counts as a literal of its own compared
  with the source, or an element of an array, or in text where it reads as
  code (`.source`, `source(`, `source[`, `->source`, `source::`).
"""
import configparser
import re
import sys

DIALECTS = ("simpler", "launch", "pypto", "test_script", "device")
# keys of the dialect sections that name files, not code
NOT_WORDS = {("test_script", "script_prefix"), ("test_script", "script_suffix"), ("test_script", "script_levels")}
# calls whose string arguments name rules entries
LOOKUP = {"TT_WORD", "tt_rule", "tt_prof", "tt_rule_lines", "word", "host_rule", "py_text", "py_text_list", "py_expand",
          "host_text", "tt_host_extra_scalar_adds", "needs"}
# calls comparing their string argument with the source
READ = {"pk_tok_is", "pyt_is", "pyt_string_is", "strcmp", "strncmp", "memcmp", "memmem", "strstr", "tt_tok_in",
        "pk_word_in", "find_in", "defines", "holds", "dotted_at", "pk_tok_enclosing"}
# calls naming a key of the tool's own JSON
FORMAT = {"json_object_set_new", "json_object_set", "json_object_get"}
IDENT = r"[A-Za-z0-9_]"
# a reference to a rules entry ({test_script.func_id}): the rules' word, filled in
REF = re.compile(r"\{[a-z_]+(\.[a-z0-9_]+)+\}")


def ini(path):
    p = configparser.ConfigParser(interpolation=None, strict=False, comment_prefixes=(";", "#"),
                                  inline_comment_prefixes=None, delimiters=("=",))
    p.optionxform = str
    with open(path, encoding="utf-8") as f:
        p.read_file(f)
    return p


def vocabulary(rules):
    """(words, keys): the dialects' words, and every section and key name."""
    timing = ini(f"{rules}/timing.ini")
    words, keys = set(), set()
    for sec in timing.sections():
        keys.add(sec)
        keys.update(timing[sec].keys())
    for sec in DIALECTS:
        if sec not in timing:
            raise SystemExit(f"{rules}/timing.ini: no [{sec}] section")
        for key, v in timing[sec].items():
            if (sec, key) in NOT_WORDS:
                continue
            words.update(w for w in v.split() if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", w))
    return sorted(words), keys


def pattern(word):
    """A word as a whole name; a prefix (rt_submit_) open on its right, a
    suffix (_task) open on its left."""
    left = "" if word.startswith("_") else f"(?<!{IDENT})"
    right = "" if word.endswith("_") else f"(?!{IDENT})"
    return re.compile(left + re.escape(word) + right)


def literals(text):
    """(line, literal, innermost call, in an initializer) of every string
    literal outside comments; adjacent literals are one."""
    out, i, n, line = [], 0, len(text), 1
    stack = []  # open brackets: (char, name before it)
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
            start, parts = line, []
            while i < n and text[i] == '"':
                j = i + 1
                while j < n and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                parts.append(text[i + 1:j])
                i = j + 1
                k = i
                while k < n and text[k] in " \t\n":
                    k += 1
                if k < n and text[k] == '"':
                    line += text.count("\n", i, k)
                    i = k
            call = next((name for ch, name in reversed(stack) if ch == "("), "")
            init = bool(stack) and stack[-1][0] == "{" and stack[-1][1] == "="
            out.append((start, "".join(parts), call, init))
        else:
            if c == "\n":
                line += 1
            elif c in "({":
                m = re.search(r"([A-Za-z_]\w*|=)\s*$", text[max(0, i - 80):i])
                stack.append((c, m.group(1) if m else ""))
            elif c in ")}" and stack:
                stack.pop()
            elif c == ";" and stack and stack[-1][0] == "(" and not any(ch == "(" and nm == "for" for ch, nm in stack):
                stack.clear()
            i += 1
    return out


def findings(path, text, words, keys):
    schema = path.endswith("tt_schema.c")
    for line, lit, call, init in literals(text):
        if (lit in keys and (call in LOOKUP or schema)) or call in FORMAT:
            continue
        lit = REF.sub("", lit)
        for w in words:
            for m in pattern(w).finditer(lit):
                if re.fullmatch(r"[a-z]+", w):
                    alone = lit == w and (call in READ or init)
                    before, after = lit[:m.start()], lit[m.end():]
                    code = re.search(r"(\.|->|::|@)$", before) or re.match(r"(\(|\[|::)", after)
                    if not alone and not code:
                        continue
                yield line, w
                break


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    words, keys = vocabulary(argv[1])
    bad = 0
    for path in argv[2:]:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for line, w in findings(path, text, words, keys):
            print(f"{path}:{line}: {w} in a string literal (rules/timing.ini holds it)")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
