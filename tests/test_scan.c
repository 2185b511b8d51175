/* test_scan.c - the TIMING_PROBE block scanner (tool/scan.h) on every edge
 * of the block grammar: spellings, comments, strings, raw
 * strings, character literals, digit separators, continuations, nesting,
 * #else at probe level, CRLF, BOM, and what the block offsets mean; and
 * pk_source, which makes the scan with the brace and timing marks once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "pk.h"
#include "scan.h"
#include "source.h"

static struct pk_buf B;
static struct pk_scan S;
static int loaded;

static int teardown(void **state)
{
	(void)state;
	if (loaded) {
		pk_scan_free(&S);
		pk_buf_free(&B);
		loaded = 0;
	}
	return 0;
}

static void scan_n(const char *text, size_t n)
{
	teardown(NULL);
	pk_buf_from_mem(&B, "t.cpp", pk_xstrndup(text, n), n);
	pk_scan_buf(&B, &S, PK_SCAN_COMMENTS);
	loaded = 1;
}

static void scan(const char *text)
{
	scan_n(text, strlen(text));
}

/* Offset of the Nth (0-based) occurrence of NEEDLE in the scanned text. */
static size_t off_of(const char *needle, int nth)
{
	const char *p = B.data;
	for (;;) {
		p = memmem(p, B.len - (size_t)(p - B.data), needle, strlen(needle));
		assert_non_null(p);
		if (nth-- == 0)
			return (size_t)(p - B.data);
		p++;
	}
}

static void no_errors(void)
{
	for (size_t i = 0; i < S.nerrors; i++)
		print_error("unexpected scan error: %s\n", S.errors[i].msg);
	assert_int_equal(S.nerrors, 0);
}

/* Exactly one error, whose message contains WANT. */
static void one_error(const char *want, unsigned line)
{
	if (S.nerrors != 1)
		for (size_t i = 0; i < S.nerrors; i++)
			print_error("scan error: %s\n", S.errors[i].msg);
	assert_int_equal(S.nerrors, 1);
	if (!strstr(S.errors[0].msg, want))
		print_error("message '%s' lacks '%s'\n", S.errors[0].msg, want);
	assert_non_null(strstr(S.errors[0].msg, want));
	assert_int_equal(pk_buf_line_of(&B, S.errors[0].off), line);
}

/* One clean block named NAME whose #endif is on ENDIF_LINE. */
static void one_block(const char *name, unsigned endif_line)
{
	no_errors();
	assert_int_equal(S.nblocks, 1);
	assert_string_equal(S.blocks[0].name, name);
	assert_int_equal(S.blocks[0].endif_line, endif_line);
}

/* ---- the block and its offsets ------------------------------------- */

static void basic_block_offsets(void **state)
{
	(void)state;
	const char *t = "int a;\n#if 0  // TIMING_PROBE: STAGE_A\nx();\n#endif\nint z;\n";
	scan(t);
	no_errors();
	assert_int_equal(S.nblocks, 1);
	const struct pk_block *b = &S.blocks[0];
	assert_string_equal(b->name, "STAGE_A");
	assert_int_equal(b->enabled, 0);
	assert_int_equal(b->dir_start, off_of("#if", 0));
	assert_int_equal(b->value_off, off_of("0  //", 0));
	assert_int_equal(b->dir_end, off_of("x();", 0));
	assert_int_equal(b->endif_start, off_of("#endif", 0));
	assert_int_equal(b->endif_end, off_of("int z", 0));
	assert_int_equal(b->line, 2);
	assert_int_equal(b->endif_line, 4);
}

static void enabled_block(void **state)
{
	(void)state;
	scan("#if 1  // TIMING_PROBE: T_BASE\n#endif\n");
	one_block("T_BASE", 2);
	assert_int_equal(S.blocks[0].enabled, 1);
	assert_int_equal(B.data[S.blocks[0].value_off], '1');
}

/* The base probe's words after its name: which, where, and for whom. */
static void base_marks(void **state)
{
	(void)state;
	char *added = pk_base_mark_text(PK_BASE_MARK_ADDED, NULL), *on = pk_base_mark_text(PK_BASE_MARK_ON, "STAGE_A");
	char *t = pk_xasprintf("#if 1  // TIMING_PROBE: T_BASE%s\n#endif\n"
	                       "#if 0  /* TIMING_PROBE: T_BASE%s */\n#endif\n"
	                       "#if 1  // TIMING_PROBE: T_BASE (a note of the user)\n#endif\n"
	                       "#if 1  // TIMING_PROBE: STAGE_A%s\n#endif\n",
	                       added, on, added);
	scan(t);
	no_errors();
	assert_int_equal(S.nblocks, 4);
	assert_int_equal(S.blocks[0].mark, PK_BASE_MARK_ADDED);
	assert_int_equal(S.blocks[0].name_end, off_of(added, 0));
	assert_int_equal(S.blocks[0].mark_end, off_of("\n#endif", 0));
	assert_int_equal(S.blocks[1].mark, PK_BASE_MARK_ON);
	assert_int_equal(S.blocks[1].mark_probe_len, 7);
	assert_memory_equal(B.data + S.blocks[1].mark_probe, "STAGE_A)", 8);
	assert_int_equal(B.data[S.blocks[1].mark_end], ' ');
	assert_int_equal(S.blocks[2].mark, PK_BASE_MARK_NONE); /* other words: the user's */
	assert_int_equal(S.blocks[3].mark, PK_BASE_MARK_NONE); /* only the base probe has them */
	free(t);
	free(added);
	free(on);
}

static void tolerated_spellings(void **state)
{
	(void)state;
	scan("# if 0 //TIMING_PROBE:A\n#endif\n"
	     "   #   if   1   //   TIMING_PROBE:   B   \n  #  endif\n"
	     "\t#\tif\t0\t/*\tTIMING_PROBE:\tC\t*/\t\n\t#endif\n"
	     "#if 0 /* TIMING_PROBE: D */\n#endif\n"
	     "#if 0 // TIMING_PROBE: E_1 start part of stage E\n#endif\n");
	no_errors();
	assert_int_equal(S.nblocks, 5);
	const char *names[] = {"A", "B", "C", "D", "E_1"};
	int values[] = {0, 1, 0, 0, 0};
	for (size_t i = 0; i < 5; i++) {
		assert_string_equal(S.blocks[i].name, names[i]);
		assert_int_equal(S.blocks[i].enabled, values[i]);
		assert_int_equal(B.data[S.blocks[i].value_off], '0' + values[i]);
		assert_int_equal(S.blocks[i].line, 2 * i + 1);
	}
}

static void names(void **state)
{
	(void)state;
	assert_true(pk_probe_name_ok("STAGE_A"));
	assert_true(pk_probe_name_ok("_x9"));
	assert_true(pk_probe_name_ok("a"));
	assert_false(pk_probe_name_ok(""));
	assert_false(pk_probe_name_ok("9A"));
	assert_false(pk_probe_name_ok("STAGE-A"));
	assert_false(pk_probe_name_ok("A B"));
	assert_false(pk_probe_name_ok("\xe6\x8e\x92"));
}

static void canonical_spelling(void **state)
{
	(void)state;
	char buf[64];
	int n = pk_canonical_directive(buf, sizeof(buf), 0, "STAGE_B");
	assert_string_equal(buf, "#if 0  // TIMING_PROBE: STAGE_B");
	assert_int_equal(n, (int)strlen(buf));
	pk_canonical_directive(buf, sizeof(buf), 1, "T_BASE");
	assert_string_equal(buf, "#if 1  // TIMING_PROBE: T_BASE");
	/* the canonical text scans back to the same block */
	char text[128];
	snprintf(text, sizeof(text), "%s\n#endif\n", buf);
	scan(text);
	one_block("T_BASE", 2);
	assert_int_equal(S.blocks[0].enabled, 1);
	/* too small: reports the length it needs, like snprintf */
	assert_int_equal(pk_canonical_directive(buf, 8, 0, "STAGE_B"), n);
}

static void malformed_directives(void **state)
{
	(void)state;
	static const struct {
		const char *line, *msg;
	} bad[] = {
	    {"#if 2 // TIMING_PROBE: X", "exactly 0 or 1"},
	    {"#if X // TIMING_PROBE: X", "exactly 0 or 1"},
	    {"#if 0 && 1 // TIMING_PROBE: X", "exactly 0 or 1"},
	    {"#if // TIMING_PROBE: X", "exactly 0 or 1"},
	    {"#ifdef X // TIMING_PROBE: X", "not '#ifdef'"},
	    {"#ifndef X // TIMING_PROBE: X", "not '#ifndef'"},
	    {"#if 0 // TIMING_PROBE X", "expected ':'"},
	    {"#if 0 // TIMING_PROBE:", "missing probe name"},
	    {"#if 0 // TIMING_PROBE:   ", "missing probe name"},
	    {"#if 0 // TIMING_PROBE: 9X", "invalid probe name '9X'"},
	    {"#if 0 // TIMING_PROBE: STAGE-A", "invalid probe name 'STAGE-A'"},
	    {"#if 0 // TIMING_PROBE: X.Y", "invalid probe name"},
	    {"#if 0 // see TIMING_PROBE: X", "must start with"},
	    {"#if 0 /* TIMING_PROBE: X */ int y;", "must end the line"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[128];
		snprintf(text, sizeof(text), "int a;\n%s\nint b;\n#endif\n", bad[i].line);
		scan(text);
		print_message("case: %s\n", bad[i].line);
		one_error(bad[i].msg, 2);
		assert_int_equal(S.nblocks, 0);
	}
}

static void marker_inside_longer_word(void **state)
{
	(void)state;
	/* neither is the marker: no block, no error (and #endif still pairs) */
	scan("#if 0 // MY_TIMING_PROBE: X\n#endif\n#if 0 // TIMING_PROBES: X\n#endif\n"
	     "#if 0 // TIMING_PROBE_BRACE: X\n#endif\n");
	no_errors();
	assert_int_equal(S.nblocks, 0);
}

static void marker_in_plain_comment_is_not_a_block(void **state)
{
	(void)state;
	scan("// TIMING_PROBE: X\nint a; /* TIMING_PROBE: Y */\n#define Z 1 // TIMING_PROBE: Z\n");
	no_errors();
	assert_int_equal(S.nblocks, 0);
}

/* ---- what hides a directive ---------------------------------------- */

static void line_comment_hides_directive(void **state)
{
	(void)state;
	scan("#if 0 // TIMING_PROBE: A\n// #endif\n  // #else\nx; // #endif\n#endif\n");
	one_block("A", 5);
}

static void block_comment_hides_directive(void **state)
{
	(void)state;
	scan("#if 0 // TIMING_PROBE: A\n/*\n#endif\n#else\n*/ /* one line #endif */\n#endif\n");
	one_block("A", 6);
	/* a comment that opens after code on the directive's own line */
	scan("#if 0 // TIMING_PROBE: A\nx(); /* a\n#else\n   b */ y();\n#endif\n");
	one_block("A", 5);
}

static void strings_hide_comments_and_directives(void **state)
{
	(void)state;
	scan("#if 0 // TIMING_PROBE: A\nconst char *s = \"/* not a comment\";\nconst char *t = \"// nor this\";\n"
	     "const char *u = \"\\\" /*\";\n#endif\nint z; /* real */\n");
	one_block("A", 5);
	assert_true(pk_scan_in_comment(&S, off_of("real", 0)));
	assert_false(pk_scan_in_comment(&S, off_of("not a comment", 0)));
	assert_false(pk_scan_in_comment(&S, off_of("nor this", 0)));
}

static void char_literals(void **state)
{
	(void)state;
	scan("#if 0 // TIMING_PROBE: A\nchar a = '\"'; /*\n#endif\n*/\nchar b = '\\''; char c = '#';\n"
	     "char d = '/'; char e = '*';\n#endif\n");
	one_block("A", 7);
}

static void raw_strings(void **state)
{
	(void)state;
	scan("#if 0 // TIMING_PROBE: A\nauto r = R\"(\n#endif\n)\";\n#endif\n");
	one_block("A", 5);
	/* a delimiter, and ')"' inside the literal that does not end it */
	scan("#if 0 // TIMING_PROBE: A\nauto r = R\"pk(\n)\"\n#endif\n)pk\" /*\n#endif */;\n#endif\n");
	one_block("A", 7);
	/* every encoding prefix */
	static const char *const prefixes[] = {"u8R", "uR", "UR", "LR"};
	for (size_t i = 0; i < 4; i++) {
		char text[128];
		snprintf(text, sizeof(text), "#if 0 // TIMING_PROBE: A\nauto r = %s\"x(\n#endif\n)x\";\n#endif\n",
		         prefixes[i]);
		scan(text);
		print_message("prefix %s\n", prefixes[i]);
		one_block("A", 5);
	}
	/* an identifier that merely ends in R is not a raw-string prefix */
	scan("#if 0 // TIMING_PROBE: A\nauto r = FOOR\"(\";\n#endif\n");
	one_block("A", 3);
}

static void digit_separators(void **state)
{
	(void)state;
	/* were 1'0 a character literal, the comment would be hidden and the
	 * first #endif would end the block */
	scan("#if 0 // TIMING_PROBE: A\nint n = 1'0; /* '\n#endif\n*/\n#endif\n");
	one_block("A", 5);
	scan("#if 0 // TIMING_PROBE: A\nlong m = 0x1'0000'0000; double f = 1'000.5e+1'0; /* '\n#endif\n*/\n#endif\n");
	one_block("A", 5);
}

/* ---- continuations ---------------------------------------------------- */

static void continuation_in_code(void **state)
{
	(void)state;
	scan("#if 0 // TIMING_PROBE: A\nint v = 1 + \\\n#endif\n2;\n#endif\n");
	one_block("A", 5);
}

static void continuation_in_line_comment(void **state)
{
	(void)state;
	scan("#if 0 // TIMING_PROBE: A\nx(); // note \\\n#endif\n#endif\n");
	one_block("A", 4);
}

static void continuation_in_string(void **state)
{
	(void)state;
	scan("#if 0 // TIMING_PROBE: A\nconst char *s = \"abc\\\n#endif\";\n#endif\n");
	one_block("A", 4);
}

static void continuation_in_define(void **state)
{
	(void)state;
	scan("#if 0 // TIMING_PROBE: A\n#define P(x) \\\n  printf(\"%d\", \\\n#endif\n  x)\n#endif\n");
	one_block("A", 6);
}

static void continuation_crlf(void **state)
{
	(void)state;
	scan("#if 0 // TIMING_PROBE: A\r\nint v = 1 + \\\r\n#endif\r\n2;\r\n#endif\r\n");
	one_block("A", 5);
}

static void continuation_splits_keyword(void **state)
{
	(void)state;
	/* lines are spliced before directives are read: `#end\` + `if` is #endif */
	scan("#if 0 // TIMING_PROBE: A\nx();\n#end\\\nif\nint z;\n");
	one_block("A", 3);
	assert_int_equal(S.blocks[0].endif_end, off_of("int z", 0));
}

static void continuation_before_marker(void **state)
{
	(void)state;
	/* the probe directive itself continued before its comment */
	scan("#if 0 \\\n  // TIMING_PROBE: SPLIT\nint a;\n#endif\n");
	one_block("SPLIT", 4);
	assert_int_equal(S.blocks[0].dir_end, off_of("int a", 0));
}

static void endif_with_multiline_comment(void **state)
{
	(void)state;
	/* a comment opened on the #endif line is part of that directive's line:
	 * the block ends after it, or removing the block would leave its tail */
	scan("#if 0 // TIMING_PROBE: A\nx();\n#endif /* end of A\n   still the comment */\nint z;\n");
	one_block("A", 3);
	assert_int_equal(S.blocks[0].endif_end, off_of("int z", 0));
	/* the same for a raw string (nonsense after #endif, but it must not
	 * leave half a literal behind when the block goes) */
	scan("#if 0 // TIMING_PROBE: A\n#endif R\"(\n#if\n)\"\nint z;\n");
	one_block("A", 2);
	assert_int_equal(S.blocks[0].endif_end, off_of("int z", 0));
}

/* ---- nesting --------------------------------------------------------- */

static void nested_conditionals(void **state)
{
	(void)state;
	scan("#if 0 // TIMING_PROBE: A\n#if X\n#elif Y\n#else\n#endif\n#ifdef Z\n#  ifndef W\n#  endif\n"
	     "#elifdef V\n#elifndef U\n#endif\n#endif\nint z;\n");
	one_block("A", 12);
}

static void probe_inside_plain_if(void **state)
{
	(void)state;
	scan("#ifdef DEBUG\n#if 1 // TIMING_PROBE: A\nx();\n#endif\n#else\ny();\n#endif\n");
	one_block("A", 4);
	assert_int_equal(S.blocks[0].enabled, 1);
}

static void else_at_probe_level(void **state)
{
	(void)state;
	scan("#if 0 // TIMING_PROBE: A\nx();\n#else\ny();\n#endif\n");
	one_error("'#else' inside probe block 'A'", 3);
	scan("#if 1 // TIMING_PROBE: A\nx();\n#elif B\ny();\n#endif\n");
	one_error("'#elif' inside probe block 'A'", 3);
	scan("#if 1 // TIMING_PROBE: A\nx();\n  #  else // comment\ny();\n#endif\n");
	one_error("'#else' inside probe block 'A'", 3);
}

static void probe_inside_probe(void **state)
{
	(void)state;
	scan("#if 0 // TIMING_PROBE: OUTER\n#if 0 // TIMING_PROBE: INNER\n#endif\n#endif\n");
	one_error("probe block 'INNER' inside probe block 'OUTER'", 2);
	assert_int_equal(S.nblocks, 1);
	assert_string_equal(S.blocks[0].name, "OUTER");
	assert_int_equal(S.blocks[0].endif_line, 4);
}

static void unbalanced(void **state)
{
	(void)state;
	scan("int a;\n#if 0 // TIMING_PROBE: U\nx();\n");
	one_error("unterminated probe block 'U'", 2);
	assert_int_equal(S.nblocks, 0);
	scan("#if 0 // TIMING_PROBE: U\nx(); /*\n#endif\n");
	one_error("unterminated probe block 'U'", 1);
	scan("#if X\n#if 0 // TIMING_PROBE: A\n#endif\n");
	one_error("unterminated '#if'", 1);
	assert_int_equal(S.nblocks, 1);
	scan("int a;\n#endif\n");
	one_error("'#endif' without '#if'", 2);
	scan("#else\n");
	one_error("'#else' without '#if'", 1);
	scan("#if 0 // TIMING_PROBE: U");
	one_error("unterminated probe block 'U'", 1);
}

/* ---- bytes that must not matter ------------------------------------ */

static void crlf(void **state)
{
	(void)state;
	scan("int a;\r\n#if 0  // TIMING_PROBE: A\r\nx();\r\n#endif\r\nint z;\r\n");
	one_block("A", 4);
	const struct pk_block *b = &S.blocks[0];
	assert_int_equal(b->dir_end, off_of("x();", 0));
	assert_int_equal(b->endif_end, off_of("int z", 0));
	assert_int_equal(b->value_off, off_of("0  //", 0));
}

static void bom_then_comment(void **state)
{
	(void)state;
	scan("\xef\xbb\xbf// kernel\n#if 0 // TIMING_PROBE: A\n#endif\n");
	one_block("A", 3);
}

static void bom_before_directive(void **state)
{
	(void)state;
	/* a UTF-8 BOM is not part of the line: the directive on line 1 counts */
	scan("\xef\xbb\xbf#if 0 // TIMING_PROBE: A\nx();\n#endif\n");
	one_block("A", 3);
	assert_int_equal(S.blocks[0].value_off, off_of("0 //", 0));
}

static void utf8_comments(void **state)
{
	(void)state;
	scan("// \xe6\x8e\x92\xe5\xba\x8f \"\n#if 0 // TIMING_PROBE: SORT \xe9\x98\xb6\xe6\xae\xb5 '\nx(); /* "
	     "\xe4\xb8\xad */\n#endif\n");
	one_block("SORT", 4);
}

static void no_final_newline(void **state)
{
	(void)state;
	scan("#if 0 // TIMING_PROBE: A\nx();\n#endif");
	one_block("A", 3);
	assert_int_equal(S.blocks[0].endif_end, B.len);
	scan("#if 0 // TIMING_PROBE: A\nx();\n#endif // end of A");
	one_block("A", 3);
	assert_int_equal(S.blocks[0].endif_end, B.len);
}

static void degenerate_inputs(void **state)
{
	(void)state;
	static const char *const inputs[] = {"",      "#",  "#\n", "#if", "\\",   "\\\n",     "\"",
	                                     "'",     "/*", "//",  "R\"", "R\"(", "u8R\"abc", "#if 0 // TIMING_PROBE",
	                                     "}}}{{{"};
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		scan(inputs[i]);
		assert_int_equal(S.nblocks, 0);
	}
}

/* ---- scopes and lookups --------------------------------------------- */

static void scopes(void **state)
{
	(void)state;
	scan("void f()\n{\n#if 0 // TIMING_PROBE: A\n#endif\n  for (;;) {\n#if 0 // TIMING_PROBE: A\n#endif\n  }\n}\n"
	     "void g()\n{\n#if 0 // TIMING_PROBE: A\n#endif\n}\n"
	     "#if 0 // TIMING_PROBE: B\n#endif\n");
	no_errors();
	assert_int_equal(S.nblocks, 4);
	size_t f0 = S.blocks[0].scope, f1 = S.blocks[1].scope, g = S.blocks[2].scope, file = S.blocks[3].scope;
	assert_int_equal(file, 0);
	assert_int_not_equal(f0, 0);
	assert_int_not_equal(f0, f1);
	assert_int_equal(pk_scope_top(&S, f0), pk_scope_top(&S, f1));
	assert_int_not_equal(pk_scope_top(&S, f0), pk_scope_top(&S, g));
	assert_true(pk_scope_within(&S, f1, f0));
	assert_false(pk_scope_within(&S, f0, f1));
	assert_false(pk_scope_within(&S, g, f0));
	assert_true(pk_scope_within(&S, g, 0));
}

static void braces_in_literals_do_not_open_scopes(void **state)
{
	(void)state;
	scan(
	    "void f()\n{\n  const char *s = \"{\"; char c = '{'; // {\n  /* { */\n#if 0 // TIMING_PROBE: A\n#endif\n}\n"
	    "void g()\n{\n#if 0 // TIMING_PROBE: A\n#endif\n}\n");
	no_errors();
	assert_int_equal(S.nblocks, 2);
	assert_int_not_equal(pk_scope_top(&S, S.blocks[0].scope), pk_scope_top(&S, S.blocks[1].scope));
	assert_false(pk_scope_within(&S, S.blocks[1].scope, S.blocks[0].scope));
}

static void block_at(void **state)
{
	(void)state;
	scan("a;\n#if 0 // TIMING_PROBE: A\nx();\n#endif\nb;\n#if 1 // TIMING_PROBE: B\ny();\n#endif\nc;\n");
	no_errors();
	assert_int_equal(S.nblocks, 2);
	assert_int_equal(pk_scan_block_at(&S, off_of("a;", 0)), -1);
	assert_int_equal(pk_scan_block_at(&S, off_of("#if 0", 0)), 0);
	assert_int_equal(pk_scan_block_at(&S, off_of("x()", 0)), 0);
	assert_int_equal(pk_scan_block_at(&S, off_of("#endif", 0)), 0);
	assert_int_equal(pk_scan_block_at(&S, off_of("b;", 0)), -1);
	assert_int_equal(pk_scan_block_at(&S, off_of("y()", 0)), 1);
	assert_int_equal(pk_scan_block_at(&S, off_of("c;", 0)), -1);
}

static void comment_ranges(void **state)
{
	(void)state;
	scan("a; // one\nb; /* two\n three */ c;\n\"// no\" d; // last");
	assert_int_equal(S.ncomments, 3);
	assert_true(pk_scan_in_comment(&S, off_of("one", 0)));
	assert_true(pk_scan_in_comment(&S, off_of("three", 0)));
	assert_false(pk_scan_in_comment(&S, off_of("c;", 0)));
	assert_false(pk_scan_in_comment(&S, off_of("no", 0)));
	assert_true(pk_scan_in_comment(&S, off_of("last", 0)));
	assert_false(pk_scan_in_comment(&S, off_of("a;", 0)));
}

static void line_numbers_across_continuations(void **state)
{
	(void)state;
	scan("#define A \\\n  1\n/* x\n y */\n#if 0 // TIMING_PROBE: A\n#endif\n#if 0 // TIMING_PROBE: B\n\n#endif\n");
	no_errors();
	assert_int_equal(S.nblocks, 2);
	assert_int_equal(S.blocks[0].line, 5);
	assert_int_equal(S.blocks[0].endif_line, 6);
	assert_int_equal(S.blocks[1].line, 7);
	assert_int_equal(S.blocks[1].endif_line, 9);
	/* a splice between '#' and the keyword is a line of the file too */
	scan("# \\\n  define X 1\n#if 0 // TIMING_PROBE: A\nx;\n#endif\n#\\\nif 0 // TIMING_PROBE: B\n#endif\n");
	no_errors();
	assert_int_equal(S.nblocks, 2);
	assert_int_equal(S.blocks[0].line, 3);
	assert_int_equal(S.blocks[0].endif_line, 5);
	assert_int_equal(S.blocks[1].line, 6);
	assert_int_equal(S.blocks[1].endif_line, 8);
}

/* ---- pk_source: the bytes and their three scans, made once ---------- */

static const char source_text[] = "void k() {\n"
                                  "#if 1  // TIMING_PROBE: A\n"
                                  "  t0 = clock();\n"
                                  "#endif\n"
                                  "  if (c)\n"
                                  "  {  // TIMING_PROBE_BRACE: A\n"
                                  "    work();\n"
                                  "  }  // TIMING_PROBE_BRACE: A\n"
                                  "  e = 0;  // TIMING_PROBE: @timing entry\n"
                                  "}\n";

static void source_holds_scan_marks_and_timing_marks(void **state)
{
	(void)state;
	char path[] = "/tmp/test_scan_src.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, source_text, strlen(source_text)), (ssize_t)strlen(source_text));
	close(fd);
	struct pk_source src;
	assert_int_equal(pk_source_load(&src, path, 0), 0);
	unlink(path);
	assert_int_equal(src.buf.len, strlen(source_text));
	assert_int_equal(src.scan.nblocks, 1);
	assert_string_equal(src.scan.blocks[0].name, "A");
	assert_true(src.scan.ncomments > 0); /* the comment map is always made */
	assert_int_equal(src.nmarks, 2);
	assert_int_equal(src.marks[0].line, 6);
	assert_true(src.marks[0].open);
	assert_null(src.marks_damage);
	assert_int_equal(src.ntmarks, 1);
	assert_int_equal(src.tmarks[0].start, (size_t)(strstr(source_text, "  e = 0;") - source_text));
	assert_null(src.timing_damage);
	pk_source_free(&src);
}

/* A second pk_source_scan keeps what the first made: the same arrays, not
 * new ones from a second pass over the bytes. */
static void source_is_scanned_once(void **state)
{
	(void)state;
	struct pk_source src;
	memset(&src, 0, sizeof(src));
	pk_buf_from_mem(&src.buf, "t.cpp", pk_xstrdup(source_text), strlen(source_text));
	assert_false(src.scanned);
	pk_source_scan(&src, 0);
	assert_true(src.scanned);
	const struct pk_block *blocks = src.scan.blocks;
	const struct pk_range *comments = src.scan.comments;
	const struct pk_mark *marks = src.marks;
	const struct pk_tmark *tmarks = src.tmarks;
	pk_source_scan(&src, 0);
	assert_ptr_equal(src.scan.blocks, blocks);
	assert_ptr_equal(src.scan.comments, comments);
	assert_ptr_equal(src.marks, marks);
	assert_ptr_equal(src.tmarks, tmarks);
	assert_int_equal(src.scan.nblocks, 1);
	assert_int_equal(src.nmarks, 2);
	pk_source_free(&src);
}

/* Damaged marks are kept as messages, printed by the planner that needs
 * them, never by the load. */
static void source_keeps_damage_for_the_planner(void **state)
{
	(void)state;
	struct pk_source src;
	memset(&src, 0, sizeof(src));
	const char *text = "{  // TIMING_PROBE_BRACE: A\nx(); /* TIMING_PROBE: @timing-end */\n";
	pk_buf_from_mem(&src.buf, "d.cpp", pk_xstrdup(text), strlen(text));
	pk_source_scan(&src, 0);
	assert_int_equal(src.nmarks, 0);
	assert_string_equal(src.marks_damage, "d.cpp:1: brace marker of 'A' has no closing '}' marker");
	assert_int_equal(src.ntmarks, 0);
	assert_string_equal(src.timing_damage,
	                    "d.cpp:2: damaged timing mark: a timing mark outside any recognised form");
	pk_source_free(&src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(basic_block_offsets, teardown),
	    cmocka_unit_test_teardown(enabled_block, teardown),
	    cmocka_unit_test_teardown(tolerated_spellings, teardown),
	    cmocka_unit_test_teardown(names, teardown),
	    cmocka_unit_test_teardown(canonical_spelling, teardown),
	    cmocka_unit_test_teardown(malformed_directives, teardown),
	    cmocka_unit_test_teardown(marker_inside_longer_word, teardown),
	    cmocka_unit_test_teardown(marker_in_plain_comment_is_not_a_block, teardown),
	    cmocka_unit_test_teardown(line_comment_hides_directive, teardown),
	    cmocka_unit_test_teardown(block_comment_hides_directive, teardown),
	    cmocka_unit_test_teardown(strings_hide_comments_and_directives, teardown),
	    cmocka_unit_test_teardown(char_literals, teardown),
	    cmocka_unit_test_teardown(raw_strings, teardown),
	    cmocka_unit_test_teardown(digit_separators, teardown),
	    cmocka_unit_test_teardown(continuation_in_code, teardown),
	    cmocka_unit_test_teardown(continuation_in_line_comment, teardown),
	    cmocka_unit_test_teardown(continuation_in_string, teardown),
	    cmocka_unit_test_teardown(continuation_in_define, teardown),
	    cmocka_unit_test_teardown(continuation_crlf, teardown),
	    cmocka_unit_test_teardown(continuation_splits_keyword, teardown),
	    cmocka_unit_test_teardown(continuation_before_marker, teardown),
	    cmocka_unit_test_teardown(endif_with_multiline_comment, teardown),
	    cmocka_unit_test_teardown(nested_conditionals, teardown),
	    cmocka_unit_test_teardown(probe_inside_plain_if, teardown),
	    cmocka_unit_test_teardown(else_at_probe_level, teardown),
	    cmocka_unit_test_teardown(probe_inside_probe, teardown),
	    cmocka_unit_test_teardown(unbalanced, teardown),
	    cmocka_unit_test_teardown(crlf, teardown),
	    cmocka_unit_test_teardown(bom_then_comment, teardown),
	    cmocka_unit_test_teardown(bom_before_directive, teardown),
	    cmocka_unit_test_teardown(utf8_comments, teardown),
	    cmocka_unit_test_teardown(no_final_newline, teardown),
	    cmocka_unit_test_teardown(degenerate_inputs, teardown),
	    cmocka_unit_test_teardown(scopes, teardown),
	    cmocka_unit_test_teardown(braces_in_literals_do_not_open_scopes, teardown),
	    cmocka_unit_test_teardown(block_at, teardown),
	    cmocka_unit_test_teardown(comment_ranges, teardown),
	    cmocka_unit_test_teardown(line_numbers_across_continuations, teardown),
	    cmocka_unit_test(base_marks),
	    cmocka_unit_test(source_holds_scan_marks_and_timing_marks),
	    cmocka_unit_test(source_is_scanned_once),
	    cmocka_unit_test(source_keeps_damage_for_the_planner),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
