/* ast.h - the libclang layer: parse a kernel, locate statements, plan a probe.
 * Built into probekit_ast.so only; included by tool/ast*.c and tests/test_ast*.c,
 * never by the core (which must not need libclang). */
#ifndef PK_AST_H
#define PK_AST_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "buf.h"
#include "edit.h"
#include "scan.h"

/* Where clang sees the built-in parse stubs: never a real directory. */
#define PK_STUB_DIR "/probekit-builtin-stubs"

/* Names from rules/async.ini: what issues async work, what completes it,
 * and how the print is guarded. */
struct pk_namelist {
	char **v;
	size_t n, cap;
};

struct pk_ast_rules {
	struct pk_namelist issue;   /* asynchronous issue: TLOAD, DataCopy, ... */
	struct pk_namelist wait;    /* completing waits: wait_flag, WaitCrossCoreSync, ... */
	struct pk_namelist barrier; /* barriers: PipeBarrier, pipe_barrier, SyncAll, ... */
	struct pk_namelist notify;  /* notifications: set_flag, SetCrossCoreSync, ... */
	struct pk_namelist mixed;   /* words that mark a mixed AIC/AIV kernel */
	char *guard;                /* print guard condition ({block}, {subblock}: rules/api.ini) */
	char *aiv_core, *aiv_guard; /* mixed kernels, shared or AIV code */
	char *aic_core, *aic_guard; /* mixed kernels, code under the AIC test */
	/* wait probes: waits for an event of the same core are sampled without
	 * the probe's barrier, cross-core waits with it; the comment of each */
	struct pk_namelist wait_same, wait_cross;
	struct pk_namelist collective; /* every core or rank takes part: waits like cross_core */
	char *wait_same_note, *wait_cross_note;
};

/* ast_api.c: the probe API of a kernel kind (rules/api.ini). Every key of a
 * kind is present (an empty value says none); names are unqualified. */
struct pk_api {
	char kind[16];
	char dflt[16];          /* [kinds] default: the kind whose probes need no note */
	char *includes, *entry; /* what marks the kind */
	char *ns;               /* namespace of the names below, or "" */
	char *cycle, *sim_macro, *sim_cycle, *sim_include;
	char *barrier, *block, *subblock, *block_include, *print;
	char *writeback, *fence; /* the timing row's writeback of {line}, then the fence */
	char *pointer_types;     /* its headers' pointer type macros (blank-separated), or "" */
	/* [code], every kind alike: the lines around a read under the simulation
	 * macro, and an #include */
	char *sim_if, *sim_else, *sim_endif, *include;
	/* [code]: a printf probe's lines */
	char *sample, *barrier_line, *print_line, *guard_open, *core_open, *close;
	char *cycles, *index, *block_arg, *iter_arg, *dur_arg, *kind_note;
};
/* Load [KIND]; refuses an unknown kind or a missing key. */
int pk_api_load(const char *kind, struct pk_api *a);
void pk_api_free(struct pk_api *a);
/* Load the kind of api.ini's [kinds] default. */
int pk_api_load_default(struct pk_api *a);
/* The kind of B from its includes and code text (S: its comment map, or
 * NULL) into KIND: 1 when a kind's marks were found, 0 for the fallback, -1
 * on a rules error. */
int pk_api_detect(const struct pk_buf *b, const struct pk_scan *s, char *kind, size_t cap);
/* Does B #include a header of LIST (blank-separated; the path as written or
 * its last component)? An #include inside a probe block of S (when not NULL)
 * does not count: that block may be off while the probe asking is on. */
int pk_api_includes(const struct pk_buf *b, const struct pk_scan *s, const char *list);
/* TMPL with each {NAMES[i]} replaced by VALS[i] (malloc'd). */
char *pk_api_fill(const char *tmpl, const char *const *names, const char *const *vals, size_t n);
/* NAME (an API spelling) with {args} replaced by ARGS, written NS::NAME when
 * QUALIFY and the kind has a namespace. Returns malloc'd text. */
char *pk_api_call(const struct pk_api *a, const char *name, int qualify, const char *args);
/* A line that reads the clock: DEV_LINE, or with a simulation macro
 * SIM_LINE and DEV_LINE between [code] sim_if, sim_else and sim_endif;
 * lines joined by EOL, none after the last (malloc'd). */
char *pk_api_read_lines(const struct pk_api *a, const char *sim_line, const char *dev_line, const char *eol);
/* The #include of HEADER, under the simulation macro when SIM; joined by
 * EOL, none after the last (malloc'd). */
char *pk_api_include_lines(const struct pk_api *a, const char *header, int sim, const char *eol);

int pk_ast_rules_load(struct pk_ast_rules *r);
void pk_ast_rules_free(struct pk_ast_rules *r);
int pk_namelist_has(const struct pk_namelist *l, const char *name);

/* One cursor of a function body, in visiting order (parents first). */
struct pk_node {
	CXCursor c;
	enum CXCursorKind kind;
	int parent;        /* index, -1 for a function body */
	int func;          /* index into pk_ast.funcs */
	size_t start, end; /* expansion range in the main file, [start, end) */
	int stmt;          /* a statement of a block or a control statement's body */
	int braceless;     /* a control statement's body that is not a { } block */
	int has_else;      /* IfStmt: has an else branch */
};

/* A function declared or defined anywhere in the translation unit (the
 * parsed file and every file it includes), in the order of the one walk of
 * the unit (ast_tree.c): free functions, templates, methods, constructors. */
struct pk_decl {
	char *name;
	CXCursor c, parent; /* the declaration and the declaration holding it */
	CXFile file;        /* of its name's location (the expansion) */
	size_t off;         /* that location's offset in FILE */
	unsigned line;      /* and line */
	enum CXCursorKind kind;
	int def;         /* a definition, else a declaration */
	int extern_c;    /* inside extern "C" */
	int in_class;    /* inside a class, a struct or a union (a member, a friend) */
	int in_template; /* inside a class template or a union */
};

/* A namespace, linkage specification or class of a file other than the
 * parse's own, which the walk enters only when a client asks for the whole
 * unit (entering one in a precompiled preamble loads all it holds). */
struct pk_scope {
	CXCursor c;
	CXFile file;
	int extern_c, in_class, in_template; /* around it */
};

/* The functions of a translation unit, from its one walk (ast_tree.c):
 * made by the parse, shared by its views. */
struct pk_unit {
	struct pk_decl *v;
	size_t n, cap;
	struct pk_scope *later; /* not entered yet */
	size_t nlater, cap_later;
};

/* A definition of the model's own file, indexed: its body's nodes and calls. */
struct pk_func {
	CXCursor cursor, parent; /* the definition and the declaration holding it */
	char *name;
	int decl;     /* the same function in pk_ast.decls */
	int body;     /* node index of the body CompoundStmt */
	size_t start; /* offset of the declaration's first byte */
	unsigned line;
	int entry;              /* a kernel entry by pk_entry_rule */
	int bad_line;           /* first line with a parse error inside, or 0 */
	int is_constexpr;       /* probe code cannot go in a constexpr function */
	enum CXCursorKind kind; /* FunctionDecl, CXXMethod, FunctionTemplate, ... */
	int in_template;        /* inside a class template or a union */
};

struct pk_call {
	char *name;   /* callee as written (last name component) */
	size_t off;   /* offset of the callee name */
	int node;     /* the CallExpr */
	int macro;    /* the call comes from a macro expansion */
	int inactive; /* in a region the preprocessor skipped (node is -1) */
	int member;   /* of a method or a constructor, not of a free function */
};

struct pk_parse_error {
	unsigned line;
	size_t off;
	char *msg;
};

/* A token of the main file (tool/clang/ast_tok.c). */
struct pk_tok {
	size_t start, end;
	unsigned char kind;  /* enum CXTokenKind */
	unsigned char flags; /* PK_TOK_* */
};
#define PK_TOK_DIRECTIVE 1 /* on a preprocessor directive line */
#define PK_TOK_INACTIVE  2 /* in a region the preprocessor skipped */

struct pk_ast {
	struct pk_buf *b;
	CXIndex index;
	CXTranslationUnit tu;
	CXFile file;
	struct pk_node *nodes;
	size_t nnodes, cap_nodes;
	struct pk_unit *decls; /* the unit's functions (a view shares its unit's) */
	struct pk_func *funcs; /* the definitions of this file, indexed */
	size_t nfuncs, cap_funcs;
	struct pk_call *calls; /* in source order */
	size_t ncalls, cap_calls;
	struct pk_parse_error *errs; /* errors inside the main file */
	size_t nerrs, cap_errs;
	struct pk_scan scan; /* existing probe blocks, comments */
	struct pk_tok *tok;  /* the file's tokens, comments left out */
	size_t ntok;
	struct pk_range *skipped; /* regions the preprocessor skipped */
	size_t nskipped;
	char *unit;           /* a header parsed in this source file's unit, or NULL */
	char *cpath;          /* the file's path as clang was given it */
	char *branch_flags;   /* a refused target's branch: the -D/-U that select it */
	unsigned branch_line; /* and the line of that target */
	int borrowed;         /* a view: tu and index belong to another pk_ast */
};

struct pk_parse_opts {
	const char *build_dir; /* -p: compile_commands.json */
	char **extra;          /* after `--` */
	int nextra;
	const char *tu; /* --tu: the source file a header is parsed in */
};

/* Parse B (its bytes in memory, not the file on disk) and index the main
 * file's functions, statements and calls. Returns 0 or -1 (message). */
int pk_ast_parse(struct pk_ast *a, struct pk_buf *b, const struct pk_parse_opts *o);
/* pk_ast_parse for an insertion into B itself: when the flags name headers
 * (-I, -include, -p, an SDK), those B includes first are precompiled once
 * (libclang's preamble) with their function bodies skipped, so the check of
 * the result (pk_ast_reparse) parses B alone. Not for a header parsed in its
 * includer's unit, nor where views into included files are read. */
int pk_ast_parse_edit(struct pk_ast *a, struct pk_buf *b, const struct pk_parse_opts *o);
/* The file B alone (its includes skipped): the same model, from a parse
 * that sees no declaration of another file. Returns 0 or -1 (message). */
int pk_ast_parse_alone(struct pk_ast *a, struct pk_buf *b, char **extra, int nextra);
/* A view of FILE, an included file of MAIN's unit holding B's bytes: that
 * file's tokens, functions, nodes and calls, MAIN's cursors. Freed with
 * pk_ast_free. */
void pk_ast_view(struct pk_ast *view, struct pk_ast *main, CXFile file, struct pk_buf *b);
void pk_ast_free(struct pk_ast *a);
/* Parse again with DATA as the file's bytes (same flags, stubs and unit):
 * its errors, as a->errs holds the first parse's. The first parse's cursors
 * are gone afterwards. Returns 0 or -1 (message). */
int pk_ast_reparse(struct pk_ast *a, const char *data, size_t len, struct pk_parse_error **errs, size_t *nerrs);
void pk_parse_errors_free(struct pk_parse_error *v, size_t n);
/* Run FN(ARG), a libclang parse or reparse, on the calling thread when its
 * stack may grow as large as libclang's own parse thread's (8 MiB), else on
 * libclang's thread; libclang's crash recovery guards both. Returns 1 when
 * it ran on the calling thread. */
int pk_cx_run(void (*fn)(void *), void *arg);
/* Does the edit PLAN (checked) of the parsed file add a parse error? Then
 * refuse (-1), naming the error and the inserted line (tool/clang/ast_verify.c). */
int pk_ast_verify(struct pk_ast *a, const struct pk_plan *plan, const char *name);
/* The text pk_ast_verify parses for PLAN: the planned text with every body
 * no edit touches left blank (line ends and directives kept), or the
 * planned text itself when an edit could reach across bodies; *BLANKED
 * says which. *TEXT is malloc'd. */
void pk_ast_check_text(struct pk_ast *a, const struct pk_plan *p, char **text, size_t *len, int *blanked);
/* Report parse errors in the main file as warnings ("could not see"). */
void pk_ast_warn_errors(const struct pk_ast *a);
/* Is PATH a header by its suffix; the source file that includes HEADER
 * (tool/clang/ast_unit.c), or NULL. */
int pk_ast_is_header(const char *path);
char *pk_ast_includer(const char *header);
/* Build the compiler arguments (exposed for tests). *argv is malloc'd. */
int pk_ast_args(const char *path, const struct pk_parse_opts *o, char ***argv, int *argc);
void pk_ast_args_free(char **argv, int argc);

/* ast_tree.c */
/* The kernel-entry rule, the one every part of the tool applies: a function
 * is a kernel entry when the words of its declaration before its name,
 * TEXT[0, LEN) (qualifier macros that expand to nothing included), hold a
 * word of rules/api.ini [entry] qualifiers (`__global__`), or of
 * extern_c_qualifiers (`__aicore__`) in an extern "C" declaration
 * (EXTERN_C), or when NAME is one of its names (`kernel_entry`, pypto's
 * incore entry, whatever macro spells its qualifiers). NAME may be NULL:
 * then TEXT alone decides. */
int pk_entry_rule(const char *text, size_t len, int extern_c, const char *name);
/* Are A and B the same file? clang_File_isEqual alone says yes for any two
 * in-memory files (the buffer, the stubs): their names decide then. */
int pk_cx_same_file(CXFile a, CXFile b);
/* The index of A: the one walk of the unit into a->decls (a view takes its
 * unit's, entering the scopes of its file), then the definitions of A's own
 * file from it into a->funcs, with their bodies' nodes and calls. */
int pk_ast_index(struct pk_ast *a);
/* The functions of A's unit in the scopes of FILE (NULL: every file): the
 * walk enters those it left for later the first time they are asked for. */
const struct pk_unit *pk_ast_unit(struct pk_ast *a, CXFile file);
void pk_unit_free(struct pk_unit *u);
/* Byte offset of a location (its expansion) in A's file; -1 elsewhere. */
long pk_ast_offset(const struct pk_ast *a, CXSourceLocation loc);
/* The cursor's extent in A's file: 0, or -1 when it is not all there. */
int pk_ast_extent(const struct pk_ast *a, CXCursor c, size_t *start, size_t *end);
/* A cursor's spelling (malloc'd, "" for none). */
char *pk_cursor_name(CXCursor c);
/* Is the cursor's text produced by a macro expansion? */
int pk_ast_from_macro(CXCursor c);
unsigned pk_ast_line(struct pk_ast *a, size_t off);
/* The functions of A named NAME, or with NAME NULL its kernel entries (by
 * pk_entry_rule); FREE_ONLY: free functions and function templates alone.
 * The first one's index in a->funcs, or -1; *N how many there are, *SECOND
 * the second one's index, or -1. */
int pk_ast_funcs_named(const struct pk_ast *a, const char *name, int free_only, int *n, int *second);
/* The one function named NAME: its index, -1 for none, -2 for several. */
int pk_ast_find_func(const struct pk_ast *a, const char *name);
/* The kernel entries of A (functions or function templates with a body
 * that pk_entry_rule calls an entry): pk_ast_funcs_named(A, NULL, 1, ...). */
int pk_ast_one_entry(const struct pk_ast *a, int *n, int *second);
int pk_ast_stmt_of(const struct pk_ast *a, int node);
int pk_ast_is_loop(enum CXCursorKind k);
/* Is node J inside the subtree of node I (or I itself)? */
int pk_ast_in_subtree(const struct pk_ast *a, int j, int i);
/* The last direct child of node P, or -1. */
int pk_ast_last_child(const struct pk_ast *a, int p);

/* The calls in source order (the AST's and the tokens' together). */
void pk_ast_sort_calls(struct pk_ast *a);

/* ast_tok.c */
void pk_ast_tokens(struct pk_ast *a);
void pk_ast_fix_starts(struct pk_ast *a);
void pk_ast_token_calls(struct pk_ast *a);
/* Is token I (0 past the last) spelled S? */
int pk_tok_is(const struct pk_ast *a, size_t i, const char *s);
/* Index of the first token starting at or after OFF (ntok if none). */
size_t pk_tok_at(const struct pk_ast *a, size_t off);
/* The first token of the statement holding token I: after the previous
 * ';', '{' or '}' (read on the tokens alone). */
size_t pk_tok_stmt_first(const struct pk_ast *a, size_t i);
/* Where token I starts together with the comment lines written right
 * before it (since the previous token's line): code put there goes above
 * the comment that introduces the statement. */
size_t pk_tok_lead(const struct pk_ast *a, size_t i);
/* The one bracket matcher over tokens: the token closing the bracket at
 * OPEN ('(', '[' and '{' counted together), tokens with a flag of SKIP
 * (PK_TOK_*) passed over; ntok when it is not closed. */
size_t pk_tok_close(const struct pk_ast *a, size_t open, unsigned skip);
/* The OPEN token (such as "{") of the innermost OPEN ... CLOSE group that
 * holds token I, searched backwards from I; ntok when there is none. */
size_t pk_tok_enclosing(const struct pk_ast *a, size_t i, const char *open, const char *close);
/* The token ranges [S[k], E[k]) of the top-level arguments of the call (or
 * initialiser list) whose bracket is token OPEN, at most CAP: how many. */
size_t pk_tok_args(const struct pk_ast *a, size_t open, size_t *s, size_t *e, size_t cap);
/* The packed-arguments test on the tokens, the one every part applies where
 * the parse's types are not at hand: is token I the name NAME of a parameter
 * written `int64_t *NAME` or `uint64_t *NAME`? (pk_cursor_packed_param is
 * the same test on a resolved type.) */
int pk_tok_packed_name(const struct pk_ast *a, size_t i);
/* Does an identifier token start with PREFIX? */
int pk_tok_prefix_used(const struct pk_ast *a, const char *prefix);
size_t pk_ast_inactive_call(const struct pk_ast *a, const char *name);
char *pk_ast_skip_reason(const struct pk_ast *a, size_t off, unsigned *line);
int pk_ast_whole_macro_use(const struct pk_ast *a, size_t s, size_t e);
char *pk_ast_macro_calling(struct pk_ast *a, const char *name, unsigned *def_line, char *uses, size_t cap);
int pk_ast_text_entries(const struct pk_ast *a, const char *want, size_t *open, size_t *close);

/* ast_query.c: what the timing tensor asks of a parse (it calls no
 * libclang function itself). */
/* A cursor's type: a pointer, void, any other, or none the parse resolved. */
enum pk_type_class { PK_TYPE_OTHER, PK_TYPE_POINTER, PK_TYPE_VOID, PK_TYPE_UNKNOWN };
enum pk_type_class pk_cursor_type(CXCursor c);
/* The packed-arguments test on a parameter's resolved type: a pointer to a
 * 64-bit integer, signed or not (`int64_t *args`, `uint64_t *args`). */
int pk_cursor_packed_param(CXCursor p);
/* The parameters of function FN (or a function template, whose argument
 * count libclang does not give) into V[0, CAP): how many. */
int pk_cursor_params(CXCursor fn, CXCursor *v, int cap);
/* The offset in A's file of cursor C's location (its name), or -1. */
long pk_ast_name_offset(const struct pk_ast *a, CXCursor c);
/* The index in a->funcs of the function at cursor FN, or -1. */
int pk_ast_func_of(const struct pk_ast *a, CXCursor fn);
/* Is the call at NODE held by something other than a statement of its own
 * directly inside braces (a condition, a return, a loop's header)? */
int pk_ast_in_condition(const struct pk_ast *a, int node);
/* The file of A's unit at PATH (NULL: none); a file's name (malloc'd). */
CXFile pk_ast_file_named(const struct pk_ast *a, const char *path);
char *pk_cx_file_name(CXFile f);
/* The callee's name of a call, also of a dependent call in a template (the
 * name under its unresolved lookup); NULL for a member call or none. */
char *pk_ast_callee_name(CXCursor call);
/* The first byte of function FN's declaration: `extern "C"` written before
 * it (not braced) belongs to it, and a qualifier macro expanding to nothing
 * at the start of its line. PARENT: the declaration holding it, or NULL for
 * its semantic parent. 0 when FN's text is not in T's file. */
size_t pk_ast_decl_start(const struct pk_ast *t, CXCursor fn, const CXCursor *parent);

/* Is node NODE of A a reference to a function: a DeclRefExpr naming a free
 * function or a function template, or an OverloadedDeclRef (overloads, a
 * dependent name)? */
int pk_ast_func_ref(const struct pk_ast *a, int node);
/* Parse COPY, a variant of T's file, in that file's place alone (its
 * includes followed where found) and read the integer value (>= 0) of the
 * variable declared at each offset AT[i] into VAL[i]; a value already >= 0,
 * or one that does not evaluate, is left. 0, or -1 (message). */
int pk_ast_eval_decls(const struct pk_ast *t, const char *copy, const size_t *at, long *val, size_t n);
/* The inclusions of T's translation unit, as its parse made them (a file
 * the preprocessor did not enter, in a skipped branch or behind a guard, is
 * not one), in the order they were entered. FROM is the index of the
 * including file's record, (size_t)-1 when that is no record (the unit's own
 * file, a header parsed in its includer's unit); SELF marks T's file. SPELLED
 * is the name between the quotes (QUOTED) or the angle brackets of its
 * #include, NULL when a macro spelled it; DEV and INO the file's identity
 * (HAVE_ID 0 for a file only in memory: the stubs). */
struct pk_include {
	size_t from;
	char *spelled;
	int quoted, self, have_id;
	unsigned long long dev, ino;
};
size_t pk_ast_includes(const struct pk_ast *t, struct pk_include **out);
void pk_ast_includes_free(struct pk_include *v, size_t n);
/* Did T's unit parse B's file (by its path) from exactly B's bytes? 1 when
 * it did, or when the unit does not hold the file; 0 when what the parse read
 * differs from what the run read (the file changed between the two). */
int pk_ast_parsed_bytes(const struct pk_ast *t, const struct pk_buf *b);

/* ast_place.c: where a probe part goes. */
enum pk_where { PK_BEFORE, PK_AFTER, PK_BEFORE_CLOSE };

struct pk_anchor {
	enum pk_where where;
	int node;                       /* the statement, or the body CompoundStmt for PK_BEFORE_CLOSE */
	size_t off;                     /* insertion offset: a line start (split: the body's start) */
	int scope;                      /* node whose scope the inserted code lands in */
	int brace;                      /* braceless body that needs braces, or -1 */
	size_t brace_open, brace_close; /* where its '{' and '}' marker lines go */
	int brace_split;                /* the body shares its owner's line: '{' ends it */
	char *brace_indent;             /* the owner's indentation */
	char *body_indent;              /* split: the body's indentation on its new line */
	unsigned line;                  /* original line shown in messages */
	char *indent;                   /* indentation of the inserted lines */
	int in_line;                    /* PK_PLACE_IN_LINE: the statement shares its line with other
	                                 * code; off is its start (before) or its end (after) */
};
/* Flags of the statement anchors: accept a statement sharing its line with
 * other code (the caller writes in-line), which --begin/--end refuse. */
#define PK_PLACE_IN_LINE 1

/* A parsed placement SPEC ("after:TLOAD#2", "line:42", "entry:kernel"). */
enum pk_spec_kind { PK_SPEC_AFTER, PK_SPEC_BEFORE, PK_SPEC_LINE, PK_SPEC_ENTRY, PK_SPEC_EXIT };
struct pk_spec {
	enum pk_spec_kind kind;
	char *name;       /* callee or function */
	unsigned n;       /* CALLEE#n (0: the only one), or the line */
	const char *text; /* as the user wrote it */
};

int pk_spec_parse(struct pk_spec *s, const char *text);
void pk_spec_free(struct pk_spec *s);
/* An anchor on the line after the '{' at OPEN of a body ending at CLOSE
 * (scope: body node BODY, or -1 for a body the AST does not hold). */
int pk_ast_place_brace(struct pk_ast *a, size_t open, size_t close, int body, const char *what, struct pk_anchor *out);
/* The anchor before or after the statement holding call CALL (an index of
 * a->calls): the one placement rule of --begin/--end and --event; a
 * braceless body gets its braces (out->brace). FLAGS: PK_PLACE_*. Returns 0
 * or -1 (message, nothing left allocated in *OUT). */
int pk_ast_place_call(struct pk_ast *a, size_t call, enum pk_where where, int flags, const char *what,
                      struct pk_anchor *out);
/* line:N of SPEC among the statements starting in [FROM, TO) (a function's
 * body): the first one starting on that line, anchored as pk_ast_place_call
 * does. 0, -1 (message), or 1 when no statement there starts on the line
 * (nothing printed). */
int pk_ast_place_line_in(struct pk_ast *a, const struct pk_spec *s, enum pk_where where, int flags, size_t from,
                         size_t to, struct pk_anchor *out);
/* Refuse a place at OFF in code the preprocessor skipped, naming the #if and
 * the flags that select its branch (WHAT: the place as written). -1. */
int pk_ast_refuse_skipped(struct pk_ast *a, size_t off, const char *what);
/* Is NODE inside a lambda within BODY (-1: anywhere above it)? */
int pk_ast_in_lambda(const struct pk_ast *a, int node, int body);
/* Resolve SPEC as the start (is_end 0) or end part into anchors. */
int pk_ast_place(struct pk_ast *a, const struct pk_spec *s, int is_end, struct pk_anchor **out, size_t *nout);
/* One indentation step for code indented by IND (tab, 2 or 4 spaces). */
const char *pk_indent_unit(const char *ind);
/* Free what anchor AN holds (its strings); the array V of N anchors and theirs. */
void pk_anchor_free(struct pk_anchor *an);
void pk_anchors_free(struct pk_anchor *v, size_t n);

/* ast_scope.c */
/* The start variable must be visible at every end: same scope or nested. */
int pk_ast_check_scopes(struct pk_ast *a, const struct pk_anchor *start, const struct pk_anchor *ends, size_t nends);
/* The innermost loop around SCOPE (*loop, -1 if none; *loop_line) and its
 * integer induction variable (malloc'd), or NULL when it has none. */
char *pk_ast_loop_var(struct pk_ast *a, int scope, int *loop, unsigned *loop_line);
/* Code type for the print guard: 0 plain, 1 mixed kernel AIV/shared, 2 mixed AIC. */
int pk_ast_core_kind(struct pk_ast *a, const struct pk_ast_rules *r, int scope);
/* Is namespace NS visible at OFF: named (or kernel_operator.h included)
 * in the main file before OFF, or in a header that is not a parse stub? */
int pk_ast_ns_visible(struct pk_ast *a, const char *ns, size_t off);
/* Is WORD used anywhere in the TU text (main file and every include)? */
int pk_ast_word_used(struct pk_ast *a, const char *word);

/* ast_lint.c: the async-boundary warnings for a probe from START to the ENDS. */
void pk_ast_lint(struct pk_ast *a, const struct pk_ast_rules *r, const char *name, const struct pk_anchor *start,
                 const struct pk_anchor *ends, size_t nends, int wait_probe);

#endif
