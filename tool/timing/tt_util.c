/* tt_util.c - strings, rules/timing.ini, libclang parsing and tokens, and
 * the two ways an insertion is written (whole marked lines or in-line marks). */
#include "tt.h"
#include "embed.h"
#include "pk.h"
#include "timing_strip.h"

#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- rules/timing.ini ---- */

struct tt_ini {
	struct tt_rules *r;
	const char *origin;
};

static int on_timing_key(void *user, const char *section, const char *key, const char *value, unsigned line)
{
	struct tt_ini *c = user;
	struct tt_rules *r = c->r;
	if (!*section)
		return pk_error("%s:%u: '%s' outside a [section]", c->origin, line, key);
	struct pk_sb k = {0};
	pk_sb_addf(&k, "%s.%s", section, key);
	size_t cap_vals = r->cap; /* both arrays grow in step */
	PK_GROW(r->keys, r->cap, r->n + 1);
	PK_GROW(r->vals, cap_vals, r->n + 1);
	r->keys[r->n] = k.s;
	r->vals[r->n] = pk_xstrdup(value);
	r->n++;
	return 0;
}

#define TT_WORD(s, k, f)                                                                                               \
	{                                                                                                              \
		s, k, offsetof(struct tt_words, f)                                                                     \
	}
const struct tt_word_key tt_word_keys[] = {
    TT_WORD("simpler", "submit_prefix", submit_prefix),
    TT_WORD("simpler", "submit_suffix", submit_suffix),
    TT_WORD("simpler", "dummy_submit", dummy_submit),
    TT_WORD("simpler", "mixed_submit", mixed_submit),
    TT_WORD("simpler", "mixed_kernels", mixed_kernels),
    TT_WORD("simpler", "mixed_lanes", mixed_lanes),
    TT_WORD("simpler", "task_args", task_args),
    TT_WORD("simpler", "orch_args", orch_args),
    TT_WORD("simpler", "graph_args", graph_args),
    TT_WORD("simpler", "graph_submit", graph_submit),
    TT_WORD("simpler", "add_input", add_input),
    TT_WORD("simpler", "add_output", add_output),
    TT_WORD("simpler", "add_inout", add_inout),
    TT_WORD("simpler", "add_scalar", add_scalar),
    TT_WORD("simpler", "tensor_accessor", tensor_accessor),
    TT_WORD("simpler", "scalar_accessor", scalar_accessor),
    TT_WORD("simpler", "arg_count", arg_count),
    TT_WORD("simpler", "launch_spec", launch_spec),
    TT_WORD("simpler", "block_setters", block_setters),
    TT_WORD("simpler", "block_getters", block_getters),
    TT_WORD("simpler", "predicate", predicate),
    TT_WORD("launch", "acl", acl_launch),
    TT_WORD("launch", "cpu", cpu_launch),
    TT_WORD("launch", "trailing", trailing),
    TT_WORD("pypto", "decorator", py_decorator),
    TT_WORD("pypto", "tensor", py_tensor),
    TT_WORD("pypto", "out", py_out),
    TT_WORD("pypto", "inout", py_inout),
    TT_WORD("pypto", "core_type", py_core_type),
    TT_WORD("pypto", "mixed", py_mixed),
    TT_WORD("device", "mix_prefix", mix_prefix),
    TT_WORD("device", "mix_marks", mix_marks),
    TT_WORD("device", "aic_only", aic_only),
    TT_WORD("device", "is_aic", is_aic),
    TT_WORD("device", "is_aiv", is_aiv),
    TT_WORD("device", "pointer_types", pointer_types),
    TT_WORD("device", "tensor_suffix", tensor_suffix),
    {NULL, NULL, 0},
};

static int has_section(const struct tt_rules *r, const char *section)
{
	size_t sl = strlen(section);
	for (size_t i = 0; i < r->n; i++)
		if (!strncmp(r->keys[i], section, sl) && r->keys[i][sl] == '.')
			return 1;
	return 0;
}

/* Value I with each {SECTION.KEY} replaced by that entry's value as written
 * (a word, not expanded again), so that a template writes the word the tool
 * looks for; other braces are the templates' placeholders, filled when code
 * is written, or C++ (a SECTION the file does not have). NULL (an error
 * given) for a key the file does not set in a SECTION it has. */
static char *linked_value(const struct tt_rules *r, size_t i, const char *origin)
{
	struct pk_sb sb = {0};
	pk_sb_add(&sb, "");
	for (const char *p = r->vals[i]; *p;) {
		size_t n = *p == '{' ? strspn(p + 1, "abcdefghijklmnopqrstuvwxyz0123456789_.") : 0;
		const char *dot = NULL;
		for (size_t k = 0; k < n; k++)
			dot = p[1 + k] == '.' ? p + 1 + k : dot;
		if (!dot || p[1 + n] != '}') {
			pk_sb_addn(&sb, p++, 1);
			continue;
		}
		char sec[128], key[128];
		snprintf(sec, sizeof(sec), "%.*s", (int)(dot - p - 1), p + 1);
		snprintf(key, sizeof(key), "%.*s", (int)(p + n - dot), dot + 1);
		const char *v = tt_rule(r, sec, key);
		if (!v && !has_section(r, sec)) { /* not a reference: C++ braces ({a.b}) */
			pk_sb_addn(&sb, p++, 1);
			continue;
		}
		if (!v) {
			pk_error("%s: [%.*s] %s names {%.*s}, which the file does not set", origin,
			         (int)(strrchr(r->keys[i], '.') - r->keys[i]), r->keys[i], strrchr(r->keys[i], '.') + 1,
			         (int)n, p + 1);
			pk_sb_free(&sb);
			return NULL;
		}
		pk_sb_add(&sb, v);
		p += n + 2;
	}
	return sb.s;
}

/* Once, when the file is read: the references filled in, then the words. */
static int rules_ready(struct tt_rules *r, const char *origin)
{
	char **linked = pk_xmalloc((r->n ? r->n : 1) * sizeof(*linked));
	int rc = 0;
	for (size_t i = 0; i < r->n; i++)
		if (!(linked[i] = linked_value(r, i, origin)))
			rc = -1;
	for (size_t i = 0; i < r->n; i++) {
		if (linked[i]) {
			free(r->vals[i]);
			r->vals[i] = linked[i];
		}
	}
	free(linked);
	for (size_t k = 0; tt_word_keys[k].section; k++) {
		const char *v = tt_rule(r, tt_word_keys[k].section, tt_word_keys[k].key);
		*(const char **)((char *)&r->w + tt_word_keys[k].off) = v ? v : "";
	}
	return rc;
}

int tt_rules_parse(struct tt_rules *r, const char *origin, const char *text)
{
	struct tt_ini c = {r, origin};
	if (pk_ini_parse(origin, "'[section]' or 'key = value'", text, strlen(text), on_timing_key, &c) < 0)
		return -1;
	return rules_ready(r, origin);
}

int tt_rules_load(struct tt_rules *r)
{
	memset(r, 0, sizeof(*r));
	struct tt_ini c = {r, "rules/timing.ini"};
	if (pk_ini_parse_rules("timing.ini", on_timing_key, &c) < 0)
		return -1;
	return rules_ready(r, "rules/timing.ini");
}

int tt_tok_in(const struct pk_ast *t, size_t i, const char *list)
{
	return i < t->ntok && t->tok[i].end > t->tok[i].start &&
	       pk_word_in(list, t->b->data + t->tok[i].start, t->tok[i].end - t->tok[i].start);
}

int tt_tensor_add(const struct tt_rules *r, const struct pk_ast *t, size_t i)
{
	return pk_tok_is(t, i, r->w.add_input) || pk_tok_is(t, i, r->w.add_output) || pk_tok_is(t, i, r->w.add_inout);
}

const char *tt_rule(const struct tt_rules *r, const char *section, const char *key)
{
	size_t sl = strlen(section);
	/* the last setting wins, as in every INI file a user may append to */
	for (size_t i = r->n; i-- > 0;)
		if (!strncmp(r->keys[i], section, sl) && r->keys[i][sl] == '.' && !strcmp(r->keys[i] + sl + 1, key))
			return r->vals[i];
	return NULL;
}

void tt_rules_free(struct tt_rules *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->keys[i]);
		free(r->vals[i]);
	}
	free(r->keys);
	free(r->vals);
	memset(r, 0, sizeof(*r));
}

char *tt_expand(const char *tmpl, const char *const *names, const char *const *vals, size_t n)
{
	struct pk_sb sb = {0};
	pk_sb_add(&sb, "");
	for (const char *p = tmpl; *p;) {
		const char *close = *p == '{' ? strchr(p, '}') : NULL;
		size_t i = n;
		if (close)
			for (i = 0; i < n; i++)
				if (strlen(names[i]) == (size_t)(close - p - 1) &&
				    !strncmp(p + 1, names[i], (size_t)(close - p - 1)))
					break;
		if (close && i < n) {
			pk_sb_add(&sb, vals[i]);
			p = close + 1;
		} else {
			pk_sb_addn(&sb, p++, 1);
		}
	}
	return sb.s;
}

/* ---- parsing ---- */

int tt_parse(struct pk_ast *t, struct pk_buf *b, int semantic, const char *build_dir, char **extra, int nextra)
{
	if (!semantic)
		return pk_ast_parse_alone(t, b, extra, nextra);
	struct pk_parse_opts po = {build_dir, extra, nextra, NULL};
	if (pk_ast_parse(t, b, &po) < 0)
		return -1;
	/* what the parse could not see in the kernel is reported, never hidden */
	pk_ast_warn_errors(t);
	return 0;
}

/* ---- writing insertions ---- */

static int blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

/* Each code line, indented like the line at OFF, closed by the line mark. */
static char *marked_lines(const struct pk_buf *b, size_t ls, const char *lines, const char *label)
{
	const char *eol = pk_buf_eol(b);
	size_t ind = 0;
	while (ls + ind < b->len && (b->data[ls + ind] == ' ' || b->data[ls + ind] == '\t'))
		ind++;
	struct pk_sb sb = {0};
	for (const char *p = lines; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		pk_sb_addn(&sb, b->data + ls, ind);
		pk_sb_addn(&sb, p, n);
		pk_sb_addf(&sb, "  " PK_TT_LINE_MARK " %s%s", label, eol);
		p += n + (nl ? 1 : 0);
	}
	return sb.s;
}

void tt_insert_inline(struct pk_plan *plan, size_t off, const char *text)
{
	size_t n;
	char *w = pk_timing_wrap("", 0, text, &n);
	pk_plan_add(plan, off, off, w, n);
	free(w);
}

void tt_replace_inline(const struct pk_buf *b, struct pk_plan *plan, size_t start, size_t end, const char *text)
{
	size_t n;
	char *w = pk_timing_wrap(b->data + start, end - start, text, &n);
	pk_plan_add(plan, start, end, w, n);
	free(w);
}

/* LINES joined on one line, for the in-line form. */
static char *one_line(const char *lines)
{
	char *s = pk_xstrdup(lines);
	for (char *p = s; *p; p++)
		if (*p == '\n')
			*p = ' ';
	return s;
}

/* LINES as whole marked lines at AT, indented like the line that starts at LS. */
static void insert_lines(const struct pk_buf *b, struct pk_plan *plan, size_t at, size_t ls, const char *lines,
                         const char *label)
{
	char *text = marked_lines(b, ls, lines, label);
	pk_plan_add(plan, at, at, text, strlen(text));
	free(text);
}

/* LINES joined on one line at OFF, with a blank after them (before the code
 * that follows) or, when AFTER, before them (after the code that precedes). */
static void insert_one_line(struct pk_plan *plan, size_t off, const char *lines, int after)
{
	char *one = one_line(lines);
	struct pk_sb sb = {0};
	pk_sb_addf(&sb, after ? " %s" : "%s ", one);
	tt_insert_inline(plan, off, sb.s);
	free(one);
	pk_sb_free(&sb);
}

void tt_insert_before(const struct pk_buf *b, struct pk_plan *plan, size_t off, const char *lines, const char *label)
{
	size_t ls, le;
	pk_buf_line_bounds(b, off, &ls, &le);
	if (blank(b->data + ls, off - ls))
		insert_lines(b, plan, ls, ls, lines, label);
	else
		insert_one_line(plan, off, lines, 0);
}

/* The rest of the line after OFF holds nothing but blanks or a comment. */
static int rest_is_empty(const struct pk_buf *b, size_t off, size_t le)
{
	size_t i = off;
	while (i < le && (b->data[i] == ' ' || b->data[i] == '\t'))
		i++;
	if (i >= le || b->data[i] == '\n' || b->data[i] == '\r')
		return 1;
	return i + 1 < le && b->data[i] == '/' && b->data[i + 1] == '/';
}

void tt_insert_after(const struct pk_buf *b, struct pk_plan *plan, size_t off, size_t stmt, const char *lines,
                     const char *label)
{
	size_t ls, le;
	pk_buf_line_bounds(b, off > 0 ? off - 1 : 0, &ls, &le);
	int has_eol = le > ls && b->data[le - 1] == '\n';
	if (has_eol && rest_is_empty(b, off, le)) {
		size_t ss, se; /* indent like the statement's first line, not its last */
		pk_buf_line_bounds(b, stmt, &ss, &se);
		insert_lines(b, plan, le, ss, lines, label);
		return;
	}
	insert_one_line(plan, off, lines, 1);
}

/* ---- target profiles ---- */

const char *tt_prof(const struct tt_spec *sp, const char *section, const char *key)
{
	const char *v = sp->target ? tt_rule(sp->rules, sp->target, key) : NULL;
	return v ? v : tt_rule(sp->rules, section, key);
}

/* Does an #include directive (quoted or angled) name a path of LIST, as written? */
static int includes_name(const struct pk_buf *b, const char *list)
{
	const char *d = b->data, *end = d + b->len;
	for (const char *p = d; p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		const char *q = p;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if (q < eol && *q == '#') {
			q++;
			while (q < eol && (*q == ' ' || *q == '\t'))
				q++;
			if ((size_t)(eol - q) > 7 && !strncmp(q, "include", 7)) {
				const char *o = q + 7 + strcspn(q + 7, "\"<\n");
				if (o < eol) {
					/* the path as written: "tensor.h" is simpler's, "tensor_api/tensor.h" Ascend
					 * C's */
					const char *c = o + 1 + strcspn(o + 1, "\">\n");
					if (c < eol && pk_word_in(list, o + 1, (size_t)(c - o - 1)))
						return 1;
				}
			}
		}
		p = eol + 1;
	}
	return 0;
}

const char *tt_detect_target(const struct tt_rules *r, const struct pk_buf *kernel, const struct pk_buf *host,
                             char *buf, size_t cap)
{
	/* the profiles in the order rules/timing.ini lists them */
	for (size_t i = 0; i < r->n; i++) {
		size_t l = strlen(r->keys[i]);
		if (strncmp(r->keys[i], "target.", 7) || l < 7 + 7 || strcmp(r->keys[i] + l - 7, ".detect"))
			continue;
		snprintf(buf, cap, "%.*s", (int)(l - 7), r->keys[i]);
		const char *det = tt_rule(r, buf, "detect");
		if (det && (includes_name(kernel, det) || (host && includes_name(host, det))))
			return buf;
	}
	return NULL;
}

/* The callee's name token of a call whose '(' is token OPEN (OPEN >= 1): the
 * token before it, or before the template argument list that ends there. */
size_t tt_callee_tok(const struct pk_ast *t, size_t open)
{
	size_t c = open - 1;
	if (!pk_tok_is(t, c, ">"))
		return c;
	c = pk_tok_enclosing(t, c, "<", ">");
	return c < t->ntok && c > 0 ? c - 1 : 0;
}
