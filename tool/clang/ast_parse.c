/* ast_parse.c - turn a pk_buf into a libclang translation unit.
 *
 * The file is parsed from its bytes in memory (CXUnsavedFile), so what is
 * parsed is what gets edited. When the vendor SDK is absent the kernel's own
 * #include <kernel_operator.h> / <pto/pto-inst.hpp> resolves to the stub
 * headers built into the binary: they are served as unsaved files from a
 * directory that exists only for clang, searched last (-idirafter), so a
 * real SDK or simulation on the include path always wins. */
#include "ast.h"
#include <clang-c/CXCompilationDatabase.h>
#include "embed.h"
#include "pk.h"

#include <ctype.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PROBEKIT_CLANG_RESOURCE_DIR
#define PROBEKIT_CLANG_RESOURCE_DIR ""
#endif

/* Never a real directory: clang sees the stubs only as unsaved files. */
#define STUB_DIR    PK_STUB_DIR
#define STUB_PREFIX "stubs/"

struct argv_b {
	char **v;
	int n;
	size_t cap;
};

static void push(struct argv_b *a, const char *s)
{
	PK_GROW(a->v, a->cap, (size_t)a->n + 2);
	a->v[a->n++] = pk_xstrdup(s);
	a->v[a->n] = NULL;
}

static char *path_join(const char *dir, const char *rel)
{
	if (rel[0] == '/' || !dir || !*dir)
		return pk_xstrdup(rel);
	size_t n = strlen(dir) + strlen(rel) + 2;
	char *p = pk_xmalloc(n);
	snprintf(p, n, "%s/%s", dir, rel);
	return p;
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Where a parse runs. libclang parses on a thread of its own, for a stack
 * of 8 MiB, unless LIBCLANG_NOTHREADS is set: a thread start and join per
 * parse and reparse, each a wait to be scheduled again on a busy machine (an
 * insertion parses twice: bench/README.md has the figures). When the calling
 * thread's stack may grow as large, the variable is set around the call
 * alone, so no child process inherits it. libclang's crash recovery, which
 * clang_createIndex installs, guards the call on this thread as it guards its
 * own: a crash still comes back as CXError_Crashed. */
#define CX_STACK (8ul << 20)

int pk_cx_run(void (*fn)(void *), void *arg)
{
	struct rlimit r;
	int here = getrlimit(RLIMIT_STACK, &r) == 0 && (r.rlim_cur == RLIM_INFINITY || r.rlim_cur >= CX_STACK) &&
	           !getenv("LIBCLANG_NOTHREADS");
	if (here)
		setenv("LIBCLANG_NOTHREADS", "1", 1);
	fn(arg);
	if (here)
		unsetenv("LIBCLANG_NOTHREADS");
	return here;
}

struct cx_parse {
	CXIndex index;
	const char *main;
	const char *const *argv;
	int argc;
	struct CXUnsavedFile *u;
	unsigned nu, flags;
	CXTranslationUnit *tu;
	enum CXErrorCode ec;
};

static void cx_parse_fn(void *p)
{
	struct cx_parse *c = p;
	c->ec = clang_parseTranslationUnit2(c->index, c->main, c->argv, c->argc, c->u, c->nu, c->flags, c->tu);
}

/* clang_parseTranslationUnit2 through pk_cx_run. */
static enum CXErrorCode parse_tu(CXIndex index, const char *main, const char *const *argv, int argc,
                                 struct CXUnsavedFile *u, unsigned nu, unsigned flags, CXTranslationUnit *tu)
{
	struct cx_parse c = {index, main, argv, argc, u, nu, flags, tu, CXError_Crashed};
	*tu = NULL;
	pk_cx_run(cx_parse_fn, &c);
	return c.ec;
}

struct cx_reparse {
	CXTranslationUnit tu;
	struct CXUnsavedFile *u;
	unsigned nu;
	int ec;
};

static void cx_reparse_fn(void *p)
{
	struct cx_reparse *c = p;
	c->ec = clang_reparseTranslationUnit(c->tu, c->nu, c->u, clang_defaultReparseOptions(c->tu));
}

/* Options whose value is a path, relative to the compile command's directory. */
static const char *const path_opts[] = {"-I",       "-isystem",  "-iquote",   "-idirafter", "-include",
                                        "-imacros", "-isysroot", "--sysroot", NULL};

/* Ascend compiler flags rewritten for clang: -x cce is C++ with CCE
 * extensions (the stubs supply the keywords), --cce-* have no clang meaning. */
static int rewrite_cdb_arg(struct argv_b *out, const char *dir, const char *file, char **args, unsigned n, unsigned *i)
{
	const char *s = args[*i];
	if (!strcmp(s, "--")) { /* only the source file follows */
		*i = n;
		return 0;
	}
	if (!strcmp(s, "-c") || !strcmp(s, "-MD") || !strcmp(s, "-MMD") || !strncmp(s, "--cce-", 6))
		return 0;
	if (!strcmp(s, "-o") || !strcmp(s, "-MF") || !strcmp(s, "-MT") || !strcmp(s, "-MQ")) {
		(*i)++;
		return 0;
	}
	if (!strcmp(s, "-x") && *i + 1 < n) {
		(*i)++;
		push(out, "-x");
		push(out, !strcmp(args[*i], "cce") ? "c++" : args[*i]);
		return 0;
	}
	if (!strcmp(s, "-xcce")) {
		push(out, "-xc++");
		return 0;
	}
	char *abs = path_join(dir, s);
	int same = !strcmp(abs, file) || !strcmp(s, file);
	free(abs);
	if (same)
		return 0;
	for (const char *const *p = path_opts; *p; p++) {
		size_t l = strlen(*p);
		if (strncmp(s, *p, l))
			continue;
		if (s[l] == '\0' && *i + 1 < n) {
			(*i)++;
			push(out, s);
			char *v = path_join(dir, args[*i]);
			push(out, v);
			free(v);
			return 0;
		}
		if (s[l] != '\0' && !strcmp(*p, "-I")) {
			char *v = path_join(dir, s + l);
			size_t m = strlen(v) + 3;
			char *opt = pk_xmalloc(m);
			snprintf(opt, m, "-I%s", v);
			push(out, opt);
			free(opt);
			free(v);
			return 0;
		}
	}
	push(out, s);
	return 0;
}

static int cdb_dir_args(struct argv_b *out, const char *build_dir, const char *file)
{
	/* checked here: libclang would print its own "TOOLING ERROR" lines */
	char *json = path_join(build_dir, "compile_commands.json");
	int readable = access(json, R_OK) == 0;
	free(json);
	if (!readable)
		return pk_error("%s: no compile_commands.json (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)",
		                build_dir);
	CXCompilationDatabase_Error err;
	CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(build_dir, &err);
	if (err != CXCompilationDatabase_NoError || !db)
		return pk_error("%s: cannot read compile_commands.json", build_dir);
	CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db, file);
	int rc = 0;
	if (!cmds || clang_CompileCommands_getSize(cmds) == 0) {
		rc = pk_error("%s: no entry for '%s' in %s/compile_commands.json", file, file, build_dir);
		goto out;
	}
	CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
	CXString dirs = clang_CompileCommand_getDirectory(cmd);
	char *dir = pk_xstrdup(clang_getCString(dirs));
	clang_disposeString(dirs);
	unsigned n = clang_CompileCommand_getNumArgs(cmd);
	char **args = pk_xcalloc(n + 1, sizeof(*args));
	for (unsigned i = 0; i < n; i++) {
		CXString s = clang_CompileCommand_getArg(cmd, i);
		args[i] = pk_xstrdup(clang_getCString(s));
		clang_disposeString(s);
	}
	for (unsigned i = 1; i < n; i++) /* args[0] is the compiler */
		rewrite_cdb_arg(out, dir, file, args, n, &i);
	for (unsigned i = 0; i < n; i++)
		free(args[i]);
	free(args);
	free(dir);
out:
	if (cmds)
		clang_CompileCommands_dispose(cmds);
	clang_CompilationDatabase_dispose(db);
	return rc;
}

/* -p names the build directory or its compile_commands.json (as clang-tidy
 * and clang-check take either) */
static int cdb_args(struct argv_b *out, const char *build_dir, const char *file)
{
	struct stat st;
	if (stat(build_dir, &st) < 0 || !S_ISREG(st.st_mode))
		return cdb_dir_args(out, build_dir, file);
	const char *slash = strrchr(build_dir, '/'), *name = slash ? slash + 1 : build_dir;
	if (strcmp(name, "compile_commands.json"))
		return pk_error("%s: -p takes a build directory or its compile_commands.json", build_dir);
	char *dir =
	    slash ? pk_xstrndup(build_dir, slash == build_dir ? 1 : (size_t)(slash - build_dir)) : pk_xstrdup(".");
	int rc = cdb_dir_args(out, dir, file);
	free(dir);
	return rc;
}

/* The SDK's header directories under $ASCEND_HOME_PATH that exist here. */
static void sdk_args(struct argv_b *out)
{
	static const char *const sub[] = {"include", "compiler/tikcpp/tikcfw", "compiler/tikcpp/tikcfw/impl",
	                                  "compiler/tikcpp/tikcfw/interface", NULL};
	const char *home = getenv("ASCEND_HOME_PATH");
	if (!home || !*home)
		return;
	for (const char *const *p = sub; *p; p++) {
		char *d = path_join(home, *p);
		if (is_dir(d)) {
			push(out, "-I");
			push(out, d);
		}
		free(d);
	}
}

/* Every parse's arguments around the build's own flags (-p, the SDK,
 * those after --): the language before them; after them the stubs,
 * searched last, and the prelude of the compiler's built-in names,
 * whatever else is found. With nothing between, these are the arguments
 * the prelude was precompiled with (default_args). */
static const char *const args_head[] = {"-x", "c++", "-std=c++17", NULL};
static const char *const args_tail[] = {"-idirafter", STUB_DIR,          "-include", STUB_DIR "/probekit_prelude.h",
                                        "-w",         "-ferror-limit=0", NULL};

static void push_all(struct argv_b *a, const char *const *v)
{
	for (; *v; v++)
		push(a, *v);
}

/* What follows the build's own flags: libclang's resource directory (its
 * <stddef.h>), then args_tail. */
static void push_tail(struct argv_b *a)
{
	if (PROBEKIT_CLANG_RESOURCE_DIR[0]) {
		push(a, "-resource-dir");
		push(a, PROBEKIT_CLANG_RESOURCE_DIR);
	}
	push_all(a, args_tail);
}

int pk_ast_args(const char *path, const struct pk_parse_opts *o, char ***argv, int *argc)
{
	struct argv_b a = {0};
	push_all(&a, args_head);
	if (o->build_dir && cdb_args(&a, o->build_dir, path) < 0) {
		pk_ast_args_free(a.v, a.n);
		return -1;
	}
	sdk_args(&a);
	for (int i = 0; i < o->nextra; i++)
		push(&a, o->extra[i]);
	push_tail(&a);
	*argv = a.v;
	*argc = a.n;
	return 0;
}

void pk_ast_args_free(char **argv, int argc)
{
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

/* The stubs as unsaved files, after the main file at u[0]. */
struct stubs {
	struct CXUnsavedFile *u;
	char **names;
	size_t n;
};

static void stubs_load(struct stubs *s, struct CXUnsavedFile main)
{
	size_t cnt = 0;
	for (const struct pk_embedded *e = pk_embedded_files; e->name; e++)
		cnt++;
	s->u = pk_xcalloc(cnt + 1, sizeof(*s->u));
	s->names = pk_xcalloc(cnt + 1, sizeof(*s->names));
	s->u[0] = main;
	s->n = 1;
	for (const struct pk_embedded *e = pk_embedded_files; e->name; e++) {
		if (strncmp(e->name, STUB_PREFIX, strlen(STUB_PREFIX)))
			continue;
		const char *data;
		size_t len;
		if (pk_rules_file(e->name, &data, &len) < 0)
			continue;
		s->names[s->n] = path_join(STUB_DIR, e->name + strlen(STUB_PREFIX));
		s->u[s->n] = (struct CXUnsavedFile){s->names[s->n], data, (unsigned long)len};
		s->n++;
	}
}

static void stubs_free(struct stubs *s)
{
	for (size_t i = 1; i < s->n; i++)
		free(s->names[i]);
	free(s->u);
	free(s->names);
}

/* Absolute path for clang: the file's #include "x.h" resolve beside it. */
static char *clang_path(const char *path)
{
	char cwd[PATH_MAX];
	if (!strcmp(path, "-"))
		path = "stdin.cpp";
	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return pk_xstrdup(path);
	return path_join(cwd, path);
}

/* The group macro (`PROBEKIT_NO_<name>`) whose `#ifndef` encloses line LINE
 * of the prelude's text, or NULL. */
static char *prelude_group(const char *text, size_t len, unsigned line)
{
	static const char open[] = "#ifndef PROBEKIT_NO_";
	char *group = NULL;
	int depth = 0, group_depth = -1;
	unsigned ln = 1;
	for (size_t i = 0; i < len && ln <= line; ln++) {
		const char *p = text + i;
		const char *nl = memchr(p, '\n', len - i);
		size_t n = nl ? (size_t)(nl - p) : len - i;
		if (n >= strlen(open) && !strncmp(p, open, strlen(open))) {
			depth++;
			size_t k = strlen("#ifndef ");
			size_t e = k;
			while (e < n && (isalnum((unsigned char)p[e]) || p[e] == '_'))
				e++;
			free(group);
			group = pk_xstrndup(p + k, e - k);
			group_depth = depth;
		} else if (n >= 3 && !strncmp(p, "#if", 3)) {
			depth++;
		} else if (n >= 6 && !strncmp(p, "#endif", 6)) {
			if (depth == group_depth && ln < line) {
				free(group);
				group = NULL;
				group_depth = -1;
			}
			depth--;
		}
		i += n + 1;
	}
	return group;
}

/* The prelude as served to clang, and its file in the parse. */
struct prelude {
	const struct CXUnsavedFile *text;
	CXFile file;
};

static struct prelude prelude_of(CXTranslationUnit tu, const struct stubs *st)
{
	struct prelude p = {NULL, NULL};
	for (size_t i = 1; i < st->n; i++)
		if (!strcmp(st->names[i], STUB_DIR "/probekit_prelude.h"))
			p.text = &st->u[i];
	if (p.text)
		p.file = clang_getFile(tu, p.text->Filename);
	return p;
}

/* For an error that clashes with a prelude declaration (its "previous
 * definition is here" note lies in the prelude), the prelude group's macro;
 * else NULL. */
static char *clash_group(CXDiagnostic d, const struct prelude *p)
{
	if (!p->file || clang_getDiagnosticSeverity(d) < CXDiagnostic_Error)
		return NULL;
	CXDiagnosticSet kids = clang_getChildDiagnostics(d);
	unsigned nk = kids ? clang_getNumDiagnosticsInSet(kids) : 0;
	char *g = NULL;
	for (unsigned k = 0; k < nk && !g; k++) {
		CXDiagnostic note = clang_getDiagnosticInSet(kids, k);
		CXFile f;
		unsigned line;
		clang_getExpansionLocation(clang_getDiagnosticLocation(note), &f, &line, NULL, NULL);
		if (f && pk_cx_same_file(f, p->file))
			g = prelude_group(p->text->Contents, p->text->Length, line);
		clang_disposeDiagnostic(note);
	}
	return g;
}

/* Where the program declares a name the prelude also gives (its own pipe_t,
 * a get_sys_cnt of another type), its declaration must win. Returns 0 when
 * the parse stands: no clash, or clashes that are the parse's only errors
 * (they are then not reported: the prelude caused them). Returns 1 when the
 * clashes may have cost more than themselves: each clashing group's
 * -DPROBEKIT_NO_<name> is added to ARGS for a second parse. */
static int prelude_clashes(struct pk_ast *a, const struct prelude *p, struct argv_b *args)
{
	unsigned nd = clang_getNumDiagnostics(a->tu);
	int others = 0, clashes = 0;
	struct argv_b defs = {0};
	for (unsigned i = 0; i < nd; i++) {
		CXDiagnostic d = clang_getDiagnostic(a->tu, i);
		char *g = clash_group(d, p);
		if (g) {
			int seen = 0;
			for (int j = 0; j < defs.n && !seen; j++)
				seen = !strcmp(defs.v[j] + 2, g);
			if (!seen) {
				size_t m = strlen(g) + 3;
				char *def = pk_xmalloc(m);
				snprintf(def, m, "-D%s", g);
				push(&defs, def);
				free(def);
			}
			clashes++;
		} else if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			others++;
		}
		free(g);
		clang_disposeDiagnostic(d);
	}
	int again = clashes && others;
	for (int j = 0; j < defs.n; j++) {
		if (again)
			push(args, defs.v[j]);
		free(defs.v[j]);
	}
	free(defs.v);
	return again;
}

/* The parse's errors, but for clashes with the prelude (see prelude_clashes):
 * those in FILE with their line and offset, others naming their header. */
static void collect_errors_of(CXTranslationUnit tu, CXFile file, const struct prelude *p, struct pk_parse_error **errs,
                              size_t *nerrs, size_t *cap)
{
	unsigned nd = clang_getNumDiagnostics(tu);
	for (unsigned i = 0; i < nd; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		char *clash = clash_group(d, p);
		if (clash) {
			free(clash);
			sev = CXDiagnostic_Note;
		}
		CXSourceLocation loc = clang_getDiagnosticLocation(d);
		CXFile f;
		unsigned line, col, off;
		clang_getExpansionLocation(loc, &f, &line, &col, &off);
		if (sev >= CXDiagnostic_Error) {
			CXString s = clang_getDiagnosticSpelling(d);
			char *msg;
			if (pk_cx_same_file(f, file)) {
				msg = pk_xstrdup(clang_getCString(s));
			} else {
				/* an error inside a header: name the header and its line */
				CXString fn = clang_getFileName(f);
				const char *h = f ? clang_getCString(fn) : "<command line>";
				size_t m = strlen(h) + strlen(clang_getCString(s)) + 32;
				msg = pk_xmalloc(m);
				snprintf(msg, m, "%s:%u: %s", h, line, clang_getCString(s));
				clang_disposeString(fn);
				off = 0;
				line = 0;
			}
			PK_GROW(*errs, *cap, *nerrs + 1);
			(*errs)[(*nerrs)++] = (struct pk_parse_error){line, off, msg};
			clang_disposeString(s);
		}
		clang_disposeDiagnostic(d);
	}
}

static void collect_errors(struct pk_ast *a, const struct prelude *p)
{
	collect_errors_of(a->tu, a->file, p, &a->errs, &a->nerrs, &a->cap_errs);
}

/* Does TEXT (N bytes) hold a word of LIST (blank-separated)? */
static int holds_word_of(const char *text, size_t n, const char *list)
{
	for (const char *p = list + strspn(list, " \t"); *p; p += strspn(p, " \t")) {
		size_t l = strcspn(p, " \t");
		if (memmem(text, n, p, l))
			return 1;
		p += l;
	}
	return 0;
}

/* Is the diagnostic M "unknown type name 'W'" with W a word of LIST? */
static int unknown_type_of(const char *m, const char *list)
{
	static const char pre[] = "unknown type name '";
	if (strncmp(m, pre, sizeof(pre) - 1))
		return 0;
	const char *w = m + sizeof(pre) - 1, *q = strchr(w, '\'');
	return q && !q[1] && pk_word_in(list, w, (size_t)(q - w));
}

/* Does the parse show code of the default kind (rules/api.ini: Ascend C)
 * whose SDK header never came in (its includes were not found: a generated
 * or absent header that brings it)? The file names the kind's namespace or
 * a pointer type macro of its headers, and that macro is unknown or a
 * `using namespace` names no namespace. */
static int lacks_sdk(const struct pk_buf *b, CXTranslationUnit tu)
{
	/* a header not found first: most parses have none, and then the kind's
	 * words (rules/api.ini) are not read at all */
	unsigned nd = clang_getNumDiagnostics(tu);
	int missing = 0, sdk = 0;
	for (unsigned i = 0; i < nd && !missing; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		CXString sp = clang_getDiagnosticSpelling(d);
		missing = strstr(clang_getCString(sp), "file not found") != NULL;
		clang_disposeString(sp);
		clang_disposeDiagnostic(d);
	}
	struct pk_api api;
	if (!missing || pk_api_load_default(&api) < 0)
		return 0;
	int named = (*api.ns && memmem(b->data, b->len, api.ns, strlen(api.ns))) ||
	            holds_word_of(b->data, b->len, api.pointer_types);
	for (unsigned i = 0; named && i < nd && !sdk; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		CXString sp = clang_getDiagnosticSpelling(d);
		const char *m = clang_getCString(sp);
		sdk = unknown_type_of(m, api.pointer_types) || !strcmp(m, "expected namespace name");
		clang_disposeString(sp);
		clang_disposeDiagnostic(d);
	}
	pk_api_free(&api);
	return sdk;
}

/* The build defines DTYPE_<OPERAND> for every operand of an Ascend C
 * operator (`-DDTYPE_EXPAND_X=half`); one that neither the user's flags nor
 * the stubs define is given as half, like the stubs' DTYPE_X. Returns how
 * many were added to ALL. */
static int operand_types(CXTranslationUnit tu, struct argv_b *all)
{
	static const char *const forms[] = {"use of undeclared identifier '", "unknown type name '"};
	unsigned nd = clang_getNumDiagnostics(tu);
	int added = 0;
	for (unsigned i = 0; i < nd; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		CXString sp = clang_getDiagnosticSpelling(d);
		const char *m = clang_getCString(sp);
		for (size_t f = 0; f < 2; f++) {
			size_t l = strlen(forms[f]);
			if (strncmp(m, forms[f], l) || strncmp(m + l, "DTYPE_", 6))
				continue;
			size_t e = l + 6;
			while (m[e] == '_' || (m[e] >= 'A' && m[e] <= 'Z') || (m[e] >= '0' && m[e] <= '9'))
				e++;
			if (m[e] != '\'' || m[e + 1])
				continue;
			char def[128];
			snprintf(def, sizeof(def), "-D%.*s=half", (int)(e - l) < 100 ? (int)(e - l) : 100, m + l);
			int seen = 0;
			for (int k = 0; k < all->n && !seen; k++)
				seen = !strcmp(all->v[k], def);
			if (!seen) {
				push(all, def);
				added++;
			}
		}
		clang_disposeString(sp);
		clang_disposeDiagnostic(d);
	}
	return added;
}

/* Errors of a parse, clashes with the prelude left out. */
static unsigned error_count(CXTranslationUnit tu, const struct prelude *p)
{
	unsigned nd = clang_getNumDiagnostics(tu), n = 0;
	for (unsigned i = 0; i < nd; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			char *clash = clash_group(d, p);
			n += !clash;
			free(clash);
		}
		clang_disposeDiagnostic(d);
	}
	return n;
}

/* With PREAMBLE the headers the file includes first are precompiled once,
 * with their function bodies skipped: a reparse of the file (the check of
 * an insertion) then parses only the file, and the instantiations of the
 * headers' templates cost their declarations only. Errors inside those
 * bodies are not reported in either parse. */
static unsigned parse_flags(int preamble)
{
	unsigned f = CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord;
	if (preamble)
		f |= CXTranslationUnit_PrecompiledPreamble | CXTranslationUnit_CreatePreambleOnFirstParse |
		     CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_LimitSkipFunctionBodiesToPreamble;
	return f;
}

/* Do the arguments name headers beyond the tool's own stubs? (The stubs
 * parse in milliseconds: precompiling them costs more than it saves.) */
static int names_headers(char *const *argv, int argc)
{
	static const char *const opts[] = {
	    "-I", "-isystem", "-iquote", "-idirafter", "-include", "-imacros", "--include-directory", "-F", NULL};
	for (int i = 0; i < argc; i++)
		for (const char *const *o = opts; *o; o++)
			if (!strncmp(argv[i], *o, strlen(*o))) {
				const char *v = argv[i][strlen(*o)] ? argv[i] + strlen(*o)
				                : i + 1 < argc      ? argv[i + 1]
				                                    : "";
				if (strncmp(v, STUB_DIR, strlen(STUB_DIR)))
					return 1;
			}
	return 0;
}

/* Parse again with the arguments added to ALL since its first KEEP; the new
 * parse replaces the old one only when it has fewer errors, else the added
 * arguments are taken back. */
static void reparse_if_better(struct pk_ast *a, const char *main, struct argv_b *all, int keep, struct stubs *st,
                              struct prelude *pre, int preamble)
{
	CXTranslationUnit tu = NULL;
	enum CXErrorCode ec = parse_tu(a->index, main, (const char *const *)all->v, all->n, st->u, (unsigned)st->n,
	                               parse_flags(preamble), &tu);
	if (ec == CXError_Success && tu) {
		struct prelude np = prelude_of(tu, st);
		if (error_count(tu, &np) < error_count(a->tu, pre)) {
			clang_disposeTranslationUnit(a->tu);
			a->tu = tu;
			*pre = np;
			return;
		}
		clang_disposeTranslationUnit(tu);
	}
	while (all->n > keep)
		free(all->v[--all->n]);
	all->v[all->n] = NULL;
}

/* The prelude precompiled at build time (pch_build.c): probekit_prelude.pch
 * beside this module, or NULL when it is not there or the prelude served
 * (a rules directory's) is not the one built in, which it was made from. */
static struct stat pch_st; /* its state when found */

static const char *prelude_pch(void)
{
	static char path[PATH_MAX];
	static int done;
	if (done)
		return path[0] ? path : NULL;
	done = 1;
	const struct pk_embedded *e = pk_embedded_find(STUB_PREFIX "probekit_prelude.h");
	const char *data;
	size_t len;
	Dl_info di;
	if (!e || pk_rules_file(STUB_PREFIX "probekit_prelude.h", &data, &len) < 0 || len != e->len ||
	    memcmp(data, e->data, len) || !dladdr((void *)prelude_pch, &di) || !di.dli_fname)
		return NULL;
	const char *slash = strrchr(di.dli_fname, '/');
	int w =
	    slash ? snprintf(path, sizeof(path), "%.*s/probekit_prelude.pch", (int)(slash - di.dli_fname), di.dli_fname)
	          : snprintf(path, sizeof(path), "probekit_prelude.pch");
	if (w <= 0 || (size_t)w >= sizeof(path) || stat(path, &pch_st) < 0 || !S_ISREG(pch_st.st_mode)) {
		path[0] = '\0';
		return NULL;
	}
	return path;
}

/* Are ALL the default arguments, those the prelude was precompiled with
 * (pk_ast_args with no -p, no SDK, nothing after --)? Any other flag could
 * change what the prelude declares (a -D it tests, an -I with another
 * <stdint.h>). */
static int default_args(const struct argv_b *all)
{
	struct argv_b d = {0};
	push_all(&d, args_head);
	push_tail(&d);
	int same = d.n == all->n;
	for (int i = 0; i < d.n && same; i++)
		same = !strcmp(d.v[i], all->v[i]);
	pk_ast_args_free(d.v, d.n);
	return same;
}

/* Did the parse refuse the precompiled prelude (another libclang, a changed
 * system header, a damaged file)? Its messages then say so, fatally. */
static int pch_refused(CXTranslationUnit tu)
{
	unsigned nd = clang_getNumDiagnostics(tu);
	int bad = 0;
	for (unsigned i = 0; i < nd && !bad; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		CXString cat = clang_getDiagnosticCategoryText(d);
		const char *c = clang_getCString(cat);
		bad = clang_getDiagnosticSeverity(d) == CXDiagnostic_Fatal || (c && strstr(c, "AST Deserialization"));
		clang_disposeString(cat);
		clang_disposeDiagnostic(d);
	}
	return bad;
}

/* The first parse of MAIN: with the default arguments, the prelude comes
 * precompiled (-include-pch), and the check of an insertion, a reparse of
 * the same unit, loads it too; the prelude's own text is parsed again only
 * when that is refused. */
static enum CXErrorCode parse_first(struct pk_ast *a, const char *main, struct argv_b *all, struct stubs *st,
                                    unsigned flags)
{
	const char *pch = default_args(all) ? prelude_pch() : NULL;
	if (pch) {
		const char **v = pk_xcalloc((size_t)all->n + 1, sizeof(*v));
		for (int i = 0; i < all->n; i++)
			v[i] = all->v[i];
		for (int i = 0; i + 1 < all->n; i++)
			if (!strcmp(v[i], "-include")) {
				v[i] = "-include-pch";
				v[i + 1] = pch;
			}
		enum CXErrorCode ec = parse_tu(a->index, main, v, all->n, st->u, (unsigned)st->n, flags, &a->tu);
		free(v);
		if (ec == CXError_Success && a->tu && !pch_refused(a->tu)) {
			pk_note_read(pch, &pch_st);
			return ec;
		}
		if (a->tu)
			clang_disposeTranslationUnit(a->tu);
		a->tu = NULL;
	}
	return parse_tu(a->index, main, (const char *const *)all->v, all->n, st->u, (unsigned)st->n, flags, &a->tu);
}

/* Parse MAIN (the file itself, or the source file a header is parsed in)
 * with the buffer and the stubs as unsaved files. Clashes with the prelude
 * switch its groups off, Ascend C code whose SDK header never came in gets
 * it as -include, and operand types the build would define are given; each
 * in a second parse kept only when it has fewer errors. */
static enum CXErrorCode parse_unit(struct pk_ast *a, const char *main, struct argv_b *all, struct stubs *st,
                                   struct prelude *pre, int preamble)
{
	/* notes from headers are kept: a clash with the prelude is told by its
	 * "previous definition is here" note */
	enum CXErrorCode ec = parse_first(a, main, all, st, parse_flags(preamble));
	*pre = (struct prelude){NULL, NULL};
	if (ec != CXError_Success || !a->tu)
		return ec;
	*pre = prelude_of(a->tu, st);
	int keep = all->n;
	if (prelude_clashes(a, pre, all))
		reparse_if_better(a, main, all, keep, st, pre, preamble);
	if (lacks_sdk(a->b, a->tu)) {
		/* the SDK header (the real one if on the path, else the stubs)
		 * given first, as the missing include would have */
		keep = all->n;
		push(all, "-include");
		push(all, "kernel_operator.h");
		reparse_if_better(a, main, all, keep, st, pre, preamble);
	}
	keep = all->n;
	if (operand_types(a->tu, all))
		reparse_if_better(a, main, all, keep, st, pre, preamble);
	return ec;
}

/* The source file a header is parsed in: --tu, else one found that
 * includes it; NULL for a source file or a header nothing includes. */
static char *unit_of(const struct pk_buf *b, const char *cpath, const struct pk_parse_opts *o)
{
	if (o->tu)
		return clang_path(o->tu);
	if (!strcmp(b->path, "-") || !pk_ast_is_header(b->path))
		return NULL;
	return pk_ast_includer(cpath);
}

struct find_incl {
	CXFile want;
	int found;
};

static void visit_find(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
	(void)stack;
	(void)depth;
	struct find_incl *fi = data;
	if (!fi->found && pk_cx_same_file(f, fi->want))
		fi->found = 1;
}

/* The header as a file the unit includes (clang knows every unsaved file,
 * included or not), or NULL. */
static CXFile included_file(CXTranslationUnit tu, const char *path)
{
	struct find_incl fi = {clang_getFile(tu, path), 0};
	if (fi.want)
		clang_getInclusions(tu, visit_find, &fi);
	return fi.found ? fi.want : NULL;
}

/* -UNAME also reaches the prelude, whose defaults (__CCE_AICORE__) would
 * otherwise define NAME again after the command line: -DPROBEKIT_UNDEF_NAME
 * tells it not to. */
static void undef_defaults(struct argv_b *all)
{
	int n = all->n;
	for (int i = 0; i < n; i++) {
		const char *name = !strcmp(all->v[i], "-U") && i + 1 < n ? all->v[i + 1]
		                   : !strncmp(all->v[i], "-U", 2)        ? all->v[i] + 2
		                                                         : NULL;
		if (!name || !*name || strlen(name) > 100)
			continue;
		char def[128];
		snprintf(def, sizeof(def), "-DPROBEKIT_UNDEF_%s", name);
		push(all, def);
	}
}

static void index_unit(struct pk_ast *a, const struct prelude *pre)
{
	collect_errors(a, pre);
	pk_ast_tokens(a);
	pk_ast_index(a);
	pk_ast_fix_starts(a);
	pk_ast_token_calls(a);
}

static int parse_file(struct pk_ast *a, struct pk_buf *b, const struct pk_parse_opts *o, int edit)
{
	memset(a, 0, sizeof(*a));
	a->b = b;
	pk_buf_lines(b);
	pk_scan_buf(b, &a->scan, PK_SCAN_COMMENTS);
	char *cpath = clang_path(b->path);
	char *unit = unit_of(b, cpath, o);
	char **argv;
	int argc;
	/* a compile command is looked up for the file clang is given */
	if (pk_ast_args(unit ? unit : cpath, o, &argv, &argc) < 0) {
		free(unit);
		free(cpath);
		return -1;
	}
	struct stubs st;
	stubs_load(&st, (struct CXUnsavedFile){cpath, b->data, (unsigned long)b->len});
	a->index = clang_createIndex(0, 0);
	struct argv_b all = {argv, argc, (size_t)argc + 1};
	undef_defaults(&all);
	struct prelude pre;
	enum CXErrorCode ec =
	    parse_unit(a, unit ? unit : cpath, &all, &st, &pre, edit && !unit && names_headers(all.v, all.n));
	if (unit && ec == CXError_Success && a->tu && !(a->file = included_file(a->tu, cpath))) {
		/* the unit does not include the header in this configuration */
		if (o->tu) {
			ec = CXError_Success;
			clang_disposeTranslationUnit(a->tu);
			a->tu = NULL;
			int rc = pk_error("%s: --tu %s does not include it with these flags; name a source file that "
			                  "does (or give the -D that selects the #include)",
			                  b->path, o->tu);
			stubs_free(&st);
			pk_ast_args_free(all.v, all.n);
			free(unit);
			free(cpath);
			return rc;
		}
		clang_disposeTranslationUnit(a->tu);
		a->tu = NULL;
		free(unit);
		unit = NULL;
		ec = parse_unit(a, cpath, &all, &st, &pre, edit && names_headers(all.v, all.n));
	}
	int rc = 0;
	if (ec != CXError_Success || !a->tu) {
		rc = pk_error("%s: libclang could not parse the file (error %d)", b->path, (int)ec);
	} else {
		if (!a->file)
			a->file = clang_getFile(a->tu, cpath);
		a->unit = unit;
		unit = NULL;
		a->cpath = cpath;
		cpath = NULL;
		index_unit(a, &pre);
	}
	stubs_free(&st);
	pk_ast_args_free(all.v, all.n);
	free(unit);
	free(cpath);
	return rc;
}

int pk_ast_parse(struct pk_ast *a, struct pk_buf *b, const struct pk_parse_opts *o)
{
	return parse_file(a, b, o, 0);
}

int pk_ast_parse_edit(struct pk_ast *a, struct pk_buf *b, const struct pk_parse_opts *o)
{
	return parse_file(a, b, o, 1);
}

int pk_ast_reparse(struct pk_ast *a, const char *data, size_t len, struct pk_parse_error **errs, size_t *nerrs)
{
	*errs = NULL;
	*nerrs = 0;
	struct stubs st;
	stubs_load(&st, (struct CXUnsavedFile){a->cpath, data, (unsigned long)len});
	struct cx_reparse c = {a->tu, st.u, (unsigned)st.n, CXError_Crashed};
	pk_cx_run(cx_reparse_fn, &c);
	int ec = c.ec;
	int rc = 0;
	if (ec) {
		/* a failed reparse leaves nothing usable */
		clang_disposeTranslationUnit(a->tu);
		a->tu = NULL;
		rc = pk_error("%s: libclang could not parse the result (error %d); nothing written", a->b->path, ec);
	} else {
		/* the cursors of the first parse are gone: only the errors are read */
		a->nnodes = 0;
		if (a->decls)
			a->decls->nlater = 0;
		a->file = clang_getFile(a->tu, a->cpath);
		struct prelude pre = prelude_of(a->tu, &st);
		size_t cap = 0;
		collect_errors_of(a->tu, a->file, &pre, errs, nerrs, &cap);
	}
	stubs_free(&st);
	return rc;
}

void pk_parse_errors_free(struct pk_parse_error *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].msg);
	free(v);
}

void pk_ast_warn_errors(const struct pk_ast *a)
{
	if (a->nerrs && a->unit)
		pk_warning("%s: parsed in the translation unit of %s (--tu SOURCE chooses another)", a->b->path,
		           a->unit);
	if (a->nerrs > 3 && pk_verbosity() <= 0) { /* types the build generates: one line */
		const struct pk_parse_error *e = &a->errs[0];
		char where[32] = "an included header";
		if (e->line)
			snprintf(where, sizeof(where), "line %u", e->line);
		pk_warning("%s: could not parse %zu places (the first, %s: %s); --verbose lists them all, -q none",
		           a->b->path, a->nerrs, where, e->msg);
		return;
	}
	for (size_t i = 0; i < a->nerrs; i++) {
		if (a->errs[i].line)
			pk_warning("%s:%u: could not parse: %s", a->b->path, a->errs[i].line, a->errs[i].msg);
		else
			pk_warning("%s: could not parse an included header: %s", a->b->path, a->errs[i].msg);
	}
}

int pk_ast_parse_alone(struct pk_ast *a, struct pk_buf *b, char **extra, int nextra)
{
	memset(a, 0, sizeof(*a));
	a->b = b;
	pk_buf_lines(b);
	const char *name = b->from_stdin ? "stdin.cpp" : b->path;
	const char **args = pk_xcalloc((size_t)nextra + 4, sizeof(char *));
	int n = 0;
	args[n++] = "-x";
	args[n++] = "c++";
	args[n++] = "-std=c++17";
	for (int i = 0; i < nextra; i++)
		args[n++] = extra[i];
	struct CXUnsavedFile u = {name, b->data, (unsigned long)b->len};
	a->index = clang_createIndex(0, 0);
	enum CXErrorCode ec = parse_tu(a->index, name, args, n, &u, 1,
	                               CXTranslationUnit_KeepGoing | CXTranslationUnit_SingleFileParse |
	                                   CXTranslationUnit_DetailedPreprocessingRecord,
	                               &a->tu);
	free(args);
	if (ec != CXError_Success || !a->tu)
		return pk_error("%s: libclang could not read the file (error %d)", b->path, (int)ec);
	a->file = clang_getFile(a->tu, name);
	pk_scan_buf(b, &a->scan, PK_SCAN_COMMENTS);
	pk_ast_tokens(a);
	pk_ast_index(a);
	pk_ast_fix_starts(a);
	pk_ast_token_calls(a);
	return 0;
}

void pk_ast_view(struct pk_ast *view, struct pk_ast *main, CXFile file, struct pk_buf *b)
{
	memset(view, 0, sizeof(*view));
	view->tu = main->tu;
	view->decls = main->decls; /* the unit's walk, not made again */
	view->file = file;
	view->b = b;
	view->borrowed = 1;
	pk_buf_lines(b);
	pk_scan_buf(b, &view->scan, PK_SCAN_COMMENTS);
	pk_ast_tokens(view);
	pk_ast_index(view);
	pk_ast_fix_starts(view);
	pk_ast_token_calls(view);
}

void pk_ast_free(struct pk_ast *a)
{
	free(a->branch_flags);
	for (size_t i = 0; i < a->nfuncs; i++)
		free(a->funcs[i].name);
	for (size_t i = 0; i < a->ncalls; i++)
		free(a->calls[i].name);
	for (size_t i = 0; i < a->nerrs; i++)
		free(a->errs[i].msg);
	if (!a->borrowed && a->decls) {
		pk_unit_free(a->decls);
		free(a->decls);
	}
	free(a->funcs);
	free(a->calls);
	free(a->errs);
	free(a->nodes);
	free(a->tok);
	free(a->skipped);
	free(a->unit);
	free(a->cpath);
	pk_scan_free(&a->scan);
	if (a->tu && !a->borrowed)
		clang_disposeTranslationUnit(a->tu);
	if (a->index && !a->borrowed)
		clang_disposeIndex(a->index);
	memset(a, 0, sizeof(*a));
}
