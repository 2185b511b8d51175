#!/usr/bin/env bash
# The code style the repository holds itself to, checked on every run:
# - tool/ and tests/ C files are clang-format clean against .clang-format;
# - no function in tool/ is longer than 80 lines, unless the comment just
#   above it says why ("longer than 80 lines because ...");
# - no two C files of tool/ call each other through a loop (a circle is a
#   function living in the wrong file; tests/sh/file_graph.py names it);
# - no API spelling or generated name in a string literal of tool/ (rules/
#   is their one home: tests/sh/rules_text.py takes the list from rules/);
# - no word of the host dialects (the simpler runtime, the launch macros,
#   pypto, the test script) in a string literal of tool/: rules/timing.ini
#   is their one home (tests/sh/vocab_text.py takes the list from it);
# - tool/ never points at issue numbers or numbered spec sections that a
#   reader of the repository cannot open.
# The length check is first run on made-up functions, so that it is known to
# catch what it looks for.
#   bash tests/sh/style.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
cd "$src" || exit 1

# long_functions FILE...: "FILE:LINE: NAME: N lines" for each function body
# (from the '{' alone on a line to the '}' at column 0) over 80 lines whose
# comment does not explain it.
long_functions() {
	awk '
	/^\{$/ { start = FNR; name = head; why = (note ~ /longer than 80 lines because/) }
	/^\}/ {
		if (start && FNR - start - 1 > 80 && !why)
			printf "%s:%d: %s: %d lines\n", FILENAME, start, name, FNR - start - 1
		start = 0
	}
	{
		if ($0 ~ /^[A-Za-z_].*\(/)
			head = $0
		if ($0 ~ /^(\/\*| \*)/)
			note = note " " $0
		else if ($0 !~ /^[A-Za-z_]/ || $0 ~ /;$/)
			note = ""
	}' "$@"
}

# made-up functions: 81 lines, 80 lines, 81 lines with a reason
body() { printf 'static int %s(void)\n{\n' "$1"; for _ in $(seq "$2"); do printf '\tx++;\n'; done; printf '}\n\n'; }
{
	body too_long 81
	body just_fits 80
	printf '/* longer than 80 lines because a table reads best whole */\n'
	body explained 81
} > "$scratch/made_up.c"
got=$(long_functions "$scratch/made_up.c")
case $got in
*too_long*) ok "length check catches an 81-line function" ;;
*) fail "length check missed an 81-line function: '$got'" ;;
esac
case $got in
*just_fits* | *explained*) fail "length check flags a function it should allow: '$got'" ;;
*) ok "length check allows 80 lines, and a longer function whose comment says why" ;;
esac

long=$(long_functions tool/*.c tool/clang/*.c tool/timing/*.c)
if [ -z "$long" ]; then ok "no function in tool/ over 80 lines"; else fail "functions over 80 lines:"$'\n'"$long"; fi

if ! command -v clang-format > /dev/null; then
	fail "clang-format is not installed (scripts/setup.sh installs it)"
elif clang-format --dry-run -Werror tool/*.c tool/*.h tool/clang/*.c tool/clang/*.h tool/timing/*.c tool/timing/*.h tests/*.c tests/fuzz/*.c 2> "$scratch/fmt.err"; then
	ok "clang-format clean: tool/ and tests/"
else
	fail "clang-format would change these (run clang-format -i on them):"$'\n'"$(grep -o '^[^:]*:[0-9]*' "$scratch/fmt.err" | sort -u | head -20)"
fi

# the circle check, first on made-up files, so that it is known to catch one
mkdir -p "$scratch/circle"
printf 'int a(void);\nint b(void)\n{\n\treturn a();\n}\n' > "$scratch/circle/b.c"
printf 'int b(void);\nint a(void)\n{\n\treturn b();\n}\n' > "$scratch/circle/a.c"
if python3 "$src/tests/sh/file_graph.py" "$scratch/circle" > /dev/null; then fail "circle check missed a.c <-> b.c"; else ok "circle check catches two files calling each other"; fi
if circles=$(python3 "$src/tests/sh/file_graph.py" tool tool/clang tool/timing); then ok "no circle of calls between the files of tool/"; else fail "files of tool/ calling each other in a loop:"$'\n'"$circles"; fi

# the libclang boundary is the folder: clang-c headers only under tool/clang/,
# and no core file includes a header of tool/clang/
leaks=$(grep -nE '#include [<"](clang-c/|ast\.h|tt\.h)' tool/*.c tool/*.h || true)
if [ -z "$leaks" ]; then ok "libclang and the front end's headers are included only under tool/clang/"; else fail "core files that include the front end:"$'\n'"$leaks"; fi

# the timing tensor asks the front end: nothing under tool/timing/ includes a
# clang-c header or calls libclang itself
direct=$(grep -nE '\bclang_[A-Za-z]+\(|#include [<"]clang-c/' tool/timing/*.c tool/timing/*.h || true)
if [ -z "$direct" ]; then ok "the timing tensor includes no clang-c header and makes no libclang call (ast_query.c answers it)"; else fail "tool/timing/ using libclang itself (add a query to tool/clang/ast_query.c):"$'\n'"$direct"; fi

# rules/ is the only home of generated text: no API spelling (the calls of
# rules/api.ini), qualifier or generated name (rules/names.ini) in a string
# literal of tool/; first on a made-up file, so the check is known to work
printf 'static void f(struct pk_sb *sb)\n{\n\tpk_sb_add(sb, "AscendC::GetBlockIdx()");\n\tpk_error("a message may say GetBlockIdx()");\n}\n' > "$scratch/planted.c"
if python3 "$src/tests/sh/rules_text.py" rules "$scratch/planted.c" > "$scratch/planted.out"; then
	fail "rules-text check missed a planted GetBlockIdx() template"
elif [ "$(wc -l < "$scratch/planted.out")" != 1 ]; then
	fail "rules-text check: one finding expected (the message is not code): $(cat "$scratch/planted.out")"
else
	ok "rules-text check catches a planted API spelling and lets a message name it"
fi
if spell=$(python3 "$src/tests/sh/rules_text.py" rules tool/*.c tool/clang/*.c tool/timing/*.c); then ok "no API spelling or generated name in a string of tool/ (rules/ holds them)"; else fail "spelled in C, not in rules/:"$'\n'"$spell"; fi

# the host dialects' words (rules/timing.ini [simpler], [launch], [pypto],
# [test_script]) and the kernel's device marks ([device]) are data: none in a
# string literal of tool/, be it code, a comparison with the source or a
# message (which formats the rules' word with %s); first on a made-up file:
# four findings (ASCEND_IS_AIC, a device mark, among them), and none for a
# key handed to a rules lookup, a mark's label or a message using the word
# as English
cat > "$scratch/vocab.c" <<'PLANT'
static int f(const struct pk_ast *t, const struct tt_rules *r, size_t i)
{
	if (pk_tok_is(t, i, "add_inout") || pk_tok_is(t, i, tt_rule(r, "simpler", "add_input")))
		return pk_error("no 'expected_arg_count = N' in the orchestration config");
	tt_insert_before(b, plan, at, text, "tensor");
	pk_note("the orchestration passes a scalar");
	return pyt_is(p, i, PYT_NAME, "super");
}
static int g(const struct pk_ast *t, size_t i)
{
	return pk_tok_is(t, i, "ASCEND_IS_AIC");
}
PLANT
if python3 "$src/tests/sh/vocab_text.py" rules "$scratch/vocab.c" > "$scratch/vocab.out"; then
	fail "vocabulary check missed the planted add_inout, expected_arg_count, super and ASCEND_IS_AIC"
elif [ "$(awk '{print $2}' "$scratch/vocab.out" | LC_ALL=C sort | tr '\n' ' ')" != "ASCEND_IS_AIC add_inout expected_arg_count super " ]; then
	fail "vocabulary check: add_inout, expected_arg_count, super and ASCEND_IS_AIC expected, got: $(cat "$scratch/vocab.out")"
else
	ok "vocabulary check catches planted dialect words, and leaves a rules key, a label and English alone"
fi
if vocab=$(python3 "$src/tests/sh/vocab_text.py" rules tool/*.c tool/*.h tool/clang/*.c tool/clang/*.h tool/timing/*.c tool/timing/*.h); then ok "no host dialect's word in a string of tool/ (rules/timing.ini holds them)"; else fail "host vocabulary spelled in C, not in rules/timing.ini:"$'\n'"$vocab"; fi

refs=$(grep -nE 'issue #[0-9]|\bS[0-9]\.[0-9]+\b|\(S[0-9]\)' tool/*.c tool/*.h tool/clang/*.c tool/clang/*.h tool/timing/*.c tool/timing/*.h || true)
if [ -z "$refs" ]; then ok "tool/ cites no issue numbers or spec sections"; else fail "references a reader cannot open:"$'\n'"$refs"; fi
finish
