/* cmd_list.c - probe-list: one row per probe with its state, blocks and
 * problems (a lone part, a variable a part uses but no part declares,
 * parts in different functions or scopes). */
#include "check.h"
#include "journal.h"
#include "pk.h"
#include "probeset.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <getopt.h>
#include <jansson.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] = "usage: probe-list [--format=text|json] [--names] FILE|DIR...\n"
                                 "\n"
                                 "One row per probe: name, state (on, off, mixed), every block as\n"
                                 "file:line, and problems; then every file carrying a timing tensor\n"
                                 "(probe-inject --timing-tensor): its columns, or that it is the host\n"
                                 "side. A DIR is walked as probe-check walks it (kernel sources,\n"
                                 ".gitignore, .probekitignore): its files that hold a probe.\n"
                                 "\n"
                                 "      --format FMT   text (default) or json\n"
                                 "      --names        only the probe names, one per line\n"
                                 "  -h, --help         this help;  --version  the version\n"
                                 "\n"
                                 "exit: 0 listed, 1 some probe has a problem, 2 usage or input error\n";

struct part { /* one block of a probe, with where it is */
	struct pk_file *f;
	const struct pk_block *b;
};

struct probe {
	const char *name;
	struct part *parts;
	size_t nparts, cap;
	char **problems;
	size_t nproblems, cap_problems;
};

static void problem(struct probe *p, const char *fmt, ...) PK_PRINTF(2, 3);
static void problem(struct probe *p, const char *fmt, ...)
{
	PK_GROW(p->problems, p->cap_problems, p->nproblems + 1);
	va_list ap;
	va_start(ap, fmt);
	p->problems[p->nproblems++] = pk_xvasprintf(fmt, ap);
	va_end(ap);
}

/* Identifiers a part declares (`T name =`) and those it uses that look like
 * probe variables (start / begin / probe in the name). */
struct idents {
	char **v;
	size_t n, cap;
};

static int has_ident(const struct idents *s, const char *p, size_t len)
{
	for (size_t i = 0; i < s->n; i++)
		if (strlen(s->v[i]) == len && !memcmp(s->v[i], p, len))
			return 1;
	return 0;
}

static void add_ident(struct idents *s, const char *p, size_t len)
{
	if (has_ident(s, p, len))
		return;
	PK_GROW(s->v, s->cap, s->n + 1);
	s->v[s->n++] = pk_xstrndup(p, len);
}

static void free_idents(struct idents *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

static pcre2_code *re_decl, *re_use;

static void collect(pcre2_code *re, const char *text, size_t len, struct idents *out)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	size_t off = 0;
	while (off < len && pcre2_match(re, (PCRE2_SPTR)text, len, off, 0, md, NULL) >= 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		add_ident(out, text + ov[2], ov[3] - ov[2]);
		off = ov[1] > off ? ov[1] : off + 1;
	}
	pcre2_match_data_free(md);
}

static int compile_patterns(void)
{
	static const char decl[] =
	    "\\b(?:u?int(?:8|16|32|64)_t|size_t|auto|int|long|unsigned(?:\\s+long){0,2}|long\\s+long|uint64|int64)"
	    "\\s+([A-Za-z_]\\w*)\\s*(?:=|;|\\{|\\()";
	static const char use[] = "\\b((?i:[A-Za-z_]\\w*(?:start|begin)\\w*|probe\\w*))\\b(?!\\s*\\()";
	int err;
	PCRE2_SIZE off;
	re_decl = pcre2_compile((PCRE2_SPTR)decl, PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
	re_use = pcre2_compile((PCRE2_SPTR)use, PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
	return re_decl && re_use ? 0 : pk_error("internal error: probe-list patterns do not compile");
}

/* The end of the preprocessor directive line starting at or after I (blanks
 * first), continuations included; I itself when the line is not one. */
static size_t skip_directive(const char *d, size_t i, size_t z)
{
	size_t k = i;
	while (k < z && (d[k] == ' ' || d[k] == '\t'))
		k++;
	if (k >= z || d[k] != '#')
		return i;
	for (; k < z && d[k] != '\n'; k++)
		if (d[k] == '\\' && k + 1 < z && (d[k + 1] == '\n' || d[k + 1] == '\r'))
			k += d[k + 1] == '\r' && k + 2 < z && d[k + 2] == '\n' ? 2 : 1;
	return k;
}

/* The body of a part without its string literals (format strings hold
 * "start=" which is not a variable) and its preprocessor lines (a macro
 * name such as PROBE_VERBOSE in `#ifdef` is not a variable). */
static char *code_of(const struct part *pt, size_t *len)
{
	const char *d = pt->f->src.buf.data;
	size_t a = pt->b->dir_end, z = pt->b->endif_start;
	char *out = pk_xmalloc(z - a + 1);
	size_t n = 0;
	char q = 0;
	for (size_t i = a; i < z; i++) {
		if (!q && (i == a || d[i - 1] == '\n'))
			i = skip_directive(d, i, z);
		if (i >= z)
			break;
		char c = d[i];
		if (q) {
			if (c == '\\')
				i++;
			else if (c == q)
				q = 0;
			continue;
		}
		if (c == '"' || (c == '\'' && !pk_digit_separator(d, i))) {
			q = c;
			continue;
		}
		if (c == '/' && i + 1 < z && d[i + 1] == '/') {
			while (i < z && d[i] != '\n')
				i++;
		}
		out[n++] = c;
	}
	out[n] = '\0';
	*len = n;
	return out;
}

static int prints(const struct part *pt)
{
	const char *d = pt->f->src.buf.data + pt->b->dir_end;
	size_t n = pt->b->endif_start - pt->b->dir_end;
	return memmem(d, n, "printf", 6) != NULL || memmem(d, n, "PRINTF", 6) != NULL;
}

static void find_problems(struct probe *p)
{
	size_t nprint = 0;
	struct idents declared = {0};
	for (size_t i = 0; i < p->nparts; i++) {
		size_t len;
		char *code = code_of(&p->parts[i], &len);
		collect(re_decl, code, len, &declared);
		free(code);
		nprint += prints(&p->parts[i]);
	}
	if (nprint == 0)
		problem(p,
		        p->nparts == 1 ? "lone start part (line %u): no end part prints this probe"
		                       : "no part prints this probe (start at line %u)",
		        p->parts[0].b->line);
	for (size_t i = 0; i < p->nparts; i++) {
		if (!prints(&p->parts[i]))
			continue;
		struct idents used = {0};
		size_t len;
		char *code = code_of(&p->parts[i], &len);
		collect(re_use, code, len, &used);
		for (size_t k = 0; k < used.n; k++)
			if (!has_ident(&declared, used.v[k], strlen(used.v[k])))
				problem(p, "%s:%u: '%s' is used by the %s part but declared in no part of the probe",
				        p->parts[i].f->src.buf.path, p->parts[i].b->line, used.v[k],
				        p->nparts == 1 ? "only"
				        : i == 0       ? "start"
				                       : "end");
		free(code);
		free_idents(&used);
	}
	free_idents(&declared);
	/* parts in one file must share a function, and the start's scope must
	 * still be open at the end; a part at file scope (the #includes a probe
	 * needs) belongs to no function */
	size_t first = 0;
	while (first < p->nparts && p->parts[first].b->scope == 0)
		first++;
	for (size_t i = first + 1; i < p->nparts; i++) {
		/* every later part (an exit: insertion has one per return) must
		 * see the first part's variables */
		const struct part *a = &p->parts[first], *b = &p->parts[i];
		if (a->f != b->f || b->b->scope == 0)
			continue;
		const struct pk_scan *s = &a->f->src.scan;
		if (pk_scope_top(s, a->b->scope) != pk_scope_top(s, b->b->scope))
			problem(p, "parts at lines %u and %u are in different functions", a->b->line, b->b->line);
		else if (!pk_scope_within(s, b->b->scope, a->b->scope))
			problem(p, "the scope of the part at line %u closes before the part at line %u", a->b->line,
			        b->b->line);
	}
}

static const char *state_of(const struct probe *p)
{
	size_t on = 0;
	for (size_t i = 0; i < p->nparts; i++)
		on += p->parts[i].b->enabled != 0;
	return on == 0 ? "off" : on == p->nparts ? "on" : "mixed";
}

static void print_text(struct probe *probes, size_t n)
{
	size_t w = 5;
	for (size_t i = 0; i < n; i++)
		if (strlen(probes[i].name) > w)
			w = strlen(probes[i].name);
	printf("%-*s  %-5s  %s\n", (int)w, "PROBE", "STATE", "BLOCKS");
	for (size_t i = 0; i < n; i++) {
		struct probe *p = &probes[i];
		printf("%-*s  %-5s ", (int)w, p->name, state_of(p));
		for (size_t k = 0; k < p->nparts; k++)
			printf(" %s:%u", p->parts[k].f->src.buf.path, p->parts[k].b->line);
		putchar('\n');
		for (size_t k = 0; k < p->nproblems; k++)
			printf("%-*s  problem: %s\n", (int)w, "", p->problems[k]);
	}
}

static void print_json(struct probe *probes, size_t n, json_t *timing)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++) {
		struct probe *p = &probes[i];
		json_t *blocks = json_array(), *problems = json_array();
		for (size_t k = 0; k < p->nparts; k++)
			json_array_append_new(blocks,
			                      json_pack("{s:s, s:i, s:i, s:b}", "file", p->parts[k].f->src.buf.path,
			                                "line", (json_int_t)p->parts[k].b->line, "endif_line",
			                                (json_int_t)p->parts[k].b->endif_line, "enabled",
			                                p->parts[k].b->enabled));
		for (size_t k = 0; k < p->nproblems; k++)
			json_array_append_new(problems, json_string(p->problems[k]));
		json_array_append_new(arr, json_pack("{s:s, s:s, s:o, s:o}", "name", p->name, "state", state_of(p),
		                                     "blocks", blocks, "problems", problems));
	}
	json_t *root = json_pack("{s:s, s:o, s:o}", "version", PK_VERSION, "probes", arr, "timing", timing);
	char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	puts(s);
	free(s);
	json_decref(root);
}

static void free_probes(struct probe *probes, size_t n)
{
	for (size_t i = 0; probes && i < n; i++) {
		for (size_t k = 0; k < probes[i].nproblems; k++)
			free(probes[i].problems[k]);
		free(probes[i].problems);
		free(probes[i].parts);
	}
	free(probes);
}

/* ---- files carrying a timing tensor ---- */

/* The columns of F's timing tensor, in row order, as JSON objects {name,
 * column}: from the event map beside it (F.timing.json), else from the
 * labels of its added lines (entry, each event, body_done). An empty array:
 * the host side (marks, no entry sample). *MAP gets the map's path or NULL. */
static json_t *timing_columns(const struct pk_file *f, char **map)
{
	json_t *cols = json_array();
	*map = pk_xasprintf("%s.timing.json", f->src.buf.path);
	int fd = f->src.buf.from_stdin ? -1 : pk_open_small(*map, 64u << 20);
	if (fd >= 0)
		pk_note_read(*map, NULL);
	json_t *root = fd >= 0 ? json_loadfd(fd, 0, NULL) : NULL;
	if (fd >= 0)
		close(fd);
	json_t *ev = root ? json_object_get(root, "events") : NULL;
	for (size_t i = 0; json_is_array(ev) && i < json_array_size(ev); i++) {
		json_t *e = json_array_get(ev, i), *name = json_object_get(e, "name");
		if (json_is_string(name))
			json_array_append_new(cols, json_pack("{s:s, s:I}", "name", json_string_value(name), "column",
			                                      json_integer_value(json_object_get(e, "column"))));
	}
	json_decref(root);
	if (json_array_size(cols)) {
		return cols;
	}
	free(*map);
	*map = NULL;
	const char *d = f->src.buf.data, *end = d + f->src.buf.len;
	if (!memmem(d, f->src.buf.len, "@timing entry", 13))
		return cols;
	json_array_append_new(cols, json_pack("{s:s, s:i}", "name", "entry", "column", 0));
	for (const char *p = d; (p = memmem(p, (size_t)(end - p), "@timing event ", 14)) != NULL;) {
		p += 14;
		size_t n = strcspn(p, " \r\n");
		if ((size_t)(end - p) < n + 2 || memcmp(p + n, " (", 2))
			continue; /* "event local": the declaration, not a sample */
		char *name = pk_xstrndup(p, n);
		json_array_append_new(cols,
		                      json_pack("{s:s, s:i}", "name", name, "column", (int)json_array_size(cols)));
		free(name);
	}
	json_array_append_new(cols, json_pack("{s:s, s:i}", "name", "body_done", "column", (int)json_array_size(cols)));
	return cols;
}

static json_t *timing_files(const struct pk_fileset *fs)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < fs->n; i++) {
		if (!fs->f[i].src.ntmarks)
			continue;
		char *map;
		json_t *cols = timing_columns(&fs->f[i], &map);
		json_t *o = json_pack("{s:s, s:s, s:o}", "file", fs->f[i].src.buf.path, "role",
		                      json_array_size(cols) ? "kernel" : "host", "columns", cols);
		json_object_set_new(o, "event_map", map ? json_string(map) : json_null());
		json_array_append_new(arr, o);
		free(map);
	}
	return arr;
}

static void print_timing_text(json_t *files)
{
	for (size_t i = 0; i < json_array_size(files); i++) {
		json_t *f = json_array_get(files, i), *cols = json_object_get(f, "columns");
		const char *file = json_string_value(json_object_get(f, "file"));
		if (!json_array_size(cols)) {
			printf("timing tensor  %s  host side\n", file);
			continue;
		}
		printf("timing tensor  %s  columns", file);
		for (size_t k = 0; k < json_array_size(cols); k++) {
			json_t *c = json_array_get(cols, k);
			printf("%s %s=%lld", k ? "," : "", json_string_value(json_object_get(c, "name")),
			       (long long)json_integer_value(json_object_get(c, "column")));
		}
		json_t *map = json_object_get(f, "event_map");
		if (json_is_string(map))
			printf("  (event map %s)", json_string_value(map));
		putchar('\n');
	}
}

static void print_all(struct probe *probes, const struct pk_fileset *fs, int json)
{
	json_t *timing = timing_files(fs);
	if (json) {
		print_json(probes, fs->names.n, timing);
		return;
	}
	print_text(probes, fs->names.n);
	print_timing_text(timing);
	json_decref(timing);
}

enum { OPT_FORMAT = 1, OPT_NAMES };

struct list_opts {
	int json, names_only;
};

static int list_option(void *user, int c, const char *arg)
{
	struct list_opts *o = user;
	switch (c) {
	case OPT_FORMAT:
		if (!strcmp(arg, "json"))
			o->json = 1;
		else if (strcmp(arg, "text"))
			return pk_error("unknown format '%s' (text, json)", arg), PK_OPT_REFUSED;
		return PK_OPT_TAKEN;
	case OPT_NAMES:
		o->names_only = 1;
		return PK_OPT_TAKEN;
	}
	return PK_OPT_OTHER;
}

int cmd_list(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"format", required_argument, 0, OPT_FORMAT},
	    {"names", no_argument, 0, OPT_NAMES},
	    PK_COMMON_LONGOPTS,
	    {0, 0, 0, 0},
	};
	struct list_opts lo = {0};
	int orc;
	if (pk_options(argc, argv, ":h", longopts, list_option, &lo, usage_text, &orc))
		return orc;
	int json = lo.json, names_only = lo.names_only;
	if (optind >= argc) {
		pk_error("no input files (use '-' for standard input)");
		return PK_EXIT_ERROR;
	}
	struct pk_fileset fs;
	int rc = PK_EXIT_ERROR, walk_rc;
	struct probe *probes = NULL;
	size_t nfiles;
	memset(&fs, 0, sizeof(fs));
	struct pk_buf *pre = NULL; /* a directory's files, read once for their markers */
	char **files = pk_check_expand_dirs(argv + optind, (size_t)(argc - optind), &nfiles, &walk_rc, &pre);
	/* a kernel with an event map is read under its set's lock: never
	 * between the renames of an inject or a strip */
	if (walk_rc < 0 || pk_fileset_adopt(&fs, files, nfiles, pre, nfiles, PK_LOAD_SHARED, 0) < 0 ||
	    compile_patterns() < 0)
		goto out;
	/* a pending journal of an interrupted write, or of a probe-sweep, is
	 * a finding; never replayed here */
	size_t pending = 0;
	for (size_t i = 0; i < nfiles; i++)
		pending += pk_journal_report(files[i], json || names_only ? stderr : stdout);
	if (names_only) {
		for (size_t i = 0; i < fs.names.n; i++)
			puts(fs.names.v[i]);
		rc = PK_EXIT_OK;
		goto out;
	}
	probes = pk_xcalloc(fs.names.n, sizeof(*probes));
	for (size_t i = 0; i < fs.names.n; i++)
		probes[i].name = fs.names.v[i];
	for (size_t fi = 0; fi < fs.n; fi++)
		for (size_t k = 0; k < fs.f[fi].src.scan.nblocks; k++) {
			struct probe *p = &probes[fs.f[fi].name_of[k]];
			PK_GROW(p->parts, p->cap, p->nparts + 1);
			p->parts[p->nparts++] = (struct part){&fs.f[fi], &fs.f[fi].src.scan.blocks[k]};
		}
	for (size_t i = 0; i < fs.names.n; i++)
		find_problems(&probes[i]);
	print_all(probes, &fs, json);
	rc = pending ? PK_EXIT_FINDINGS : PK_EXIT_OK;
	for (size_t i = 0; i < fs.names.n; i++)
		if (probes[i].nproblems)
			rc = PK_EXIT_FINDINGS;
out:
	free_probes(probes, fs.names.n);
	pcre2_code_free(re_decl);
	pcre2_code_free(re_use);
	pk_fileset_free(&fs);
	pk_check_free_pre(pre, nfiles);
	free(pre);
	for (size_t i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	return rc;
}
