/* modload.h - load the libclang module (probekit_ast.so) on demand.
 * Only commands that need the AST call in here, so block-only commands never
 * map libclang. Included by cmd_inject.c (core side); never by the module
 * itself. */
#ifndef PK_MODLOAD_H
#define PK_MODLOAD_H

struct pk_inject_opts;
/* dlopen the module ($PROBEKIT_AST_MODULE if set, else <dir of
 * /proc/self/exe>/../lib/probekit_ast.so), look up SYMBOL (one of the entry
 * points inject.h declares, `int fn(const struct pk_inject_opts *)`) and run
 * it with the parsed options O. Returns its exit code, or PK_EXIT_ERROR with one
 * "probekit: ..." line when the module or symbol is missing. */
int pk_module_call(const char *symbol, const struct pk_inject_opts *o);

#endif
