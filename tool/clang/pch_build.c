/* pch_build.c - the build-time step that precompiles the parse prelude
 * (rules/stubs/probekit_prelude.h) into lib/probekit_prelude.pch, beside
 * the module. Every parse whose arguments are the defaults (the stubs, no
 * -p, no SDK, nothing after --) -includes the prelude, and with it
 * <stddef.h> and <stdint.h>: precompiled, the parse and the check of an
 * insertion each load it instead (ast_parse.c). Not part of the module and
 * not installed itself; only its output is.
 *
 * usage: probekit_pch PRELUDE OUT.pch
 * The prelude is served under its in-parse name, so the precompiled header
 * names the file the parses see. The arguments are pk_ast_args()'s defaults
 * with `-x c++-header` and without the -include of the prelude itself. */
#include <clang-c/Index.h>

#include "ast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, unsigned long *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0, r;
	char *p = malloc(cap);
	while (p && (r = fread(p + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap)
			p = realloc(p, cap *= 2);
	}
	int bad = ferror(f);
	fclose(f);
	if (!p || bad) {
		free(p);
		return NULL;
	}
	*len = n;
	return p;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: probekit_pch PRELUDE OUT.pch\n");
		return 2;
	}
	struct CXUnsavedFile u = {PK_STUB_DIR "/probekit_prelude.h", NULL, 0};
	char *text = slurp(argv[1], &u.Length);
	if (!text) {
		perror(argv[1]);
		return 1;
	}
	u.Contents = text;
	const char *args[] = {"-x",         "c++-header", "-std=c++17", "-resource-dir",  PROBEKIT_CLANG_RESOURCE_DIR,
	                      "-idirafter", PK_STUB_DIR,  "-w",         "-ferror-limit=0"};
	int nargs = (int)(sizeof(args) / sizeof(*args));
	if (!PROBEKIT_CLANG_RESOURCE_DIR[0]) { /* no -resource-dir pair, as pk_ast_args */
		memmove(&args[3], &args[5], (size_t)(nargs - 5) * sizeof(*args));
		nargs -= 2;
	}
	CXIndex index = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	enum CXErrorCode ec =
	    clang_parseTranslationUnit2(index, u.Filename, args, nargs, &u, 1,
	                                CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization, &tu);
	int rc = 0;
	if (ec != CXError_Success || !tu) {
		fprintf(stderr, "probekit_pch: libclang could not parse %s (error %d)\n", argv[1], (int)ec);
		rc = 1;
	} else {
		for (unsigned i = 0; i < clang_getNumDiagnostics(tu); i++) {
			CXDiagnostic d = clang_getDiagnostic(tu, i);
			if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
				CXString s = clang_formatDiagnostic(d, clang_defaultDiagnosticDisplayOptions());
				fprintf(stderr, "probekit_pch: %s\n", clang_getCString(s));
				clang_disposeString(s);
				rc = 1;
			}
			clang_disposeDiagnostic(d);
		}
		if (!rc && clang_saveTranslationUnit(tu, argv[2], clang_defaultSaveOptions(tu)) != CXSaveError_None) {
			fprintf(stderr, "probekit_pch: could not write %s\n", argv[2]);
			rc = 1;
		}
		clang_disposeTranslationUnit(tu);
	}
	clang_disposeIndex(index);
	free(text);
	return rc;
}
