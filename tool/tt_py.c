/* tt_py.c - the Python sides of the timing tensor, on text lines:
 *  - a pypto `@pl.jit.extern` signature gains `PREFIXtiming: pl.Out[pl.Tensor]`
 *    after its last tensor parameter; every call of that extern passes a
 *    tensor made above the call's statement (an extern argument must be a
 *    bound variable);
 *  - a simpler test script: the golden TensorArg (zeros) after the last one,
 *    D.OUT in the orchestration's and the kernel's signature, and a
 *    compare_outputs that saves the ACTUAL tensor and leaves it out of the
 *    numeric comparison only.
 * Python has no in-line comment: an added line ends with
 * `# TIMING_PROBE: @timing LABEL`, a changed line with
 * `# TIMING_PROBE: @timing-line "ORIGINAL"` (probe-strip puts ORIGINAL back). */
#include "tt.h"
#include "pk.h"
#include "timing_strip.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct lines {
	const struct pk_buf *b;
	size_t *s, *e; /* start, end (before the end of line) */
	size_t n;
};

static void split(const struct pk_buf *b, struct lines *l)
{
	memset(l, 0, sizeof(*l));
	l->b = b;
	size_t cap = 0;
	for (size_t p = 0; p < b->len;) {
		const char *nl = memchr(b->data + p, '\n', b->len - p);
		size_t e = nl ? (size_t)(nl - b->data) : b->len;
		PK_GROW(l->s, cap, l->n + 1);
		l->e = realloc(l->e, cap * sizeof(size_t));
		l->s[l->n] = p;
		l->e[l->n] = e > p && b->data[e - 1] == '\r' ? e - 1 : e;
		l->n++;
		p = nl ? e + 1 : b->len;
	}
}

static void lines_free(struct lines *l)
{
	free(l->s);
	free(l->e);
}

static size_t indent(const struct lines *l, size_t i)
{
	size_t k = 0;
	while (l->s[i] + k < l->e[i] && l->b->data[l->s[i] + k] == ' ')
		k++;
	return k;
}

static int blank(const struct lines *l, size_t i)
{
	for (size_t p = l->s[i]; p < l->e[i]; p++)
		if (!isspace((unsigned char)l->b->data[p]))
			return l->b->data[p] == '#';
	return 1;
}

static const char *find_in(const struct lines *l, size_t i, const char *what)
{
	const char *p = memmem(l->b->data + l->s[i], l->e[i] - l->s[i], what, strlen(what));
	return p;
}

/* A whole new line before line I, indented by IND. */
static void add_line(const struct lines *l, struct pk_plan *plan, size_t i, size_t ind, const char *code,
                     const char *label)
{
	struct pk_sb sb = {0};
	for (size_t k = 0; k < ind; k++)
		pk_sb_add(&sb, " ");
	pk_sb_addf(&sb, "%s  " PK_TT_PY_MARK " %s%s", code, label, pk_buf_eol(l->b));
	size_t at = i < l->n ? l->s[i] : l->b->len;
	pk_plan_add(plan, at, at, sb.s, sb.n);
	pk_sb_free(&sb);
}

/* Line I becomes NEW (its whole text), the original kept in the mark. */
static void change_line(const struct lines *l, struct pk_plan *plan, size_t i, const char *new_text)
{
	struct pk_sb sb = {0};
	pk_sb_addf(&sb, "%s  " PK_TT_PY_LINE_OPEN, new_text);
	for (size_t p = l->s[i]; p < l->e[i]; p++) {
		char c = l->b->data[p];
		if (c == '\\' || c == '"')
			pk_sb_addf(&sb, "\\%c", c);
		else if (c == '\t')
			pk_sb_add(&sb, "\\t");
		else
			pk_sb_addn(&sb, &c, 1);
	}
	pk_sb_add(&sb, "\"");
	pk_plan_add(plan, l->s[i], l->e[i], sb.s, sb.n);
	pk_sb_free(&sb);
}

/* ---- pypto extern ---- */

struct ext {
	size_t def;        /* line of `def NAME(` */
	size_t last_param; /* line of the last tensor parameter */
	long tensors, scalars;
};

static int is_tensor_ann(const char *p, size_t n)
{
	return memmem(p, n, "pl.Tensor", 9) || memmem(p, n, "pl.Out[", 7) || memmem(p, n, "pl.InOut[", 9);
}

static int read_extern(const struct lines *l, size_t def, struct ext *x)
{
	memset(x, 0, sizeof(*x));
	x->def = def;
	if (l->e[def] == l->s[def] || l->b->data[l->e[def] - 1] != '(')
		return pk_error("%s:%zu: write the extern's parameters one a line after 'def NAME('", l->b->path,
		                def + 1);
	for (size_t i = def + 1; i < l->n; i++) {
		const char *d = l->b->data + l->s[i];
		size_t n = l->e[i] - l->s[i], k = indent(l, i);
		if (blank(l, i))
			continue;
		if (d[k] == ')')
			return x->tensors ? 0 : pk_error("%s:%zu: extern has no tensor parameter", l->b->path, def + 1);
		const char *colon = memchr(d, ':', n);
		if (!colon)
			return pk_error("%s:%zu: parameter without annotation; write one parameter per line",
			                l->b->path, i + 1);
		if (is_tensor_ann(colon, n - (size_t)(colon - d))) {
			if (x->scalars)
				return pk_error("%s:%zu: tensor parameter after a scalar: pypto packs tensors first",
				                l->b->path, i + 1);
			x->tensors++;
			x->last_param = i;
		} else {
			x->scalars++;
		}
	}
	return pk_error("%s: extern signature not closed", l->b->path);
}

/* The `def NAME(` line of the @pl.jit.extern named NAME (or the only one). */
static int find_extern(const struct lines *l, const char *name, size_t *def)
{
	int found = 0;
	struct pk_sb names = {0};
	for (size_t i = 0; i + 1 < l->n; i++) {
		if (!find_in(l, i, "@pl.jit.extern"))
			continue;
		size_t j = i + 1;
		while (j < l->n && !find_in(l, j, "def "))
			j++;
		if (j >= l->n)
			break;
		const char *p = find_in(l, j, "def ") + 4;
		size_t n = strcspn(p, "(");
		pk_sb_addf(&names, "%s%.*s", names.n ? ", " : "", (int)n, p);
		if (name ? (strlen(name) == n && !strncmp(p, name, n)) : 1) {
			found++;
			*def = j;
		}
	}
	int rc = 0;
	if (!found)
		rc = pk_error("%s: no @pl.jit.extern%s%s (externs: %s)", l->b->path, name ? " named " : "",
		              name ? name : "", names.n ? names.s : "none");
	else if (found > 1 && !name)
		rc =
		    pk_error("%s: several externs (%s): name one with --host %s:NAME", l->b->path, names.s, l->b->path);
	pk_sb_free(&names);
	return rc;
}

long tt_py_extern_tensors(const struct pk_buf *b, const char *name)
{
	struct lines l;
	split(b, &l);
	size_t def = 0;
	struct ext x;
	long rc = find_extern(&l, name, &def) < 0 || read_extern(&l, def, &x) < 0 ? -1 : x.tensors;
	lines_free(&l);
	return rc;
}

/* The statement at the function body's indentation holding line I. */
static size_t body_stmt(const struct lines *l, size_t i)
{
	size_t d = i;
	while (d > 0 && !(find_in(l, d, "def ") && indent(l, d) < indent(l, i)))
		d--;
	size_t first = d + 1;
	while (first < l->n && (blank(l, first) || indent(l, first) <= indent(l, d) ||
	                        l->b->data[l->s[first] + indent(l, first)] == ')'))
		first++;
	size_t want = first < l->n ? indent(l, first) : 4;
	for (size_t j = i; j > d; j--) {
		char c = l->b->data[l->s[j] + indent(l, j)];
		if (!blank(l, j) && indent(l, j) == want && c != ')' && c != ']' && c != '@')
			return j;
	}
	return i;
}

/* One call NAME( over several lines, one argument a line: the timing tensor after the K-th. */
static int plan_call(const struct lines *l, size_t i, const char *name, long k, const struct tt_spec *sp,
                     struct pk_plan *plan)
{
	const char *p = find_in(l, i, name);
	const char *after = p + strlen(name);
	if (after < l->b->data + l->e[i] && after[strspn(after, " ")] != '\n' &&
	    (size_t)(l->b->data + l->e[i] - after) > 1 + strspn(after + 1, " "))
		return pk_error("%s:%zu: call of '%s' with arguments on its first line: write one argument a line",
		                l->b->path, i + 1, name);
	long seen = 0;
	size_t j = i + 1;
	for (; j < l->n && seen < k; j++)
		if (!blank(l, j))
			seen++;
	if (seen < k)
		return pk_error("%s:%zu: call of '%s' passes fewer than %ld tensors", l->b->path, i + 1, name, k);
	struct pk_sb v = {0}, mk = {0};
	pk_sb_addf(&v, "%stiming,", sp->prefix);
	add_line(l, plan, j, indent(l, j - 1), v.s, "tensor argument");
	size_t st = body_stmt(l, i);
	const char *tmpl = tt_rule(sp->rules, "host", "pypto_create");
	char rw[16];
	snprintf(rw, sizeof(rw), "%d", sp->row_words);
	const char *names[] = {"prefix", "slots", "row_words"}, *vals[] = {sp->prefix, sp->slots, rw};
	char *c = tt_expand(tmpl ? tmpl : "{prefix}timing = pl.create_tensor([{slots}, {row_words}], dtype=pl.INT64)",
	                    names, vals, 3);
	add_line(l, plan, st, indent(l, st), c, "tensor");
	free(c);
	pk_sb_free(&v);
	pk_sb_free(&mk);
	return 0;
}

/* Does C (on line I) stand inside a string literal or a comment of that
 * line? Quotes and '#' are followed from the line's start. */
static int in_text(const struct lines *l, size_t i, const char *c)
{
	char q = 0;
	for (const char *p = l->b->data + l->s[i]; p < c; p++) {
		if (q && *p == '\\' && p + 1 < c)
			p++;
		else if (q && *p == q)
			q = 0;
		else if (!q && (*p == '"' || *p == '\''))
			q = *p;
		else if (!q && *p == '#')
			return 1;
	}
	return q != 0;
}

/* Every call `NAME(` in L (but on line DEF, the extern's own def): the
 * timing tensor passed after the K-th argument. The number of calls, -1 on
 * error. */
static int plan_calls(const struct lines *l, size_t def, const char *call, long k, const struct tt_spec *sp,
                      struct pk_plan *plan)
{
	int calls = 0;
	for (size_t i = 0; i < l->n; i++) {
		const char *c = find_in(l, i, call);
		if (!c || i == def ||
		    (c > l->b->data + l->s[i] && (isalnum((unsigned char)c[-1]) || c[-1] == '_' || c[-1] == '.')) ||
		    in_text(l, i, c))
			continue; /* not a call: a longer name, a string, a comment */
		if (plan_call(l, i, call, k, sp, plan) < 0)
			return -1;
		calls++;
	}
	return calls;
}

int tt_py_plan_extern(const struct pk_buf *b, const char *name, const struct tt_spec *sp, struct pk_plan *plan)
{
	struct lines l;
	split(b, &l);
	size_t def = 0;
	struct ext x;
	int rc = find_extern(&l, name, &def) < 0 || read_extern(&l, def, &x) < 0 ? -1 : 0;
	if (rc == 0) {
		struct pk_sb t = {0};
		pk_sb_addf(&t, "%stiming: pl.Out[pl.Tensor],", sp->prefix);
		char label[48];
		snprintf(label, sizeof(label), "tensor (args[%ld])", x.tensors);
		add_line(&l, plan, x.last_param + 1, indent(&l, x.last_param), t.s, label);
		pk_sb_free(&t);
		const char *p = find_in(&l, def, "def ") + 4;
		char *fname = pk_xstrndup(p, strcspn(p, "("));
		for (size_t i = def; i-- > 0 && !find_in(&l, i + 1, "@pl.jit.extern");)
			if (find_in(&l, i, "core_type=\"mixed\""))
				pk_warning(
				    "%s:%zu: extern '%s' is mixed: its AIC and AIV lanes run the entry and write the "
				    "same timing rows (the slot is the task's block index); a row holds the last "
				    "lane to finish",
				    b->path, i + 1, fname);
		struct pk_sb call = {0};
		pk_sb_addf(&call, "%s(", fname);
		int calls = plan_calls(&l, def, call.s, x.tensors, sp, plan);
		rc = calls < 0 ? -1 : 0;
		for (size_t i = 0; i < sp->npycallers && rc == 0; i++) {
			struct lines cl;
			split(sp->pycallers[i].b, &cl);
			int n = plan_calls(&cl, cl.n, call.s, x.tensors, sp, sp->pycallers[i].plan);
			lines_free(&cl);
			if (n == 0)
				rc = pk_error("%s: no call of extern '%s' in this file", sp->pycallers[i].b->path,
				              fname);
			rc = n < 0 ? -1 : rc;
			calls += n > 0 ? n : 0;
		}
		if (rc == 0 && !calls)
			pk_warning(
			    "%s: extern '%s' is not called in this file: its callers must pass the timing tensor "
			    "(name their files with --edit FILE.py)",
			    b->path, fname);
		free(fname);
		pk_sb_free(&call);
	}
	lines_free(&l);
	return rc;
}

/* ---- simpler test script ---- */

/* Line I holds `"signature": [A, B, ...]`: D.OUT goes after the AT-th element. */
static int plan_signature(const struct lines *l, size_t i, long at, struct pk_plan *plan)
{
	const char *d = l->b->data + l->s[i], *end = l->b->data + l->e[i];
	const char *o = memchr(d, '[', (size_t)(end - d));
	const char *c = o ? memchr(o, ']', (size_t)(end - o)) : NULL;
	if (!o || !c)
		return pk_error("%s:%zu: write the signature list on one line", l->b->path, i + 1);
	const char *q = o + 1;
	for (long k = 0; k < at && q < c; k++) {
		const char *comma = memchr(q, ',', (size_t)(c - q));
		q = comma ? comma + 1 : c;
	}
	struct pk_sb sb = {0};
	pk_sb_addn(&sb, d, (size_t)(q - d));
	if (q == c) {
		size_t n = sb.n;
		while (n > 0 && sb.s[n - 1] == ' ')
			n--;
		int comma = n > 0 && sb.s[n - 1] != '[' && sb.s[n - 1] != ',';
		sb.n = n;
		sb.s[n] = '\0';
		pk_sb_add(&sb, comma ? ", D.OUT" : (n > 0 && sb.s[n - 1] == ',' ? " D.OUT" : "D.OUT"));
	} else {
		pk_sb_add(&sb, at ? " D.OUT," : "D.OUT, ");
	}
	pk_sb_addn(&sb, q, (size_t)(end - q));
	change_line(l, plan, i, sb.s);
	pk_sb_free(&sb);
	return 0;
}

/* The line of the next `"signature"` after line FROM, before a line holding STOP. */
static size_t next_sig(const struct lines *l, size_t from, const char *stop)
{
	for (size_t i = from; i < l->n; i++) {
		if (find_in(l, i, "\"signature\""))
			return i;
		if (stop && i > from && find_in(l, i, stop))
			break;
	}
	return l->n;
}

/* The "source" string of the incore entry at line I: *src, *n; 0 if none. */
static int incore_source(const struct lines *l, size_t i, const char **src, size_t *n)
{
	for (size_t j = i; j < l->n && j < i + 6; j++) {
		const char *p = find_in(l, j, "\"source\"");
		if (!p)
			continue;
		const char *e = l->b->data + l->e[j];
		const char *q = memchr(p + 8, '"', (size_t)(e - p - 8));
		const char *qe = q ? memchr(q + 1, '"', (size_t)(e - q - 1)) : NULL;
		if (!qe)
			return 0;
		*src = q + 1;
		*n = (size_t)(qe - q - 1);
		return 1;
	}
	return 0;
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

/* The value of the "func_id" at line I, or -1 when the line has none. */
static long func_id_at(const struct lines *l, size_t i)
{
	const char *f = find_in(l, i, "\"func_id\"");
	return f ? strtol(f + 10 + strspn(f + 10, ": "), NULL, 10) : -1;
}

/* The incore entry of FUNC_ID or, with func_id < 0, the one whose source
 * shares the most trailing path components with KERNEL (at least the file
 * name; the first of equals), setting *func_id. */
static size_t incore_line(const struct lines *l, long *func_id, const char *kernel)
{
	size_t best = l->n, best_parts = 0;
	for (size_t i = 0; i < l->n; i++) {
		long id = func_id_at(l, i);
		if (id < 0)
			continue;
		if (*func_id >= 0) {
			if (id == *func_id)
				return i;
			continue;
		}
		const char *src;
		size_t n, parts;
		if (incore_source(l, i, &src, &n) && (parts = shared_components(src, n, kernel)) > best_parts) {
			best = i;
			best_parts = parts;
		}
	}
	if (best < l->n)
		*func_id = func_id_at(l, best);
	return best;
}

/* Up to CAP other ids of incores whose source is the one of the incore at MINE. */
static size_t twins_of(const struct lines *l, size_t mine, long id, long *twins, size_t cap)
{
	size_t n = 0, mn;
	const char *ms;
	if (mine < l->n && incore_source(l, mine, &ms, &mn))
		for (size_t i = 0; i < l->n && n < cap; i++) {
			long other = func_id_at(l, i);
			const char *src;
			size_t sn;
			if (other >= 0 && other != id && incore_source(l, i, &src, &sn) && sn == mn &&
			    !memcmp(src, ms, sn))
				twins[n++] = other;
		}
	return n;
}

/* Incores built by computation: a table row `(N, "STEM", ...)` whose STEM is
 * the kernel's file name without its extension (`source =
 * f"kernels/{core_type}/{name}.cpp"`), or the kernel's path as the N-th string
 * of an `enumerate([...])` list (`for func_id, source in enumerate(...)`). */
static long computed_func_id(const struct lines *l, const char *kernel)
{
	const char *base = strrchr(kernel, '/');
	base = base ? base + 1 : kernel;
	size_t stem = strcspn(base, ".");
	for (size_t i = 0; i < l->n; i++) {
		const char *p = l->b->data + l->s[i], *e = l->b->data + l->e[i];
		p += strspn(p, " \t");
		char *end;
		long id = p < e && *p == '(' ? strtol(p + 1, &end, 10) : -1;
		if (id >= 0 && end > p + 1 && end < e && *end == ',') {
			end += 1 + strspn(end + 1, " ");
			if (end + stem + 2 <= e && *end == '"' && !memcmp(end + 1, base, stem) && end[stem + 1] == '"')
				return id;
		}
		if (!find_in(l, i, "enumerate("))
			continue;
		long n = 0;
		for (size_t j = i; j < l->n && j < i + 64; j++) {
			const char *q = find_in(l, j, "\"");
			if (q && q[1] != '"') {
				const char *qe = memchr(q + 1, '"', (size_t)(l->b->data + l->e[j] - q - 1));
				size_t kl = strlen(kernel);
				if (qe && (size_t)(qe - q - 1) >= kl && !memcmp(qe - kl, kernel, kl))
					return n;
				n += qe != NULL;
			}
			if (j > i && (find_in(l, j, "]") || find_in(l, j, ")")))
				break;
		}
	}
	return -1;
}

long tt_py_test_func_id(const struct pk_buf *b, const char *kernel, long id, long *twins, size_t cap, size_t *ntwins)
{
	struct lines l;
	split(b, &l);
	size_t mine = incore_line(&l, &id, kernel);
	if (id < 0)
		id = computed_func_id(&l, kernel);
	if (ntwins && !*ntwins && id >= 0)
		*ntwins = twins_of(&l, mine < l.n ? mine : incore_line(&l, &id, kernel), id, twins, cap);
	lines_free(&l);
	return id;
}

static int plan_tensorarg(const struct lines *l, const struct tt_spec *sp, struct pk_plan *plan)
{
	size_t last = l->n;
	for (size_t i = 0; i < l->n; i++)
		if (find_in(l, i, "TensorArg(") && !find_in(l, i, "import"))
			last = i;
	if (last == l->n)
		return pk_error("%s: no TensorArg(...) in the test script (its arguments come from elsewhere): add the "
		                "timing TensorArg by hand, or leave out --test-script",
		                l->b->path);
	/* the end of that TensorArg's expression: its parentheses balance */
	int depth = 0;
	size_t i = last;
	const char *p = find_in(l, last, "TensorArg(");
	for (; i < l->n; i++) {
		const char *s = i == last ? p : l->b->data + l->s[i];
		for (; s < l->b->data + l->e[i]; s++) {
			if (*s == '(')
				depth++;
			else if (*s == ')' && --depth == 0)
				break;
		}
		if (depth == 0)
			break;
	}
	if (i >= l->n)
		return pk_error("%s:%zu: TensorArg not closed", l->b->path, last + 1);
	const char *tail = memchr(l->b->data + l->s[i], ')', l->e[i] - l->s[i]);
	(void)tail;
	char rw[16];
	snprintf(rw, sizeof(rw), "%d", sp->row_words);
	const char *names[] = {"prefix", "slots", "row_words"}, *vals[] = {sp->prefix, sp->slots, rw};
	const char *tmpl = tt_rule(sp->rules, "host", "test_tensorarg");
	char *ta = tt_expand(
	    tmpl ? tmpl : "TensorArg(\"{prefix}timing\", torch.zeros(({slots}) * {row_words}, dtype=torch.int64)),",
	    names, vals, 3);
	/* the last TensorArg without a trailing comma gets one */
	size_t e = l->e[i];
	while (e > l->s[i] && l->b->data[e - 1] == ' ')
		e--;
	if (e > l->s[i] && l->b->data[e - 1] == ')' && !find_in(l, i, "#")) {
		struct pk_sb sb = {0};
		pk_sb_addn(&sb, l->b->data + l->s[i], l->e[i] - l->s[i]);
		pk_sb_add(&sb, ",");
		change_line(l, plan, i, sb.s);
		pk_sb_free(&sb);
	}
	add_line(l, plan, i + 1, indent(l, last), ta, "golden timing output (zeros)");
	free(ta);
	return 0;
}

static int plan_compare(const struct lines *l, const struct tt_spec *sp, struct pk_plan *plan)
{
	struct pk_sb name = {0}, cap = {0};
	pk_sb_addf(&name, "%stiming", sp->prefix);
	const char *names[] = {"name"}, *vals[] = {name.s};
	const char *tmpl = tt_rule(sp->rules, "host", "test_capture");
	char *save = tt_expand(tmpl ? tmpl
	                            : "__import__(\"os\").makedirs(\"build\", exist_ok=True) or "
	                              "torch.save(test_args.{name}.clone(), \"build/{name}.pt\")",
	                       names, vals, 1);
	for (size_t i = 0; i < l->n; i++) {
		if (!find_in(l, i, "def compare_outputs("))
			continue;
		size_t j = i + 1;
		while (j < l->n && blank(l, j))
			j++;
		if (j >= l->n)
			break;
		add_line(l, plan, j, indent(l, j), save, "capture the actual timing tensor");
		for (size_t k = j; k < l->n && (blank(l, k) || indent(l, k) > indent(l, i)); k++) {
			const char *c = find_in(l, k, "super().compare_outputs(");
			const char *o = c ? find_in(l, k, "output_names") : NULL;
			if (!o)
				continue;
			/* `output_names` (or a comprehension over it) becomes one that leaves ours out */
			struct pk_sb sb = {0};
			pk_sb_addn(&sb, l->b->data + l->s[k], (size_t)(o - l->b->data - l->s[k]));
			pk_sb_addf(&sb, "[pk_n for pk_n in output_names if pk_n != \"%s\"]", name.s);
			const char *r = o + strlen("output_names");
			pk_sb_addn(&sb, r, (size_t)(l->b->data + l->e[k] - r));
			change_line(l, plan, k, sb.s);
			pk_sb_free(&sb);
			free(save);
			pk_sb_free(&name);
			return 0;
		}
		free(save);
		pk_sb_free(&name);
		return pk_error(
		    "%s:%zu: compare_outputs does not call super().compare_outputs(..., output_names, ...): "
		    "leave the timing output out of its comparison by hand",
		    l->b->path, i + 1);
	}
	/* none: one at the end of the class */
	size_t cls = l->n;
	for (size_t i = 0; i < l->n; i++)
		if (!strncmp(l->b->data + l->s[i], "class ", 6))
			cls = i;
	size_t end = cls + 1;
	while (end < l->n && (blank(l, end) || indent(l, end) > 0))
		end++;
	while (end > cls + 1 && blank(l, end - 1) && l->e[end - 1] == l->s[end - 1])
		end--;
	pk_sb_addf(&cap, "def compare_outputs(self, test_args, golden_args, output_names, params):");
	add_line(l, plan, end, 4, "", "comparator");
	add_line(l, plan, end, 4, cap.s, "comparator");
	add_line(l, plan, end, 8, save, "capture the actual timing tensor");
	cap.n = 0;
	pk_sb_addf(&cap,
	           "super().compare_outputs(test_args, golden_args, [pk_n for pk_n in output_names if pk_n != \"%s\"], "
	           "params)",
	           name.s);
	add_line(l, plan, end, 8, cap.s, "numeric outputs only");
	free(save);
	pk_sb_free(&cap);
	pk_sb_free(&name);
	return cls < l->n ? 0 : pk_error("%s: no test class", l->b->path);
}

int tt_py_plan_test(const struct pk_buf *b, const struct tt_kernel *k, const struct tt_spec *sp, long func_id,
                    long external, struct pk_plan *plan)
{
	struct lines l;
	split(b, &l);
	int rc = plan_tensorarg(&l, sp, plan);
	size_t o = l.n;
	for (size_t i = 0; i < l.n; i++)
		if (find_in(&l, i, "\"orchestration\""))
			o = i;
	if (rc == 0 && o < l.n) {
		size_t s = next_sig(&l, o, "\"incores\"");
		if (s < l.n)
			rc = plan_signature(&l, s, external, plan);
	}
	for (size_t t = 0; t <= sp->ntwins && rc == 0; t++) { /* the kernel's incore and its twins' */
		long id = t ? sp->twins[t - 1] : func_id;
		size_t inc = incore_line(&l, &id, sp->kernel_file);
		size_t s = inc < l.n ? next_sig(&l, inc, "\"func_id\"") : l.n;
		if (s < l.n)
			rc = plan_signature(&l, s, k->ntensors, plan);
	}
	if (rc == 0)
		rc = plan_compare(&l, sp, plan);
	lines_free(&l);
	return rc;
}

char *tt_py_incore_source(const struct pk_buf *b, long id)
{
	struct lines l;
	split(b, &l);
	char *out = NULL;
	for (size_t i = 0; i < l.n && !out; i++) {
		const char *src;
		size_t n;
		if (func_id_at(&l, i) == id && incore_source(&l, i, &src, &n))
			out = pk_xstrndup(src, n);
	}
	lines_free(&l);
	return out;
}
