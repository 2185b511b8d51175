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

/* The headers the kernel includes with quotes, named from the kernel's
 * parse (its unit's inclusions) before the set is loaded: a file counts
 * when its #include spells it in quotes and the name, taken in the
 * including file's folder, is that file (the quoted form's own rule), at
 * most five includes down from the kernel, reached through headers only
 * (not through a file the command line names, which plays its own role),
 * and inside the kernel's work tree: a repository's include never makes
 * the tool touch a file outside it (a warning names it). */
size_t tt_sides_name(struct tt_files *fs, const struct pk_ast *kt)
{
	struct pk_include *inc;
	size_t n = pk_ast_includes(kt, &inc), found = 0;
	char **name = pk_xcalloc(n + 1, sizeof(*name)); /* how the run names each record's file */
	int *depth = pk_xcalloc(n + 1, sizeof(*depth));
	char *bound = pk_work_tree(kt->b->from_stdin ? "." : kt->b->path);
	for (size_t i = 0; i < n; i++) {
		if (inc[i].self) {
			name[i] = pk_xstrdup(kt->b->from_stdin ? "" : kt->b->path);
			continue;
		}
		size_t f = inc[i].from;
		if (f == (size_t)-1 || !name[f] || !inc[i].quoted || !inc[i].spelled || !inc[i].have_id ||
		    depth[f] >= 5)
			continue;
		const char *slash = strrchr(name[f], '/');
		char *path = pk_xasprintf("%.*s%s", slash ? (int)(slash - name[f] + 1) : 0, name[f], inc[i].spelled);
		struct stat st;
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || (unsigned long long)st.st_dev != inc[i].dev ||
		    (unsigned long long)st.st_ino != inc[i].ino || tt_files_find(fs, path)) {
			free(path); /* another file of that name, or one the set has already */
			continue;
		}
		if (!bound || !pk_path_within(path, bound)) {
			pk_warning("%s: included with quotes, is outside the work tree %s: its args[] reads are not "
			           "renumbered (the tool changes no file outside it); check them",
			           path, bound ? bound : "?");
			free(path);
			continue;
		}
		tt_files_name(fs, path, TT_ROLE_SIDE);
		name[i] = path;
		depth[i] = depth[f] + 1;
		found++;
	}
	for (size_t i = 0; i < n; i++)
		free(name[i]);
	free(name);
	free(depth);
	free(bound);
	pk_ast_includes_free(inc, n);
	return found;
}

/* ---- after loading: the renumbering in the headers and lanes ---- */

/* Parse side X and plan the renumbering of its args[] reads. */
static int side_plan(struct tt_file *x, const struct tt_spec *sp)
{
	if (tt_parse(&x->t, &x->b, 0, NULL, NULL, 0) < 0)
		return -1;
	x->have_t = 1;
	return tt_reads_plan(&x->t, sp, 0, 0, &x->plan) < 0 ? -1 : 0;
}

/* Each header the set holds as a header only (not a lane) planned once. */
int tt_sides_plan(struct tt_files *fs, const struct tt_spec *sp)
{
	for (size_t i = 0; i < fs->n; i++) {
		struct tt_file *x = fs->v[i];
		if (x->roles == TT_ROLE_SIDE && !x->lane && !x->have_t && side_plan(x, sp) < 0)
			return -1;
	}
	return 0;
}

int tt_sides_name_lane(struct tt_files *fs, const char *path, struct tt_file **lane)
{
	struct stat st;
	*lane = NULL;
	if (stat(path, &st) < 0)
		return pk_error("%s: the source of a lane sharing the kernel's mixed task cannot be read", path);
	if (tt_files_find(fs, path))
		return 0; /* the kernel's own source, or a file the set has already */
	*lane = tt_files_name(fs, path, TT_ROLE_SIDE);
	(*lane)->lane = 1;
	return 0;
}

int tt_sides_plan_lane(struct tt_file *x, const struct tt_spec *sp)
{
	if (side_plan(x, sp) < 0)
		return -1;
	if (x->plan.n)
		pk_warning("%s: another lane of the kernel's mixed task, reading the same argument list: its args[] "
		           "reads are renumbered too (the event map lists it: probe-strip of the kernel restores it)",
		           x->b.path);
	return 0;
}
