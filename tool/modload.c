/* modload.c - dlopen probekit_ast.so when a command needs libclang. The
 * module resolves core symbols (pk_error, pk_buf_*, ...) from the executable,
 * which is linked with ENABLE_EXPORTS. */
#include "modload.h"
#include "inject.h"
#include "pk.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PROBEKIT_AST_MODULE_NAME
#define PROBEKIT_AST_MODULE_NAME "probekit_ast.so"
#endif

/* Where the module is. Returns 0 or -1 (message). */
static int module_path(char *dst, unsigned cap)
{
	const char *env = getenv("PROBEKIT_AST_MODULE");
	if (env && *env) {
		if (strlen(env) >= cap)
			return pk_error("PROBEKIT_AST_MODULE: path too long");
		strcpy(dst, env);
		return 0;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return pk_error("cannot find the running executable to locate '%s'", PROBEKIT_AST_MODULE_NAME);
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	int w = snprintf(dst, cap, "%s/../lib/%s", exe, PROBEKIT_AST_MODULE_NAME);
	if (w < 0 || (unsigned)w >= cap)
		return pk_error("module path too long");
	return 0;
}

typedef int (*pk_entry_fn)(const struct pk_inject_opts *o);

int pk_module_call(const char *symbol, const struct pk_inject_opts *o)
{
	char path[PATH_MAX];
	if (module_path(path, sizeof(path)) < 0)
		return PK_EXIT_ERROR;
	if (access(path, R_OK) != 0) {
		pk_error("%s: libclang module not found (AST commands need it; set PROBEKIT_AST_MODULE)", path);
		return PK_EXIT_ERROR;
	}
	/* RTLD_NOW: a missing libclang symbol must fail here, not mid-edit.
	 * The handle is never closed: libclang keeps threads and atexit hooks. */
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		pk_error("cannot load the libclang module: %s", dlerror());
		return PK_EXIT_ERROR;
	}
	pk_entry_fn fn;
	void *sym = dlsym(h, symbol);
	memcpy(&fn, &sym, sizeof(fn)); /* object-to-function pointer, as POSIX allows */
	if (!sym) {
		pk_error("%s: no entry point '%s' in the libclang module", path, symbol);
		return PK_EXIT_ERROR;
	}
	return fn(o);
}
