/* tt_kcheck.c - the kernel's result read back. The edited kernel is parsed
 * again by the same front end (tt_parse, the kernel reader of tt_kernel.c)
 * and the facts the edit must establish are checked on that parse, not on
 * the plan: the kernel is still found, with one tensor more; the timing
 * tensor is read as a tensor at its index on the tool's own lines; every
 * other packed read is the original one, shifted by one at or after that
 * index; the identity words are read; and the tail runs before every exit.
 * A fact that does not hold is refused, naming the place: nothing is written. */
#include "tt.h"
#include "pk.h"
#include "names.h"

#include <stdlib.h>
#include <string.h>

/* Is result offset X inside text PLAN (sorted, as checked) inserted, as
 * opposed to an original byte or a replacement (a renumbered index)? */
static int in_inserted(const struct pk_plan *p, size_t x)
{
	size_t no = 0, oo = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct pk_edit *e = &p->e[i];
		size_t keep = e->start - oo;
		if (x < no + keep)
			return 0;
		no += keep;
		if (x < no + e->text_len)
			return e->start == e->end;
		no += e->text_len;
		oo = e->end;
	}
	return 0;
}

/* Extern style: the original reads, each shifted past the timing tensor,
 * in order, and the tensor read on an inserted line. */
static int check_uses(struct pk_ast *q, const struct tt_kernel *k, const struct tt_kernel *nk,
                      const struct pk_plan *plan, size_t open, size_t close, const struct tt_spec *sp)
{
	const char *path = q->b->path;
	long at = sp->lay.timing_index;
	size_t o = 0;
	for (size_t i = 0; i < nk->nuses; i++) {
		const struct tt_use *u = &nk->uses[i];
		if (in_inserted(plan, u->lit_start))
			continue;
		if (o == k->nuses)
			return pk_error(
			    "%s: read back, line %u of the result reads %s[%ld], which the original does not: "
			    "nothing was written",
			    path, u->line, nk->args_name, u->index);
		long want = k->uses[o].index < at ? k->uses[o].index : k->uses[o].index + 1;
		if (u->index != want)
			return pk_error(
			    "%s:%u: read back, the result reads %s[%ld] here (line %u of the result), but the timing "
			    "tensor at %s[%ld] makes the original %s[%ld] %s[%ld]: nothing was written",
			    path, k->uses[o].line, nk->args_name, u->index, u->line, nk->args_name, at, k->args_name,
			    k->uses[o].index, nk->args_name, want);
		o++;
	}
	if (o < k->nuses)
		return pk_error("%s:%u: read back, the original's read %s[%ld] is gone from the edited kernel: nothing "
		                "was written",
		                path, k->uses[o].line, k->args_name, k->uses[o].index);
	/* the tensor read, on the tool's own line: ARGS [ K ] on the tokens (a
	 * parse that cannot resolve the descriptor type drops the expression) */
	char idx[24];
	snprintf(idx, sizeof(idx), "%ld", at);
	for (size_t t = pk_tok_at(q, open); t + 3 < q->ntok && q->tok[t].start < close; t++)
		if (pk_tok_is(q, t, nk->args_name) && in_inserted(plan, q->tok[t].start) &&
		    ((pk_tok_is(q, t + 1, "[") && pk_tok_is(q, t + 2, idx) && pk_tok_is(q, t + 3, "]")) ||
		     (pk_tok_is(q, t + 1, ",") && pk_tok_is(q, t + 2, idx)))) /* args[K], or an accessor's (args, K) */
			return 0;
	return pk_error("%s: read back, the edited kernel does not read the timing tensor at %s[%ld] on a line of "
	                "the tool: nothing was written",
	                path, nk->args_name, at);
}

/* Direct style: the timing tensor is the parameter after the last tensor. */
static int check_params(struct pk_ast *q, const struct tt_kernel *k, const struct tt_kernel *nk,
                        const struct tt_spec *sp)
{
	long at = k->ntensors > 0 ? tt_direct_at(k, &sp->rules->w) : 0;
	char *want = pk_xasprintf("%s%s", sp->lay.prefix, PK_NAME_TIMING_TIMING);
	int ok = at < (long)nk->nparams && nk->params[at].name && !strcmp(nk->params[at].name, want);
	int rc = ok ? 0
	            : pk_error("%s: read back, parameter %ld of the edited kernel '%s' is not %s: nothing was written",
	                       q->b->path, at + 1, nk->name, want);
	free(want);
	return rc;
}

/* The statement before token I (a 'return' or the body's '}') calls the tail. */
static int tail_before(const struct pk_ast *q, size_t i, const char *tail)
{
	if (i == 0 || !pk_tok_is(q, i - 1, ";"))
		return 0;
	size_t f = pk_tok_stmt_first(q, i - 1);
	while (f + 1 < i && (q->tok[f].flags & (PK_TOK_DIRECTIVE | PK_TOK_INACTIVE))) /* #endif lines between */
		f++;
	return f < q->ntok && pk_tok_is(q, f, tail);
}

/* Where original offset OLD lands in the result of PLAN (text inserted at
 * OLD itself comes before it). */
static size_t map_off(const struct pk_plan *p, size_t old)
{
	long d = 0;
	for (size_t i = 0; i < p->n; i++)
		if (p->e[i].end <= old)
			d += (long)p->e[i].text_len - (long)(p->e[i].end - p->e[i].start);
	return (size_t)((long)old + d);
}

/* Every exit of the original kernel, where it lands in the result, is
 * preceded by the tail call. */
static int check_exits(struct pk_ast *q, const struct tt_kernel *k, const struct pk_plan *plan,
                       const struct tt_spec *sp)
{
	char *tail = pk_xasprintf("%s%s", sp->lay.prefix, PK_NAME_TIMING_TAIL);
	int rc = 0;
	for (size_t r = 0; r < k->nrets && rc == 0; r++) {
		size_t at = map_off(plan, k->rets[r].start);
		if (!tail_before(q, pk_tok_at(q, at), tail))
			rc = pk_error("%s: read back, the return at line %u of the result is not preceded by %s(...): "
			              "nothing was written",
			              q->b->path, pk_ast_line(q, at), tail);
	}
	size_t close = map_off(plan, k->body_close);
	if (rc == 0 && !k->last_is_return && !tail_before(q, pk_tok_at(q, close), tail))
		rc = pk_error("%s: read back, the kernel's closing brace (line %u of the result) is not preceded by "
		              "%s(...): nothing was written",
		              q->b->path, pk_ast_line(q, close), tail);
	free(tail);
	return rc;
}

/* The identity words the map names are read in the edited body. */
static int check_identity(struct pk_ast *q, const struct tt_kernel *nk, size_t open, size_t close,
                          const struct tt_spec *sp)
{
	static const char *const ids[] = {"task", "core", "block", "lane"};
	for (int i = 0; i < 4; i++) {
		if (sp->lay.identity[i] < 0)
			continue;
		char *name = pk_xasprintf("%s" PK_NAME_TIMING_IDENTITY "%s", sp->lay.prefix, ids[i]);
		size_t t = pk_tok_at(q, open);
		while (t < q->ntok && q->tok[t].start < close && !pk_tok_is(q, t, name))
			t++;
		int found = t < q->ntok && q->tok[t].start < close;
		int rc = found ? 0
		               : pk_error("%s: read back, the edited kernel '%s' does not read its identity word %s "
		                          "(column %d of the map): nothing was written",
		                          q->b->path, nk->name, name, sp->lay.identity[i]);
		free(name);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* The tool's own code reads the runtime's context at a named index
 * (args[SPMD_LOCAL_CONTEXT_INDEX] for the row's identity), which the kernel
 * reader refuses in a kernel's own code: in the text parsed for the check,
 * such a read inside inserted text becomes a 0 of the same length (offsets
 * and lines kept). ARGS is the packed parameter's name. */
static void mask_named_reads(char *text, size_t len, const struct pk_plan *p, const char *args)
{
	size_t al = strlen(args), no = 0, oo = 0;
	for (size_t k = 0; k < p->n; k++) {
		const struct pk_edit *e = &p->e[k];
		no += e->start - oo;
		size_t from = no, to = no + e->text_len < len ? no + e->text_len : len;
		no += e->text_len;
		oo = e->end;
		if (e->start != e->end)
			continue;
		for (size_t i = from; i + al + 2 < to; i++) {
			if (memcmp(text + i, args, al) || text[i + al] != '[' ||
			    (text[i + al + 1] >= '0' && text[i + al + 1] <= '9'))
				continue;
			char *close = memchr(text + i, ']', to - i);
			if (!close)
				break;
			memset(text + i, ' ', (size_t)(close - (text + i)) + 1);
			text[i] = '0';
		}
	}
}

int tt_kernel_verify(const struct tt_kernel *k, const struct tt_spec *sp, const struct pk_plan *plan,
                     struct pk_buf *edited, const struct tt_kparse *how)
{
	/* the kernel's body in the result: the original's, through the plan */
	size_t open = map_off(plan, k->body_open), close = map_off(plan, k->body_close);
	struct pk_ast q;
	memset(&q, 0, sizeof(q));
	struct tt_kernel nk;
	memset(&nk, 0, sizeof(nk));
	/* parsed as the kernel was, quietly (its unseen places were reported):
	 * the generated lines use the runtime's API, which stub headers need not
	 * declare, so a parse error is no finding here; the facts below are */
	if (k->style == TT_EXTERN && k->args_name)
		mask_named_reads(edited->data, edited->len, plan, k->args_name);
	struct pk_parse_opts po = {how->build_dir, how->extra, how->nextra, NULL};
	struct tt_kctx cx = {&sp->rules->w, how->accessors, how->descriptors};
	int rc = pk_ast_parse(&q, edited, &po);
	if (rc == 0 && tt_kernel_find(&q, &cx, k->name, &nk) < 0)
		rc = pk_error("%s: read back, the edited kernel '%s' is not found as the original was: nothing was "
		              "written",
		              edited->path, k->name);
	if (rc == 0 && k->style != nk.style)
		rc = pk_error("%s: read back, the edited kernel's argument style changed: nothing was written",
		              edited->path);
	if (rc == 0)
		rc = k->style == TT_EXTERN ? check_uses(&q, k, &nk, plan, open, close, sp)
		                           : check_params(&q, k, &nk, sp);
	if (rc == 0)
		rc = check_exits(&q, k, plan, sp);
	if (rc == 0)
		rc = check_identity(&q, &nk, open, close, sp);
	tt_kernel_free(&nk);
	pk_ast_free(&q);
	return rc;
}
