/* tt_py.c - the Python sides of the timing tensor, edited by Python's own
 * structure (tt_pytok.c's tokens: brackets, strings, logical lines, blocks):
 *  - a pypto `@pl.jit.extern` signature gains `PREFIXtiming: pl.Out[pl.Tensor]`
 *    after its last tensor parameter; every call of that extern passes a
 *    tensor made above the call's statement (an extern argument must be a
 *    bound variable);
 *  - a simpler test script: the golden TensorArg (zeros) after the last one,
 *    D.OUT in the orchestration's and the kernel's signature (at the index
 *    the kernel reads), and a compare_outputs that saves the ACTUAL tensor
 *    and leaves it out of the numeric comparison only.
 * The text comes from rules/timing.ini [python]. Python has no in-line
 * comment: an added line ends with `# TIMING_PROBE: @timing LABEL`, a
 * changed line with `# TIMING_PROBE: @timing-line "ORIGINAL"` (probe-strip
 * puts ORIGINAL back), so a line is changed only where a comment may end it
 * (not inside a string, not before a backslash continuation). A file the
 * tokens cannot read, and an edit whose result they could not read, are
 * refused. */
#include "tt.h"
#include "pk.h"
#include "timing_strip.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- edits by tokens ---- */

/* Tokens visited by the test script's planning and read-back (a test reads
 * it: the work grows linearly with the script, whatever its lines' length). */
static size_t py_work;

size_t tt_py_work(void)
{
	return py_work;
}

struct ped {
	struct pyt p;
	struct pk_plan *plan;
	const struct tt_spec *sp;
};

/* A [python] template expanded ({prefix} {slots} {row_words}, then the
 * names N0 = V0 and N1 = V1 when given); NULL when missing. */
static char *py_expand(const struct tt_spec *sp, const char *key, const char *n0, const char *v0, const char *n1,
                       const char *v1)
{
	const char *tmpl = tt_rule(sp->rules, "python", key);
	if (!tmpl) {
		pk_error("rules/timing.ini: [python] has no '%s'", key);
		return NULL;
	}
	char rw[16];
	snprintf(rw, sizeof(rw), "%d", sp->lay.row_words);
	const char *names[] = {"prefix", "slots", "row_words", n0 ? n0 : "-", n1 ? n1 : "-"};
	const char *vals[] = {sp->lay.prefix, sp->opt.slots ? sp->opt.slots : "", rw, v0 ? v0 : "", v1 ? v1 : ""};
	return tt_expand(tmpl, names, vals, 5);
}

/* A [python] template with NAME = VALUE. */
static char *py_text(const struct tt_spec *sp, const char *key, const char *name, const char *value)
{
	return py_expand(sp, key, name, value, NULL, NULL);
}

/* The [python] template KEY with {list} and {item} too. */
static char *py_text_list(const struct tt_spec *sp, const char *key, const char *list, const char *item)
{
	return py_expand(sp, key, "list", list, "item", item);
}

/* The indentation bytes of physical line L. */
static size_t line_indent(const struct pyt *p, size_t l)
{
	size_t k = p->ls[l];
	while (k < p->b->len && (p->b->data[k] == ' ' || p->b->data[k] == '\t' || p->b->data[k] == '\f'))
		k++;
	return k - p->ls[l];
}

/* Can a comment end physical line L (not inside a string, not before a continuation)? */
static int line_open(const struct pyt *p, size_t l)
{
	return l < p->nl && !(p->lf[l] & (PYT_LINE_STR | PYT_LINE_CONT));
}

/* A whole new line before physical line L: IND (N bytes), CODE, the mark. */
static void add_line(struct ped *e, size_t l, const char *ind, size_t n, const char *code, const char *label)
{
	const struct pk_buf *b = e->p.b;
	struct pk_sb sb = {0};
	size_t at = l < e->p.nl ? e->p.ls[l] : b->len;
	if (at == b->len && b->len && b->data[b->len - 1] != '\n')
		pk_sb_add(&sb, pk_buf_eol(b));
	pk_sb_addn(&sb, ind, n);
	pk_sb_addf(&sb, "%s%s" PK_TT_PY_MARK " %s%s", code, *code ? "  " : "", label, pk_buf_eol(b));
	pk_plan_add(e->plan, at, at, sb.s, sb.n);
	pk_sb_free(&sb);
}

/* TEXT in place of bytes [AT, AT_END) of physical line L, the original line kept in the mark. */
static int change_at(struct ped *e, size_t l, size_t at, size_t at_end, const char *text)
{
	const char *d = e->p.b->data;
	if (!line_open(&e->p, l))
		return pk_error(
		    "%s:%zu: the line to change continues past its end (a string spanning lines, or a backslash), "
		    "where the tool's mark cannot go: start what follows the edited list or call on a line "
		    "of its own; nothing was written",
		    e->p.b->path, l + 1);
	size_t s = e->p.ls[l], end = pyt_line_end(&e->p, l);
	struct pk_sb sb = {0};
	pk_sb_addn(&sb, d + s, at - s);
	pk_sb_add(&sb, text);
	pk_sb_addn(&sb, d + at_end, end - at_end);
	pk_sb_add(&sb, "  " PK_TT_PY_LINE_OPEN);
	for (size_t q = s; q < end; q++) {
		char c = d[q];
		if (c == '\\' || c == '"')
			pk_sb_addf(&sb, "\\%c", c);
		else if (c == '\t')
			pk_sb_add(&sb, "\\t");
		else
			pk_sb_addn(&sb, &c, 1);
	}
	pk_sb_add(&sb, "\"");
	pk_plan_add(e->plan, s, end, sb.s, sb.n);
	pk_sb_free(&sb);
	return 0;
}

/* The bracket open around token I, or (size_t)-1. */
static size_t enclosing(const struct pyt *p, size_t i)
{
	for (size_t j = i; j-- > 0;)
		if (++py_work && p->t[j].kind == PYT_OP && p->t[j].match != (size_t)-1 && p->t[j].match > i &&
		    strchr("([{", p->b->data[p->t[j].s]))
			return j;
	return (size_t)-1;
}

/* The elements of a bracket: first and last tokens. */
struct elems {
	size_t *first, *last, n, cap;
};

static void elements(const struct pyt *p, size_t open, struct elems *el)
{
	memset(el, 0, sizeof(*el));
	size_t close = p->t[open].match, cap2 = 0;
	int d = p->t[open].depth + 1;
	for (size_t i = open + 1; i < close; i++) {
		py_work++;
		PK_GROW(el->first, el->cap, el->n + 1);
		PK_GROW(el->last, cap2, el->n + 1);
		el->first[el->n] = i;
		while (i < close && !(p->t[i].depth == d && pyt_is(p, i, PYT_OP, ",")))
			i = p->t[i].match != (size_t)-1 && p->t[i].match > i ? p->t[i].match + 1 : i + 1;
		el->last[el->n++] = i - 1;
	}
}

static void elems_free(struct elems *el)
{
	free(el->first);
	free(el->last);
}

/* ITEM as the K-th element of the bracket at OPEN (after the last when K is
 * past it): a line of its own when the neighbour has one, else in the line. */
static int insert_item(struct ped *e, size_t open, size_t k, const char *item, const char *label)
{
	const struct pyt *p = &e->p;
	struct elems el;
	elements(p, open, &el);
	const size_t *first = el.first, *last = el.last, n = el.n;
	struct pk_sb sb = {0};
	int rc;
	if (k < n) {
		const struct pyt_tok *t = &p->t[first[k]];
		size_t l = t->line;
		if (p->t[first[k] - 1].line < l && line_open(p, l - 1) && line_indent(p, l) == t->s - p->ls[l]) {
			pk_sb_addf(&sb, "%s,", item);
			add_line(e, l, p->b->data + p->ls[l], line_indent(p, l), sb.s, label);
			rc = 0;
		} else {
			pk_sb_addf(&sb, "%s, ", item);
			rc = change_at(e, l, t->s, t->s, sb.s);
		}
	} else if (n == 0) {
		rc = change_at(e, p->t[open].line, p->t[open].e, p->t[open].e, item);
	} else {
		size_t end = last[n - 1], comma = pyt_is(p, end + 1, PYT_OP, ",") ? end + 1 : 0;
		size_t et = comma ? comma : end, l = pyt_line_of(p, p->t[et].e - 1);
		size_t fl = p->t[first[n - 1]].line;
		if (p->t[et + 1].line > l && line_open(p, l) && (comma || line_open(p, l))) {
			rc = comma ? 0 : change_at(e, l, p->t[end].e, p->t[end].e, ",");
			pk_sb_addf(&sb, "%s,", item);
			add_line(e, l + 1, p->b->data + p->ls[fl], line_indent(p, fl), sb.s, label);
		} else {
			pk_sb_addf(&sb, comma ? " %s," : ", %s", item);
			rc = change_at(e, l, p->t[et].e, p->t[et].e, sb.s);
		}
	}
	pk_sb_free(&sb);
	elems_free(&el);
	return rc;
}

/* The token after which a statement's block begins: the first token of
 * the logical line holding I. */
static size_t stmt_start(const struct pyt *p, size_t i)
{
	py_work++;
	return pyt_stmt(p, i);
}

/* Is token I `def`/`class` NAME, first in its logical line (after `async`)? */
static int defines(const struct pyt *p, size_t i, const char *kw, const char *name)
{
	size_t s = stmt_start(p, i);
	if (pyt_is(p, s, PYT_NAME, "async"))
		s++;
	return s == i && pyt_is(p, i, PYT_NAME, kw) && pyt_is(p, i + 1, PYT_NAME, name);
}

/* Plan the edits, then read the edited text again: an edit must leave Python
 * the tokens can read. */
static int verify(struct ped *e)
{
	struct pk_plan copy;
	pk_plan_init(&copy);
	for (size_t i = 0; i < e->plan->n; i++)
		pk_plan_add(&copy, e->plan->e[i].start, e->plan->e[i].end, e->plan->e[i].text, e->plan->e[i].text_len);
	int rc = pk_plan_check(&copy, e->p.b->path, e->p.b->len);
	if (rc == 0) {
		struct pk_buf out = *e->p.b;
		pk_plan_apply(&copy, e->p.b->data, e->p.b->len, &out.data, &out.len);
		struct pyt q;
		if (pyt_scan(&q, &out) < 0)
			rc = pk_error("%s: internal error: the edit would leave Python the tool cannot read (above); "
			              "nothing was written",
			              e->p.b->path);
		else
			pyt_free(&q);
		free(out.data);
	}
	pk_plan_free(&copy);
	return rc;
}

/* ---- pypto extern ---- */

struct ext {
	size_t def;        /* the `def` token */
	size_t open;       /* its parameters' '(' */
	size_t last_param; /* the element index of the last tensor parameter */
	long tensors, scalars;
};

/* Does the text P (N bytes) hold WORD, followed by AFTER when AFTER is not 0? */
static int holds(const char *p, size_t n, const char *word, char after)
{
	size_t w = strlen(word);
	for (const char *q = p; w && (q = memmem(q, n - (size_t)(q - p), word, w)) != NULL; q++)
		if (!after || (q + w < p + n && q[w] == after))
			return 1;
	return 0;
}

/* An annotation naming a tensor: [pypto] tensor, or out / inout wrapping one. */
static int is_tensor_ann(const struct tt_words *w, const char *p, size_t n)
{
	return holds(p, n, w->py_tensor, 0) || holds(p, n, w->py_out, '[') || holds(p, n, w->py_inout, '[');
}

/* The parameters EL of an extern: tensors first (counted), then scalars. */
static int read_params(const struct pyt *p, const struct tt_words *w, const struct elems *el, struct ext *x)
{
	const size_t *first = el->first, *last = el->last, n = el->n;
	for (size_t k = 0; k < n; k++) {
		size_t c = first[k];
		while (c < last[k] && !pyt_is(p, c, PYT_OP, ":"))
			c++;
		if (!pyt_is(p, c, PYT_OP, ":"))
			return pk_error("%s:%zu: parameter without annotation: annotate it (%s, %s[...] or a "
			                "scalar type)",
			                p->b->path, p->t[first[k]].line + 1, w->py_tensor, w->py_out);
		const char *a = p->b->data + p->t[c].e;
		if (is_tensor_ann(w, a, p->t[last[k]].e - p->t[c].e)) {
			if (x->scalars)
				return pk_error("%s:%zu: tensor parameter after a scalar: pypto packs tensors first",
				                p->b->path, p->t[first[k]].line + 1);
			x->tensors++;
			x->last_param = k;
		} else {
			x->scalars++;
		}
	}
	return 0;
}

static int read_extern(const struct pyt *p, const struct tt_words *w, size_t def, struct ext *x)
{
	memset(x, 0, sizeof(*x));
	x->def = def;
	x->open = def + 2;
	if (!pyt_is(p, x->open, PYT_OP, "("))
		return pk_error("%s:%zu: the extern's 'def' without its parameters", p->b->path, p->t[def].line + 1);
	struct elems el;
	elements(p, x->open, &el);
	int rc = read_params(p, w, &el, x);
	elems_free(&el);
	if (rc < 0)
		return -1;
	return x->tensors ? 0 : pk_error("%s:%zu: extern has no tensor parameter", p->b->path, p->t[def].line + 1);
}

/* Do the tokens from I spell the dotted name DOTTED (`pl.jit.extern`)? */
static int dotted_at(const struct pyt *p, size_t i, const char *dotted)
{
	for (const char *d = dotted;; i += 2) {
		size_t n = strcspn(d, ".");
		if (i >= p->n || p->t[i].kind != PYT_NAME || p->t[i].e - p->t[i].s != n ||
		    memcmp(p->b->data + p->t[i].s, d, n))
			return 0;
		if (!d[n])
			return 1;
		if (!pyt_is(p, i + 1, PYT_OP, "."))
			return 0;
		d += n + 1;
	}
}

/* The `def` token of the extern (decorated [pypto] decorator) named NAME (or
 * the only one). */
static int find_extern(const struct pyt *p, const struct tt_words *w, const char *name, size_t *def)
{
	int found = 0;
	struct pk_sb names = {0};
	for (size_t i = 0; i + 1 < p->n; i++) {
		if (!(pyt_is(p, i, PYT_OP, "@") && stmt_start(p, i) == i && dotted_at(p, i + 1, w->py_decorator)))
			continue;
		size_t j = i;
		while (j < p->n && !(defines(p, j, "def", NULL) && p->t[j].level == p->t[i].level))
			j++;
		if (j >= p->n)
			break;
		size_t n = p->t[j + 1].e - p->t[j + 1].s;
		const char *fn = p->b->data + p->t[j + 1].s;
		pk_sb_addf(&names, "%s%.*s", names.n ? ", " : "", (int)n, fn);
		if (name ? (strlen(name) == n && !strncmp(fn, name, n)) : 1) {
			found++;
			*def = j;
		}
	}
	int rc = 0;
	if (!found)
		rc = pk_error("%s: no @%s%s%s (externs: %s)", p->b->path, w->py_decorator, name ? " named " : "",
		              name ? name : "", names.n ? names.s : "none");
	else if (found > 1 && !name)
		rc =
		    pk_error("%s: several externs (%s): name one with --host %s:NAME", p->b->path, names.s, p->b->path);
	pk_sb_free(&names);
	return rc;
}

static size_t mixed_at(const struct pyt *p, const struct tt_words *w, size_t def);

long tt_py_extern_tensors(const struct pk_buf *b, const struct tt_rules *r, const char *name, int *mixed)
{
	struct pyt p;
	if (pyt_scan(&p, b) < 0)
		return -1;
	size_t def = 0;
	struct ext x;
	long rc = find_extern(&p, &r->w, name, &def) < 0 || read_extern(&p, &r->w, def, &x) < 0 ? -1 : x.tensors;
	*mixed = rc >= 0 && mixed_at(&p, &r->w, def) != 0;
	pyt_free(&p);
	return rc;
}

/* The statement the call at token I belongs to, in the body of the function
 * holding it (the module's statement outside any function). */
static size_t body_stmt(const struct pyt *p, size_t i)
{
	size_t s = stmt_start(p, i), best = s;
	int level = p->t[s].level;
	for (size_t j = s; j-- > 0;) {
		if (j != stmt_start(p, j) || p->t[j].kind == PYT_NEWLINE || p->t[j].kind >= PYT_INDENT)
			continue;
		if (p->t[j].level < level) { /* the header of the block holding BEST */
			if (defines(p, j, "def", NULL) || pyt_is(p, j, PYT_NAME, "async"))
				return best;
			level = p->t[j].level;
			best = j;
		}
	}
	return best;
}

/* Every call NAME(...) in P but the extern's own def (DEF): the timing
 * tensor passed as the K-th argument, made above the call's statement. The
 * number of calls, -1 on error. */
static int plan_calls(struct ped *e, size_t def, const char *name, long k)
{
	const struct pyt *p = &e->p;
	int calls = 0;
	for (size_t i = 0; i + 1 < p->n; i++) {
		if (i == def + 1 || !pyt_is(p, i, PYT_NAME, name) || !pyt_is(p, i + 1, PYT_OP, "(") ||
		    (i > 0 && (pyt_is(p, i - 1, PYT_OP, ".") || pyt_is(p, i - 1, PYT_NAME, "def"))))
			continue;
		struct elems el;
		elements(p, i + 1, &el);
		elems_free(&el);
		if (el.n < (size_t)k)
			return pk_error("%s:%zu: call of '%s' passes fewer than %ld tensors", p->b->path,
			                p->t[i].line + 1, name, k);
		char *arg = py_text(e->sp, "extern_arg", NULL, NULL), *mk = py_text(e->sp, "extern_create", NULL, NULL);
		char *la = py_text(e->sp, "mark_extern_arg", NULL, NULL),
		     *lm = py_text(e->sp, "mark_extern_create", NULL, NULL);
		size_t st = body_stmt(p, i), l = p->t[st].line;
		int rc = arg && mk && la && lm ? insert_item(e, i + 1, (size_t)k, arg, la) : -1;
		if (rc == 0)
			add_line(e, l, p->b->data + p->ls[l], line_indent(p, l), mk, lm);
		free(arg);
		free(mk);
		free(la);
		free(lm);
		if (rc < 0)
			return -1;
		calls++;
	}
	return calls;
}

/* The decorator token of `core_type="mixed"` ([pypto] core_type, mixed) of the
 * extern at DEF (built for the AIC and the AIV lanes), 0 when it has none. */
static size_t mixed_at(const struct pyt *p, const struct tt_words *w, size_t def)
{
	for (size_t i = def; i-- > 0;) { /* its decorators: the lines above that start with '@' */
		if (p->t[i].kind == PYT_NEWLINE && i + 1 != def && !pyt_is(p, i + 1, PYT_OP, "@"))
			break;
		if (pyt_is(p, i, PYT_NAME, w->py_core_type) && pyt_is(p, i + 1, PYT_OP, "=") &&
		    pyt_string_is(p, i + 2, w->py_mixed))
			return i;
	}
	return 0;
}

/* A mixed extern whose lanes cannot be told apart (no macro in the profile,
 * or --core-type): they write the same rows. */
static void warn_mixed(const struct pyt *p, size_t def, const char *fname, const struct tt_spec *sp)
{
	size_t i = mixed_at(p, &sp->rules->w, def);
	if (i && !sp->lay.mix_blocks)
		pk_warning("%s:%zu: extern '%s' is mixed: its AIC and AIV lanes run the entry and write the "
		           "same timing rows (the slot is the task's block index); a row holds the last "
		           "lane to finish",
		           p->b->path, p->t[i].line + 1, fname);
}

/* The callers named with --edit: each must call the extern. */
static int plan_callers(const struct tt_spec *sp, const struct tt_files *fs, const char *fname, long k, int *calls)
{
	for (size_t i = 0; i < fs->n; i++) {
		if (!(fs->v[i]->roles & TT_ROLE_CALLER))
			continue;
		struct ped c = {.plan = &fs->v[i]->plan, .sp = sp};
		if (pyt_scan(&c.p, &fs->v[i]->b) < 0)
			return -1;
		int n = plan_calls(&c, (size_t)-2, fname, k);
		int rc = n < 0    ? -1
		         : n == 0 ? pk_error("%s: no call of extern '%s' in this file", c.p.b->path, fname)
		                  : 0;
		if (rc == 0)
			rc = verify(&c);
		pyt_free(&c.p);
		if (rc < 0)
			return -1;
		*calls += n;
	}
	return 0;
}

int tt_py_plan_extern(const struct pk_buf *b, const char *name, const struct tt_spec *sp, const struct tt_files *fs,
                      struct pk_plan *plan)
{
	struct ped e = {.plan = plan, .sp = sp};
	if (pyt_scan(&e.p, b) < 0)
		return -1;
	size_t def = 0;
	struct ext x;
	const struct tt_words *w = &sp->rules->w;
	int rc = find_extern(&e.p, w, name, &def) < 0 || read_extern(&e.p, w, def, &x) < 0 ? -1 : 0;
	char *param = rc == 0 ? py_text(sp, "extern_param", NULL, NULL) : NULL;
	rc = param ? rc : -1;
	char *fname = rc == 0 ? pk_xstrndup(b->data + e.p.t[def + 1].s, e.p.t[def + 1].e - e.p.t[def + 1].s) : NULL;
	if (rc == 0) {
		char idx[24];
		snprintf(idx, sizeof(idx), "%ld", x.tensors);
		char *label = py_text(sp, "mark_extern_param", "index", idx);
		rc = label ? insert_item(&e, x.open, x.last_param + 1, param, label) : -1;
		free(label);
	}
	int calls = 0;
	if (rc == 0) {
		warn_mixed(&e.p, def, fname, sp);
		calls = plan_calls(&e, def, fname, x.tensors);
		rc = calls < 0 ? -1 : verify(&e);
	}
	if (rc == 0)
		rc = plan_callers(sp, fs, fname, x.tensors, &calls);
	if (rc == 0 && !calls)
		pk_warning("%s: extern '%s' is not called in this file: its callers must pass the timing tensor "
		           "(name their files with --edit FILE.py)",
		           b->path, fname);
	free(param);
	free(fname);
	pyt_free(&e.p);
	return rc;
}

/* ---- simpler test script ---- */

/* A word of the test script's vocabulary (rules/timing.ini [test_script]),
 * which the schema (tt_schema.c) requires of the rules of a run; "" when
 * rules loaded without the check lack it. */
static const char *word(const struct tt_rules *r, const char *key)
{
	const char *v = tt_rule(r, "test_script", key);
	return v ? v : "";
}

/* How many trailing path components SRC (N bytes) and KERNEL share: the
 * script names sources from its own folder, the command line from anywhere. */
static size_t shared_components(const char *src, size_t n, const char *kernel)
{
	size_t k = strlen(kernel), parts = 0;
	while (n > 0 && k > 0 && src[n - 1] == kernel[k - 1]) {
		n--;
		k--;
		if (src[n] == '/')
			parts++;
		else if (n == 0 || k == 0)
			parts += (n == 0 || src[n - 1] == '/') && (k == 0 || kernel[k - 1] == '/');
	}
	return parts;
}

/* The id of the incore whose "func_id" key is token I ("func_id": N), or -1. */
static long func_id_at(const struct pyt *p, const struct tt_rules *r, size_t i)
{
	if (!p->t[i].depth || !pyt_string_is(p, i, word(r, "func_id")) || !pyt_is(p, i + 1, PYT_OP, ":") ||
	    !pyt_is(p, i + 2, PYT_NUMBER, NULL))
		return -1;
	return strtol(p->b->data + p->t[i + 2].s, NULL, 10);
}

/* Token K a plain "TEXT" or 'TEXT' string: *src, *n its text. */
static int plain_string(const struct pyt *p, size_t k, const char **src, size_t *n)
{
	const struct pyt_tok *v = &p->t[k];
	const char *q = p->b->data + v->s;
	if (v->kind != PYT_STRING || (*q != '"' && *q != '\'') || v->e - v->s < 2)
		return 0;
	*src = q + 1;
	*n = v->e - v->s - 2;
	return 1;
}

static int eval_strings(const struct pyt *p, size_t k, size_t *next, struct pk_sb *out, int *unknown, int depth);

/* The value of module constant NAME (N bytes): its last top-level
 * assignment `NAME = "..."` (strings side by side, f-strings of such
 * constants); NULL when it has none the tool can evaluate. DEPTH bounds
 * constants defined by constants. */
static char *module_const(const struct pyt *p, const char *name, size_t n, int depth)
{
	char *val = NULL;
	for (size_t i = 0; depth < 8 && i + 2 < p->n; i++) {
		py_work++;
		if (p->t[i].level || p->t[i].depth || pyt_stmt(p, i) != i || !pyt_is(p, i, PYT_NAME, NULL) ||
		    p->t[i].e - p->t[i].s != n || memcmp(p->b->data + p->t[i].s, name, n) ||
		    !pyt_is(p, i + 1, PYT_OP, "="))
			continue;
		struct pk_sb sb = {0};
		size_t next;
		int unknown = 0;
		if (eval_strings(p, i + 2, &next, &sb, &unknown, depth + 1) && !unknown &&
		    p->t[next].kind == PYT_NEWLINE) {
			free(val);
			val = sb.s ? sb.s : pk_xstrdup("");
		} else {
			pk_sb_free(&sb);
		}
	}
	return val;
}

/* The fields of f-string body [A, E) replaced by the module constants they
 * name; a field the tool cannot evaluate drops what came before it (only
 * the text after it is known) and sets *UNKNOWN. */
static void eval_fstring(const struct pyt *p, const char *a, const char *e, struct pk_sb *out, int *unknown, int depth)
{
	for (const char *c = a; c < e; c++) {
		if ((*c == '{' || *c == '}') && c + 1 < e && c[1] == *c) {
			pk_sb_addn(out, c++, 1);
			continue;
		}
		if (*c != '{') {
			pk_sb_addn(out, c, 1);
			continue;
		}
		const char *f = c + 1, *fe = memchr(f, '}', (size_t)(e - f));
		if (!fe)
			fe = e;
		while (f < fe && *f == ' ')
			f++;
		size_t n = 0;
		while (f + n < fe && (isalnum((unsigned char)f[n]) || f[n] == '_'))
			n++;
		const char *rest = f + n;
		while (rest < fe && *rest == ' ')
			rest++;
		char *v = n && rest == fe ? module_const(p, f, n, depth) : NULL;
		if (v) {
			pk_sb_add(out, v);
		} else {
			out->n = 0; /* what came before is not known */
			if (out->s)
				out->s[0] = 0;
			*unknown = 1;
		}
		free(v);
		c = fe < e ? fe : e - 1;
	}
}

/* The strings side by side from token K (plain ones and f-strings), joined
 * as Python does, into OUT; *NEXT the token after them. 0 when K is none. */
static int eval_strings(const struct pyt *p, size_t k, size_t *next, struct pk_sb *out, int *unknown, int depth)
{
	size_t j = k;
	for (; j < p->n && p->t[j].kind == PYT_STRING; j++) {
		const char *q = p->b->data + p->t[j].s, *e = p->b->data + p->t[j].e;
		int f = 0, raw = 0;
		while (q < e && *q != '"' && *q != '\'') {
			f |= *q == 'f' || *q == 'F';
			raw |= *q == 'r' || *q == 'R';
			q++;
		}
		size_t quote = e - q >= 6 && q[1] == q[0] && q[2] == q[0] ? 3 : 1;
		if (e - q < (long)(2 * quote) || (!raw && memchr(q, '\\', (size_t)(e - q))))
			return 0; /* escapes: not read */
		if (f)
			eval_fstring(p, q + quote, e - quote, out, unknown, depth);
		else
			pk_sb_addn(out, q + quote, (size_t)(e - q) - 2 * quote);
	}
	*next = j;
	return j > k;
}

/* The '}' or ',' ending the value of the key at token KEY in its dict. */
static size_t value_end(const struct pyt *p, size_t key, size_t close)
{
	size_t k = key + 2;
	while (k < close && !(p->t[k].depth == p->t[key].depth && pyt_is(p, k, PYT_OP, ",")))
		k = p->t[k].match != (size_t)-1 && p->t[k].match > k ? p->t[k].match + 1 : k + 1;
	return k < close ? k : close;
}

/* The "source" of the dict at OPEN (malloc'd; NULL if none): a string,
 * strings written side by side (joined, as Python does), an f-string of
 * module constants (`f"{KERNELS_BASE}/aiv/k.cpp"`: evaluated; a field the
 * tool cannot evaluate leaves the text after it), or a path built from one
 * (`str(CASE_DIR / "kernels/k.cpp")`, `os.path.join(HERE, "kernels/k.cpp")`:
 * its last string, which the match on trailing path components needs). */
static char *dict_source(const struct pyt *p, const struct tt_rules *r, size_t o)
{
	if (o == (size_t)-1 || !pyt_is(p, o, PYT_OP, "{"))
		return NULL;
	const char *src = NULL;
	size_t n = 0, close = p->t[o].match;
	for (size_t j = o + 1; j + 2 < close; j++) {
		if (p->t[j].depth != p->t[o].depth + 1 || !pyt_string_is(p, j, word(r, "source")) ||
		    !pyt_is(p, j + 1, PYT_OP, ":"))
			continue;
		size_t end = value_end(p, j, close), k;
		struct pk_sb sb = {0};
		int unknown = 0;
		if (eval_strings(p, j + 2, &k, &sb, &unknown, 0) && k == end) {
			if (unknown && sb.n && sb.s[0] == '/') /* known from a component on: the rest of the path */
				memmove(sb.s, sb.s + 1, sb.n--);
			return sb.s ? sb.s : pk_xstrdup("");
		}
		pk_sb_free(&sb);
		int path = 0, found = 0;
		for (k = j + 2; k < end; k++) {
			path |= pyt_is(p, k, PYT_OP, "/") || pyt_is(p, k, PYT_NAME, "join");
			found |= plain_string(p, k, &src, &n);
		}
		return path && found ? pk_xstrndup(src, n) : NULL;
	}
	return NULL;
}

/* The source of the incore whose "func_id" is token I. */
static char *incore_source(const struct pyt *p, const struct tt_rules *r, size_t i)
{
	return dict_source(p, r, enclosing(p, i));
}

/* The "func_id" token of the incore of FUNC_ID in tokens [LO, HI) or, with
 * func_id < 0, the one whose source shares the most trailing path components
 * with KERNEL (at least the file name; the first of equals), setting
 * *func_id; p->n if none. */
static size_t incore_at(const struct pyt *p, const struct tt_rules *r, size_t lo, size_t hi, long *func_id,
                        const char *kernel)
{
	size_t best = p->n, best_parts = 0;
	for (size_t i = lo; i + 2 < hi; i++) {
		long id = func_id_at(p, r, i);
		if (id < 0)
			continue;
		if (*func_id >= 0) {
			if (id == *func_id)
				return i;
			continue;
		}
		char *src = incore_source(p, r, i);
		size_t parts;
		if (src && (parts = shared_components(src, strlen(src), kernel)) > best_parts) {
			best = i;
			best_parts = parts;
		}
		free(src);
	}
	if (best < p->n)
		*func_id = func_id_at(p, r, best);
	return best;
}

/* Up to CAP other ids of incores in [LO, HI) whose source is the one of the incore at MINE. */
static size_t twins_of(const struct pyt *p, const struct tt_rules *r, size_t lo, size_t hi, size_t mine, long id,
                       long *twins, size_t cap)
{
	size_t n = 0;
	char *ms = mine < p->n ? incore_source(p, r, mine) : NULL;
	for (size_t i = lo; ms && i + 2 < hi && n < cap; i++) {
		long other = func_id_at(p, r, i);
		char *src = other >= 0 && other != id ? incore_source(p, r, i) : NULL;
		if (src && !strcmp(src, ms))
			twins[n++] = other;
		free(src);
	}
	free(ms);
	return n;
}

static int int_at(const struct pyt *p, size_t i, long *val);

/* Token I the first on its physical line. */
static int line_first(const struct pyt *p, size_t i)
{
	size_t at = p->ls[p->t[i].line];
	while (at < p->t[i].s && (p->b->data[at] == ' ' || p->b->data[at] == '\t'))
		at++;
	return at == p->t[i].s;
}

/* Incores built by computation: a table row `(N, "STEM", ...)` beginning a
 * line, whose STEM is the kernel's file name without its extension (`source =
 * f"kernels/{core_type}/{name}.cpp"`), or the kernel's path as the N-th string
 * of an `enumerate([...])` list (`for func_id, source in enumerate(...)`). */
static long computed_func_id(const struct pyt *p, const struct tt_rules *r, const char *kernel)
{
	const char *base = strrchr(kernel, '/'), *src;
	base = base ? base + 1 : kernel;
	size_t stem = strcspn(base, "."), kl = strlen(kernel), n;
	for (size_t i = 0; i + 3 < p->n; i++) {
		long id;
		if (pyt_is(p, i, PYT_OP, "(") && line_first(p, i) && pyt_is(p, i + 1, PYT_NUMBER, NULL) &&
		    int_at(p, i + 1, &id) && id >= 0 && pyt_is(p, i + 2, PYT_OP, ",") &&
		    plain_string(p, i + 3, &src, &n) && n == stem && !memcmp(src, base, stem))
			return id;
		if (!pyt_is(p, i, PYT_NAME, word(r, "enumerate")) || !pyt_is(p, i + 1, PYT_OP, "("))
			continue;
		long k = 0;
		for (size_t j = i + 2; j < p->t[i + 1].match; j++)
			if (plain_string(p, j, &src, &n)) {
				if (n >= kl && !memcmp(src + n - kl, kernel, kl))
					return k;
				k++;
			}
	}
	return -1;
}

/* ---- the test classes ---- */

/* A top-level class: its tokens [cls, end), its orchestration's dict, how
 * well its orchestration and its incores' sources match the host's and the
 * kernel's paths (trailing components shared). */
struct tclass {
	size_t cls, end, orch;
	size_t orch_parts, kernel_parts;
	int chosen;
};

/* The '{' of the "orchestration" dict in [LO, HI), or 0. */
static size_t orch_dict(const struct pyt *p, const struct tt_rules *r, size_t lo, size_t hi)
{
	size_t orch = 0;
	for (size_t i = lo; i + 2 < hi; i++)
		if (pyt_string_is(p, i, word(r, "orchestration")) && pyt_is(p, i + 1, PYT_OP, ":") &&
		    pyt_is(p, i + 2, PYT_OP, "{"))
			orch = i + 2;
	return orch;
}

/* Every top-level class, scored against HOST (may be NULL) and KERNEL; the
 * best ones chosen (several only when they tie: the same orchestration and
 * kernel). 0 classes naming either: the whole file is one scope. */
static size_t test_classes(const struct pyt *p, const struct tt_rules *r, const char *host, const char *kernel,
                           struct tclass **out)
{
	struct tclass *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i + 1 < p->n; i++) {
		if (p->t[i].level != 0 || !defines(p, i, "class", NULL))
			continue;
		size_t e = i + 1;
		while (e < p->n && !(p->t[e].kind == PYT_DEDENT && p->t[e].level == 0))
			e++;
		PK_GROW(v, cap, n + 1);
		struct tclass *c = &v[n++];
		*c = (struct tclass){.cls = i, .end = e, .orch = orch_dict(p, r, i, e)};
		char *os = c->orch ? dict_source(p, r, c->orch) : NULL;
		c->orch_parts = os && host ? shared_components(os, strlen(os), host) : 0;
		free(os);
		for (size_t k = i; k + 2 < e; k++) {
			py_work++;
			char *src = func_id_at(p, r, k) >= 0 ? incore_source(p, r, k) : NULL;
			size_t parts = src ? shared_components(src, strlen(src), kernel) : 0;
			if (parts > c->kernel_parts)
				c->kernel_parts = parts;
			free(src);
		}
		i = e > i ? e - 1 : i;
	}
	size_t best_o = 0, best_k = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].orch_parts > best_o || (v[i].orch_parts == best_o && v[i].kernel_parts > best_k))
			best_o = v[i].orch_parts, best_k = v[i].kernel_parts;
	for (size_t i = 0; i < n; i++)
		v[i].chosen = (best_o || best_k) && v[i].orch_parts == best_o && v[i].kernel_parts == best_k;
	*out = v;
	return best_o || best_k ? n : 0;
}

/* The scope of the first chosen class: tokens [*LO, *HI) (the whole file without one). */
static void chosen_scope(const struct pyt *p, const struct tclass *v, size_t n, size_t *lo, size_t *hi)
{
	*lo = 0;
	*hi = p->n;
	for (size_t i = 0; i < n; i++)
		if (v[i].chosen) {
			*lo = v[i].cls;
			*hi = v[i].end;
			return;
		}
}

/* The "core_type" string of the dict at OPEN into CORE (CAP bytes), or "". */
static void dict_core(const struct pyt *p, const struct tt_rules *r, size_t open, char *core, size_t cap)
{
	const char *src;
	size_t n;
	core[0] = 0;
	for (size_t j = open + 1; open != (size_t)-1 && j + 2 < p->t[open].match; j++)
		if (p->t[j].depth == p->t[open].depth + 1 && pyt_string_is(p, j, word(r, "core_type")) &&
		    pyt_is(p, j + 1, PYT_OP, ":") && plain_string(p, j + 2, &src, &n) && n < cap) {
			memcpy(core, src, n);
			core[n] = 0;
			return;
		}
}

long tt_py_test_func_id(const struct pk_buf *b, const struct tt_rules *r, const char *kernel, const char *host, long id,
                        long *twins, size_t cap, size_t *ntwins, char *core, size_t corecap)
{
	struct pyt p;
	if (pyt_scan(&p, b) < 0)
		return -2;
	struct tclass *cls;
	size_t ncls = test_classes(&p, r, host, kernel, &cls), lo, hi;
	chosen_scope(&p, cls, ncls, &lo, &hi);
	free(cls);
	size_t mine = incore_at(&p, r, lo, hi, &id, kernel);
	if (core && corecap)
		core[0] = 0;
	if (core && mine < p.n)
		dict_core(&p, r, enclosing(&p, mine), core, corecap);
	if (id < 0)
		id = computed_func_id(&p, r, kernel);
	if (ntwins && !*ntwins && id >= 0)
		*ntwins =
		    twins_of(&p, r, lo, hi, mine < p.n ? mine : incore_at(&p, r, lo, hi, &id, kernel), id, twins, cap);
	pyt_free(&p);
	return id;
}

/* The first `for` directly inside the bracket at OPEN (a comprehension's), or 0. */
static size_t comp_for(const struct pyt *p, size_t open)
{
	size_t close = p->t[open].match;
	for (size_t i = open + 1; close != (size_t)-1 && i < close; i++) {
		py_work++;
		if (p->t[i].depth == p->t[open].depth + 1 && pyt_is(p, i, PYT_NAME, "for"))
			return i;
		if (p->t[i].match != (size_t)-1 && p->t[i].match > i)
			i = p->t[i].match;
	}
	return 0;
}

/* The bracket holding the arguments the last TensorArg of [LO, HI) is one
 * of, and that argument's first token (*ELEM): a TensorArg built by a
 * comprehension is one element of it, and the comprehension as a whole is
 * the element. (size_t)-1 when none (*ELEM p->n: no TensorArg). */
static size_t args_list(const struct pyt *p, const struct tt_rules *r, size_t lo, size_t hi, size_t *elem)
{
	const char *ta = word(r, "tensorarg");
	size_t last = p->n;
	for (size_t i = lo; i + 1 < hi; i++) {
		py_work++;
		size_t s = stmt_start(p, i);
		if (pyt_is(p, i, PYT_NAME, ta) && pyt_is(p, i + 1, PYT_OP, "(") && !pyt_is(p, s, PYT_NAME, "from") &&
		    !pyt_is(p, s, PYT_NAME, "import"))
			last = i;
	}
	*elem = last;
	if (last == p->n)
		return (size_t)-1;
	size_t open = enclosing(p, last);
	while (open != (size_t)-1 && comp_for(p, open)) {
		if (pyt_is(p, open, PYT_OP, "(") && open > 0 &&
		    (pyt_is(p, open - 1, PYT_NAME, NULL) || pyt_is(p, open - 1, PYT_OP, ")") ||
		     pyt_is(p, open - 1, PYT_OP, "]")))
			return (size_t)-2; /* a generator as the call's one argument */
		*elem = open;
		open = enclosing(p, open);
	}
	return open;
}

/* The expectations the read-back checks in the edited script. */
enum { EXP_ARGS = 1, EXP_SIG, EXP_APPEND };
struct texp {
	int what;
	size_t cls; /* the class's ordinal among the top-level classes, or (size_t)-1: the whole file */
	long id;    /* EXP_SIG: the incore's func_id, -1 the orchestration's */
	size_t count, at;
};
struct tplan {
	struct ped *e;
	long external;
	const struct tt_kernel *k;
	struct texp exp[32];
	size_t nexp;
};

static void expect(struct tplan *tp, int what, size_t cls, long id, size_t count, size_t at)
{
	if (tp->nexp < sizeof(tp->exp) / sizeof(tp->exp[0]))
		tp->exp[tp->nexp++] = (struct texp){what, cls, id, count, at};
}

static int body_of(const struct pyt *p, size_t i, size_t *indent, size_t *end);

/* How many TensorArg(...) calls tokens [LO, HI) hold. */
static size_t count_tensorargs(const struct pyt *p, const struct tt_rules *r, size_t lo, size_t hi)
{
	const char *ta = word(r, "tensorarg");
	size_t n = 0;
	for (size_t i = lo; i + 1 < hi && i + 1 < p->n; i++) {
		py_work++;
		size_t s = stmt_start(p, i);
		if (pyt_is(p, i, PYT_NAME, ta) && pyt_is(p, i + 1, PYT_OP, "(") && !pyt_is(p, s, PYT_NAME, "from") &&
		    !pyt_is(p, s, PYT_NAME, "import"))
			n++;
	}
	return n;
}

/* Is the bracket at OPEN the arguments of `NAME.append(...)`, first in its statement? */
static int list_call(const struct pyt *p, size_t open, const char *method)
{
	return open >= 3 && open < p->n && pyt_is(p, open, PYT_OP, "(") && pyt_is(p, open - 1, PYT_NAME, method) &&
	       pyt_is(p, open - 2, PYT_OP, ".") && pyt_is(p, open - 3, PYT_NAME, NULL) &&
	       stmt_start(p, open) == open - 3;
}

static int append_call(const struct pyt *p, const struct tt_rules *r, size_t open)
{
	return list_call(p, open, word(r, "append"));
}

/* OPEN is the '(' of `LIST.insert(INDEX, ELEM)`, whose last argument is the
 * TensorArg at ELEM (the timing tensor put after the last tensor). */
static int insert_call(const struct pyt *p, const struct tt_rules *r, size_t open, size_t elem)
{
	return list_call(p, open, word(r, "insert")) && elem + 1 < p->n && p->t[elem].depth == p->t[open].depth + 1 &&
	       p->t[elem + 1].match + 1 == p->t[open].match;
}

/* The last TensorArg is the one argument of `LIST.append(...)` at OPEN (a
 * list built statement by statement, often in loops): the timing tensor is
 * one more such statement, once, after the outermost loop holding that one
 * (after the statement itself outside loops), at its indentation, before
 * whatever adds the scalars next. */
static int plan_append(struct tplan *tp, size_t open, size_t elem, size_t ord, size_t lo, size_t hi)
{
	struct ped *e = tp->e;
	const struct pyt *p = &e->p;
	const struct tt_rules *r = e->sp->rules;
	const char *ta = word(r, "tensorarg");
	size_t s = open - 3, close = p->t[open].match;
	int ln = (int)(p->t[s].e - p->t[s].s), scalars = 0;
	const char *list = p->b->data + p->t[s].s;
	if (elem != open + 1 || !pyt_is(p, elem + 1, PYT_OP, "(") || p->t[elem + 1].match + 1 != close ||
	    !pyt_is(p, close + 1, PYT_NEWLINE, NULL))
		return pk_error("%s:%zu: the last %s is not the one argument of a `%.*s.%s(...)` statement of its "
		                "own: add the timing %s by hand, or give --test-script-by-hand in place of "
		                "--test-script; nothing was written",
		                p->b->path, p->t[elem].line + 1, ta, ln, list, word(r, "append"), ta);
	/* up the blocks holding the statement, to its function: the outermost loop */
	size_t cur = s, outer = s;
	for (size_t j = s; j-- > lo && p->t[cur].level > 0;) {
		py_work++;
		if (p->t[j].kind != PYT_NAME || p->t[j].level >= p->t[cur].level || stmt_start(p, j) != j)
			continue;
		if (pyt_is(p, j, PYT_NAME, "def") || pyt_is(p, j, PYT_NAME, "class") || pyt_is(p, j, PYT_NAME, "async"))
			break;
		cur = j;
		if (pyt_is(p, j, PYT_NAME, "for") || pyt_is(p, j, PYT_NAME, "while"))
			outer = j;
	}
	size_t nl = close + 1; /* the NEWLINE ending what the new statement follows */
	if (outer != s) {
		size_t ind, end;
		if (body_of(p, outer, &ind, &end) < 0)
			return -1;
		/* a loop that adds scalars too: after it, the TensorArg goes in right
		 * after the last TensorArg rather than at the end */
		for (size_t j = outer; j < end && !scalars; j++)
			scalars = ++py_work && pyt_is(p, j, PYT_NAME, word(r, "scalar"));
		if (end + 1 < p->n && pyt_is(p, end + 1, PYT_NAME, "else") && p->t[end + 1].level == p->t[outer].level)
			return pk_error(
			    "%s:%zu: the loop holding the last %s has an `else`: add the timing %s by hand, "
			    "or give --test-script-by-hand in place of --test-script; nothing was written",
			    p->b->path, p->t[end + 1].line + 1, ta, ta);
		for (nl = end; nl > outer && p->t[nl].kind != PYT_NEWLINE; nl--)
			;
	}
	size_t hl = p->t[outer].line, l = pyt_line_of(p, p->t[nl].s) + 1;
	char *item = py_text(e->sp, "test_tensorarg", NULL, NULL);
	char *label = py_text(e->sp, "mark_tensorarg", NULL, NULL);
	struct pk_sb name = {0};
	pk_sb_addn(&name, list, (size_t)ln);
	char *code = item ? py_text_list(e->sp, scalars ? "test_insert" : "test_append", name.s, item) : NULL;
	int rc = -1;
	if (code && label) {
		add_line(e, l, p->b->data + p->ls[hl], line_indent(p, hl), code, label);
		expect(tp, EXP_APPEND, ord, -1, count_tensorargs(p, r, lo, hi) + 1, (size_t)p->t[outer].level);
		rc = 0;
	}
	free(item);
	free(label);
	pk_sb_free(&name);
	free(code);
	return rc;
}

static int plan_tensorarg(struct tplan *tp, size_t lo, size_t hi, size_t ord)
{
	struct ped *e = tp->e;
	const struct pyt *p = &e->p;
	size_t elem, open = args_list(p, e->sp->rules, lo, hi, &elem);
	if (elem == p->n)
		return pk_error("%s%s%.*s: no %s(...) in %s (its arguments come from elsewhere): add the timing "
		                "%s by hand, or give --test-script-by-hand in place of --test-script",
		                p->b->path, ord != (size_t)-1 ? ": class " : "",
		                ord != (size_t)-1 ? (int)(p->t[lo + 1].e - p->t[lo + 1].s) : 0,
		                ord != (size_t)-1 ? p->b->data + p->t[lo + 1].s : "", word(e->sp->rules, "tensorarg"),
		                ord != (size_t)-1 ? "its body" : "the test script", word(e->sp->rules, "tensorarg"));
	if (open == (size_t)-2)
		return pk_error("%s:%zu: the last %s is built by a generator passed as a call's only argument: "
		                "write it as a list (`*[... for ...]`) and add the timing %s after it by hand, or "
		                "give --test-script-by-hand in place of --test-script; nothing was written",
		                p->b->path, p->t[elem].line + 1, word(e->sp->rules, "tensorarg"),
		                word(e->sp->rules, "tensorarg"));
	if (open == (size_t)-1)
		return pk_error(
		    "%s:%zu: the last %s is not inside the arguments or the list that hold the "
		    "others: add the timing %s by hand, or give --test-script-by-hand in place of --test-script",
		    p->b->path, p->t[elem].line + 1, word(e->sp->rules, "tensorarg"), word(e->sp->rules, "tensorarg"));
	if (append_call(p, e->sp->rules, open))
		return plan_append(tp, open, elem, ord, lo, hi);
	struct elems el;
	elements(p, open, &el);
	size_t k = 0, n = el.n;
	while (k < el.n && el.last[k] < elem)
		k++;
	elems_free(&el);
	char *ta = py_text(e->sp, "test_tensorarg", NULL, NULL);
	char *label = py_text(e->sp, "mark_tensorarg", NULL, NULL);
	int rc = ta && label ? insert_item(e, open, k + 1, ta, label) : -1;
	free(ta);
	free(label);
	expect(tp, EXP_ARGS, ord, -1, n + 1, k + 1);
	return rc;
}

/* The '[' of the statement `NAME = [` defining token USE's name at module
 * or class level (the last one before USE), or 0; *USES how many other
 * tokens read the name. */
static size_t list_var(const struct pyt *p, size_t use, size_t *uses)
{
	size_t n = p->t[use].e - p->t[use].s, def = 0;
	const char *name = p->b->data + p->t[use].s;
	*uses = 0;
	for (size_t i = 0; i + 2 < p->n; i++) {
		if (i == use || !pyt_is(p, i, PYT_NAME, NULL) || p->t[i].e - p->t[i].s != n ||
		    memcmp(p->b->data + p->t[i].s, name, n) || (i > 0 && pyt_is(p, i - 1, PYT_OP, ".")))
			continue;
		if (pyt_stmt(p, i) == i && p->t[i].level <= 1 && !p->t[i].depth && pyt_is(p, i + 1, PYT_OP, "=") &&
		    pyt_is(p, i + 2, PYT_OP, "[") && i < use)
			def = i + 2;
		else
			(*uses)++;
	}
	return def;
}

/* The int token I stands for: a number, or a module constant `NAME = N`
 * (its last top-level assignment); 0 when neither. */
static int int_at(const struct pyt *p, size_t i, long *val)
{
	const char *s = p->b->data + p->t[i].s;
	size_t n = p->t[i].e - p->t[i].s;
	if (pyt_is(p, i, PYT_NAME, NULL)) {
		size_t def = p->n;
		for (size_t j = 0; j + 3 < p->n; j++) {
			py_work++;
			if (!p->t[j].level && !p->t[j].depth && pyt_stmt(p, j) == j && pyt_is(p, j, PYT_NAME, NULL) &&
			    p->t[j].e - p->t[j].s == n && !memcmp(p->b->data + p->t[j].s, s, n) &&
			    pyt_is(p, j + 1, PYT_OP, "="))
				def = j + 2;
		}
		if (def == p->n || !pyt_is(p, def + 1, PYT_NEWLINE, NULL))
			return 0;
		i = def;
		s = p->b->data + p->t[i].s;
		n = p->t[i].e - p->t[i].s;
	}
	if (!pyt_is(p, i, PYT_NUMBER, NULL) || n > 6 || (n > 1 && s[0] == '0'))
		return 0;
	*val = 0;
	for (size_t k = 0; k < n; k++) {
		if (s[k] < '0' || s[k] > '9')
			return 0;
		*val = *val * 10 + (s[k] - '0');
	}
	return 1;
}

/* The entries of the signature expression in tokens [V, END): lists (no
 * comprehension) joined by `+`, each maybe repeated `* N` or `N *` (N an int
 * or a module constant); -1 when it is not one the tool can count. *LAST:
 * the '[' of the last term when that is a list without a factor, else 0. */
static long sig_expr_count(const struct pyt *p, size_t v, size_t end, size_t *last)
{
	long n = 0;
	*last = 0;
	for (size_t i = v; i < end;) {
		long f = 1, g = 1;
		int bare = 1;
		if (!pyt_is(p, i, PYT_OP, "[")) {
			if (i + 2 >= end || !int_at(p, i, &f) || !pyt_is(p, i + 1, PYT_OP, "*"))
				return -1;
			i += 2;
			bare = 0;
		}
		if (!pyt_is(p, i, PYT_OP, "[") || p->t[i].match >= end || comp_for(p, i))
			return -1;
		size_t open = i;
		i = p->t[i].match + 1;
		if (i < end && pyt_is(p, i, PYT_OP, "*")) {
			if (i + 1 >= end || !int_at(p, i + 1, &g))
				return -1;
			i += 2;
			bare = 0;
		}
		struct elems el;
		elements(p, open, &el);
		n += (long)el.n * f * g;
		elems_free(&el);
		*last = bare ? open : 0;
		if (i < end && (!pyt_is(p, i, PYT_OP, "+") || ++i == end))
			return -1;
	}
	return n;
}

/* The '[' of the "signature" list in the dict at OPEN (following a name
 * bound to a list), 0 when the dict has none, (size_t)-1 when it is one
 * the tool cannot extend (refused, naming the line). A sum of repeated
 * lists (`[D.INOUT] * 8 + [D.IN] * 4`) where the dict names it: its first
 * token, *XEND the token after it (0 for a list). */
static size_t sig_list(const struct pyt *p, const struct tt_rules *r, size_t open, const char *who, int quiet,
                       size_t *xend)
{
	*xend = 0;
	for (size_t i = open + 1; i + 2 < p->t[open].match; i++) {
		if (p->t[i].depth != p->t[open].depth + 1 || !pyt_string_is(p, i, word(r, "signature")) ||
		    !pyt_is(p, i + 1, PYT_OP, ":"))
			continue;
		size_t v = i + 2, end = value_end(p, i, p->t[open].match), uses = 0;
		const char *why = NULL;
		if (pyt_is(p, v, PYT_NAME, NULL) && v + 1 == end) {
			size_t l = list_var(p, v, &uses);
			if (!l)
				why = "a name the tool finds no `NAME = [...]` list for";
			else if (uses)
				why = "a list other code reads too";
			else if (!pyt_is(p, p->t[l].match + 1, PYT_NEWLINE, NULL))
				why = "a name bound to a list with an operator after it";
			else
				v = l;
		}
		size_t last;
		if (!why && v == i + 2 && !(pyt_is(p, v, PYT_OP, "[") && p->t[v].match + 1 == end) &&
		    sig_expr_count(p, v, end, &last) >= 0) {
			*xend = end;
			return v;
		}
		if (!why && !pyt_is(p, v, PYT_OP, "["))
			why = "an expression, not a list";
		else if (!why && p->t[v].match + 1 != end && v == i + 2)
			why = "a list with an operator after it";
		else if (!why && comp_for(p, v))
			why = "a list built by a comprehension";
		if (!why)
			return v;
		if (!quiet)
			pk_error("%s:%zu: %s signature is %s: write it as one list ([D.IN, D.OUT, ...]) or a sum of "
			         "repeated lists ([D.IN] * 4 + [D.OUT]) where the "
			         "dict names it, or give --test-script-by-hand in place of --test-script and add the "
			         "timing tensor's entry by hand; "
			         "nothing was written",
			         p->b->path, p->t[i].line + 1, who, why);
		return (size_t)-1;
	}
	return 0;
}

/* D.INOUT at index AT of the signature list at OPEN; the entries the list
 * leaves out before it are tensors the kernel reads (WHO says which list). */
static int plan_signature(struct tplan *tp, size_t open, size_t xend, long at, const char *who, size_t ord, long id)
{
	struct ped *e = tp->e;
	const struct pyt *p = &e->p;
	size_t n, last;
	if (xend) {
		long c = sig_expr_count(p, open, xend, &last);
		n = (size_t)c;
		if ((size_t)at < n)
			return pk_error("%s:%zu: %s signature is an expression of %zu entries and the timing tensor is "
			                "args[%ld], inside it: write it as one list ([D.IN, D.OUT, ...]), or give "
			                "--test-script-by-hand in place of --test-script and add the timing tensor's "
			                "entry by hand; nothing was written",
			                p->b->path, p->t[open].line + 1, who, n, at);
	} else {
		struct elems el;
		elements(p, open, &el);
		n = el.n;
		elems_free(&el);
	}
	char *out = py_text(e->sp, "signature_out", NULL, NULL), *pad = py_text(e->sp, "signature_pad", NULL, NULL);
	char *label = py_text(e->sp, "mark_signature", NULL, NULL);
	int rc = -1;
	if (out && pad && label) {
		struct pk_sb item = {0};
		for (size_t k = n; k < (size_t)at; k++)
			pk_sb_addf(&item, "%s, ", pad);
		pk_sb_add(&item, out);
		if ((size_t)at > n)
			pk_warning("%s:%zu: %s signature lists %zu tensor%s, the timing tensor is args[%ld]: %s added "
			           "for the ones it leaves out, so that it lands there; check their direction",
			           p->b->path, p->t[open].line + 1, who, n, n == 1 ? "" : "s", at, pad);
		if (xend) { /* one more list after the whole expression */
			struct pk_sb sum = {0};
			pk_sb_addf(&sum, " + [%s]", item.s);
			size_t t = p->t[xend - 1].e;
			rc = change_at(e, pyt_line_of(p, t - 1), t, t, sum.s);
			pk_sb_free(&sum);
		} else {
			rc = insert_item(e, open, (size_t)at, item.s, label);
		}
		pk_sb_free(&item);
		expect(tp, EXP_SIG, ord, id, ((size_t)at > n ? (size_t)at : n) + 1, (size_t)at);
	}
	free(out);
	free(pad);
	free(label);
	return rc;
}

/* Token I's block (a `def` or `class`): *indent its INDENT, *end its closing DEDENT. */
static int body_of(const struct pyt *p, size_t i, size_t *indent, size_t *end)
{
	size_t j = i;
	while (j < p->n && p->t[j].kind != PYT_NEWLINE)
		j++;
	if (j + 1 >= p->n || p->t[j + 1].kind != PYT_INDENT)
		return pk_error("%s:%zu: a block on one line: put its body on lines of its own; nothing was written",
		                p->b->path, p->t[i].line + 1);
	*indent = j + 1;
	for (j += 2; j < p->n && !(p->t[j].kind == PYT_DEDENT && p->t[j].level == p->t[i].level); j++)
		;
	*end = j;
	return 0;
}

/* What the capture lines name: the tensor, the kernel's path from the
 * script's folder (a Python string), and the comparator's own names of
 * its instance, the actual arguments and the case's params (the runtime
 * passes them by position). */
struct capture {
	const char *name;
	char *kernel;
	char *self, *args, *params;
};

/* The capture lines (capture_1, capture_2, ...) before physical line L, indented IND (N bytes). */
static int add_capture(struct ped *e, size_t l, const char *ind, size_t n, const struct capture *c)
{
	char rw[16];
	snprintf(rw, sizeof(rw), "%d", e->sp->lay.row_words);
	const char *names[] = {"prefix", "row_words", "name", "kernel", "self", "args", "params"};
	const char *vals[] = {e->sp->lay.prefix, rw, c->name, c->kernel, c->self, c->args, c->params};
	for (int k = 1;; k++) {
		char key[32];
		snprintf(key, sizeof(key), "capture_%d", k);
		const char *tmpl = tt_rule(e->sp->rules, "python", key);
		if (k > 1 && !tmpl)
			return 0;
		char *label = py_text(e->sp, "mark_capture", NULL, NULL);
		if (!tmpl || !label) {
			free(label);
			return tmpl ? -1 : pk_error("rules/timing.ini: [python] has no '%s'", key);
		}
		char *code = tt_expand(tmpl, names, vals, sizeof(names) / sizeof(names[0]));
		add_line(e, l, ind, n, code, label);
		free(code);
		free(label);
	}
}

/* The capture's names: the kernel as the script's folder sees it, and the
 * comparator's parameters at DEF (or compare_def's when DEF is none):
 * instance, actual arguments, and the case's params, by position. */
static int capture_names(const struct ped *e, size_t def, struct capture *c, const char *name)
{
	const struct pyt *p = &e->p;
	char *rel = pk_path_from(p->b->path, e->sp->opt.kernel_file);
	struct pk_sb q = {0};
	pk_sb_add(&q, "\"");
	for (const char *r = rel ? rel : e->sp->opt.kernel_file; *r; r++)
		pk_sb_addf(&q, "%s%c", *r == '"' || *r == '\\' ? "\\" : "", *r);
	pk_sb_add(&q, "\"");
	free(rel);
	*c = (struct capture){.name = name, .kernel = q.s};
	char *got[5] = {0};
	size_t open = def + 2, np = 0;
	int bad = 0; /* a parameter not a plain name (*args, **kw): not by position */
	if (def < p->n && pyt_is(p, open, PYT_OP, "(")) {
		int fresh = 1; /* at a parameter's first token */
		for (size_t i = open + 1; i < p->t[open].match; i++) {
			if (p->t[i].depth != p->t[open].depth + 1)
				continue;
			if (pyt_is(p, i, PYT_OP, ",")) {
				fresh = 1;
				continue;
			}
			if (fresh && p->t[i].kind != PYT_NAME)
				bad = 1;
			else if (fresh && np < 5)
				got[np] = pk_xstrndup(p->b->data + p->t[i].s, p->t[i].e - p->t[i].s);
			np += fresh;
			fresh = 0;
		}
	} else if (def >= p->n) { /* the comparator the tool adds: compare_def's own names */
		char *d = py_text(e->sp, "compare_def", NULL, NULL);
		const char *o = d ? strchr(d, '(') : NULL, *cl = o ? strchr(o, ')') : NULL;
		for (const char *q = o ? o + 1 : NULL; q && q < cl && np < 5; np++) {
			q += strspn(q, " ");
			size_t n = strcspn(q, ",)");
			while (n && q[n - 1] == ' ')
				n--;
			got[np] = pk_xstrndup(q, n);
			q = strchr(q, ',');
			q = q && q < cl ? q + 1 : NULL;
		}
		free(d);
	}
	if (np < 5 || bad) {
		for (size_t i = 0; i < 5; i++)
			free(got[i]);
		free(c->kernel);
		if (def >= p->n)
			return pk_error(
			    "rules/timing.ini: [python] compare_def names fewer than the five parameters the "
			    "runtime passes a comparator");
		char *d = py_text(e->sp, "compare_def", NULL, NULL);
		int rc = pk_error("%s:%zu: %s: the runtime passes it five arguments by position, and its "
		                  "parameters are not five plain names as in `%s`; save the timing tensor by hand",
		                  p->b->path, p->t[def].line + 1, word(e->sp->rules, "compare"), d ? d : "");
		free(d);
		return rc;
	}
	c->self = got[0];
	c->args = got[1];
	c->params = got[4];
	free(got[2]);
	free(got[3]);
	return 0;
}

static void capture_free(struct capture *c)
{
	free(c->kernel);
	free(c->self);
	free(c->args);
	free(c->params);
}

/* A comparator of its own (no super() call): one that reads output_names
 * compares by it, so the name is rebound to the numeric outputs after the
 * capture; one that never reads it compares only the outputs it names. */
static int plan_compare_own(struct ped *e, size_t def, size_t ind, size_t end, size_t l, const char *name)
{
	const struct pyt *p = &e->p;
	const char *on = word(e->sp->rules, "output_names");
	size_t use = end;
	for (size_t i = ind; i < end && use == end; i++)
		if (pyt_is(p, i, PYT_NAME, on))
			use = i;
	if (use == end)
		return 0;
	size_t open = def + 2;
	if (!pyt_is(p, open, PYT_OP, "(")) /* def NAME ( ... ): read the parameter list */
		return pk_error("%s:%zu: %s: its parameter list could not be read; leave the timing "
		                "output out of its comparison by hand",
		                p->b->path, p->t[def].line + 1, word(e->sp->rules, "compare"));
	int param = 0;
	for (size_t i = open + 1; i < p->t[open].match; i++)
		param |= pyt_is(p, i, PYT_NAME, on);
	if (!param)
		return pk_error("%s:%zu: %s reads '%s' without taking it as a parameter: "
		                "leave the timing output out of its comparison by hand",
		                p->b->path, p->t[use].line + 1, word(e->sp->rules, "compare"), on);
	char *f = py_text(e->sp, "compare_filter", "name", name);
	char *r = f ? py_text(e->sp, "compare_rebind", "outputs", f) : NULL;
	char *label = py_text(e->sp, "mark_compare_rebind", NULL, NULL);
	if (r && label)
		add_line(e, l, p->b->data + p->t[ind].s, p->t[ind].e - p->t[ind].s, r, label);
	int rc = r && label ? 0 : -1;
	free(f);
	free(r);
	free(label);
	return rc;
}

/* compare_outputs at DEF: the capture first, and its
 * super().compare_outputs(..., output_names, ...) given the numeric outputs
 * only, or, in a comparator of its own, output_names rebound to them. */
static int plan_compare_in(struct ped *e, size_t def, const char *name)
{
	const struct pyt *p = &e->p;
	const struct tt_rules *r = e->sp->rules;
	size_t ind, end;
	if (body_of(p, def, &ind, &end) < 0)
		return -1;
	size_t l = p->t[ind + 1].line;
	if (p->t[ind + 1].kind == PYT_STRING && p->t[ind + 2].kind == PYT_NEWLINE) /* after its docstring */
		l = pyt_line_of(p, p->t[ind + 1].e - 1) + 1;
	struct capture c;
	if (capture_names(e, def, &c, name) < 0)
		return -1;
	int crc = add_capture(e, l, p->b->data + p->t[ind].s, p->t[ind].e - p->t[ind].s, &c);
	capture_free(&c);
	if (crc < 0)
		return -1;
	int super = 0;
	for (size_t i = ind; i + 6 < end; i++) {
		if (!(pyt_is(p, i, PYT_NAME, word(r, "super")) && pyt_is(p, i + 3, PYT_OP, ".") &&
		      pyt_is(p, i + 4, PYT_NAME, word(r, "compare")) && pyt_is(p, i + 5, PYT_OP, "(")))
			continue;
		super = 1;
		for (size_t j = i + 6; j < p->t[i + 5].match; j++) {
			if (!pyt_is(p, j, PYT_NAME, word(r, "output_names")))
				continue;
			char *f = py_text(e->sp, "compare_filter", "name", name);
			int rc = f ? change_at(e, p->t[j].line, p->t[j].s, p->t[j].e, f) : -1;
			free(f);
			return rc;
		}
	}
	if (!super)
		return plan_compare_own(e, def, ind, end, l, name);
	return pk_error("%s:%zu: %s calls %s().%s without %s: "
	                "leave the timing output out of its comparison by hand",
	                p->b->path, p->t[def].line + 1, word(r, "compare"), word(r, "super"), word(r, "compare"),
	                word(r, "output_names"));
}

/* A compare_outputs added to the class at CLS (which has none): at its end,
 * or first in its body when the class ends the file on a line with no end of
 * line (lines added past it would need one the original does not have). */
static int plan_compare_new(struct ped *e, size_t cls, const char *name)
{
	const struct pyt *p = &e->p;
	size_t ind, end;
	if (body_of(p, cls, &ind, &end) < 0)
		return -1;
	size_t nl = end;
	while (nl > ind && p->t[nl].kind != PYT_NEWLINE)
		nl--;
	size_t l = p->t[nl].line + 1;
	const struct pk_buf *b = p->b;
	int first = l >= p->nl && b->len && b->data[b->len - 1] != '\n';
	if (first) {
		l = p->t[ind + 1].line;
		if (p->t[ind + 1].kind == PYT_STRING && p->t[ind + 2].kind == PYT_NEWLINE) /* after its docstring */
			l = pyt_line_of(p, p->t[ind + 1].e - 1) + 1;
	}
	const char *ci = p->b->data + p->t[ind].s;
	size_t cn = p->t[ind].e - p->t[ind].s, outer = line_indent(p, p->t[cls].line);
	struct pk_sb body = {0};
	pk_sb_addn(&body, ci, cn);
	pk_sb_addn(&body, ci + outer, cn - outer); /* one level deeper, the same way */
	char *f = py_text(e->sp, "compare_filter", "name", name), *d = py_text(e->sp, "compare_def", NULL, NULL);
	char *sup = f ? py_text(e->sp, "compare_super", "outputs", f) : NULL;
	char *ld = py_text(e->sp, "mark_compare_def", NULL, NULL),
	     *ls = py_text(e->sp, "mark_compare_super", NULL, NULL);
	int rc = f && d && sup && ld && ls ? 0 : -1;
	if (rc == 0) {
		if (!first)
			add_line(e, l, ci, cn, "", ld);
		add_line(e, l, ci, cn, d, ld);
		struct capture c;
		rc = capture_names(e, p->n, &c, name);
		if (rc == 0) {
			rc = add_capture(e, l, body.s, body.n, &c);
			capture_free(&c);
		}
	}
	if (rc == 0) {
		add_line(e, l, body.s, body.n, sup, ls);
		if (first)
			add_line(e, l, ci, cn, "", ld);
	}
	free(f);
	free(d);
	free(sup);
	free(ld);
	free(ls);
	pk_sb_free(&body);
	return rc;
}

/* The compare_outputs defined in the class at CLS (tokens to END), or p->n. */
static size_t compare_def(const struct pyt *p, const struct tt_rules *r, size_t cls, size_t end)
{
	size_t def = p->n;
	for (size_t i = cls + 1; i < end && i < p->n; i++)
		if (p->t[i].level == 1 && defines(p, i, "def", word(r, "compare")))
			def = i;
	return def;
}

/* The comparator of the test class at CLS (tokens to END): its own, or one added. */
static int plan_compare(struct ped *e, size_t cls, size_t end)
{
	struct pk_sb name = {0};
	pk_sb_addf(&name, "%s" PK_NAME_TIMING_TIMING, e->sp->lay.prefix);
	size_t def = compare_def(&e->p, e->sp->rules, cls, end);
	int rc = def < e->p.n ? plan_compare_in(e, def, name.s) : plan_compare_new(e, cls, name.s);
	pk_sb_free(&name);
	return rc;
}

/* The class the edits go into when no class names the orchestration or the
 * kernel: the top-level class holding the orchestration ORCH, else the last one. */
static size_t fallback_class(const struct pyt *p, size_t orch, size_t *end)
{
	size_t cls = p->n;
	for (size_t i = 0; i < p->n; i++)
		if (p->t[i].level == 0 && defines(p, i, "class", NULL) && (cls == p->n || i < orch))
			cls = i;
	*end = cls;
	while (*end < p->n && !(*end > cls && p->t[*end].kind == PYT_DEDENT && p->t[*end].level == 0))
		(*end)++;
	return cls;
}

/* One test class (tokens [LO, HI), ordinal ORD; the whole file when ORD is
 * (size_t)-1): its TensorArg, its orchestration's and the kernel's incores'
 * signatures, its comparator. */
static int plan_class(struct tplan *tp, size_t lo, size_t hi, size_t ord, long func_id)
{
	struct ped *e = tp->e;
	const struct pyt *p = &e->p;
	const struct tt_rules *r = e->sp->rules;
	const struct tt_spec *sp = e->sp;
	int rc = plan_tensorarg(tp, lo, hi, ord);
	size_t orch = orch_dict(p, r, lo, hi), s;
	if (rc == 0 && orch) {
		size_t xend;
		s = sig_list(p, r, orch, "the orchestration's", 0, &xend);
		rc = s == (size_t)-1 ? -1
		     : s             ? plan_signature(tp, s, xend, tp->external, "the orchestration's", ord, -1)
		                     : 0;
	}
	for (size_t t = 0; t <= sp->lay.ntwins && rc == 0; t++) { /* the kernel's incore and its twins' */
		long id = t ? sp->lay.twins[t - 1] : func_id;
		size_t inc = incore_at(p, r, lo, hi, &id, sp->opt.kernel_file),
		       d = inc < p->n ? enclosing(p, inc) : (size_t)-1;
		char who[64];
		snprintf(who, sizeof(who), "the incore's (%s %ld)", word(r, "func_id"), id);
		if (d == (size_t)-1)
			continue;
		size_t xend;
		s = sig_list(p, r, d, who, 0, &xend);
		rc = s == (size_t)-1 ? -1 : s ? plan_signature(tp, s, xend, tp->k->ntensors, who, ord, id) : 0;
	}
	if (rc < 0)
		return -1;
	size_t end, cls = ord == (size_t)-1 ? fallback_class(p, orch ? orch : p->n, &end) : lo;
	if (ord == (size_t)-1)
		hi = end;
	if (cls == p->n)
		return pk_error("%s: no test class", p->b->path);
	return plan_compare(e, cls, hi);
}

/* Does the class at CLS name class NAME (token) among its bases? */
static int derives(const struct pyt *p, size_t cls, size_t name)
{
	size_t open = cls + 2, n = p->t[name].e - p->t[name].s;
	if (!pyt_is(p, open, PYT_OP, "("))
		return 0;
	for (size_t i = open + 1; i < p->t[open].match; i++)
		if (pyt_is(p, i, PYT_NAME, NULL) && p->t[i].e - p->t[i].s == n &&
		    !memcmp(p->b->data + p->t[i].s, p->b->data + p->t[name].s, n) && !pyt_is(p, i + 1, PYT_OP, "."))
			return 1;
	return 0;
}

/* A class deriving from a chosen one, with no orchestration of its own, runs
 * the same host: its own comparator and its own TensorArg list are edited
 * too (chosen in turn, so its subclasses follow). */
static int plan_derived(struct tplan *tp, struct tclass *v, size_t n)
{
	const struct pyt *p = &tp->e->p;
	const struct tt_rules *r = tp->e->sp->rules;
	for (int more = 1; more;) {
		more = 0;
		for (size_t i = 0; i < n; i++) {
			if (v[i].chosen || v[i].orch)
				continue;
			int base = 0;
			for (size_t j = 0; j < n && !base; j++)
				base = v[j].chosen && derives(p, v[i].cls, v[j].cls + 1);
			if (!base)
				continue;
			v[i].chosen = 2;
			more = 1;
			size_t elem;
			args_list(p, r, v[i].cls, v[i].end, &elem);
			if (elem < p->n && plan_tensorarg(tp, v[i].cls, v[i].end, i) < 0)
				return -1;
			if (compare_def(p, r, v[i].cls, v[i].end) < p->n && plan_compare(tp->e, v[i].cls, v[i].end) < 0)
				return -1;
		}
	}
	return 0;
}

/* Classes that run the kernel with an orchestration this run does not change. */
static void warn_others(const struct pyt *p, const struct tclass *v, size_t n, const char *kernel)
{
	for (size_t i = 0; i < n; i++)
		if (!v[i].chosen && v[i].kernel_parts && v[i].orch)
			pk_warning(
			    "%s:%zu: class %.*s also builds %s, with another orchestration this run leaves as it "
			    "is: its test cannot pass while the kernel is instrumented",
			    p->b->path, p->t[v[i].cls].line + 1, (int)(p->t[v[i].cls + 1].e - p->t[v[i].cls + 1].s),
			    p->b->data + p->t[v[i].cls + 1].s, kernel);
}

/* ---- the read-back: the edited script, read again ---- */

/* A comprehension's target: the tokens between its `for` and its `in`. */
struct target {
	size_t s, e;
};

/* Every comprehension target of P in order, and how many brackets holding a
 * comprehension have a comma outside its targets (not Python). */
static size_t comp_targets(const struct pyt *p, struct target **out, size_t *bad)
{
	struct target *v = NULL;
	size_t n = 0, cap = 0;
	*bad = 0;
	for (size_t o = 0; o < p->n; o++) {
		py_work++;
		if (p->t[o].kind != PYT_OP || p->t[o].match == (size_t)-1 || p->t[o].match < o || !comp_for(p, o))
			continue;
		int d = p->t[o].depth + 1, in_target = 0;
		for (size_t i = o + 1; i < p->t[o].match; i++) {
			py_work++;
			if (p->t[i].depth != d)
				continue;
			if (pyt_is(p, i, PYT_NAME, "for")) {
				in_target = 1;
				PK_GROW(v, cap, n + 1);
				v[n++] = (struct target){i + 1, i + 1};
			} else if (in_target && pyt_is(p, i, PYT_NAME, "in")) {
				in_target = 0;
				v[n - 1].e = i;
			} else if (!in_target && pyt_is(p, i, PYT_OP, ",")) {
				(*bad)++;
			}
		}
	}
	*out = v;
	return n;
}

static int same_tokens(const struct pyt *a, const struct target *x, const struct pyt *b, const struct target *y)
{
	if (x->e - x->s != y->e - y->s)
		return 0;
	for (size_t i = 0; i < x->e - x->s; i++) {
		const struct pyt_tok *s = &a->t[x->s + i], *t = &b->t[y->s + i];
		if (s->e - s->s != t->e - t->s || memcmp(a->b->data + s->s, b->b->data + t->s, s->e - s->s))
			return 0;
	}
	return 1;
}

/* Names only (and commas, brackets), none of which the original file holds. */
static int fresh_target(const struct pyt *orig, const struct pyt *q, const struct target *y)
{
	for (size_t i = y->s; i < y->e; i++) {
		if (pyt_is(q, i, PYT_OP, ",") || pyt_is(q, i, PYT_OP, "(") || pyt_is(q, i, PYT_OP, ")"))
			continue;
		if (!pyt_is(q, i, PYT_NAME, NULL))
			return 0;
		size_t n = q->t[i].e - q->t[i].s;
		for (size_t k = 0; k < orig->n; k++)
			if (orig->t[k].kind == PYT_NAME && orig->t[k].e - orig->t[k].s == n &&
			    !memcmp(orig->b->data + orig->t[k].s, q->b->data + q->t[i].s, n))
				return 0;
	}
	return 1;
}

/* The comprehensions of the edited text Q: each original one with the same
 * target, in order, and the ones the edit adds on fresh names only; no comma
 * the original did not have beside a comprehension. */
static int check_comprehensions(const struct pyt *orig, const struct pyt *q)
{
	struct target *a, *b;
	size_t bad_a, bad_b, na = comp_targets(orig, &a, &bad_a), nb = comp_targets(q, &b, &bad_b), k = 0;
	int rc = 0;
	for (size_t i = 0; i < nb && rc == 0; i++) {
		if (k < na && same_tokens(orig, &a[k], q, &b[i]))
			k++;
		else if (!fresh_target(orig, q, &b[i]))
			rc = pk_error("%s:%zu: internal error: the edit would put code into the target of a "
			              "comprehension (`for ... in`); nothing was written",
			              orig->b->path, (b[i].s < q->n ? q->t[b[i].s].line : 0) + 1);
	}
	if (rc == 0 && k < na)
		rc = pk_error("%s:%zu: internal error: the edit would change the target of this comprehension; "
		              "nothing was written",
		              orig->b->path, orig->t[a[k].s].line + 1);
	if (rc == 0 && bad_b > bad_a)
		rc = pk_error("%s: internal error: the edit would put an element beside a comprehension in one "
		              "bracket (not Python); nothing was written",
		              orig->b->path);
	free(a);
	free(b);
	return rc;
}

/* One expectation of the plan, read again in the edited text Q. */
static int check_expect(const struct tplan *tp, const struct pyt *q, const struct tclass *v, size_t n,
                        const struct texp *x)
{
	const struct tt_rules *r = tp->e->sp->rules;
	const char *path = tp->e->p.b->path;
	size_t lo = 0, hi = q->n;
	if (x->cls != (size_t)-1) {
		if (x->cls >= n)
			return pk_error("%s: internal error: the edited script has fewer classes; nothing was written",
			                path);
		lo = v[x->cls].cls;
		hi = v[x->cls].end;
	}
	size_t open, elem;
	const char *what;
	if (x->what == EXP_APPEND) {
		open = args_list(q, r, lo, hi, &elem);
		struct pk_sb name = {0};
		pk_sb_addf(&name, "%s" PK_NAME_TIMING_TIMING, tp->e->sp->lay.prefix);
		size_t got = count_tensorargs(q, r, lo, hi);
		int ok = open < q->n &&
		         ((append_call(q, r, open) && elem == open + 1) || insert_call(q, r, open, elem)) &&
		         pyt_string_is(q, elem + 2, name.s) && (size_t)q->t[elem].level == x->at && got == x->count;
		pk_sb_free(&name);
		if (ok)
			return 0;
		return pk_error(
		    "%s: internal error: read back, the timing %s is not the last one, added once by its own "
		    "statement at the loop's level (%zu %ss, not %zu); nothing was written",
		    path, word(r, "tensorarg"), got, word(r, "tensorarg"), x->count);
	}
	if (x->what == EXP_ARGS) {
		open = args_list(q, r, lo, hi, &elem);
		what = word(r, "tensorarg");
	} else {
		long id = x->id;
		size_t d =
		    x->id < 0 ? orch_dict(q, r, lo, hi) : incore_at(q, r, lo, hi, &id, tp->e->sp->opt.kernel_file);
		d = x->id >= 0 && d < q->n ? enclosing(q, d) : d;
		size_t xend = 0;
		open = d && d != (size_t)-1 && d < q->n ? sig_list(q, r, d, "", 1, &xend) : (size_t)-1;
		what = "signature";
		if (xend) {
			size_t last;
			long c = sig_expr_count(q, open, xend, &last);
			int ok = c >= 0 && (size_t)c == x->count && x->at + 1 == (size_t)c && last;
			if (ok) {
				struct elems le;
				elements(q, last, &le);
				char *out = py_text(tp->e->sp, "signature_out", NULL, NULL);
				size_t s = le.n ? q->t[le.first[le.n - 1]].s : 0,
				       e = le.n ? q->t[le.last[le.n - 1]].e : 0;
				ok = out && le.n && strlen(out) == e - s && !memcmp(q->b->data + s, out, e - s);
				free(out);
				elems_free(&le);
			}
			if (ok)
				return 0;
			return pk_error(
			    "%s: internal error: read back, the signature expression of %s%s holds %ld entries, "
			    "not %zu ending with the timing tensor; nothing was written",
			    path, x->cls == (size_t)-1 ? "the script" : "class ",
			    x->cls == (size_t)-1 ? "" : "(edited)", c, x->count);
		}
	}
	struct elems el = {0};
	if (open != (size_t)-1 && open != (size_t)-2 && open)
		elements(q, open, &el);
	size_t got = el.n;
	int at_ok = x->at < el.n;
	if (at_ok && x->what == EXP_SIG) {
		char *out = py_text(tp->e->sp, "signature_out", NULL, NULL);
		size_t s = q->t[el.first[x->at]].s, e = q->t[el.last[x->at]].e;
		at_ok = out && strlen(out) == e - s && !memcmp(q->b->data + s, out, e - s);
		free(out);
	}
	elems_free(&el);
	if (got == x->count && at_ok)
		return 0;
	return pk_error("%s: internal error: read back, the %s list of %s%s holds %zu entries, not %zu with the timing "
	                "tensor at %zu; nothing was written",
	                path, what, x->cls == (size_t)-1 ? "the script" : "class ",
	                x->cls == (size_t)-1 ? "" : "(edited)", got, x->count, x->at);
}

/* Apply the plan and read the edited script again: Python the tokens read,
 * the comprehensions as they were, every list the plan extends holding its
 * new count with the timing entry where the kernel reads it. */
static int verify_test(struct tplan *tp, const char *host, struct tclass *orig_cls, size_t norig)
{
	struct ped *e = tp->e;
	struct pk_plan copy;
	pk_plan_init(&copy);
	for (size_t i = 0; i < e->plan->n; i++)
		pk_plan_add(&copy, e->plan->e[i].start, e->plan->e[i].end, e->plan->e[i].text, e->plan->e[i].text_len);
	int rc = pk_plan_check(&copy, e->p.b->path, e->p.b->len);
	if (rc < 0) {
		pk_plan_free(&copy);
		return rc;
	}
	struct pk_buf out = *e->p.b;
	pk_plan_apply(&copy, e->p.b->data, e->p.b->len, &out.data, &out.len);
	pk_plan_free(&copy);
	struct pyt q;
	if (pyt_scan(&q, &out) < 0) {
		free(out.data);
		return pk_error("%s: internal error: the edit would leave Python the tool cannot read (above); "
		                "nothing was written",
		                e->p.b->path);
	}
	rc = check_comprehensions(&e->p, &q);
	struct tclass *v;
	size_t n = test_classes(&q, e->sp->rules, host, e->sp->opt.kernel_file, &v);
	if (rc == 0 && norig && n != norig)
		rc = pk_error("%s: internal error: read back, the edited script has %zu test classes, not %zu; "
		              "nothing was written",
		              e->p.b->path, n, norig);
	for (size_t i = 0; rc == 0 && norig && i < n; i++)
		if ((v[i].chosen == 1) != (orig_cls[i].chosen == 1))
			rc =
			    pk_error("%s:%zu: internal error: read back, class %.*s is no longer the one whose "
			             "orchestration and kernel were matched; nothing was written",
			             e->p.b->path, q.t[v[i].cls].line + 1,
			             (int)(q.t[v[i].cls + 1].e - q.t[v[i].cls + 1].s), q.b->data + q.t[v[i].cls + 1].s);
	for (size_t i = 0; rc == 0 && i < tp->nexp; i++)
		rc = check_expect(tp, &q, v, n, &tp->exp[i]);
	free(v);
	pyt_free(&q);
	free(out.data);
	return rc;
}

int tt_py_plan_test(const struct pk_buf *b, const struct tt_kernel *k, const struct tt_spec *sp, long func_id,
                    long external, struct pk_plan *plan)
{
	struct ped e = {.plan = plan, .sp = sp};
	if (pyt_scan(&e.p, b) < 0)
		return -1;
	const struct pyt *p = &e.p;
	struct tplan tp = {.e = &e, .external = external, .k = k};
	struct tclass *v;
	size_t n = test_classes(p, sp->rules, sp->opt.host_file, sp->opt.kernel_file, &v);
	int rc = 0;
	if (!n) {
		rc = plan_class(&tp, 0, p->n, (size_t)-1, func_id);
	} else {
		for (size_t i = 0; i < n && rc == 0; i++)
			if (v[i].chosen)
				rc = plan_class(&tp, v[i].cls, v[i].end, i, func_id);
		if (rc == 0)
			rc = plan_derived(&tp, v, n);
		if (rc == 0)
			warn_others(p, v, n, sp->opt.kernel_file);
	}
	if (rc == 0)
		rc = verify_test(&tp, sp->opt.host_file, v, n);
	free(v);
	pyt_free(&e.p);
	return rc;
}

char *tt_py_incore_source(const struct pk_buf *b, const struct tt_rules *r, const char *kernel, const char *host,
                          long id)
{
	struct pyt p;
	if (pyt_scan(&p, b) < 0)
		return NULL;
	struct tclass *cls;
	size_t ncls = test_classes(&p, r, host, kernel, &cls), lo, hi;
	chosen_scope(&p, cls, ncls, &lo, &hi);
	free(cls);
	char *out = NULL;
	for (size_t i = lo; i + 2 < hi && !out; i++)
		if (func_id_at(&p, r, i) == id)
			out = incore_source(&p, r, i);
	pyt_free(&p);
	return out;
}
