/* cmd_check.c - probe-check: the pre-commit gate. Fails when a probe is
 * enabled, malformed, or (with --strict) present at all, and when timing
 * instrumentation stands outside any probe block. Rules are data (rules.h). */
#include "buf.h"
#include "embed.h"
#include "marks.h"
#include "pk.h"
#include "rules.h"
#include "scan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage_text[] =
	"usage: probe-check [options] [PATH...]\n"
	"\n"
	"The pre-commit gate: report probe code that must not be committed.\n"
	"PATHs are files or directories (recursed for kernel sources); default '.'.\n"
	"Findings: path:line:col: error|warning: message [rule-id]\n"
	"\n"
	"      --strict         also fail on disabled probe blocks: no probe may remain\n"
	"      --rules FILE     add or override rules (INI, see rules/check.ini); repeatable\n"
	"      --format FMT     text (default) or sarif (SARIF 2.1.0, repository-relative paths)\n"
	"      --staged         check the content staged in the git index, not the work tree\n"
	"      --ext LIST       extensions to recurse for (default .cpp,.cc,.cxx,.c,.h,.hpp,.hh,.cce,.asc,.cu)\n"
	"  -j, --jobs N         files checked in parallel (default: online CPUs, at most 8)\n"
	"      --list-rules     print the rules in force and exit\n"
	"  -h, --help           this help;  --version  the version\n"
	"\n"
	"A finding on a line holding 'probe-check: allow(RULE-ID)' is silenced.\n"
	"exit: 0 clean (warnings allowed), 1 errors found, 2 usage or input error\n";

struct finding {
	size_t off;
	unsigned line, col;
	const struct pk_rule *rule;
	char *msg;
};

struct item { /* one file to check */
	char *path;
	char *data; /* preloaded content (--staged), else NULL */
	size_t len;
	struct finding *f;
	size_t n, cap;
	int failed; /* could not be read or scanned */
	char *err;
};

struct check {
	struct pk_ruleset rules;
	int strict;
	int sarif;
	int staged;
	long jobs;
	char **exts;
	size_t nexts;
	struct item *items;
	size_t nitems, cap_items;
	atomic_size_t next;
};

/* ---- file collection ------------------------------------------------- */

static void add_item(struct check *c, const char *path)
{
	PK_GROW(c->items, c->cap_items, c->nitems + 1);
	memset(&c->items[c->nitems], 0, sizeof(c->items[0]));
	c->items[c->nitems++].path = pk_xstrdup(path);
}

static int ext_ok(const struct check *c, const char *name)
{
	const char *dot = strrchr(name, '.');
	if (!dot)
		return 0;
	for (size_t i = 0; i < c->nexts; i++)
		if (!strcmp(dot, c->exts[i]))
			return 1;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk(struct check *c, const char *dir, int depth)
{
	if (depth > 256)
		return pk_error("%s: directories nested too deep (a symlink loop?)", dir);
	DIR *dp = opendir(dir);
	if (!dp)
		return pk_error("%s: %s", dir, strerror(errno));
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue; /* ., .., .git and other hidden entries */
		PK_GROW(names, cap, n + 1);
		names[n++] = pk_xstrdup(de->d_name);
	}
	closedir(dp);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_name); /* stable output order */
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX];
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, names[i]) >= sizeof(path)) {
			rc = pk_error("%s/%s: path too long", dir, names[i]);
			free(names[i]);
			continue;
		}
		struct stat st;
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (walk(c, path, depth + 1) < 0)
				rc = -1;
		} else if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && ext_ok(c, names[i])) {
			add_item(c, path);
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

static int collect_paths(struct check *c, char **paths, int n)
{
	int rc = 0;
	for (int i = 0; i < n; i++) {
		struct stat st;
		if (strcmp(paths[i], "-") && stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			size_t l = strlen(paths[i]);
			char *p = pk_xstrdup(paths[i]);
			while (l > 1 && p[l - 1] == '/')
				p[--l] = '\0';
			if (walk(c, p, 0) < 0)
				rc = -1;
			free(p);
		} else {
			add_item(c, paths[i]); /* named files are checked whatever their extension */
		}
	}
	return rc;
}

/* ---- git ------------------------------------------------------------- */

static char *run_capture(const char *cmd, size_t *len)
{
	FILE *p = popen(cmd, "r");
	if (!p)
		return NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0, r;
	do {
		PK_GROW(buf, cap, n + 65536);
		r = fread(buf + n, 1, cap - n - 1, p);
		n += r;
	} while (r > 0);
	memset(buf + n, 0, cap - n); /* defined bytes past the end, see buf.c */
	if (pclose(p) != 0) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static char *shell_quote(const char *s)
{
	size_t n = 3;
	for (const char *p = s; *p; p++)
		n += *p == '\'' ? 4 : 1;
	char *q = pk_xmalloc(n), *w = q;
	*w++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(w, "'\\''", 4);
			w += 4;
		} else
			*w++ = *p;
	}
	*w++ = '\'';
	*w = '\0';
	return q;
}

static char *git_toplevel(void)
{
	size_t len;
	char *top = run_capture("git rev-parse --show-toplevel 2>/dev/null", &len);
	if (top) {
		while (len && (top[len - 1] == '\n' || top[len - 1] == '\r'))
			top[--len] = '\0';
		if (!len) {
			free(top);
			top = NULL;
		}
	}
	return top;
}

static int collect_staged(struct check *c)
{
	char *top = git_toplevel();
	if (!top)
		return pk_error("--staged: not inside a git work tree");
	char *qt = shell_quote(top), cmd[PATH_MAX + 128];
	snprintf(cmd, sizeof(cmd), "git -C %s diff --cached --name-only -z --diff-filter=ACMR", qt);
	size_t len;
	char *names = run_capture(cmd, &len);
	int rc = 0;
	if (!names)
		rc = pk_error("--staged: 'git diff --cached' failed");
	for (size_t i = 0; names && i < len;) {
		const char *name = names + i;
		size_t l = strlen(name);
		i += l + 1;
		if (!l || !ext_ok(c, name))
			continue;
		/* ':path' names the index version of path */
		char *colon = pk_xmalloc(l + 2);
		colon[0] = ':';
		memcpy(colon + 1, name, l + 1);
		char *qn = shell_quote(colon);
		char *spec = pk_xmalloc(strlen(qt) + strlen(qn) + 64);
		sprintf(spec, "git -C %s cat-file blob %s", qt, qn);
		size_t blen;
		char *blob = run_capture(spec, &blen);
		if (!blob)
			rc = pk_error("%s: cannot read the staged content", name);
		else {
			add_item(c, name);
			c->items[c->nitems - 1].data = blob;
			c->items[c->nitems - 1].len = blen;
		}
		free(colon);
		free(qn);
		free(spec);
	}
	free(names);
	free(qt);
	free(top);
	return rc;
}

/* ---- checking one file ------------------------------------------------ */

static void add_finding(struct item *it, struct pk_buf *b, size_t off, const struct pk_rule *r, const char *name)
{
	/* silenced by a `probe-check: allow(rule-id)` on the same line */
	size_t ls, le;
	pk_buf_line_bounds(b, off < b->len ? off : (b->len ? b->len - 1 : 0), &ls, &le);
	const char *allow = memmem(b->data + ls, le - ls, "probe-check: allow(", 19);
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
	f->msg = pk_rule_message(r, name);
}

static int cmp_finding(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return strcmp(x->rule->id, y->rule->id);
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
	struct pk_mark *m;
	size_t n;
};

static int in_covered(const struct covered *cv, size_t at)
{
	for (size_t i = 0; i < cv->n; i++)
		if (at >= cv->m[i].start && at < cv->m[i].end)
			return 1;
	return 0;
}

static void probe_marks(const struct pk_buf *b, const struct pk_scan *s, struct covered *cv)
{
	cv->m = NULL;
	cv->n = 0;
	if (!memmem(b->data, b->len, PK_BRACE_MARKER, strlen(PK_BRACE_MARKER)))
		return;
	struct pk_mark *m;
	size_t n;
	if (pk_marks_scan_quiet(b, &m, &n) < 0)
		return; /* damaged: every marker line stays a finding */
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		int known = 0;
		for (size_t k = 0; k < s->nblocks && !known; k++)
			known = !strcmp(s->blocks[k].name, m[i].name);
		if (known)
			m[w++] = m[i];
		else
			free(m[i].name);
	}
	cv->m = m;
	cv->n = w;
}

static void check_patterns(const struct check *c, struct item *it, struct pk_buf *b, struct pk_scan *s, int *scanned,
			   const struct covered *cv)
{
	for (size_t i = 0; i < c->rules.n; i++) {
		const struct pk_rule *r = &c->rules.r[i];
		if (!r->enabled || r->match != PK_MATCH_PATTERN || (r->strict_only && !c->strict))
			continue;
		pcre2_match_data *md = pcre2_match_data_create_from_pattern(r->re, NULL);
		size_t off = 0;
		while (off <= b->len && pcre2_match(r->re, (PCRE2_SPTR)b->data, b->len, off, 0, md, NULL) >= 0) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
			size_t at = ov[0];
			off = ov[1] > at ? ov[1] : at + 1;
			if (!*scanned) { /* only files with a match pay for the lexer */
				pk_scan_buf(b, s, PK_SCAN_COMMENTS);
				*scanned = 1;
			}
			if (pk_scan_block_at(s, at) >= 0)
				continue;
			if (!r->in_comments && pk_scan_in_comment(s, at))
				continue;
			if (on_error_line(b, s, at) || in_covered(cv, at))
				continue; /* a probe rule already speaks for this line */
			add_finding(it, b, at, r, NULL);
		}
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

static void check_item(const struct check *c, struct item *it)
{
	struct pk_buf b;
	if (it->data) {
		pk_buf_from_mem(&b, it->path, it->data, it->len);
		it->data = NULL;
		if (memchr(b.data, '\0', b.len)) {
			pk_buf_free(&b);
			return; /* a staged binary file is not a kernel source */
		}
	} else {
		/* the message goes into the item: threads must not interleave
		 * their messages on stderr */
		char msg[PATH_MAX + 128];
		if (pk_buf_load_msg(&b, it->path, PK_LOAD_ALLOW_NUL, msg, sizeof(msg)) < 0) {
			pk_buf_free(&b);
			it->failed = 1;
			it->err = pk_xmalloc(strlen(msg) + 16);
			sprintf(it->err, "probekit: %s\n", msg);
			return;
		}
		if (memchr(b.data, '\0', b.len)) {
			pk_buf_free(&b);
			return; /* binary: nothing a compiler would read */
		}
	}
	struct pk_scan s;
	memset(&s, 0, sizeof(s));
	int scanned = 0;
	struct covered cv = { NULL, 0 };
	if (memmem(b.data, b.len, "TIMING_PROBE", 12)) {
		pk_scan_buf(&b, &s, PK_SCAN_COMMENTS);
		scanned = 1;
		check_structure(c, it, &b, &s);
		probe_marks(&b, &s, &cv);
	}
	check_patterns(c, it, &b, &s, &scanned, &cv);
	pk_marks_free(cv.m, cv.n);
	if (it->n > 1)
		qsort(it->f, it->n, sizeof(*it->f), cmp_finding);
	pk_scan_free(&s);
	pk_buf_free(&b);
}

static void *worker(void *arg)
{
	struct check *c = arg;
	for (;;) {
		size_t i = atomic_fetch_add(&c->next, 1);
		if (i >= c->nitems)
			return NULL;
		check_item(c, &c->items[i]);
	}
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

static const char *sev_name(enum pk_severity s)
{
	return s == PK_SEV_ERROR ? "error" : "warning";
}

static char *uri_of(const char *path, const char *base)
{
	char abs[PATH_MAX];
	const char *rel = path;
	if (base && realpath(path, abs)) {
		size_t bl = strlen(base);
		if (!strncmp(abs, base, bl) && abs[bl] == '/')
			rel = abs + bl + 1;
	}
	while (rel[0] == '.' && rel[1] == '/')
		rel += 2;
	char *out = pk_xmalloc(strlen(rel) * 3 + 1), *w = out;
	for (const unsigned char *p = (const unsigned char *)rel; *p; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p))
			*w++ = (char)*p;
		else
			w += sprintf(w, "%%%02X", *p);
	}
	*w = '\0';
	return out;
}

static void print_sarif(const struct check *c)
{
	char *base = c->staged ? NULL : git_toplevel();
	char cwd[PATH_MAX];
	if (!base && !c->staged && getcwd(cwd, sizeof(cwd)))
		base = pk_xstrdup(cwd);
	json_t *rules = json_array(), *results = json_array();
	for (size_t i = 0; i < c->rules.n; i++) {
		const struct pk_rule *r = &c->rules.r[i];
		if (!r->enabled)
			continue;
		json_array_append_new(rules, json_pack("{s:s, s:{s:s}, s:{s:s}}", "id", r->id, "shortDescription",
						       "text", r->description, "defaultConfiguration", "level",
						       sev_name(r->severity)));
	}
	for (size_t i = 0; i < c->nitems; i++) {
		const struct item *it = &c->items[i];
		char *uri = uri_of(it->path, base);
		for (size_t k = 0; k < it->n; k++) {
			const struct finding *f = &it->f[k];
			json_array_append_new(
				results,
				json_pack("{s:s, s:s, s:{s:s}, s:[{s:{s:{s:s, s:s}, s:{s:i, s:i}}}]}", "ruleId", f->rule->id,
					  "level", sev_name(f->rule->severity), "message", "text", f->msg, "locations",
					  "physicalLocation", "artifactLocation", "uri", uri, "uriBaseId", "%SRCROOT%",
					  "region", "startLine", (json_int_t)f->line, "startColumn", (json_int_t)f->col));
		}
		free(uri);
	}
	json_t *root = json_pack(
		"{s:s, s:s, s:[{s:{s:{s:s, s:s, s:o}}, s:o}]}", "$schema",
		"https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0", "runs", "tool", "driver", "name",
		"probekit", "version", PK_VERSION, "rules", rules,
		"results", results);
	char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	puts(s);
	free(s);
	json_decref(root);
	free(base);
}

static int report(const struct check *c)
{
	size_t errors = 0, warnings = 0, failed = 0;
	for (size_t i = 0; i < c->nitems; i++) {
		const struct item *it = &c->items[i];
		if (it->failed) {
			failed++;
			if (it->err)
				fputs(it->err, stderr);
		}
		for (size_t k = 0; k < it->n; k++) {
			const struct finding *f = &it->f[k];
			if (f->rule->severity == PK_SEV_ERROR)
				errors++;
			else
				warnings++;
			if (!c->sarif)
				printf("%s:%u:%u: %s: %s [%s]\n", it->path, f->line, f->col, sev_name(f->rule->severity),
				       f->msg, f->rule->id);
		}
	}
	if (c->sarif)
		print_sarif(c);
	if (failed)
		return PK_EXIT_ERROR;
	return errors ? PK_EXIT_FINDINGS : PK_EXIT_OK;
}

/* ---- options ------------------------------------------------------------ */

static void set_exts(struct check *c, const char *list)
{
	for (size_t i = 0; i < c->nexts; i++)
		free(c->exts[i]);
	c->nexts = 0;
	size_t cap = 0;
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
		printf("%-20s %-7s %s%s%s\n", r->id, sev_name(r->severity), r->enabled ? "" : "(off) ",
		       r->strict_only ? "(--strict) " : "", r->description);
	}
}

int cmd_check(int argc, char **argv)
{
	enum { OPT_STRICT = 1, OPT_RULES, OPT_FORMAT, OPT_STAGED, OPT_EXT, OPT_LIST };
	static const struct option longopts[] = {
		{ "strict", no_argument, 0, OPT_STRICT },    { "rules", required_argument, 0, OPT_RULES },
		{ "format", required_argument, 0, OPT_FORMAT }, { "staged", no_argument, 0, OPT_STAGED },
		{ "ext", required_argument, 0, OPT_EXT },      { "jobs", required_argument, 0, 'j' },
		{ "list-rules", no_argument, 0, OPT_LIST },    PK_COMMON_LONGOPTS,
		{ 0, 0, 0, 0 },
	};
	struct check c;
	memset(&c, 0, sizeof(c));
	set_exts(&c, ".cpp,.cc,.cxx,.c,.h,.hpp,.hh,.cce,.asc,.cu");
	char **extra_rules = pk_xcalloc((size_t)argc + 1, sizeof(char *));
	size_t nextra = 0;
	int rc = PK_EXIT_ERROR, list = 0, opt;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":hj:", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_STRICT:
			c.strict = 1;
			break;
		case OPT_RULES:
			extra_rules[nextra++] = optarg;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "sarif"))
				c.sarif = 1;
			else if (strcmp(optarg, "text")) {
				pk_error("unknown format '%s' (text, sarif)", optarg);
				goto out;
			}
			break;
		case OPT_STAGED:
			c.staged = 1;
			break;
		case OPT_EXT:
			set_exts(&c, optarg);
			break;
		case 'j': {
			char *end;
			c.jobs = strtol(optarg, &end, 10);
			if (*end || c.jobs < 1 || c.jobs > 256) {
				pk_error("--jobs takes a number from 1 to 256, not '%s'", optarg);
				goto out;
			}
			break;
		}
		case OPT_LIST:
			list = 1;
			break;
		default:
			pk_common_option(opt, argv, usage_text, &rc);
			goto out;
		}
	}
	if (pk_rules_load_defaults(&c.rules) < 0)
		goto out;
	for (size_t i = 0; i < nextra; i++)
		if (pk_rules_load_file(&c.rules, extra_rules[i]) < 0)
			goto out;
	if (pk_rules_compile(&c.rules) < 0)
		goto out;
	if (list) {
		list_rules(&c);
		rc = PK_EXIT_OK;
		goto out;
	}
	if (c.staged) {
		if (optind < argc) {
			pk_error("--staged checks the git index; give no paths");
			goto out;
		}
		if (collect_staged(&c) < 0)
			goto out;
	} else if (optind < argc) {
		if (collect_paths(&c, argv + optind, argc - optind) < 0)
			goto out;
	} else {
		char *dot = ".";
		if (collect_paths(&c, &dot, 1) < 0)
			goto out;
	}
	run_all(&c);
	rc = report(&c);
out:
	for (size_t i = 0; i < c.nitems; i++) {
		for (size_t k = 0; k < c.items[i].n; k++)
			free(c.items[i].f[k].msg);
		free(c.items[i].f);
		free(c.items[i].path);
		free(c.items[i].data);
		free(c.items[i].err);
	}
	free(c.items);
	for (size_t i = 0; i < c.nexts; i++)
		free(c.exts[i]);
	free(c.exts);
	free(extra_rules);
	pk_rules_free(&c.rules);
	return rc;
}
