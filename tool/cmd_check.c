/* cmd_check.c - probe-check: the pre-commit gate. Fails when a probe is
 * enabled, malformed, or (with --strict) present at all, and when timing
 * instrumentation stands outside any probe block. Rules are data (rules.h). */
#include "buf.h"
#include "check.h"
#include "marks.h"
#include "journal.h"
#include "pk.h"
#include "rules.h"
#include "scan.h"
#include "source.h"

#include <ctype.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Explicit PCRE2 limits: a pattern that needs more fails closed (exit 2),
 * it never passes a file it could not finish. */
enum { PK_MATCH_LIMIT = 10000000, PK_DEPTH_LIMIT = 100000 };

static const char usage_text[] =
    "usage: probe-check [options] [PATH...]\n"
    "\n"
    "The pre-commit gate: report probe code that must not be committed.\n"
    "PATHs are files or directories (recursed for kernel sources); default '.'.\n"
    "A directory is walked as git sees it (.gitignore, .git/info/exclude), minus\n"
    ".probekitignore; a named file is always checked.\n"
    "Python files (.py: test scripts, pypto models) are checked for timing-tensor marks.\n"
    "Findings: path:line:col: error|warning|note: message [rule-id]\n"
    "\n"
    "      --strict         also fail on disabled probe blocks and on bare cycle reads\n"
    "      --staged         check the content staged in the git index; heuristic rules\n"
    "                       only on the lines it adds (PATHs, as pre-commit passes them,\n"
    "                       narrow the staged files)\n"
    "      --diff-base REV  check the files changed since REV; heuristic rules only on\n"
    "                       the lines added since REV\n"
    "      --exclude GLOB   skip paths matching GLOB (gitignore syntax); repeatable\n"
    "      --no-ignore      walk every file: no .gitignore, no .probekitignore\n"
    "      --rules FILE     add or override rules (INI, see rules/check.ini); repeatable\n"
    "      --format FMT     text (default) or sarif (SARIF 2.1.0, repository-relative paths)\n"
    "      --ext LIST       more extensions to recurse for (default " PK_CHECK_EXTS ")\n"
    "      --ext-only LIST  recurse for these extensions only (replaces the default list)\n"
    "  -j, --jobs N         files checked in parallel (default: online CPUs, at most 8)\n"
    "      --list-rules     print the rules in force and exit\n"
    "  -h, --help           this help;  --version  the version\n"
    "\n"
    "A finding on a line holding 'probe-check: allow(RULE-ID)' is silenced.\n"
    "exit: 0 clean (warnings and notes allowed), 1 errors found, 2 usage or input error\n";

/* ---- checking one file ------------------------------------------------ */

static void add_finding(struct item *it, struct pk_buf *b, size_t off, const struct pk_rule *r, const char *name)
{
	/* silenced by a `probe-check: allow(rule-id)` on the same line */
	size_t ls, le;
	pk_buf_line_bounds(b, off < b->len ? off : (b->len ? b->len - 1 : 0), &ls, &le);
	const char *allow = memmem(b->data + ls, le - ls, "probe-check: allow(", 19);
	if (allow && r->alone) /* a line made deliberate: a catch-all says nothing */
		return;
	if (allow) {
		const char *ids = allow + 19, *close = memchr(ids, ')', (size_t)(b->data + le - ids));
		size_t il = strlen(r->id);
		for (const char *p = ids; close && p + il <= close; p++)
			if (!memcmp(p, r->id, il) && (p == ids || p[-1] == ',' || p[-1] == ' ') &&
			    (p[il] == ')' || p[il] == ',' || p[il] == ' '))
				return;
	}
	PK_GROW(it->f, it->cap, it->n + 1);
	struct finding *f = &it->f[it->n++];
	f->off = off;
	f->line = pk_buf_line_of(b, off);
	f->col = pk_buf_col_of(b, off);
	f->rule = r;
	f->sev = r->severity;
	f->msg = pk_rule_message_in(r, name, it->path);
	while (ls < le && (b->data[ls] == ' ' || b->data[ls] == '\t'))
		ls++;
	while (le > ls && (b->data[le - 1] == '\n' || b->data[le - 1] == '\r' || b->data[le - 1] == ' '))
		le--;
	f->text = pk_xstrndup(b->data + ls, le - ls);
}

static int on_error_line(const struct pk_buf *b, const struct pk_scan *s, size_t at)
{
	for (size_t k = 0; k < s->nerrors; k++) {
		size_t ls, le;
		pk_buf_line_bounds(b, s->errors[k].off, &ls, &le);
		if (at >= ls && at < le)
			return 1;
	}
	return 0;
}

/* Brace-marker lines of probes that have a block in this file belong to that
 * probe: the probe's own rules report it, the text rules do not. */
struct covered {
	struct pk_range *r;
	size_t n;
};

static int in_covered(const struct covered *cv, size_t at)
{
	for (size_t i = 0; i < cv->n; i++)
		if (at >= cv->r[i].start && at < cv->r[i].end)
			return 1;
	return 0;
}

/* A damaged marker leaves the file with no marks: every marker line stays
 * a finding then. */
static void probe_marks(const struct pk_source *src, struct covered *cv)
{
	const struct pk_scan *s = &src->scan;
	cv->r = NULL;
	cv->n = 0;
	for (size_t i = 0; i < src->nmarks; i++) {
		const struct pk_mark *m = &src->marks[i];
		int known = 0;
		for (size_t k = 0; k < s->nblocks && !known; k++)
			known = !strcmp(s->blocks[k].name, m->name);
		if (!known)
			continue;
		if (!cv->r)
			cv->r = pk_xcalloc(src->nmarks, sizeof(*cv->r));
		cv->r[cv->n++] = (struct pk_range){m->start, m->end};
	}
}

/* per-thread matching state: explicit limits, a JIT stack of its own */
struct matcher {
	pcre2_match_context *ctx;
	pcre2_jit_stack *stack;
};

/* The literals of every rule in force for one kind of file, with the probe
 * marker and a NUL byte, as one set: a file is read once for all of them,
 * and a rule runs only on a file holding one of its literals. */
static void build_gate(struct check *c, int python)
{
	struct check_gate *g = &c->gate[python];
	struct pk_lit lits[PK_LITSET_MAX];
	size_t n = 0;
	lits[n++] = (struct pk_lit){"TIMING_PROBE", 12};
	lits[n++] = (struct pk_lit){"", 1}; /* the NUL byte of the empty string */
	g->marker = 1;
	g->nul = 2;
	g->rule_bits = pk_xcalloc(c->rules.n + 1, sizeof(*g->rule_bits));
	for (size_t i = 0; i < c->rules.n; i++) {
		const struct pk_rule *r = &c->rules.r[i];
		if (!r->enabled || r->match != PK_MATCH_PATTERN || (r->strict_only && !c->strict) ||
		    (python && !r->python))
			continue;
		uint64_t bits = 0;
		for (size_t k = 0; k < r->nlits && bits != UINT64_MAX; k++) {
			size_t ll = strlen(r->lits[k]), j = 0;
			while (j < n && (lits[j].n != ll || memcmp(lits[j].s, r->lits[k], ll)))
				j++;
			if (j == n && n < PK_LITSET_MAX && ll)
				lits[n++] = (struct pk_lit){r->lits[k], ll};
			bits = j < n ? bits | (uint64_t)1 << j : UINT64_MAX; /* a set full: always run it */
		}
		g->rule_bits[i] = bits == UINT64_MAX ? 0 : bits;
	}
	g->set = pk_litset_new(lits, n);
}

static void free_gate(struct check_gate *g)
{
	pk_litset_free(g->set);
	free(g->rule_bits);
}

/* A match error: the first line where the subject, cut after it, errs. */
static size_t error_line_start(const struct pk_rule *r, struct pk_buf *b, size_t from, pcre2_match_data *md,
                               pcre2_match_context *ctx)
{
	pk_buf_lines(b);
	size_t lo = pk_buf_line_of(b, from) - 1, hi = b->nlines - 1;
	while (lo < hi) { /* smallest line L whose end makes the match err */
		size_t mid = lo + (hi - lo) / 2;
		size_t end = mid + 1 < b->nlines ? b->line_start[mid + 1] : b->len;
		if (pcre2_match(r->re, (PCRE2_SPTR)b->data, end, from, 0, md, ctx) < PCRE2_ERROR_NOMATCH)
			hi = mid;
		else
			lo = mid + 1;
	}
	return b->line_start[lo];
}

static void match_failed(struct item *it, struct pk_buf *b, const struct pk_rule *r, int code, size_t at)
{
	PCRE2_UCHAR msg[160];
	pcre2_get_error_message(code, msg, sizeof(msg));
	char line[32] = "";
	if (b->len)
		snprintf(line, sizeof(line), ":%u", pk_buf_line_of(b, at < b->len ? at : b->len - 1));
	size_t n = strlen(it->path) + strlen(r->id) + strlen(r->origin ? r->origin : "") + sizeof(msg) + 200;
	char *e = pk_xmalloc(n);
	snprintf(
	    e, n,
	    "probekit: %s%s: rule '%s': PCRE2 match error (%s); the file is not fully checked: simplify the pattern "
	    "(%s:%u)\n",
	    it->path, line, r->id, (char *)msg, r->origin ? r->origin : "rules", r->pattern_line);
	if (!it->failed) {
		it->failed = 1;
		it->err = e;
	} else
		free(e);
}

static void check_patterns(const struct check *c, struct item *it, struct pk_source *src, const struct covered *cv,
                           struct matcher *mt, uint64_t hit)
{
	struct pk_buf *b = &src->buf;
	const struct pk_scan *s = &src->scan;
	const uint64_t *bits = c->gate[it->python].rule_bits;
	for (size_t i = 0; i < c->rules.n && !it->failed; i++) {
		const struct pk_rule *r = &c->rules.r[i];
		if (!r->enabled || r->match != PK_MATCH_PATTERN || (r->strict_only && !c->strict) ||
		    (it->python && !r->python) || (bits[i] && !(hit & bits[i])))
			continue; /* without one of its literals a rule cannot match */
		pcre2_match_data *md = pcre2_match_data_create_from_pattern(r->re, NULL);
		size_t off = 0;
		int rc = 0;
		while (off <= b->len &&
		       (rc = pcre2_match(r->re, (PCRE2_SPTR)b->data, b->len, off, 0, md, mt->ctx)) >= 0) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
			size_t at = ov[0];
			off = ov[1] > at ? ov[1] : at + 1;
			if (it->python) { /* no C lexer: no probe blocks, '#' starts its comments */
				add_finding(it, b, at, r, NULL);
				continue;
			}
			pk_source_scan(src, 0); /* only files with a match pay for the lexer */
			if (pk_scan_block_at(s, at) >= 0 || (s->unterminated && at >= s->unterminated - 1))
				continue; /* in a probe block, or in one with no #endif (reported) */
			if (!r->in_comments && pk_scan_in_comment(s, at))
				continue;
			if (on_error_line(b, s, at) || in_covered(cv, at))
				continue; /* a probe rule already speaks for this line */
			add_finding(it, b, at, r, NULL);
		}
		if (off <= b->len && rc < PCRE2_ERROR_NOMATCH) /* fail closed, never as if no more matches */
			match_failed(it, b, r, rc, error_line_start(r, b, off, md, mt->ctx));
		pcre2_match_data_free(md);
	}
}

static void check_structure(const struct check *c, struct item *it, struct pk_buf *b, const struct pk_scan *s)
{
	for (size_t i = 0; i < c->rules.n; i++) {
		const struct pk_rule *r = &c->rules.r[i];
		if (!r->enabled || r->match == PK_MATCH_PATTERN || (r->strict_only && !c->strict))
			continue;
		if (r->match == PK_MATCH_MALFORMED_PROBE)
			for (size_t k = 0; k < s->nerrors; k++)
				add_finding(it, b, s->errors[k].off, r, s->errors[k].msg);
		for (size_t k = 0; k < s->nblocks; k++) {
			const struct pk_block *blk = &s->blocks[k];
			if ((r->match == PK_MATCH_ENABLED_PROBE && blk->enabled) ||
			    (r->match == PK_MATCH_DISABLED_PROBE && !blk->enabled))
				add_finding(it, b, blk->value_off, r, blk->name);
		}
	}
}

/* ---- judging the findings --------------------------------------------- */

static int line_added(const struct item *it, unsigned line)
{
	for (size_t i = 0; i + 1 < it->nadded; i += 2)
		if (line >= it->added[i] && line <= it->added[i + 1])
			return 1;
	return 0;
}

/* A change is judged by what it adds: heuristic rules only on added lines. */
static void keep_added(struct item *it)
{
	size_t w = 0;
	for (size_t i = 0; i < it->n; i++) {
		if (it->f[i].rule->added_only && !line_added(it, it->f[i].line)) {
			free(it->f[i].msg);
			free(it->f[i].text);
			continue;
		}
		it->f[w++] = it->f[i];
	}
	it->n = w;
}

/* Does the brace opening at I open a namespace, class, struct, union,
 * enum or extern block (a scope holding functions), not code? */
static int opens_scope(const char *d, size_t i)
{
	size_t k = i, stop = i > 512 ? i - 512 : 0;
	while (k > stop && !strchr(";{}", d[k - 1]))
		k--;
	char head[520];
	memcpy(head, d + k, i - k);
	head[i - k] = '\0';
	if (strchr(head, '('))
		return 0; /* a function head, a lambda, a condition */
	static const char *const kw[] = {"namespace", "class", "struct", "union", "enum", "extern"};
	for (size_t n = 0; n < sizeof(kw) / sizeof(kw[0]); n++)
		for (const char *p = strstr(head, kw[n]); p; p = strstr(p + 1, kw[n]))
			if ((p == head || !(p[-1] == '_' || isalnum((unsigned char)p[-1]))) &&
			    !(p[strlen(kw[n])] == '_' || isalnum((unsigned char)p[strlen(kw[n])])))
				return 1;
	return 0;
}

static size_t skip_literal(const char *d, size_t len, size_t i)
{
	char q = d[i];
	for (i++; i < len && d[i] != q && d[i] != '\n'; i++)
		if (d[i] == '\\')
			i++;
	return i;
}

static size_t skip_comment(const char *d, size_t len, size_t i)
{
	if (d[i + 1] == '/') {
		const char *nl = memchr(d + i, '\n', len - i);
		return nl ? (size_t)(nl - d) : len;
	}
	const char *end = memmem(d + i + 2, len - i - 2, "*/", 2);
	return end ? (size_t)(end - d) + 1 : len;
}

/* The outermost code blocks of a file (its functions, textually), each
 * [start, end) in file order, found in one pass; whether each shows probe
 * work is worked out once, when a finding first asks. */
struct span {
	size_t start, end;
	int sign; /* -1 not known yet, 0 no, 1 yes */
};
struct spans {
	struct span *s;
	size_t n, cap;
};

/* Counts the work of the sign check (bytes scanned, findings and blocks
 * looked at), for the test that it grows linearly with the file. */
static atomic_size_t sign_work;

size_t pk_check_sign_work(void)
{
	return atomic_load(&sign_work);
}

static void find_spans(const struct pk_buf *b, struct spans *sp)
{
	const char *d = b->data;
	size_t depth = 0, fdepth = 0, start = 0;
	for (size_t i = 0; i < b->len; i++) {
		if (d[i] == '"' || d[i] == '\'') {
			i = skip_literal(d, b->len, i);
		} else if (d[i] == '/' && i + 1 < b->len && (d[i + 1] == '/' || d[i + 1] == '*')) {
			i = skip_comment(d, b->len, i);
		} else if (d[i] == '{') {
			depth++;
			if (!fdepth && !opens_scope(d, i)) {
				fdepth = depth;
				start = i;
			}
		} else if (d[i] == '}' && depth && depth-- == fdepth) {
			fdepth = 0;
			PK_GROW(sp->s, sp->cap, sp->n + 1);
			sp->s[sp->n++] = (struct span){start, i + 1, -1};
		}
	}
	atomic_fetch_add(&sign_work, b->len);
}

/* The span holding AT, or NULL. */
static struct span *span_at(struct spans *sp, size_t at)
{
	size_t lo = 0, hi = sp->n;
	while (lo < hi) { /* the first span ending after AT */
		size_t mid = lo + (hi - lo) / 2;
		if (sp->s[mid].end <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	atomic_fetch_add(&sign_work, 1);
	return lo < sp->n && sp->s[lo].start <= at ? &sp->s[lo] : NULL;
}

/* How many of the N ascending offsets V lie in [fs, fe). */
static size_t count_in(const size_t *v, size_t n, size_t fs, size_t fe)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < fs)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo] < fe;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

/* What shows probe work, by offset: other rules' findings and probe blocks,
 * each sorted once. */
struct signs {
	size_t *other, nother;
	size_t *blocks, nblocks;
};

static void signs_init(struct signs *g, const struct item *it, const struct pk_scan *s)
{
	g->other = pk_xmalloc((it->n + 1) * sizeof(*g->other));
	g->nother = 0;
	for (size_t i = 0; i < it->n; i++)
		if (!it->f[i].rule->needs_sign)
			g->other[g->nother++] = it->f[i].off;
	qsort(g->other, g->nother, sizeof(*g->other), cmp_size);
	g->blocks = pk_xmalloc((s->nblocks + 1) * sizeof(*g->blocks));
	g->nblocks = s->nblocks;
	for (size_t k = 0; k < s->nblocks; k++)
		g->blocks[k] = s->blocks[k].dir_start;
	qsort(g->blocks, g->nblocks, sizeof(*g->blocks), cmp_size);
	atomic_fetch_add(&sign_work, it->n + s->nblocks);
}

/* Probe work in [fs, fe) besides the needs-sign findings: another rule's
 * finding, a probe block or a mark. */
static int span_has_sign(const struct signs *g, const struct pk_buf *b, size_t fs, size_t fe)
{
	atomic_fetch_add(&sign_work, fe - fs);
	return count_in(g->other, g->nother, fs, fe) || count_in(g->blocks, g->nblocks, fs, fe) ||
	       memmem(b->data + fs, fe - fs, "TIMING_PROBE", 12) != NULL;
}

/* The rule's `sign` on F's line. */
static int line_has_sign(const struct finding *f, const struct pk_buf *b, struct matcher *mt)
{
	if (!f->rule->sign_re)
		return 0;
	size_t ls, le;
	pk_buf_line_bounds(b, f->off, &ls, &le);
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(f->rule->sign_re, NULL);
	int rc = pcre2_match(f->rule->sign_re, (PCRE2_SPTR)b->data + ls, le - ls, 0, 0, md, mt->ctx);
	pcre2_match_data_free(md);
	return rc >= 0 || rc < PCRE2_ERROR_NOMATCH; /* an error: the stricter reading */
}

static int has_sign(const struct signs *g, struct spans *sp, const struct finding *f, const struct pk_buf *b,
                    struct matcher *mt)
{
	struct span *in = span_at(sp, f->off);
	if (in) {
		if (in->sign < 0)
			in->sign = span_has_sign(g, b, in->start, in->end);
		if (in->sign)
			return 1;
	} else { /* outside any function: its line */
		size_t ls, le;
		pk_buf_line_bounds(b, f->off, &ls, &le);
		if (span_has_sign(g, b, ls, le))
			return 1;
	}
	return line_has_sign(f, b, mt);
}

/* Full run: a bare cycle read (timeout logic, telemetry) is a note. One
 * pass finds the functions; each finding then looks its function up. */
static void judge_signs(struct item *it, const struct pk_buf *b, const struct pk_scan *s, struct matcher *mt)
{
	struct spans sp = {NULL, 0, 0};
	struct signs g;
	int ready = 0;
	for (size_t i = 0; i < it->n; i++) {
		struct finding *f = &it->f[i];
		if (!f->rule->needs_sign)
			continue;
		if (!ready) {
			find_spans(b, &sp);
			signs_init(&g, it, s);
			ready = 1;
		}
		if (has_sign(&g, &sp, f, b, mt))
			continue;
		f->sev = PK_SEV_NOTE;
		char *m = pk_xmalloc(strlen(f->msg) + 96);
		sprintf(m, "%s; nothing else in its function looks like a probe (--strict: an error)", f->msg);
		free(f->msg);
		f->msg = m;
	}
	if (ready) {
		free(g.other);
		free(g.blocks);
	}
	free(sp.s);
}

static int cmp_finding(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->sev != y->sev) /* the most severe first */
		return x->sev < y->sev ? -1 : 1;
	if (x->rule->fallback != y->rule->fallback) /* a catch-all rule last */
		return x->rule->fallback - y->rule->fallback;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return strcmp(x->rule->id, y->rule->id);
}

/* One finding per line: the most severe, first on the line; it names the
 * other rules the line also breaks. */
static void one_per_line(struct item *it)
{
	if (it->n > 1)
		qsort(it->f, it->n, sizeof(*it->f), cmp_finding);
	size_t w = 0;
	for (size_t i = 0; i < it->n; i++) { /* a rule that speaks alone: silent beside another */
		int beside = 0;
		for (size_t k = 0; k < it->n && it->f[i].rule->alone && !beside; k++)
			beside = it->f[k].line == it->f[i].line && !it->f[k].rule->alone;
		if (beside) {
			free(it->f[i].msg);
			free(it->f[i].text);
		} else {
			it->f[w++] = it->f[i];
		}
	}
	it->n = w;
	w = 0;
	for (size_t i = 0, j; i < it->n; i = j) {
		struct finding keep = it->f[i];
		size_t extra = 0;
		for (j = i + 1; j < it->n && it->f[j].line == keep.line; j++)
			extra += strlen(it->f[j].rule->id) + 2;
		if (extra) {
			char *m = pk_xmalloc(strlen(keep.msg) + extra + 16), *e;
			e = m + sprintf(m, "%s", keep.msg);
			const char *sep = " (also ";
			for (size_t k = i + 1; k < j; k++) {
				int seen = it->f[k].rule == keep.rule;
				for (size_t q = i + 1; q < k && !seen; q++)
					seen = it->f[q].rule == it->f[k].rule;
				if (!seen) {
					e += sprintf(e, "%s%s", sep, it->f[k].rule->id);
					sep = ", ";
				}
				free(it->f[k].msg);
				free(it->f[k].text);
			}
			if (sep[0] == ',')
				strcpy(e, ")");
			free(keep.msg);
			keep.msg = m;
		}
		it->f[w++] = keep;
	}
	it->n = w;
}

static int load_item(struct item *it, struct pk_buf *b)
{
	if (it->data) {
		pk_buf_from_mem(b, it->path, it->data, it->len);
		it->data = NULL;
	} else {
		/* the message goes into the item: threads must not interleave
		 * their messages on stderr */
		char msg[PATH_MAX + 128];
		if (pk_buf_load_msg(b, it->load ? it->load : it->path, PK_LOAD_ALLOW_NUL, msg, sizeof(msg)) < 0) {
			pk_buf_free(b);
			it->failed = 1;
			it->err = pk_xmalloc(strlen(msg) + 16);
			sprintf(it->err, "probekit: %s\n", msg);
			return -1;
		}
	}
	return 0;
}

static void check_item(const struct check *c, struct item *it, struct matcher *mt)
{
	struct pk_source src;
	memset(&src, 0, sizeof(src));
	if (load_item(it, &src.buf) < 0)
		return;
	struct pk_buf *b = &src.buf;
	const struct check_gate *g = &c->gate[it->python];
	uint64_t hit = pk_litset_scan(g->set, b->data, b->len); /* the one pass over its bytes */
	/* A NUL byte does not stop a compiler: a file named, or one holding a
	 * probe marker, is judged all the same; any other is skipped, and said. */
	if ((hit & g->nul) && !it->named && !(hit & g->marker)) {
		it->note = pk_xmalloc(strlen(it->path) + 128);
		sprintf(it->note,
		        "probekit: note: %s: skipped: a binary file (NUL bytes) without a TIMING_PROBE marker\n",
		        it->path);
		pk_source_free(&src);
		return;
	}
	struct covered cv = {NULL, 0};
	if (!it->python && (hit & g->marker)) {
		pk_source_scan(&src, 0);
		check_structure(c, it, b, &src.scan);
		probe_marks(&src, &cv);
	}
	check_patterns(c, it, &src, &cv, mt, hit);
	free(cv.r);
	if (it->change)
		keep_added(it);
	else if (!c->strict && src.scanned)
		judge_signs(it, b, &src.scan, mt);
	one_per_line(it);
	pk_source_free(&src);
}

/* The length of PATH's folder part ("dir/" of "dir/f.c"; 0: none). */
static size_t folder_len(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? (size_t)(slash - path) + 1 : 0;
}

/* The pending journals of item I's folder, read here in parallel when the
 * item before is of another folder (the first of each folder in the walk's
 * order always is); printed in order after the run (print_journals). */
static void read_journals(struct check *c, size_t i)
{
	struct item *it = &c->items[i];
	const char *prev = i ? c->items[i - 1].path : NULL;
	size_t n = folder_len(it->path);
	if (prev && strcmp(prev, "-") && n == folder_len(prev) && !memcmp(it->path, prev, n))
		return;
	char *dir = pk_journal_dir_of(it->path);
	if (dir) {
		it->journals = pk_journal_dir_text(dir, &it->njournals);
		it->journals_read = 1;
	}
	free(dir);
}

/* A pending journal of an interrupted write is a finding, never replayed
 * here (journal.c): each folder's once, in the order of the items, as
 * pk_journal_report would print them one item after another. */
static size_t print_journals(const struct check *c, FILE *out)
{
	if (!c->nitems)
		return 0;
	size_t pending = pk_journal_sweep_report(out);
	struct pk_strset seen = {0};
	for (size_t i = 0; i < c->nitems; i++) {
		const struct item *it = &c->items[i];
		if (!it->journals_read)
			continue;
		char *dir = pk_journal_dir_of(it->path);
		if (dir && !pk_strset_add(&seen, dir)) {
			if (it->journals)
				fputs(it->journals, out);
			pending += it->njournals;
		}
		free(dir);
	}
	pk_strset_clear(&seen);
	return pending;
}

static void *worker(void *arg)
{
	struct check *c = arg;
	struct matcher mt = {pcre2_match_context_create(NULL), pcre2_jit_stack_create(32 * 1024, 1024 * 1024, NULL)};
	if (mt.ctx) {
		pcre2_set_match_limit(mt.ctx, PK_MATCH_LIMIT);
		pcre2_set_depth_limit(mt.ctx, PK_DEPTH_LIMIT);
		if (mt.stack)
			pcre2_jit_stack_assign(mt.ctx, NULL, mt.stack);
	}
	for (;;) {
		size_t i = atomic_fetch_add(&c->next, 1);
		if (i >= c->nitems)
			break;
		check_item(c, &c->items[i], &mt);
		read_journals(c, i);
	}
	pcre2_jit_stack_free(mt.stack);
	pcre2_match_context_free(mt.ctx);
	return NULL;
}

static void run_all(struct check *c)
{
	long jobs = c->jobs;
	if (jobs <= 0) {
		jobs = sysconf(_SC_NPROCESSORS_ONLN);
		if (jobs > 8)
			jobs = 8;
	}
	if ((size_t)jobs > c->nitems)
		jobs = (long)c->nitems;
	if (jobs <= 1) {
		worker(c);
		return;
	}
	pthread_t *t = pk_xcalloc((size_t)jobs, sizeof(*t));
	long started = 0;
	for (long i = 0; i < jobs; i++)
		if (pthread_create(&t[i], NULL, worker, c) == 0)
			started++;
		else
			break;
	if (started == 0)
		worker(c);
	for (long i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	free(t);
}

/* ---- output ------------------------------------------------------------ */

static int report(const struct check *c)
{
	size_t errors = 0, failed = 0;
	for (size_t i = 0; i < c->nitems; i++) {
		const struct item *it = &c->items[i];
		if (it->failed) {
			failed++;
			if (it->err)
				fputs(it->err, stderr);
		}
		if (it->note)
			fputs(it->note, stderr);
		for (size_t k = 0; k < it->n; k++) {
			const struct finding *f = &it->f[k];
			errors += f->sev == PK_SEV_ERROR;
			if (!c->sarif)
				printf("%s:%u:%u: %s: %s [%s]\n", it->shown ? it->shown : it->path, f->line, f->col,
				       pk_check_sev_name(f->sev), f->msg, f->rule->id);
		}
	}
	if (c->sarif)
		pk_check_print_sarif(c);
	if (failed)
		return PK_EXIT_ERROR;
	return errors ? PK_EXIT_FINDINGS : PK_EXIT_OK;
}

/* ---- options ------------------------------------------------------------ */

/* REPLACE: the list replaces the extensions so far, else it adds to them */
static void set_exts(struct check *c, const char *list, int replace)
{
	if (replace) {
		for (size_t i = 0; i < c->nexts; i++)
			free(c->exts[i]);
		c->nexts = 0;
	}
	size_t cap = c->nexts;
	char *copy = pk_xstrdup(list), *save = NULL;
	for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		PK_GROW(c->exts, cap, c->nexts + 1);
		if (t[0] == '.')
			c->exts[c->nexts++] = pk_xstrdup(t);
		else {
			char *e = pk_xmalloc(strlen(t) + 2);
			sprintf(e, ".%s", t);
			c->exts[c->nexts++] = e;
		}
	}
	free(copy);
}

static void list_rules(const struct check *c)
{
	for (size_t i = 0; i < c->rules.n; i++) {
		const struct pk_rule *r = &c->rules.r[i];
		printf("%-20s %-7s %s%s%s\n", r->id, pk_check_sev_name(r->severity), r->enabled ? "" : "(off) ",
		       r->strict_only ? "(--strict) " : "", r->description);
	}
}

struct opts {
	char **rules; /* --rules files */
	size_t nrules;
	int list;
};

enum {
	OPT_STRICT = 1,
	OPT_RULES,
	OPT_FORMAT,
	OPT_STAGED,
	OPT_EXT,
	OPT_LIST,
	OPT_BASE,
	OPT_EXCL,
	OPT_NOIGN,
	OPT_EXT_ONLY
};

struct parse {
	struct check *c;
	struct opts *o;
};

static int check_option(void *user, int opt, const char *arg)
{
	struct check *c = ((struct parse *)user)->c;
	struct opts *o = ((struct parse *)user)->o;
	char *end;
	switch (opt) {
	case OPT_STRICT:
		c->strict = 1;
		break;
	case OPT_RULES:
		o->rules[o->nrules++] = (char *)arg;
		break;
	case OPT_FORMAT:
		if (!strcmp(arg, "sarif"))
			c->sarif = 1;
		else if (strcmp(arg, "text"))
			return pk_error("unknown format '%s' (text, sarif)", arg), PK_OPT_REFUSED;
		break;
	case OPT_STAGED:
		c->staged = 1;
		break;
	case OPT_BASE:
		c->diff_base = arg;
		break;
	case OPT_EXCL:
		c->excludes[c->nexcludes++] = (char *)arg;
		break;
	case OPT_NOIGN:
		c->no_ignore = 1;
		break;
	case OPT_EXT:
	case OPT_EXT_ONLY:
		set_exts(c, arg, opt == OPT_EXT_ONLY);
		break;
	case 'j':
		c->jobs = strtol(arg, &end, 10);
		if (*end || c->jobs < 1 || c->jobs > 256)
			return pk_error("--jobs takes a number from 1 to 256, not '%s'", arg), PK_OPT_REFUSED;
		break;
	case OPT_LIST:
		o->list = 1;
		break;
	default:
		return PK_OPT_OTHER;
	}
	return PK_OPT_TAKEN;
}

/* 0: go on; 1: stop now with *rc (help, version, usage error) */
static int parse_options(int argc, char **argv, struct check *c, struct opts *o, int *rc)
{
	static const struct option longopts[] = {
	    {"strict", no_argument, 0, OPT_STRICT},
	    {"rules", required_argument, 0, OPT_RULES},
	    {"format", required_argument, 0, OPT_FORMAT},
	    {"staged", no_argument, 0, OPT_STAGED},
	    {"ext", required_argument, 0, OPT_EXT},
	    {"ext-only", required_argument, 0, OPT_EXT_ONLY},
	    {"jobs", required_argument, 0, 'j'},
	    {"list-rules", no_argument, 0, OPT_LIST},
	    {"diff-base", required_argument, 0, OPT_BASE},
	    {"exclude", required_argument, 0, OPT_EXCL},
	    {"no-ignore", no_argument, 0, OPT_NOIGN},
	    PK_COMMON_LONGOPTS,
	    {0, 0, 0, 0},
	};
	struct parse p = {c, o};
	if (pk_options(argc, argv, ":hj:", longopts, check_option, &p, usage_text, rc))
		return 1;
	if (c->staged && c->diff_base)
		return pk_error("--staged and --diff-base: give one (the index, or the work tree since a commit)"), 1;
	return 0;
}

static void free_check(struct check *c)
{
	for (size_t i = 0; i < c->nitems; i++) {
		struct item *it = &c->items[i];
		for (size_t k = 0; k < it->n; k++) {
			free(it->f[k].msg);
			free(it->f[k].text);
		}
		free(it->f);
		free(it->path);
		free(it->shown);
		free(it->load);
		free(it->data);
		free(it->err);
		free(it->note);
		free(it->journals);
		free(it->added);
	}
	free(c->items);
	for (size_t i = 0; i < c->nexts; i++)
		free(c->exts[i]);
	free(c->exts);
	free(c->excludes);
	free_gate(&c->gate[0]);
	free_gate(&c->gate[1]);
	pk_rules_free(&c->rules);
}

int cmd_check(int argc, char **argv)
{
	struct check c;
	memset(&c, 0, sizeof(c));
	set_exts(&c, PK_CHECK_EXTS, 1);
	struct opts o = {pk_xcalloc((size_t)argc + 1, sizeof(char *)), 0, 0};
	c.excludes = pk_xcalloc((size_t)argc + 1, sizeof(char *));
	int rc = PK_EXIT_ERROR;
	if (parse_options(argc, argv, &c, &o, &rc) || pk_rules_load_defaults(&c.rules) < 0)
		goto out;
	for (size_t i = 0; i < o.nrules; i++)
		if (pk_rules_load_file(&c.rules, o.rules[i]) < 0)
			goto out;
	if (pk_rules_compile(&c.rules) < 0)
		goto out;
	build_gate(&c, 0);
	build_gate(&c, 1);
	if (o.list) {
		list_rules(&c);
		rc = PK_EXIT_OK;
		goto out;
	}
	char *dot = ".";
	if (c.staged || c.diff_base) {
		/* names, as pre-commit passes them, narrow the change */
		if (pk_check_collect_change(&c, argv + optind, argc - optind) < 0)
			goto out;
	} else if (pk_check_collect_paths(&c, optind < argc ? argv + optind : &dot, optind < argc ? argc - optind : 1) <
	           0)
		goto out;
	run_all(&c);
	rc = report(&c);
	size_t pending = print_journals(&c, c.sarif ? stderr : stdout);
	if (pending && rc == PK_EXIT_OK)
		rc = PK_EXIT_FINDINGS;
out:
	free(o.rules);
	free_check(&c);
	return rc;
}
