/* tt.h - the timing-tensor injector, inside the libclang module. It reads
 * every file through the front end's model (struct pk_ast, ast.h).
 * Layers: tt_util.c (strings, rules, parsing), tt_files.c (the
 * run's files, each once, with its roles), tt_kernel.c (what the kernel
 * looks like), tt_gen.c (the kernel's edits), tt_host.c (the host side's
 * edits), tt_main.c (the command). Included only by the files of tool/timing/ and
 * tests/test_tt*.c; nothing here includes a clang-c header or calls
 * libclang (tests/sh/style.sh checks it): the front end's queries (ast.h)
 * answer what a file holds. */
#ifndef PK_TT_H
#define PK_TT_H

#include <stddef.h>

#include "ast.h"
#include "buf.h"
#include "edit.h"
#include "names.h"

/* ---- rules/timing.ini: "section.key" -> value ---- */
/* The words of the host dialects the tool looks for, one section of
 * rules/timing.ini each ([simpler], [launch], [pypto], and [device] for the
 * kernel's own marks): pointers into the
 * rules' values, set when they are loaded ("" for a word the rules leave out,
 * which tt_schema.c refuses before a run). A list is blank-separated. */
struct tt_words {
	/* [simpler]: an orchestration of the simpler runtime */
	const char *submit_prefix, *submit_suffix, *dummy_submit, *mixed_submit, *mixed_kernels, *mixed_lanes;
	const char *task_args, *orch_args, *graph_args, *graph_submit;
	const char *add_input, *add_output, *add_inout, *add_scalar;
	const char *tensor_accessor, *scalar_accessor, *arg_count;
	const char *launch_spec, *block_setters, *block_getters, *predicate;
	/* [launch]: the ACL and the CPU simulation's launch macros, the names of
	 * an op's trailing parameters */
	const char *acl_launch, *cpu_launch, *trailing;
	/* [pypto]: a pypto extern */
	const char *py_decorator, *py_tensor, *py_out, *py_inout, *py_core_type, *py_mixed;
	/* [device]: a kernel's marks of its cores (a mixed kernel's macro prefix
	 * and attributes, a cube-only kernel's, the cube's and the vector's
	 * branch tests), pointer type macros, a tensor descriptor's name ending */
	const char *mix_prefix, *mix_marks, *aic_only, *is_aic, *is_aiv, *pointer_types, *tensor_suffix;
};
struct tt_rules {
	char **keys, **vals;
	size_t n, cap;
	struct tt_words w;
};
/* Where each word of struct tt_words is set in the rules (a NULL section
 * ends them); the schema requires each. */
struct tt_word_key {
	const char *section, *key;
	size_t off; /* offsetof(struct tt_words, ...) */
};
extern const struct tt_word_key tt_word_keys[];
/* Is token I of T one of the words of LIST (blank-separated)? */
int tt_tok_in(const struct pk_ast *t, size_t i, const char *list);
/* Is token I of T one of the simpler runtime's tensor adds (add_input,
 * add_output, add_inout)? */
int tt_tensor_add(const struct tt_rules *r, const struct pk_ast *t, size_t i);
int tt_rules_load(struct tt_rules *r);
int tt_rules_parse(struct tt_rules *r, const char *origin, const char *text);
const char *tt_rule(const struct tt_rules *r, const char *section, const char *key);
void tt_rules_free(struct tt_rules *r);
/* tt_schema.c: refuse rules missing a required key (naming ORIGIN, the
 * section and the key); every run checks the rules it loaded. */
int tt_rules_check(const struct tt_rules *r, const char *origin);
/* The lines KEY_1, KEY_2, ... of SECTION joined with newlines (the first
 * missing number ends them); NULL when there is no KEY_1. */
char *tt_rule_lines(const struct tt_rules *r, const char *section, const char *key);
/* TEMPLATE with {name} replaced by the value of NAMES[i] == VALS[i]. */
char *tt_expand(const char *tmpl, const char *const *names, const char *const *vals, size_t n);

/* ---- one file: the front end's model (ast.h), tokens included ---- */
/* Parse B (bytes as held, not as on disk). SEMANTIC: through the front end
 * as probe-inject --begin does (stub headers, BUILD_DIR's
 * compile_commands.json, $ASCEND_HOME_PATH, EXTRA compiler arguments), what
 * it could not see reported; else the file alone (includes skipped). Freed
 * with pk_ast_free; views of included files: pk_ast_view. */
int tt_parse(struct pk_ast *t, struct pk_buf *b, int semantic, const char *build_dir, char **extra, int nextra);
/* The token of the callee of the call whose '(' is token OPEN (template
 * arguments skipped). */
size_t tt_callee_tok(const struct pk_ast *t, size_t open);

/* ---- the kernel ---- */
enum tt_style { TT_EXTERN, TT_DIRECT };
enum tt_core { TT_AIV, TT_AIC, TT_MIX };

struct tt_use { /* one args[k] read (extern style) */
	long index;
	int is_tensor;
	char *name;                /* the variable it initialises, or NULL */
	size_t lit_start, lit_end; /* the literal index */
	unsigned line;
};

struct tt_param { /* one parameter (direct style) */
	size_t start, end;
	int is_tensor;
	char *name;
};

struct tt_return {
	size_t start; /* the 'return' keyword */
	size_t end;   /* just past its ';' */
	int braced;   /* directly inside { } */
};

struct tt_kernel {
	CXCursor cursor;
	enum tt_style style;
	enum tt_core core;
	char *name;
	size_t decl_start;            /* first byte of the declaration (extern "C" included) */
	size_t body_open, body_close; /* offsets of '{' and '}' */
	size_t first_stmt;            /* first statement of the body, or body_close */
	int last_is_return;
	char *args_name; /* extern: the packed parameter */
	struct tt_use *uses;
	size_t nuses, cap_uses;
	struct tt_param *params;
	size_t nparams, cap_params;
	struct tt_return *rets;
	size_t nrets, cap_rets;
	long ntensors; /* tensors come first: indices [0, ntensors) */
	long nscalars;
	char *tensor_type;     /* the type the kernel casts its tensors' args[k] to, or NULL */
	char *tensor_accessor; /* ACC of ACC<T>(args, k) when the kernel reads tensors so, or NULL */
	int passes_args;       /* args handed whole to a function */
	long host_tensors;     /* the tensor count the host says (-1: no host split) */
	long host_scalars;     /* the scalars every task passes (-1: tasks differ, -2: not known) */
};

/* What describing a kernel takes besides its file: the run's words (the
 * device's marks) and how the profile reads tensors. */
struct tt_kctx {
	const struct tt_words *w;
	const char *accessors; /* tensor accessors (blank-separated) reading tensors, or NULL */
	int descriptors;       /* only a cast to a ...Tensor pointer is a tensor (a pointer-valued scalar is not) */
};
/* Find and describe the kernel (NAME or the only candidate) as CX says.
 * -1 on error. */
int tt_kernel_find(struct pk_ast *t, const struct tt_kctx *cx, const char *name, struct tt_kernel *k);
/* Refuse a file whose parse shows a function without its closing '}' (a
 * file cut short inside it): 0, or -1 with the function named. */
int tt_check_terminated(const struct pk_ast *t);
/* How the kernel was parsed, to parse its result the same way: the flags,
 * the profile's tensor accessors and
 * whether only a descriptor cast is a tensor (struct tt_kctx). */
struct tt_kparse {
	const char *build_dir;
	char **extra;
	int nextra;
	const char *accessors;
	int descriptors;
};
/* Read the edited kernel EDITED back with the same front end and check the
 * facts the edit of K must establish (tt_kcheck.c); -1 names the place. */
struct tt_spec;
struct pk_plan;
int tt_kernel_verify(const struct tt_kernel *k, const struct tt_spec *sp, const struct pk_plan *plan,
                     struct pk_buf *edited, const struct tt_kparse *how);
/* Check the tensors-first / scalars-last order and count both. */
int tt_kernel_abi(const struct pk_ast *t, struct tt_kernel *k);
void tt_kernel_free(struct tt_kernel *k);
/* Describe any function (a helper): body, returns; no ABI. W: the run's
 * words. */
int tt_func_describe(struct pk_ast *t, const struct tt_words *w, CXCursor fn, struct tt_kernel *k);
/* Just past the ';' ending the statement that ends at END (expression
 * statements and returns leave it out of their extent). */
size_t tt_past_semicolon(const struct pk_ast *t, size_t end);

/* ---- what to inject ---- */
struct tt_event {
	char *name, *kind, *spec;
	char *func;       /* PLACE@FUNC: the function the place is in (NULL: the kernel) */
	int helper;       /* index among the events placed in helpers, or -1 */
	const char *file; /* the file the sample goes in (for the event map) */
	int column;
	size_t at;   /* where the sample goes */
	size_t stmt; /* start of the statement it is placed against */
	int after;   /* after the statement (else before) */
	/* the statement is a braceless body: braces go around it, as
	 * --begin/--end put them (the front end's placement) */
	int brace;
	size_t brace_open, brace_close; /* the line starts of the '{' and '}' lines */
	char *brace_indent;             /* their indentation (the owner's), malloc'd */
};

/* ---- the files of one run: each once, with every role it plays ----
 * The command line's files are loaded as one set (pk_buf_load_set), so a
 * file named twice, or once more through a link, is one entry; files found
 * later (headers reading packed args, lanes' sources) join through the same
 * identity (device and inode). Each entry has one plan, which every role's
 * planner adds to, and is written once. */
enum tt_role {
	TT_ROLE_KERNEL = 1,  /* the kernel's source */
	TT_ROLE_HOST = 2,    /* --host: a C++ launch, packed array or simpler orchestration */
	TT_ROLE_EXTERN = 4,  /* --host FILE.py[:NAME]: a pypto extern */
	TT_ROLE_TEST = 8,    /* --test-script: simpler's Python test */
	TT_ROLE_EDIT = 16,   /* --edit: a helper file of the kernel's translation unit */
	TT_ROLE_CALLER = 32, /* --edit FILE.py with a pypto extern: a file calling it */
	TT_ROLE_SIDE = 64,   /* found: a header the kernel includes, a lane's source */
};
#define TT_ROLES_PY (TT_ROLE_EXTERN | TT_ROLE_TEST | TT_ROLE_CALLER)

struct tt_file {
	struct pk_buf b;
	struct pk_plan plan; /* the edits of every role it plays */
	unsigned roles;
	struct pk_ast t; /* its parse: the kernel's, its own tokens, or a view of the kernel's */
	int have_t;
	int lane;  /* another lane kernel of the kernel's mixed task (TT_ROLE_SIDE) */
	char *out; /* with -o: where its result goes (NULL: the kernel's output options) */
};

struct tt_files {
	struct tt_file **v;
	size_t n, cap;
	int flags; /* pk_buf_load flags of every file of the run */
};

struct tt_named { /* a file the command line names */
	const char *path;
	unsigned role;
};

/* Read the named files, each once, without locks: FLAGS (kept for
 * tt_files_lock) say how the set is loaded once every file is named. AT[i]
 * gets the entry of NAMED[i]'s file, which holds NAMED[i].role. -1 when any
 * failed (messages printed; AT[i] NULL for those). */
int tt_files_load(struct tt_files *fs, const struct tt_named *named, size_t n, int flags, struct tt_file **at);
/* A file the run needs, found from the named files (a header, a lane):
 * its entry, not read yet (tt_files_lock reads it); the set's entry when it
 * has the file already. ROLE is added to it. */
struct tt_file *tt_files_name(struct tt_files *fs, const char *path, unsigned role);
/* Every file of the set named: with PK_LOAD_FOR_WRITE all are locked in
 * the one order of a set (device, inode), those read already checked
 * unchanged since (by their identity, not read again); the others are read
 * now. 0; 1 when a file read already changed meanwhile (the run starts
 * again); -1 on error (printed). */
int tt_files_lock(struct tt_files *fs);
/* The entry holding PATH's file (the same device and inode), or NULL. */
struct tt_file *tt_files_find(const struct tt_files *fs, const char *path);
/* The name of the first role of ROLES as the command line says it. */
const char *tt_role_name(unsigned roles);
void tt_files_free(struct tt_files *fs);

/* What the user asked for: the options the planners read (the files are
 * the set's, tt_files). */
struct tt_given {
	struct tt_event *ev; /* --event, in row order (placed by the planners) */
	size_t nev;
	const char *kernel_file; /* the kernel as named on the command line */
	const char *host_file;   /* --host's file as named (no :EXTERN), or NULL */
	const char *slots;       /* --slots, or the rows counted from the orchestration, or NULL */
	const char *generation;  /* --generation EXPR (host), or NULL */
	const char *invocation;  /* --invocation EXPR (host): this launch's invocation index */
	const char *invocations; /* --invocations K (host): how many share the matrix */
};

/* The layout the tool derives from the kernel, the host and the rules: the
 * row, the args[] indices, the generated names, the task instances. */
struct tt_layout {
	const char *prefix;   /* "pk_tt_" or a free variant */
	int columns;          /* entry + events + body_done */
	int row_words;        /* 8 per cache line */
	size_t nhelper;       /* events placed in helper functions */
	int timing_index;     /* extern: args[] index of the timing tensor */
	int generation_index; /* extern: args[] index of the generation scalar */
	int row0_index;       /* extern: args[] index of the first-row scalar */
	int task_index;       /* extern: args[] index of the task index scalar */
	/* other kernel ids the test script gives the kernel's own source (one
	 * source built under several ids, as the lanes of a mixed task) */
	long twins[8];
	size_t ntwins;
	/* kernels sharing a mixed task (passing scalars) with the kernel whose
	 * own files are renumbered too (their scalar reads shift alike) */
	long lanes[8];
	size_t nlanes;
	/* several task instances submit the kernel (a simpler orchestration):
	 * each passes its first row (the rows of the tasks before it), slot =
	 * that row + block index */
	int task_rows;
	long tasks;      /* task instances of one run, -1 when the tool cannot count them */
	long lane_rows;  /* rows of one block of a task: 1, or a mixed task's AIC and AIV rows */
	int slots_bound; /* the rows could not be counted: --slots is room for them, used from row 0 */
	int conditional; /* a branch or a predicate chooses whether some tasks run: rows may stay unwritten */
	/* the rows uncounted, in a room of a known number of rows: the kernel's
	 * slot is the run row (blocks, then tasks, from 0), written at row
	 * run_row % slots, and the marker keeps the run row, so a run that
	 * needed more rows than the room is seen, never mixed in unseen */
	int wrap;
	/* a mixed kernel's AIC and AIV lanes own rows of their own: the block
	 * count (AIC rows) of each of its tasks, -1 when not one constant; 0
	 * when the lanes do not (one lane, or no macro telling them apart) */
	long mix_blocks;
	int aic_idle; /* no task runs the mixed kernel on its AIC lane: its rows are AIV rows only */
	/* the row's identity, written after body_done where the profile says
	 * how the kernel reads it: the columns of the task instance, the
	 * core, the block and the lane (TT_ID_*), -1 for one not written */
	int identity[4];
	int nidentity;
};
enum { TT_ID_TASK, TT_ID_CORE, TT_ID_BLOCK, TT_ID_LANE };

/* What every planner reads: the options, the layout, and the rules they are
 * planned by. */
struct tt_spec {
	struct tt_given opt;
	struct tt_layout lay;
	const struct tt_rules *rules;
	const struct pk_namelist *async_issue; /* rules/async.ini: calls that only issue work */
	const char *target;                    /* the profile's section ("target.simpler"), or NULL */
	int slot_in_body;                      /* the profile reads the slot in the kernel body */
	const struct pk_api *api;              /* rules/api.ini: the kernel kind's spellings */
};

/* tt_path.c: the device cycle read of the kernel's kind, qualified (malloc'd); a kind
 * with a simulation read (sim_macro) reads sim_cycle under that macro. */
char *tt_cycle_read(const struct tt_spec *sp);
/* A profile's setting: [target.X] KEY, else [SECTION] KEY of the defaults. */
const char *tt_prof(const struct tt_spec *sp, const char *section, const char *key);
/* The profile KERNEL or HOST (NULL: none) includes (a [target.X] section's detect), or NULL. */
const char *tt_detect_target(const struct tt_rules *r, const struct pk_buf *kernel, const struct pk_buf *host,
                             char *buf, size_t cap);

/* tt_reads.c: packed args[] reads outside the kernel's body (helpers in the
 * kernel file, headers it includes with quotes): every literal index at or
 * after the timing tensor's is renumbered there too. */
/* Before the set is loaded: the headers the kernel includes with quotes,
 * from its parse's inclusions, named in FS as TT_ROLE_SIDE (none the set has
 * already). How many. */
size_t tt_sides_name(struct tt_files *fs, const struct pk_ast *kt);
/* Before the set is loaded: another lane kernel of the kernel's mixed
 * tasks (PATH), named in FS; *LANE its entry, NULL when the set has the
 * file in another role already. -1 when it cannot be read (message). */
int tt_sides_name_lane(struct tt_files *fs, const char *path, struct tt_file **lane);
/* Once loaded: lane X's packed reads at or after the timing tensor's index
 * renumbered like the kernel's. */
int tt_sides_plan_lane(struct tt_file *x, const struct tt_spec *sp);
/* Plan the renumbering of packed reads in the headers the kernel includes
 * (those the set holds as headers only). */
int tt_sides_plan(struct tt_files *fs, const struct tt_spec *sp);
/* Plan the renumbering in file T (kernel: skip [skip_s, skip_e)). Returns the
 * number of reads renumbered, -1 on error. */
int tt_reads_plan(const struct pk_ast *t, const struct tt_spec *sp, size_t skip_s, size_t skip_e, struct pk_plan *plan);

/* tt_path.c: events inside helpers. The call paths kernel -> ... -> FUNC of
 * every helper event, the pointer to the kernel's event array threaded down
 * them, the samples in the helpers. -1 on error (message printed). */
int tt_path_plan(struct pk_ast *t, struct tt_kernel *k, struct tt_spec *sp, const struct tt_files *fs,
                 struct pk_plan *plan);
/* Place event EV in function K of file T (after:/before:/line:), by the
 * front end's placement (that of --begin/--end). */
int tt_place_event(struct pk_ast *t, const struct tt_kernel *k, struct tt_event *ev);
/* Write the sample CODE of event I of SP (placed) into PLAN of B, with the
 * braces of its braceless body (once per body among SP's events). */
void tt_event_write(const struct pk_buf *b, struct pk_plan *plan, const struct tt_spec *sp, size_t i, const char *code,
                    const char *label);
/* Warn about a completion event placed right after an asynchronous issue. */
void tt_lint_event(const struct pk_ast *t, const struct tt_spec *sp, const struct tt_event *ev);

/* Plan every kernel edit (FS: the --edit files events in helpers may reach).
 * -1 on error (message printed). */
int tt_gen_kernel(struct pk_ast *t, struct tt_kernel *k, struct tt_spec *sp, const struct tt_files *fs,
                  struct pk_plan *plan);
/* Plan the host edits (orchestration or packed array). */
/* Direct style: the position of the added parameter (after the last tensor,
 * before the trailing parameters of [launch] trailing: workspace, tiling). */
long tt_direct_at(const struct tt_kernel *k, const struct tt_words *w);
int tt_gen_host(struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp, struct pk_plan *plan);
/* tt_pytok.c: Python's tokens (refusing, with the line, what it cannot read). */
enum { PYT_NAME = 1, PYT_NUMBER, PYT_STRING, PYT_OP, PYT_NEWLINE, PYT_INDENT, PYT_DEDENT };
enum { PYT_LINE_STR = 1, PYT_LINE_CONT = 2, PYT_LINE_BRK = 4 }; /* a physical line ends inside a string, ... */
struct pyt_tok {
	int kind;
	size_t s, e;  /* bytes (INDENT: the indentation; NEWLINE, DEDENT: empty) */
	size_t line;  /* 0-based physical line of s */
	size_t match; /* a bracket's partner token, else (size_t)-1 */
	int depth;    /* brackets open around it (a bracket: outside itself) */
	int level;    /* blocks open around it (0: module level) */
};
struct pyt {
	const struct pk_buf *b;
	struct pyt_tok *t;
	size_t n, cap;
	size_t *ls;        /* physical line starts */
	unsigned char *lf; /* physical line end flags (PYT_LINE_*) */
	size_t nl;
	size_t *stmt; /* per token: the first token of its logical line (one pass, so callers stay linear) */
};
int pyt_scan(struct pyt *p, const struct pk_buf *b);
/* tt_script.c: the test scripts ([test_script] script_prefix / _suffix)
 * nearest the orchestration HOST (its folder, then up to script_levels
 * above) naming its file in a string; *OUT their paths (malloc'd). */
size_t tt_scripts_naming(const struct tt_rules *r, const char *host, char ***out);
void pyt_free(struct pyt *p);
int pyt_is(const struct pyt *p, size_t i, int kind, const char *text); /* text NULL: any */
int pyt_string_is(const struct pyt *p, size_t i, const char *text);    /* a plain "TEXT" or 'TEXT' */
size_t pyt_line_end(const struct pyt *p, size_t line);                 /* before its newline */
size_t pyt_line_of(const struct pyt *p, size_t pos);
/* The first token of the logical line holding token I. */
size_t pyt_stmt(const struct pyt *p, size_t i);
/* tt_py.c: the Python sides. The tensor count of extern NAME (NULL: the only
 * one); *MIXED: it is declared core_type="mixed" (built for AIC and AIV lanes). */
long tt_py_extern_tensors(const struct pk_buf *b, const struct tt_rules *r, const char *name, int *mixed);
/* The extern's edits in B, and its calls in FS's caller files. */
int tt_py_plan_extern(const struct pk_buf *b, const char *name, const struct tt_spec *sp, const struct tt_files *fs,
                      struct pk_plan *plan);
/* The kernel's func_id: ID when >= 0, else the test script's incore whose
 * source is KERNEL's file, or -1. Unless *NTWINS is set already, the other
 * ids (up to CAP) whose incores have the same source go to TWINS. One read
 * of the script; -2 when it cannot be read (refused, message printed). */
/* The script's test class is the one whose orchestration's source is HOST
 * (NULL: none given) and whose incores build KERNEL (the most trailing path
 * components shared); its incores are the ones read. CORE (CORECAP bytes)
 * gets the kernel's incore's "core_type" ("" when it says none). */
long tt_py_test_func_id(const struct pk_buf *b, const struct tt_rules *r, const char *kernel, const char *host, long id,
                        long *twins, size_t cap, size_t *ntwins, char *core, size_t corecap);
/* The "source" of incore ID of the script's test class (malloc'd), or NULL. */
char *tt_py_incore_source(const struct pk_buf *b, const struct tt_rules *r, const char *kernel, const char *host,
                          long id);
/* Tokens the test script's planning visited so far (a test's work counter). */
size_t tt_py_work(void);
int tt_py_plan_test(const struct pk_buf *b, const struct tt_kernel *k, const struct tt_spec *sp, long func_id,
                    long external, struct pk_plan *plan);
/* tt_orch.c: a simpler orchestration (rt_submit_*_task). */
int tt_orch_is(const struct pk_ast *t, const struct tt_rules *r);
/* The tensors the tasks submitting FUNC_ID (-1: the only kernel) pass; -1 on error. */
long tt_orch_tensors(struct pk_ast *t, const struct tt_rules *r, long func_id, long *scalars);
/* tt_ids.c: kernel ids and functions of a simpler orchestration. An id
 * expression: tokens [S, E), its probe declaration put at byte ANCHOR (the
 * start of a statement in its scope); VALUE its value, -1 when not constant. */
struct tt_idexpr {
	size_t s, e, anchor;
	long value;
};
/* Evaluate every expression (one more parse of a copy of T's file). */
int tt_ids_eval(const struct pk_ast *t, const struct tt_rules *r, struct tt_idexpr *x, size_t n);
/* The first byte of the statement holding token I. */
size_t tt_ids_stmt_start(const struct pk_ast *t, size_t i);
#define TT_FN_PARAMS 24
struct tt_param_at {
	size_t first, name; /* tokens: the parameter's first, its name */
};
struct tt_fn { /* a function defined in the file (tokens) */
	size_t name, lparen, rparen, open, close;
	struct tt_param_at params[TT_FN_PARAMS];
	size_t nparams;
	int orch_param; /* the parameter of type ORCH_ARGS ([simpler] orch_args), or -1 */
};
size_t tt_fns_find(const struct pk_ast *t, const char *orch_args, struct tt_fn **out);
const struct tt_fn *tt_fn_holding(const struct tt_fn *f, size_t n, size_t tok);
/* Which parameter of F the expression [S, E) is (a lone identifier), or -1. */
int tt_fn_param_of(const struct pk_ast *t, const struct tt_fn *f, size_t s, size_t e);
/* The task instances that run the kernel in one orchestration run: submit
 * statements times the trip counts of the loops around them (constant
 * bounds only), each with its block count (launch_spec.set_block_num, 1 by
 * default). */
struct tt_tasks {
	long id;            /* the kernel id the tasks submit */
	long tasks;         /* -1: a loop's trip count or a block count is not a constant */
	long blocks;        /* blocks of each task, -1 unknown or differing */
	int sites;          /* submit statements */
	int in_loop;        /* some submit sits in a loop */
	int via_helper;     /* some submit is made by a helper function the orchestration calls */
	unsigned loop_line; /* the first loop whose count is not a constant (0: none) */
	int lanes;          /* most lanes of one task running the kernel (2, 3: a mixed task's) */
	int on_aic;         /* some mixed task runs the kernel on its AIC lane too */
	long block_runs;    /* blocks of all tasks of one run (the rows they own), -1 unknown */
	int conditional;    /* an if, switch or ?: chooses whether some submit runs: the counts are at most */
	int graph;          /* some submit is in a graph function (rt_submit_graph): replays get rows by call */
	char lines[96];     /* the submits' lines, "38, 48" */
};
int tt_orch_tasks(struct pk_ast *t, const struct tt_spec *sp, long func_id, struct tt_tasks *out);
/* The host's adds of the generation id and the first row (--generation,
 * --invocation: scalars after every other), one line each from the [host]
 * template KEY ({recv} and {value}); NULL when the spec has neither. */
char *tt_host_extra_scalar_adds(const struct tt_spec *sp, const char *recv, const char *key);
/* The kernels sharing a mixed task that passes scalars with FUNC_ID (up to
 * CAP ids in IDS); -1 on error. */
long tt_orch_lane_ids(struct pk_ast *t, const struct tt_spec *sp, long func_id, long *ids, size_t cap);
/* The external timing tensor, its add to every such task, the arg count; *EXTERNAL gets K. */
int tt_orch_plan(struct pk_ast *t, const struct tt_kernel *k, const struct tt_spec *sp, long func_id, long *external,
                 struct pk_plan *plan);
/* Read back: the orchestration T as PLAN leaves it, parsed again; every
 * task submitting the kernel passes the timing tensor last, at the
 * kernel's index, and expected_arg_count grew by one. -1 (named) if not. */
int tt_orch_verify(const struct pk_ast *t, const struct pk_plan *plan, const struct tt_kernel *k,
                   const struct tt_spec *sp, long func_id);
/* The sidecar JSON probe-report reads with --events. */
/* The event map; FILES (from the kernel's folder) the run's other changed files. */
char *tt_sidecar_json(const struct tt_kernel *k, const struct tt_spec *sp, const char *const *files, size_t nfiles,
                      size_t *len);

/* Insertion helpers shared by tt_gen.c and tt_host.c: whole marked lines when
 * OFF starts its line (or, AFTER, when the rest of the line is blank or a
 * comment; indented like the line of STMT), else an in-line mark. LINES are '\n'-separated code lines. */
void tt_insert_before(const struct pk_buf *b, struct pk_plan *plan, size_t off, const char *lines, const char *label);
void tt_insert_after(const struct pk_buf *b, struct pk_plan *plan, size_t off, size_t stmt, const char *lines,
                     const char *label);
void tt_insert_inline(struct pk_plan *plan, size_t off, const char *text);
void tt_replace_inline(const struct pk_buf *b, struct pk_plan *plan, size_t start, size_t end, const char *text);

#endif
