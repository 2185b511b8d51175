#!/bin/bash
# realworld.sh [-b BIN_DIR] [-r] DIR... - how often AST insertion goes in on
# real kernels, read only. Finds every entry kernel under the DIRs (a .cpp/.cc
# file defining a `__global__` function, or an `extern "C"` `__aicore__` one,
# outside test folders) and tries four forms on each, with --stdout:
#   base    probe-inject --base FILE (--base=FUNC, the first entry, when the
#           file has several)
#   entry   --around the last call statement of the entry function (a member
#           call such as op.Process() when there is one)
#   helper  --around the first call statement of a function the entry calls
#           (in the file or a header it includes with quotes; else any other
#           function of the file)
#   wait    --wait the first call to a wait API of rules/async.ini (file first,
#           then its quoted headers)
# A form counts only where its target exists. A refusal that names the flags
# selecting the branch the target is in is followed once, as a user would: such
# successes are counted apart ("+given flags"). Every success is piped through
# `probe-strip -`, which must give the original bytes back. With -r, each
# instrumented file is parsed again (same flags) and must show no more parse
# warnings than the original. Prints the success rate per form and the most
# common refusal messages (paths, numbers and names replaced by N and 'X').
# The trees are never written: everything goes to a temporary directory.
# EXTS=cpp,cc,asc adds other suffixes; JOBS=N runs N files at once (default 1);
# KEEP=FILE keeps the result table, KEEP_WORK=1 the whole work directory.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$here/build/bin
reparse=0
while getopts "b:r" opt; do
	case $opt in
	b) bin=$(cd "$OPTARG" && pwd) ;;
	r) reparse=1 ;;
	*) echo "usage: $0 [-b BIN_DIR] [-r] DIR..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-b BIN_DIR] [-r] DIR..." >&2; exit 2; }
exts=${EXTS:-cpp,cc}
jobs=${JOBS:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/pk-realworld.XXXXXX")
[ -n "${KEEP_WORK:-}" ] && echo "work files kept in $work" >&2 || trap 'rm -rf "$work"' EXIT
waits=$(sed -n 's/^wait *= *//p' "$here/rules/async.ini")

# One line per kernel: file, then for each form its file and callee (tab-separated, '-' when absent).
python3 - "$exts" "$waits" "$@" >"$work/targets.tsv" <<'PY'
import os, re, sys
exts = tuple("." + e for e in sys.argv[1].split(","))
waits = [w.strip() for w in sys.argv[2].split(",") if w.strip()]
roots = sys.argv[3:]
TEST_DIRS = {"test", "tests", "ut", "st", "unittest", "testcase", "testcases"}
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "decltype", "static_assert", "catch",
            "alignof", "defined", "else", "do", "case", "new", "delete", "throw"}

def blank(text):
    """Comments, strings and preprocessor lines become spaces (offsets kept)."""
    out, i, n = list(text), 0, len(text)
    def fill(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            j = i
            while j < n and (text[j] != "\n" or text[j - 1] == "\\"):
                j += 1
            fill(i, j); i = j; continue
        if c == "\n":
            line_start = True; i += 1; continue
        if c in " \t\r":
            i += 1; continue
        line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i); j = n if j < 0 else j
            fill(i, j); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2); j = n if j < 0 else j + 2
            fill(i, j); i = j
        elif c == '"' and i > 0 and text[i - 1] == "R":  # raw string: R"d( ... )d"
            k = text.find("(", i)
            end = text.find(")" + text[i + 1:k] + '"', k)
            j = n if k < 0 or end < 0 else end + k - i + 1
            fill(i + 1, min(j, n)); i = j + 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            fill(i + 1, min(j, n)); i = j + 1
        else:
            i += 1
    return "".join(out)

def match(s, i, o, c):
    d = 0
    for k in range(i, len(s)):
        if s[k] == o: d += 1
        elif s[k] == c:
            d -= 1
            if d == 0: return k
    return -1

def functions(s):
    """(name, body_open, body_close) for every function definition."""
    out = []
    for m in re.finditer(r"([A-Za-z_]\w*)\s*\(", s):
        name = m.group(1)
        if name in KEYWORDS: continue
        close = match(s, m.end() - 1, "(", ")")
        if close < 0: continue
        k = close + 1
        tail = re.match(r"(\s|const\b|override\b|final\b|noexcept\b|volatile\b|&)*", s[k:])
        k += tail.end()
        if s[k:k + 1] == ":" and s[k:k + 2] != "::":  # constructor initialisers
            j = k
            while j < len(s) and s[j] not in "{;":
                j = match(s, j, "(", ")") + 1 if s[j] == "(" else j + 1
            k = j
        if s[k:k + 1] != "{": continue
        pre = s[max(0, m.start() - 1):m.start()]
        if pre and (pre.isalnum() or pre == "_" or pre == "."): continue
        end = match(s, k, "{", "}")
        if end < 0: continue
        # a call inside another body is not a definition
        if any(o < m.start() < e for _, o, e in out): continue
        out.append((name, k, end))
    return out

def entries_of(s, funcs):
    return [f for f in funcs if is_entry(s, f)]

def is_entry(s, f):
    if True:
        name, o, e = f
        # the declaration's words before the name, back to the previous ; { or }
        j = max(s.rfind(";", 0, o), s.rfind("}", 0, o), s.rfind("{", 0, o))
        head = s[j + 1:o]
        if re.search(r"\b__global__\b", head) or (re.search(r'extern\s*"', head) and "__aicore__" in head):
            return True
        if "__aicore__" in head:
            k = s.rfind('extern', 0, o)
            if k >= 0 and re.match(r'extern\s*"C"\s*{', s[k:]) and match(s, s.find("{", k), "{", "}") > o:
                return True
    return False

CALL = re.compile(r"(?:[A-Za-z_]\w*\s*(?:\.|->|::)\s*)*([A-Za-z_]\w*)\s*(?:<[^;{}()]*>)?\s*\(")

def call_statements(s, o, e):
    """(callee, offset of the callee name) of statements that are a call, in order."""
    out, i, starts = [], o + 1, []
    depth = 0
    stmt = o + 1
    while i < e:
        c = s[i]
        if c in "({[":
            j = match(s, i, c, {"(": ")", "{": "}", "[": "]"}[c])
            if c == "{" :
                stmt = i + 1
                i += 1
                continue
            i = j + 1 if j > 0 else i + 1
            continue
        if c in ";}":
            starts.append(stmt)
            stmt = i + 1
        i += 1
    for st in starts:
        m = re.compile(r"\s*").match(s, st)
        p = m.end()
        m = CALL.match(s, p)
        if not m: continue
        name = m.group(1)
        if name in KEYWORDS or name.isupper() or name.startswith("__"): continue
        close = match(s, m.end() - 1, "(", ")")
        if close < 0 or not re.match(r"\s*;", s[close + 1:]): continue
        out.append((name, m.start(1)))
    return out

def call_index(s, funcs, name, off):
    """n such that the call at OFF is the n-th call of NAME in function bodies."""
    n = 0
    for m in re.finditer(r"\b" + re.escape(name) + r"\s*(?:<[^;{}()]*>)?\s*\(", s):
        p = m.start()
        if not any(o < p < e for _, o, e in funcs): continue
        before = s[:p].rstrip()
        if before and (before[-1].isalnum() or before[-1] in "_*&>") and not before.endswith("return") \
                and not re.search(r"(\.|->|::)\s*$", s[:p]):
            continue
        n += 1
        if p == off:
            return n
    return 0

def local_headers(path, text, seen):
    out = []
    for m in re.finditer(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
        h = os.path.normpath(os.path.join(os.path.dirname(path), m.group(1)))
        if os.path.isfile(h) and h not in seen:
            seen.add(h)
            out.append(h)
    return out

def load(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        t = f.read()
    return t, blank(t)

def spec(path, s, funcs, name, off):
    n = call_index(s, funcs, name, off)
    return (path, name + ("#%d" % n if n else ""))

def targets(path):
    text, s = load(path)
    funcs = functions(s)
    ents = entries_of(s, funcs)
    if not ents: return None
    ent = ents[0]
    row = {"base": (path, "=" + ent[0] if len(ents) > 1 else "-"), "entry": None, "helper": None, "wait": None}
    calls = call_statements(s, ent[1], ent[2])
    members = [c for c in calls if re.match(r"[\w\s]*(\.|->)", s[s.rfind(";", 0, c[1]) + 1:c[1]].split("{")[-1].split("}")[-1])]
    if calls:  # the kernel's own work (op.Process()) when there is such a call
        row["entry"] = spec(path, s, funcs, *(members or calls)[-1])
    seen = {path}
    files = [(path, text, s, funcs)]
    for h in local_headers(path, text, seen):
        ht, hs = load(h)
        files.append((h, ht, hs, functions(hs)))
        for h2 in local_headers(h, ht, seen):
            ht2, hs2 = load(h2)
            files.append((h2, ht2, hs2, functions(hs2)))
    called = [c for c, _ in calls]
    for want in called + [None]:
        for p, t, hs, fs in files:
            for name, o, e in fs:
                if (p, name, o) == (path, ent[0], ent[1]): continue
                if want is not None and name != want: continue
                cs = call_statements(hs, o, e)
                if cs:
                    row["helper"] = spec(p, hs, fs, *cs[0]); break
            if row["helper"]: break
        if row["helper"]: break
    for p, t, hs, fs in files:
        best = None
        for name, o, e in fs:
            for c, off in call_statements(hs, o, e):
                if c in waits and (best is None or off < best[1]):
                    best = (c, off)
        if best:
            row["wait"] = spec(p, hs, fs, *best); break
    return row

for root in roots:
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x.lower() not in TEST_DIRS)
        for nm in sorted(names):
            if not nm.endswith(exts): continue
            p = os.path.join(d, nm)
            try:
                r = targets(p)
            except (OSError, RecursionError):
                continue
            if r is None: continue
            cols = [p]
            for k in ("base", "entry", "helper", "wait"):
                cols += list(r[k]) if r[k] else ["-", "-"]
            print("\t".join(cols))
PY

nk=$(wc -l <"$work/targets.tsv")
[ "$nk" -gt 0 ] || { echo "no entry kernels under $*"; exit 2; }

# try FORM on FILE with the probe-inject arguments that follow; one result line
attempt() {
	local form=$1 file=$2 tag=$3
	shift 3
	local out=$work/$tag.out err=$work/$tag.err flags="" status=ok
	if ! timeout 120 "$bin/probe-inject" "$@" --stdout "$file" >"$out" 2>"$err"; then
		# a refusal that names the flags selecting the branch: follow it once, as a user would
		flags=$(grep -v '^probekit: warning:' "$err" | head -1 | sed -n 's/.*the flags that select it: -- //p')
		if [ -z "$flags" ]; then
			local msg
			msg=$(grep -v '^probekit: warning:' "$err" | head -1)
			printf '%s\tno\t%s\t%s\n' "$form" "$file" "${msg:-exit status without a message}"
			return
		fi
		cp "$err" "$err.first"
		# shellcheck disable=SC2086
		if ! timeout 120 "$bin/probe-inject" "$@" --stdout "$file" -- $flags >"$out" 2>"$err"; then
			printf '%s\tno\t%s\t%s\n' "$form" "$file" "with the flags it named: $(grep -v '^probekit: warning:' "$err" | head -1)"
			return
		fi
		status=flags
	fi
	if ! "$bin/probe-strip" - <"$out" 2>/dev/null | cmp -s - "$file"; then
		printf '%s\tstrip\t%s\tprobe-strip did not give the original bytes\n' "$form" "$file"
	elif [ "$reparse" = 1 ] && ! reparse_ok "$file" "$out" "$err" "$tag" "$flags"; then
		printf '%s\treparse\t%s\tthe instrumented file has parse errors the original had not\n' "$form" "$file"
	else
		printf '%s\t%s\t%s\t\n' "$form" "$status" "$file"
	fi
}

# how many places the parse warnings in FILE say could not be parsed: one
# warning each, or one line "could not parse N places" for many
parse_errors() {
	awk '/^probekit: warning:.*could not parse/ {
		if (match($0, /could not parse [0-9]+ places/)) n += substr($0, RSTART + 16, RLENGTH - 23)
		else n++
	} END { print n + 0 }' "$1"
}

# the instrumented copy, parsed from a temporary file that finds the original's
# quoted headers, has no more parse warnings than the original
reparse_ok() {
	local file=$1 out=$2 err=$3 tag=$4 copy flags=$5 followed
	# the flags probekit chose itself to reach a skipped branch: the same parse
	followed=$(sed -n 's/.*: parsed again with \(.*\) (give the build.s flags.*/\1/p' "$err" | head -1)
	flags="$flags $followed"
	mkdir -p "$work/$tag.d"
	case $file in
	*.h | *.hh | *.hpp | *.hxx | *.inl | *.inc | *.cuh)
		# a header is parsed in the unit of a source file that includes it,
		# found beside it or up to two directories above: mirror those as
		# symbolic links, the header itself replaced by the instrumented copy
		local top
		top=$(dirname "$(dirname "$(dirname "$file")")")
		cp -as "$top" "$work/$tag.d/t" 2>/dev/null
		copy=$work/$tag.d/t/${file#"$top"/}
		rm -f "$copy"
		cp "$out" "$copy"
		# shellcheck disable=SC2086
		"$bin/probe-inject" --probe PK_REPARSE_CHECK --base --stdout "$copy" -- $flags >/dev/null 2>"$work/$tag.re"
		;;
	*)
		copy=$work/$tag.d/$(basename "$file")
		cp "$out" "$copy"
		# shellcheck disable=SC2086
		"$bin/probe-inject" --probe PK_REPARSE_CHECK --base --stdout "$copy" -- -iquote "$(dirname "$file")" $flags \
			>/dev/null 2>"$work/$tag.re"
		;;
	esac
	local before after
	before=$(parse_errors "$err")
	after=$(parse_errors "$work/$tag.re")
	rm -rf "$work/$tag.d"
	[ "$after" -le "$before" ]
}

one() {
	local i=$1 file bf bn ef ec hf hc wf wc
	IFS=$'\t' read -r file bf bn ef ec hf hc wf wc
	[ "$bn" = - ] && bn=
	attempt base "$file" "$i.b" "--base$bn"
	[ "$ef" = - ] || attempt entry "$ef" "$i.e" --probe PK_RW --around "$ec"
	[ "$hf" = - ] || attempt helper "$hf" "$i.h" --probe PK_RW --around "$hc"
	[ "$wf" = - ] || attempt wait "$wf" "$i.w" --probe PK_RW --wait "$wc"
}

i=0
while IFS= read -r line; do
	i=$((i + 1))
	printf '%s\n' "$line" | one "$i" >"$work/r.$i" &
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
done <"$work/targets.tsv"
wait
cat "$work"/r.* >"$work/results.tsv"

echo "entry kernels: $nk under $*"
printf '%-7s %8s %8s %8s %12s %14s %8s\n' form targets ok rate "strip/parse" "+given flags" rate
for form in base entry helper wait; do
	awk -F'\t' -v f="$form" '$1 == f { t++; if ($2 == "ok") ok++; if ($2 == "flags") fl++
		if ($2 == "strip" || $2 == "reparse") bad++ }
		END { printf "%-7s %8d %8d %7.1f%% %12d %14d %7.1f%%\n", f, t, ok, t ? 100 * ok / t : 0, bad, fl,
			t ? 100 * (ok + fl) / t : 0 }' "$work/results.tsv"
done
echo "top refusals (count, form, message):"
awk -F'\t' '$2 != "ok" && $2 != "flags" { m = $4; sub(/^probekit: /, "", m); sub(/^[^ :]*(:[0-9]+)?: /, "", m)
	gsub(/'\''[^'\'']*'\''/, "'\''X'\''", m); gsub(/[0-9]+/, "N", m); print $1 "\t" m }' "$work/results.tsv" |
	sort | uniq -c | sort -rn | head -"${TOP:-12}"
[ -n "${KEEP:-}" ] && cp "$work/results.tsv" "$KEEP"
awk -F'\t' '$2 == "strip" || $2 == "reparse" { bad = 1 } END { exit bad }' "$work/results.tsv"
