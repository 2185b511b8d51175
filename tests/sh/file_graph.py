#!/usr/bin/env python3
"""Circles in the call graph between the C files of one or more folders.

A file A points at a file B when A calls (or names) a function that B
defines without `static`. Files that point at each other through a loop
form a circle: usually a function living in the wrong file. Prints each
circle with the names that make its edges and exits 1 if there is one.
    python3 tests/sh/file_graph.py tool tool/clang tool/timing
"""
import os
import re
import sys

DEF = re.compile(r"^(?!static\b)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;]*$")
WORD = re.compile(r"[A-Za-z_]\w*")


def strip(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


def definitions(path, text):
    names = set()
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = DEF.match(line)
        if not m:
            continue
        # the body's '{' alone on a later line, before any ';'
        for nxt in lines[i + 1:i + 8]:
            if nxt.startswith("{"):
                names.add(m.group(1))
                break
            if ";" in nxt:
                break
    return names


def main(folders):
    files = sorted(os.path.join(d, f) for d in folders for f in os.listdir(d) if f.endswith(".c"))
    texts = {f: strip(open(f, encoding="utf-8", errors="replace").read()) for f in files}
    owner = {}
    for f in files:
        for name in definitions(f, texts[f]):
            owner.setdefault(name, f)
    edges = {f: {} for f in files}
    for f in files:
        for w in set(WORD.findall(texts[f])):
            g = owner.get(w)
            if g and g != f:
                edges[f].setdefault(g, set()).add(w)
    # Tarjan's strongly connected components
    index, low, stack, on, comps = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for f in files:
        if f not in index:
            visit(f)
    for comp in comps:
        print("circle: " + " ".join(comp))
        for a in comp:
            for b in comp:
                if b in edges[a]:
                    print("  %s -> %s: %s" % (a, b, ", ".join(sorted(edges[a][b]))))
    return 1 if comps else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["tool"]))
