/* tt_reads.c - packed args[] reads outside the kernel's body. A kernel hands
 * `args` whole to its helpers (in the same file or in a header it includes
 * with quotes); their literal reads `NAME[k]` and tensor-accessor reads
 * `ACC<T>(NAME, k)`, NAME a parameter declared `int64_t *NAME`, are found on
 * the tokens (templates included: nothing needs instantiating) and every index
 * at or after the timing tensor's is renumbered, as in the kernel. */
#include "tt.h"
#include "pk.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int tok_ident(const struct pk_ast *t, size_t i)
{
	return i < t->ntok && t->tok[i].kind == CXToken_Identifier;
}

static int tok_eq(const struct pk_ast *t, size_t i, const struct pk_ast *u, size_t j)
{
	size_t n = t->tok[i].end - t->tok[i].start;
	return n == u->tok[j].end - u->tok[j].start &&
	       !memcmp(t->b->data + t->tok[i].start, u->b->data + u->tok[j].start, n);
}

/* Is token I a packed parameter's name (the front end's test) then ',' ')'
 * or '='? */
static int packed_decl(const struct pk_ast *t, size_t i)
{
	return pk_tok_packed_name(t, i) &&
	       (pk_tok_is(t, i + 1, ",") || pk_tok_is(t, i + 1, ")") || pk_tok_is(t, i + 1, "="));
}

static int is_packed_name(const struct pk_ast *t, size_t i, const size_t *names, size_t nn)
{
	for (size_t k = 0; k < nn; k++)
		if (tok_eq(t, i, t, names[k]))
			return 1;
	return 0;
}

static long literal(const struct pk_ast *t, size_t i)
{
	if (i >= t->ntok || t->tok[i].kind != CXToken_Literal)
		return -1;
	const char *p = t->b->data + t->tok[i].start, *e = t->b->data + t->tok[i].end;
	if (!isdigit((unsigned char)*p) || (*p == '0' && e - p > 1))
		return -1;
	long v = 0;
	for (; p < e && isdigit((unsigned char)*p); p++)
		v = v * 10 + (*p - '0');
	while (p < e && strchr("uUlL", *p))
		p++;
	return p == e ? v : -1;
}

static void renumber(const struct pk_ast *t, const struct tt_spec *sp, size_t i, long v, struct pk_plan *plan, int *n)
{
	if (v < sp->lay.timing_index)
		return;
	char num[32];
	snprintf(num, sizeof(num), "%ld", v + 1);
	tt_replace_inline(t->b, plan, t->tok[i].start, t->tok[i].end, num);
	(*n)++;
}

/* The function whose body the token is in, at file level: the identifier
 * before the first '(' of the declaration that opened the body. */
struct scope {
	int depth;
	size_t fname; /* token of the function's name, or (size_t)-1 */
	size_t cand;  /* at depth 0: the name before the last '(' seen */
};

static void track(const struct pk_ast *t, size_t i, struct scope *sc)
{
	if (pk_tok_is(t, i, "{")) {
		if (sc->depth++ == 0)
			sc->fname = sc->cand;
	} else if (pk_tok_is(t, i, "}")) {
		if (sc->depth > 0 && --sc->depth == 0) {
			sc->fname = (size_t)-1;
			sc->cand = (size_t)-1;
		}
	} else if (sc->depth == 0 && pk_tok_is(t, i, "(") && i > 0 && tok_ident(t, i - 1) && sc->cand == (size_t)-1) {
		sc->cand = i - 1;
	} else if (sc->depth == 0 && pk_tok_is(t, i, ";")) {
		sc->cand = (size_t)-1;
	}
}

int tt_reads_plan(const struct pk_ast *t, const struct tt_spec *sp, size_t skip_s, size_t skip_e, struct pk_plan *plan)
{
	size_t names[32], nn = 0;
	for (size_t i = 0; i < t->ntok && nn < 32; i++)
		if (packed_decl(t, i) && !is_packed_name(t, i, names, nn))
			names[nn++] = i;
	if (!nn)
		return 0;
	const char *acc = tt_prof(sp, "code", "tensor_accessors");
	struct scope sc = {0, (size_t)-1, (size_t)-1};
	int n = 0;
	for (size_t i = 0; i + 1 < t->ntok; i++) {
		track(t, i, &sc);
		if (t->tok[i].start >= skip_s && t->tok[i].start < skip_e)
			continue;
		if (!tok_ident(t, i) || !is_packed_name(t, i, names, nn) || packed_decl(t, i))
			continue;
		if (pk_tok_is(t, i + 1, "[")) {
			long v = literal(t, i + 2);
			if (v >= 0 && pk_tok_is(t, i + 3, "]")) {
				renumber(t, sp, i + 2, v, plan, &n);
				continue;
			}
			/* an accessor's own body reads args[index]: that is not a slot */
			size_t f = sc.fname;
			int in_acc = f != (size_t)-1 && acc &&
			             pk_word_in(acc, t->b->data + t->tok[f].start, t->tok[f].end - t->tok[f].start);
			if (!in_acc && !tt_prof(sp, "code", "context_accessors"))
				return pk_error("%s:%u: index of '%.*s[...]' is not a decimal literal: it cannot be "
				                "renumbered; write the number",
				                t->b->path, pk_buf_line_of(t->b, t->tok[i].start),
				                (int)(t->tok[i].end - t->tok[i].start), t->b->data + t->tok[i].start);
			if (!in_acc)
				pk_warning("%s:%u: '%.*s[...]' with an index that is not a decimal literal is left "
				           "as it is (a runtime context slot?); check it",
				           t->b->path, pk_buf_line_of(t->b, t->tok[i].start),
				           (int)(t->tok[i].end - t->tok[i].start), t->b->data + t->tok[i].start);
			continue;
		}
		/* ACC(NAME, k) or ACC<T>(NAME, k) */
		if (i >= 2 && pk_tok_is(t, i - 1, "(") && pk_tok_is(t, i + 1, ",") && pk_tok_is(t, i + 3, ")") && acc) {
			size_t c = tt_callee_tok(t, i - 1);
			if (tok_ident(t, c) &&
			    pk_word_in(acc, t->b->data + t->tok[c].start, t->tok[c].end - t->tok[c].start)) {
				long v = literal(t, i + 2);
				if (v >= 0)
					renumber(t, sp, i + 2, v, plan, &n);
			}
		}
	}
	return n;
}

/* ---- the kernel's local headers ---- */

/* The quoted includes of B (named PATH), resolved against PATH's folder,
 * that are regular files, in order: *OUT (malloc'd names); how many. */
static size_t quoted_includes(const struct pk_buf *b, const char *path, char ***out)
{
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path + 1) : 0, n = 0, cap = 0;
	*out = NULL;
	const char *d = b->data, *end = d + b->len;
	for (const char *p = d; p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *q = p + strspn(p, " \t");
		if (q < eol && *q == '#') {
			q++;
			q += strspn(q, " \t");
			const char *o = (size_t)(eol - q) > 9 && !strncmp(q, "include", 7)
			                    ? memchr(q, '"', (size_t)(eol - q))
			                    : NULL;
			const char *c = o ? memchr(o + 1, '"', (size_t)(eol - o - 1)) : NULL;
			struct stat st;
			char *f = o && c && c > o + 1 ? pk_xasprintf("%.*s%.*s", (int)dl, path, (int)(c - o - 1), o + 1)
			                              : NULL;
			if (f && stat(f, &st) == 0 && S_ISREG(st.st_mode)) {
				PK_GROW(*out, cap, n + 1);
				(*out)[n++] = f;
			} else {
				free(f);
			}
		}
		p = eol + 1;
	}
	return n;
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Before loading: the files met so far (by device and inode), the headers
 * among them from index FIRST on. */
struct found {
	char **v;
	dev_t *dev;
	ino_t *ino;
	size_t n, cap, cap_d, cap_i, first;
};

static int met(struct found *f, const char *path, int keep)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return 1; /* not there: whoever names it says so */
	for (size_t i = 0; i < f->n; i++)
		if (f->dev[i] == st.st_dev && f->ino[i] == st.st_ino)
			return 1;
	PK_GROW(f->v, f->cap, f->n + 1);
	PK_GROW(f->dev, f->cap_d, f->n + 1);
	PK_GROW(f->ino, f->cap_i, f->n + 1);
	f->v[f->n] = keep ? pk_xstrdup(path) : NULL;
	f->dev[f->n] = st.st_dev;
	f->ino[f->n++] = st.st_ino;
	return 0;
}

static void discover(struct found *f, const struct pk_buf *b, const char *path, int depth)
{
	if (depth > 4)
		return;
	char **inc;
	size_t n = quoted_includes(b, path, &inc);
	for (size_t i = 0; i < n; i++) {
		struct pk_buf hb;
		char msg[256];
		if (met(f, inc[i], 1))
			continue;
		if (pk_buf_load_msg(&hb, inc[i], 0, msg, sizeof(msg)) == 0) /* failures: the set's load says */
			discover(f, &hb, inc[i], depth + 1);
		pk_buf_free(&hb);
	}
	free_names(inc, n);
}

size_t tt_sides_discover(const char *kernel, const char *const *named, size_t nnamed, char ***paths)
{
	struct found f = {0};
	struct pk_buf kb;
	char msg[256];
	*paths = NULL;
	for (size_t i = 0; i < nnamed; i++)
		met(&f, named[i], 0);
	f.first = f.n;
	if (strcmp(kernel, "-") && pk_buf_load_msg(&kb, kernel, 0, msg, sizeof(msg)) == 0)
		discover(&f, &kb, kernel, 0);
	if (strcmp(kernel, "-"))
		pk_buf_free(&kb);
	size_t n = f.n - f.first;
	if (n) {
		*paths = pk_xcalloc(n, sizeof(char *));
		memcpy(*paths, f.v + f.first, n * sizeof(char *));
	}
	for (size_t i = 0; i < f.first; i++)
		free(f.v[i]);
	free(f.v);
	free(f.dev);
	free(f.ino);
	return n;
}

/* ---- after loading: the renumbering in the headers ---- */

/* Parse side X and plan the renumbering of its args[] reads. */
static int side_plan(struct tt_file *x, const struct tt_spec *sp)
{
	if (tt_parse(&x->t, &x->b, 0, NULL, NULL, 0) < 0)
		return -1;
	x->have_t = 1;
	return tt_reads_plan(&x->t, sp, 0, 0, &x->plan) < 0 ? -1 : 0;
}

/* The headers B (named PATH) includes: each planned once; a file the run
 * has in another role (an --edit file, with its own plan) is left alone;
 * one not found before loading (a kernel read from standard input) joins
 * the set now. */
static int walk(struct tt_files *fs, const struct pk_buf *b, const char *path, const struct tt_spec *sp, int depth)
{
	if (depth > 4)
		return 0;
	char **inc;
	size_t n = quoted_includes(b, path, &inc);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct tt_file *x = tt_files_find(fs, inc[i]);
		if (x && (x->roles != TT_ROLE_SIDE || x->have_t))
			continue;
		int added;
		if (!x)
			x = tt_files_add(fs, inc[i], TT_ROLE_SIDE, &added);
		rc = !x || side_plan(x, sp) < 0 ? -1 : walk(fs, &x->b, inc[i], sp, depth + 1);
	}
	free_names(inc, n);
	return rc;
}

int tt_sides_plan(struct tt_files *fs, const struct pk_ast *kt, const struct tt_spec *sp)
{
	return walk(fs, kt->b, kt->b->path, sp, 0);
}

int tt_sides_add_lane(struct tt_files *fs, const char *path, const struct tt_spec *sp)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return pk_error("%s: the source of a lane sharing the kernel's mixed task cannot be read", path);
	if (tt_files_find(fs, path))
		return 0; /* the kernel's own source, or a file planned already */
	int added;
	struct tt_file *x = tt_files_add(fs, path, TT_ROLE_SIDE, &added);
	if (!x || side_plan(x, sp) < 0)
		return -1;
	if (x->plan.n)
		pk_warning("%s: another lane of the kernel's mixed task, reading the same argument list: its args[] "
		           "reads are renumbered too (the event map lists it: probe-strip of the kernel restores it)",
		           path);
	return 0;
}
