/* test_ast.c - the libclang layer and the brace markers: placement
 * specs, marker grammar and strip plans, compile_commands.json rewriting,
 * parsing the bytes in memory, the built-in stubs, scopes and loop counters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ast.h"
#include "edit.h"
#include "marks.h"
#include "pk.h"
#include "source.h"

/* ---- placement specs ---- */

static void spec_ok(const char *text, enum pk_spec_kind kind, const char *name, unsigned n)
{
	struct pk_spec s;
	assert_int_equal(pk_spec_parse(&s, text), 0);
	assert_int_equal(s.kind, kind);
	if (name)
		assert_string_equal(s.name, name);
	else
		assert_null(s.name);
	assert_int_equal(s.n, n);
	pk_spec_free(&s);
}

/* Two in-memory files of one translation unit are told apart:
 * clang_File_isEqual alone takes any two of them for the same file. */
static void test_same_file_in_memory(void **state)
{
	(void)state;
	struct CXUnsavedFile u[] = {{"/mem/main.cpp", "#include \"/mem/a.h\"\nint x = A;\n", 31},
	                            {"/mem/a.h", "#define A 1\n", 12}};
	CXIndex idx = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	const char *args[] = {"-xc++"};
	assert_int_equal(clang_parseTranslationUnit2(idx, "/mem/main.cpp", args, 1, u, 2, 0, &tu), CXError_Success);
	CXFile m = clang_getFile(tu, "/mem/main.cpp"), h = clang_getFile(tu, "/mem/a.h");
	assert_non_null(m);
	assert_non_null(h);
	assert_true(pk_cx_same_file(m, m));
	assert_false(pk_cx_same_file(m, h));
	assert_false(pk_cx_same_file(m, NULL));
	clang_disposeTranslationUnit(tu);
	clang_disposeIndex(idx);
}

static void test_spec_forms(void **state)
{
	(void)state;
	spec_ok("after:TLOAD", PK_SPEC_AFTER, "TLOAD", 0);
	spec_ok("before:AscendC::DataCopy#2", PK_SPEC_BEFORE, "DataCopy", 2);
	spec_ok("line:42", PK_SPEC_LINE, NULL, 42);
	spec_ok("entry:kernel", PK_SPEC_ENTRY, "kernel", 0);
	spec_ok("exit:kernel", PK_SPEC_EXIT, "kernel", 0);
}

static void test_spec_errors(void **state)
{
	(void)state;
	static const char *const bad[] = {"after:",    "line:x",   "line:0",    "line:", "after:A#0", "after:A#",
	                                  "entry:f#2", "behind:x", "after:a b", "TLOAD", "line:12abc"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pk_spec s;
		assert_int_equal(pk_spec_parse(&s, bad[i]), -1);
		pk_spec_free(&s);
	}
}

/* ---- brace markers ---- */

static struct pk_buf mem(const char *text)
{
	struct pk_buf b;
	pk_buf_from_mem(&b, "t.cpp", pk_xstrdup(text), strlen(text));
	return b;
}

/* Plan the brace-marker removal of TEXT (with BLOCKS, the removal of its
 * probe blocks, as probe-strip adds it) and apply it. */
static char *strip_blocks(const char *text, const char *only, int blocks, int *planned)
{
	struct pk_source src;
	memset(&src, 0, sizeof(src));
	src.buf = mem(text);
	pk_source_scan(&src, 0);
	struct pk_plan p;
	pk_plan_init(&p);
	for (size_t k = 0; blocks && k < src.scan.nblocks; k++)
		pk_plan_add(&p, src.scan.blocks[k].dir_start, src.scan.blocks[k].endif_end, NULL, 0);
	*planned = pk_marks_plan_strip(&src, only, &p);
	char *out = NULL;
	size_t n;
	if (*planned >= 0) {
		assert_int_equal(pk_plan_check(&p, src.buf.path, src.buf.len), 0);
		pk_plan_apply(&p, src.buf.data, src.buf.len, &out, &n);
	}
	pk_plan_free(&p);
	pk_source_free(&src);
	return out;
}

static char *strip(const char *text, const char *only, int *planned)
{
	return strip_blocks(text, only, 0, planned);
}

static void test_marks_text(void **state)
{
	(void)state;
	char t[128];
	assert_true(pk_marks_text(t, sizeof(t), 1, 0, "STAGE_A") > 0);
	assert_string_equal(t, "{  // TIMING_PROBE_BRACE: STAGE_A");
	assert_true(pk_marks_text(t, sizeof(t), 1, 1, "X") > 0);
	assert_string_equal(t, "{  // TIMING_PROBE_BRACE: X split");
	assert_int_equal(pk_marks_text(t, 8, 0, 0, "STAGE_A"), -1);
}

static void test_marks_strip_lines(void **state)
{
	(void)state;
	int n;
	char *out = strip("if (c)\r\n    {  // TIMING_PROBE_BRACE: A\r\n        f();\r\n"
	                  "    }  // TIMING_PROBE_BRACE: A\r\n",
	                  "A", &n);
	assert_int_equal(n, 2);
	assert_string_equal(out, "if (c)\r\n        f();\r\n");
	free(out);
	/* another probe's markers stay */
	out = strip("{  // TIMING_PROBE_BRACE: A\nf();\n}  // TIMING_PROBE_BRACE: A\n", "B", &n);
	assert_int_equal(n, 0);
	assert_string_equal(out, "{  // TIMING_PROBE_BRACE: A\nf();\n}  // TIMING_PROBE_BRACE: A\n");
	free(out);
}

static void test_marks_strip_split(void **state)
{
	(void)state;
	int n;
	char *out = strip("\tif (c) {  // TIMING_PROBE_BRACE: A split\n"
	                  "#if 1  // TIMING_PROBE: A\n\t\tx();\n#endif\n"
	                  "\t\tf(); // why\n"
	                  "\t}  // TIMING_PROBE_BRACE: A\n",
	                  NULL, &n);
	assert_int_equal(n, 2);
	/* the block is the caller's to remove; the body's indentation goes, so
	 * it joins its owner's line once the block is gone */
	assert_string_equal(out, "\tif (c) #if 1  // TIMING_PROBE: A\n\t\tx();\n#endif\nf(); // why\n");
	free(out);
	out = strip("\tif (c) {  // TIMING_PROBE_BRACE: A split\n\t\tf();\n\t}  // TIMING_PROBE_BRACE: A\n", "A", &n);
	assert_string_equal(out, "\tif (c) f();\n");
	free(out);
}

static void test_marks_damaged(void **state)
{
	(void)state;
	static const char *const bad[] = {
	    "{  // TIMING_PROBE_BRACE: A extra\n}  // TIMING_PROBE_BRACE: A\n",
	    "{  // TIMING_PROBE_BRACE: A\nf();\n",
	    "}  // TIMING_PROBE_BRACE: A\n{  // TIMING_PROBE_BRACE: A\n",
	    "f(); {  // TIMING_PROBE_BRACE: A\n}  // TIMING_PROBE_BRACE: A\n",
	    "x  // TIMING_PROBE_BRACE: A\n",
	    "{  // TIMING_PROBE_BRACE: 9A\n}  // TIMING_PROBE_BRACE: 9A\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int n;
		char *out = strip(bad[i], NULL, &n);
		assert_int_equal(n, -1);
		assert_null(out);
	}
	/* prose in a block comment is not a marker, even one that looks damaged
	 * (a fuzzer found a double free on this input) */
	int n;
	char *out = strip("/* see TIMING_PROBE_BRACE: markers */\nf();\n", NULL, &n);
	assert_int_equal(n, 0);
	free(out);
	out = strip("/*\n{//TIMING_PROBE_BRACE:0", NULL, &n);
	assert_int_equal(n, 0);
	free(out);
}

static void test_marks_inside_block(void **state)
{
	(void)state;
	int n;
	char *out = strip_blocks(
	    "#if 0  // TIMING_PROBE: A\n{  // TIMING_PROBE_BRACE: A\n}  // TIMING_PROBE_BRACE: A\nx();\n#endif\ny();\n",
	    "A", 1, &n);
	assert_int_equal(n, 2); /* planned, then dropped with the block */
	assert_string_equal(out, "y();\n");
	free(out);
}

/* ---- parsing ---- */

static char tmpdir[256];

static int make_tmp(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s/test_ast.tmp", PK_BINARY_DIR);
	mkdir(tmpdir, 0755);
	return 0;
}

static void write_file(const char *name, const char *text)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int has_arg(char **argv, int argc, const char *a)
{
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], a))
			return i;
	return -1;
}

static void test_args_compile_commands(void **state)
{
	(void)state;
	char cdb[2048], file[512];
	snprintf(file, sizeof(file), "%s/kern.cpp", tmpdir);
	snprintf(cdb, sizeof(cdb),
	         "[{\"directory\": \"%s\", \"file\": \"kern.cpp\", \"command\": \"ccec -x cce "
	         "--cce-aicore-arch=dav-c220-vec -Iinc -I /abs/inc -DHAVE_K=1 -o kern.o -c kern.cpp\"}]",
	         tmpdir);
	write_file("compile_commands.json", cdb);
	write_file("kern.cpp", "int x;\n");
	struct pk_parse_opts o = {tmpdir, NULL, 0, NULL};
	char **argv;
	int argc;
	assert_int_equal(pk_ast_args(file, &o, &argv, &argc), 0);
	int x = has_arg(argv, argc, "-x");
	assert_true(x >= 0);
	assert_int_equal(has_arg(argv, argc, "cce"), -1);
	assert_true(has_arg(argv, argc, "c++") >= 0);
	for (int i = 0; i < argc; i++)
		assert_null(strstr(argv[i], "--cce-"));
	char inc[600];
	snprintf(inc, sizeof(inc), "-I%s/inc", tmpdir);
	assert_true(has_arg(argv, argc, inc) >= 0); /* relative to the entry's directory */
	assert_true(has_arg(argv, argc, "/abs/inc") >= 0);
	assert_true(has_arg(argv, argc, "-DHAVE_K=1") >= 0);
	assert_int_equal(has_arg(argv, argc, "-o"), -1);
	assert_int_equal(has_arg(argv, argc, "-c"), -1);
	assert_int_equal(has_arg(argv, argc, "kern.cpp"), -1);
	pk_ast_args_free(argv, argc);
	/* a file with no entry of its own borrows its neighbour's flags (libclang
	 * interpolates), without the neighbour's file name */
	snprintf(file, sizeof(file), "%s/other.cpp", tmpdir);
	assert_int_equal(pk_ast_args(file, &o, &argv, &argc), 0);
	assert_true(has_arg(argv, argc, "-DHAVE_K=1") >= 0);
	assert_int_equal(has_arg(argv, argc, "--"), -1);
	assert_int_equal(has_arg(argv, argc, file), -1);
	pk_ast_args_free(argv, argc);
	/* a directory without compile_commands.json is an error */
	struct pk_parse_opts none = {PK_SOURCE_DIR "/tool", NULL, 0, NULL};
	assert_int_equal(pk_ast_args(file, &none, &argv, &argc), -1);
}

static void parse_text(struct pk_ast *a, struct pk_buf *b, const char *path, const char *text,
                       const struct pk_parse_opts *o)
{
	pk_buf_from_mem(b, path, pk_xstrdup(text), strlen(text));
	assert_int_equal(pk_ast_parse(a, b, o), 0);
}

/* The one kernel-entry rule: the words before the name, extern "C", the name. */
static void test_entry_rule(void **state)
{
	(void)state;
	const char *g = "template <typename T> __global__ __aicore__ void ";
	assert_true(pk_entry_rule(g, strlen(g), 0, "k"));
	const char *c = "__aicore__ void ";
	assert_false(pk_entry_rule(c, strlen(c), 0, "k"));
	assert_true(pk_entry_rule(c, strlen(c), 1, "k"));
	const char *m = "AICORE void ";
	assert_false(pk_entry_rule(m, strlen(m), 1, "incore_0"));
	assert_true(pk_entry_rule(m, strlen(m), 1, "kernel_entry"));
	const char *w = "__global__x void "; /* a word, not a prefix */
	assert_false(pk_entry_rule(w, strlen(w), 0, NULL));
}

/* Every parse gives the one model: a file alone has its functions, its
 * entries by the rule and its tokens; the statement around a token and the
 * comment above it. */
static void test_model_alone(void **state)
{
	(void)state;
	const char *text = "void helper(int *p) { *p = 1; }\n"
	                   "extern \"C\" __aicore__ void kernel_entry(long *args)\n"
	                   "{\n"
	                   "    helper(0); // trailing\n"
	                   "    // about run\n"
	                   "    run(args);\n"
	                   "}\n";
	struct pk_buf b;
	struct pk_ast a;
	pk_buf_from_mem(&b, "alone.cpp", pk_xstrdup(text), strlen(text));
	assert_int_equal(pk_ast_parse_alone(&a, &b, NULL, 0), 0);
	int f = pk_ast_find_func(&a, "kernel_entry");
	assert_true(f >= 0);
	assert_true(a.funcs[f].entry);
	assert_false(a.funcs[pk_ast_find_func(&a, "helper")].entry);
	size_t run = pk_tok_at(&a, (size_t)(strstr(text, "run(") - text));
	assert_true(pk_tok_is(&a, run, "run"));
	assert_false(pk_tok_is(&a, a.ntok, "run"));
	assert_int_equal(pk_tok_stmt_first(&a, run + 1), run);
	assert_int_equal(pk_tok_lead(&a, run), (size_t)(strstr(text, "// about") - text));
	size_t helper = pk_tok_at(&a, (size_t)(strstr(text, "helper(0)") - text));
	assert_int_equal(pk_tok_lead(&a, helper), a.tok[helper].start);
	size_t open, close;
	assert_int_equal(pk_ast_text_entries(&a, NULL, &open, &close), 1);
	pk_ast_free(&a);
	pk_buf_free(&b);
}

static void test_parse_memory_not_disk(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof(path), "%s/mem.cpp", tmpdir);
	write_file("mem.cpp", "void on_disk() {}\n");
	struct pk_parse_opts o = {NULL, NULL, 0, NULL};
	struct pk_ast a;
	struct pk_buf b;
	parse_text(&a, &b, path, "void in_memory() { }\n", &o);
	assert_true(pk_ast_find_func(&a, "in_memory") >= 0);
	assert_int_equal(pk_ast_find_func(&a, "on_disk"), -1);
	pk_ast_free(&a);
	pk_buf_free(&b);
}

/* What runs inside pk_cx_run: whether libclang would parse on this thread
 * (LIBCLANG_NOTHREADS set). */
static void cx_probe_fn(void *p)
{
	*(int *)p = getenv("LIBCLANG_NOTHREADS") != NULL;
}

/* A parse runs on the calling thread with the default 8 MiB stack, the
 * variable never left to a child process; with a smaller stack libclang's
 * own thread parses. */
static void test_parse_on_calling_thread(void **state)
{
	(void)state;
	unsetenv("LIBCLANG_NOTHREADS");
	struct rlimit saved;
	assert_int_equal(getrlimit(RLIMIT_STACK, &saved), 0);
	struct rlimit big = saved;
	if (big.rlim_cur != RLIM_INFINITY && big.rlim_cur < (8ul << 20)) {
		if (big.rlim_max != RLIM_INFINITY && big.rlim_max < (8ul << 20))
			skip(); /* this machine cannot give the stack libclang's thread has */
		big.rlim_cur = 8ul << 20;
		assert_int_equal(setrlimit(RLIMIT_STACK, &big), 0);
	}
	int nothreads = 0;
	assert_int_equal(pk_cx_run(cx_probe_fn, &nothreads), 1);
	assert_true(nothreads);
	assert_null(getenv("LIBCLANG_NOTHREADS"));
	char path[512];
	snprintf(path, sizeof(path), "%s/calling_thread.cpp", tmpdir);
	struct pk_parse_opts o = {NULL, NULL, 0, NULL};
	struct pk_ast a;
	struct pk_buf b;
	parse_text(&a, &b, path, "void parsed_here() { }\n", &o);
	assert_true(pk_ast_find_func(&a, "parsed_here") >= 0);
	assert_null(getenv("LIBCLANG_NOTHREADS"));
	pk_ast_free(&a);
	pk_buf_free(&b);
	struct rlimit small = saved;
	small.rlim_cur = 1ul << 20;
	assert_int_equal(setrlimit(RLIMIT_STACK, &small), 0);
	nothreads = 1;
	assert_int_equal(pk_cx_run(cx_probe_fn, &nothreads), 0);
	assert_false(nothreads);
	assert_int_equal(setrlimit(RLIMIT_STACK, &saved), 0);
}

static void test_compile_commands_flags_used(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof(path), "%s/kern.cpp", tmpdir);
	const char *text = "#if HAVE_K\nvoid only_with_flags() { }\n#endif\n";
	struct pk_ast a;
	struct pk_buf b;
	struct pk_parse_opts none = {NULL, NULL, 0, NULL}, cdb = {tmpdir, NULL, 0, NULL};
	parse_text(&a, &b, path, text, &none);
	assert_int_equal(pk_ast_find_func(&a, "only_with_flags"), -1);
	pk_ast_free(&a);
	pk_buf_free(&b);
	parse_text(&a, &b, path, text, &cdb);
	assert_true(pk_ast_find_func(&a, "only_with_flags") >= 0);
	pk_ast_free(&a);
	pk_buf_free(&b);
	/* extra arguments after `--` count too */
	char *extra[] = {"-DHAVE_K=1"};
	struct pk_parse_opts ex = {NULL, extra, 1, NULL};
	parse_text(&a, &b, path, text, &ex);
	assert_true(pk_ast_find_func(&a, "only_with_flags") >= 0);
	pk_ast_free(&a);
	pk_buf_free(&b);
}

static const char kernel[] = "#include \"kernel_operator.h\"\n"
                             "#include \"pto/pto-inst.hpp\"\n"
                             "using namespace AscendC;\n"
                             "using namespace pto;\n"
                             "template <typename T> __aicore__ inline void Body(__gm__ T *p, int n)\n"
                             "{\n"
                             "    using V = Tile<TileType::Vec, T, 8, 32, BLayout::RowMajor, -1, -1>;\n"
                             "    V t(1, n);\n"
                             "    GlobalTensor<T, Shape<1, 1, 1, -1, -1>, Stride<1, 1, 1, -1, 1>> g(p, Shape<1, 1, 1, "
                             "-1, -1>(1, n), Stride<1, 1, 1, -1, 1>(n));\n"
                             "    for (int i = 0; i < n; i++) {\n"
                             "        TLOAD(t, g);\n"
                             "    }\n"
                             "    int k = 0;\n"
                             "    while (k < n) {\n"
                             "        TSORT32(t, t, t);\n"
                             "        k += 2;\n"
                             "    }\n"
                             "    if (n)\n"
                             "        TSTORE(g, t);\n"
                             "    CrossCoreSetFlag<0, PIPE_MTE3>(0);\n"
                             "}\n"
                             "extern \"C\" __global__ __aicore__ void kern(GM_ADDR p)\n"
                             "{\n"
                             "    Body<float>(reinterpret_cast<__gm__ float *>(p), 32);\n"
                             "    Body<half>(reinterpret_cast<__gm__ half *>(p), 32);\n"
                             "}\n";

static void test_stubs_parse_clean(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof(path), "%s/stubbed.cpp", tmpdir);
	struct pk_parse_opts o = {NULL, NULL, 0, NULL};
	struct pk_ast a;
	struct pk_buf b;
	parse_text(&a, &b, path, kernel, &o);
	for (size_t i = 0; i < a.nerrs; i++)
		print_error("unexpected parse error at line %u: %s\n", a.errs[i].line, a.errs[i].msg);
	assert_int_equal(a.nerrs, 0);
	int f = pk_ast_find_func(&a, "kern");
	assert_true(f >= 0);
	assert_true(a.funcs[f].entry);
	assert_false(a.funcs[pk_ast_find_func(&a, "Body")].entry);
	const char *want[] = {"TLOAD", "TSORT32", "TSTORE", "CrossCoreSetFlag"};
	for (size_t w = 0; w < 4; w++) {
		int found = 0;
		for (size_t i = 0; i < a.ncalls; i++)
			found |= !strcmp(a.calls[i].name, want[w]);
		assert_true(found);
	}
	pk_ast_free(&a);
	pk_buf_free(&b);
}

/* ---- the one walk of a unit ---- */

static const char unit_header[] = "namespace ns {\n"
                                  "inline int twice(int x) { return 2 * x; }\n"
                                  "struct Acc {\n"
                                  "    int add(int v) { return v + twice(v); }\n"
                                  "};\n"
                                  "}\n"
                                  "inline int top(int x) { return x; }\n"
                                  "extern \"C\" int plain(int x);\n"
                                  "extern \"C\" inline int plain(int x) { return ns::twice(x); }\n";

static const char unit_main[] = "#include \"unit_walk.h\"\n"
                                "namespace ns { int later(int); }\n"
                                "void kern(int *p)\n"
                                "{\n"
                                "    ns::Acc a;\n"
                                "    p[0] = a.add(plain(p[1]));\n"
                                "}\n";

/* The declaration named NAME with DEF in U, or NULL. */
static const struct pk_decl *unit_decl(const struct pk_unit *u, const char *name, int def)
{
	for (size_t i = 0; i < u->n; i++)
		if (!strcmp(u->v[i].name, name) && u->v[i].def == def)
			return &u->v[i];
	return NULL;
}

static const struct pk_call *call_named(const struct pk_ast *a, const char *name)
{
	for (size_t i = 0; i < a->ncalls; i++)
		if (!strcmp(a->calls[i].name, name))
			return &a->calls[i];
	return NULL;
}

/* One walk of the unit serves the parse and a view of its header: the
 * parse indexes its own file and lists every file's functions, entering
 * another file's namespaces and classes only when asked; the view indexes
 * the header from that walk, its functions in the order they are written;
 * a call tells a method from a free function. */
static void test_unit_walk(void **state)
{
	(void)state;
	write_file("unit_walk.h", unit_header);
	char path[512], hpath[512];
	snprintf(path, sizeof(path), "%s/unit_walk.cpp", tmpdir);
	snprintf(hpath, sizeof(hpath), "%s/unit_walk.h", tmpdir);
	struct pk_parse_opts o = {NULL, NULL, 0, NULL};
	struct pk_ast a;
	struct pk_buf b, hb;
	parse_text(&a, &b, path, unit_main, &o);
	assert_int_equal(a.nfuncs, 1);
	assert_string_equal(a.funcs[0].name, "kern");
	assert_int_equal(pk_ast_find_func(&a, "twice"), -1);
	assert_non_null(unit_decl(a.decls, "later", 0)); /* the parse's own namespace */
	assert_non_null(unit_decl(a.decls, "top", 1));   /* the header's top level */
	assert_null(unit_decl(a.decls, "twice", 1));     /* its namespace's: not yet */
	const struct pk_call *add = call_named(&a, "add"), *plain = call_named(&a, "plain");
	assert_non_null(add);
	assert_non_null(plain);
	assert_true(add->member);
	assert_false(plain->member);

	CXFile hf = pk_ast_file_named(&a, hpath);
	assert_non_null(hf);
	pk_buf_from_mem(&hb, hpath, pk_xstrdup(unit_header), strlen(unit_header));
	struct pk_ast v;
	pk_ast_view(&v, &a, hf, &hb);
	assert_int_equal(v.nfuncs, 4); /* as written, though top was walked first */
	assert_string_equal(v.funcs[0].name, "twice");
	assert_string_equal(v.funcs[1].name, "add");
	assert_string_equal(v.funcs[2].name, "top");
	assert_string_equal(v.funcs[3].name, "plain");
	assert_int_equal(v.ncalls, 2); /* twice in add and in plain */
	assert_string_equal(v.calls[0].name, "twice");
	assert_false(v.calls[0].member);

	const struct pk_unit *u = pk_ast_unit(&a, NULL);
	const struct pk_decl *tw = unit_decl(u, "twice", 1), *ad = unit_decl(u, "add", 1);
	const struct pk_decl *pd = unit_decl(u, "plain", 0), *pf = unit_decl(u, "plain", 1);
	assert_non_null(tw);
	assert_non_null(ad);
	assert_non_null(pd);
	assert_non_null(pf);
	assert_false(tw->in_class);
	assert_true(ad->in_class);
	assert_true(pd->extern_c);
	assert_true(pk_cx_same_file(tw->file, hf));
	assert_int_equal(tw->line, 2);
	assert_int_equal(pf->line, 9);
	assert_true(unit_decl(u, "top", 1) < tw);            /* the header's top level came first */
	assert_int_equal(v.funcs[0].decl, (int)(tw - u->v)); /* the view's functions are the unit's */
	size_t n = u->n;
	assert_int_equal(pk_ast_unit(&a, NULL)->n, n); /* entered once */
	pk_ast_free(&v);
	pk_buf_free(&hb);
	pk_ast_free(&a);
	pk_buf_free(&b);
}

static struct pk_anchor *place1(struct pk_ast *a, const char *spec, int is_end, size_t *n)
{
	struct pk_spec s;
	assert_int_equal(pk_spec_parse(&s, spec), 0);
	struct pk_anchor *v = NULL;
	int rc = pk_ast_place(a, &s, is_end, &v, n);
	pk_spec_free(&s);
	return rc == 0 ? v : NULL;
}

static void test_scopes_and_loops(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof(path), "%s/stubbed.cpp", tmpdir);
	struct pk_parse_opts o = {NULL, NULL, 0, NULL};
	struct pk_ast a;
	struct pk_buf b;
	parse_text(&a, &b, path, kernel, &o);
	size_t ns, ne;
	struct pk_anchor *s = place1(&a, "before:TLOAD", 0, &ns);
	struct pk_anchor *e = place1(&a, "after:TLOAD", 1, &ne);
	assert_non_null(s);
	assert_non_null(e);
	assert_int_equal(pk_ast_check_scopes(&a, s, e, ne), 0);
	int loop;
	unsigned line;
	char *v = pk_ast_loop_var(&a, s->scope, &loop, &line);
	assert_string_equal(v, "i");
	assert_int_equal(line, 10);
	free(v);
	pk_anchors_free(e, ne);
	/* the end outside the loop: the start variable is not visible there */
	e = place1(&a, "after:CrossCoreSetFlag", 1, &ne);
	assert_int_equal(pk_ast_check_scopes(&a, s, e, ne), -1);
	pk_anchors_free(s, ns);
	pk_anchors_free(e, ne);
	/* a while loop's counter is the condition's variable the body changes */
	s = place1(&a, "before:TSORT32", 0, &ns);
	v = pk_ast_loop_var(&a, s->scope, &loop, &line);
	assert_string_equal(v, "k");
	free(v);
	pk_anchors_free(s, ns);
	/* a braceless body gets braces, at the owner's indentation */
	s = place1(&a, "before:TSTORE", 0, &ns);
	assert_non_null(s);
	assert_true(s->brace >= 0);
	assert_false(s->brace_split);
	assert_string_equal(s->brace_indent, "    ");
	assert_string_equal(s->indent, "        ");
	pk_anchors_free(s, ns);
	/* exit: before the closing brace when no return ends the body */
	e = place1(&a, "exit:kern", 1, &ne);
	assert_int_equal(ne, 1);
	assert_int_equal(e->where, PK_BEFORE_CLOSE);
	pk_anchors_free(e, ne);
	assert_null(place1(&a, "exit:kern", 0, &ne));
	pk_ast_free(&a);
	pk_buf_free(&b);
}

static void test_rules_load(void **state)
{
	(void)state;
	struct pk_ast_rules r;
	assert_int_equal(pk_ast_rules_load(&r), 0);
	assert_true(pk_namelist_has(&r.issue, "TLOAD"));
	assert_true(pk_namelist_has(&r.issue, "DataCopy"));
	assert_true(pk_namelist_has(&r.wait, "WaitCrossCoreSync"));
	assert_true(pk_namelist_has(&r.wait, "CrossCoreWaitFlag"));
	assert_true(pk_namelist_has(&r.wait, "wait_flag"));
	assert_true(pk_namelist_has(&r.barrier, "PipeBarrier"));
	assert_true(pk_namelist_has(&r.barrier, "SyncAll"));
	assert_true(pk_namelist_has(&r.notify, "SetCrossCoreSync"));
	assert_true(pk_namelist_has(&r.notify, "CrossCoreSetFlag"));
	assert_false(pk_namelist_has(&r.issue, "TLOA"));
	assert_string_equal(r.guard, "{block} == 0");
	pk_ast_rules_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_file_in_memory),
	    cmocka_unit_test(test_spec_forms),
	    cmocka_unit_test(test_spec_errors),
	    cmocka_unit_test(test_marks_text),
	    cmocka_unit_test(test_marks_strip_lines),
	    cmocka_unit_test(test_marks_strip_split),
	    cmocka_unit_test(test_marks_damaged),
	    cmocka_unit_test(test_marks_inside_block),
	    cmocka_unit_test(test_args_compile_commands),
	    cmocka_unit_test(test_entry_rule),
	    cmocka_unit_test(test_model_alone),
	    cmocka_unit_test(test_parse_memory_not_disk),
	    cmocka_unit_test(test_parse_on_calling_thread),
	    cmocka_unit_test(test_compile_commands_flags_used),
	    cmocka_unit_test(test_stubs_parse_clean),
	    cmocka_unit_test(test_unit_walk),
	    cmocka_unit_test(test_scopes_and_loops),
	    cmocka_unit_test(test_rules_load),
	};
	return cmocka_run_group_tests(tests, make_tmp, NULL);
}
