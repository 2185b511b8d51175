/* tt_reads.c - packed args[] reads outside the kernel's body. A kernel hands
 * `args` whole to its helpers (in the same file or in a header it includes
 * with quotes); their literal reads `NAME[k]` and tensor-accessor reads
 * `ACC<T>(NAME, k)`, NAME a parameter declared `int64_t *NAME`, are found on
 * the tokens (templates included: nothing needs instantiating) and every index
 * at or after the timing tensor's is renumbered, as in the kernel. */
#include "tt.h"
#include "pk.h"

#include <ctype.h>
#include <limits.h>
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

/* Is token I a packed parameter's name: `int64_t * NAME` then ',' ')' or '='? */
static int packed_decl(const struct pk_ast *t, size_t i)
{
	return i >= 2 && tok_ident(t, i) && pk_tok_is(t, i - 1, "*") && pk_tok_is(t, i - 2, "int64_t") &&
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
	if (v < sp->timing_index)
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

static int known(const struct tt_sides *s, const char *real)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].path, real))
			return 1;
	return 0;
}

static int add_side(struct tt_sides *s, const char *path, int for_write, const struct tt_spec *sp);

/* Every `#include "X"` of B resolved against B's directory. */
static int scan_includes(struct tt_sides *s, const struct pk_buf *b, const char *path, int for_write,
                         const struct tt_spec *sp, int depth)
{
	if (depth > 4)
		return 0;
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path + 1) : 0;
	const char *d = b->data, *end = d + b->len;
	for (const char *p = d; p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *q = p + strspn(p, " \t");
		if (q < eol && *q == '#') {
			q++;
			q += strspn(q, " \t");
			if ((size_t)(eol - q) > 9 && !strncmp(q, "include", 7)) {
				const char *o = memchr(q, '"', (size_t)(eol - q));
				const char *c = o ? memchr(o + 1, '"', (size_t)(eol - o - 1)) : NULL;
				if (o && c && c > o + 1) {
					struct pk_sb f = {0};
					pk_sb_addn(&f, path, dl);
					pk_sb_addn(&f, o + 1, (size_t)(c - o - 1));
					char real[PATH_MAX];
					struct stat st;
					size_t before = s->n;
					if (stat(f.s, &st) == 0 && S_ISREG(st.st_mode) && realpath(f.s, real) &&
					    !known(s, real)) {
						if (add_side(s, f.s, for_write, sp) < 0) {
							pk_sb_free(&f);
							return -1;
						}
						if (s->n > before && scan_includes(s, &s->v[s->n - 1].b, f.s, for_write,
						                                   sp, depth + 1) < 0) {
							pk_sb_free(&f);
							return -1;
						}
					}
					pk_sb_free(&f);
				}
			}
		}
		p = eol + 1;
	}
	return 0;
}

static int add_side(struct tt_sides *s, const char *path, int for_write, const struct tt_spec *sp)
{
	for (size_t i = 0; i < sp->nextra; i++) { /* --edit files have their own plan */
		char a[PATH_MAX], b[PATH_MAX];
		if (realpath(path, a) && realpath(sp->extra[i].path, b) && !strcmp(a, b))
			return 0;
	}
	PK_GROW(s->v, s->cap, s->n + 1);
	struct tt_side *x = &s->v[s->n];
	memset(x, 0, sizeof(*x));
	char real[PATH_MAX];
	x->path = pk_xstrdup(realpath(path, real) ? real : path);
	pk_plan_init(&x->plan);
	s->n++;
	if (pk_buf_load(&x->b, path, for_write ? PK_LOAD_FOR_WRITE : 0) < 0) {
		pk_buf_free(&x->b);
		return -1;
	}
	x->have_b = 1;
	return 0;
}

/* Parse side X and plan the renumbering of its args[] reads. */
static int side_plan(struct tt_side *x, const struct tt_spec *sp)
{
	if (tt_parse(&x->t, &x->b, 0, NULL, NULL, 0) < 0)
		return -1;
	x->have_t = 1;
	int n = tt_reads_plan(&x->t, sp, 0, 0, &x->plan);
	if (n < 0)
		return -1;
	x->edited = n > 0;
	return 0;
}

int tt_sides_find(struct tt_sides *s, const struct pk_ast *kt, const struct tt_spec *sp, int for_write)
{
	if (scan_includes(s, kt->b, kt->b->path, for_write, sp, 0) < 0)
		return -1;
	for (size_t i = 0; i < s->n; i++)
		if (side_plan(&s->v[i], sp) < 0)
			return -1;
	return 0;
}

int tt_sides_add_lane(struct tt_sides *s, const char *path, const struct tt_spec *sp, int for_write)
{
	char real[PATH_MAX];
	if (!realpath(path, real))
		return pk_error("%s: the source of a lane sharing the kernel's mixed task cannot be read", path);
	if (known(s, real))
		return 0;
	size_t before = s->n;
	if (add_side(s, path, for_write, sp) < 0)
		return -1;
	if (s->n == before)
		return 0;
	return side_plan(&s->v[s->n - 1], sp);
}

void tt_sides_free(struct tt_sides *s)
{
	for (size_t i = 0; i < s->n; i++) {
		if (s->v[i].have_t)
			pk_ast_free(&s->v[i].t);
		pk_plan_free(&s->v[i].plan);
		if (s->v[i].have_b)
			pk_buf_free(&s->v[i].b);
		free(s->v[i].path);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}
