/* cmd_sweep.c - probe-sweep: the one-probe-per-run loop. For each probe in
 * turn: enable it (and T_BASE) with probe-inject's own rewrite, run the
 * user's command with its output captured to DIR/<probe>.log, put the
 * sources back byte for byte; then one probe-report over all the logs. */
#include "names.h"
#include "journal.h"
#include "pk.h"
#include "probeset.h"
#include "report.h"
#include "sweep.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: probe-sweep (--probes A,B,... | --all) --run CMD [options] FILE...\n"
    "       probe-sweep --recover [--discard-journal] [--out DIR]\n"
    "\n"
    "One probe per build and run, automated: for each probe, enable exactly\n"
    "that probe (and " PK_BASE_PROBE ") in FILE..., run CMD through /bin/sh with PROBE\n"
    "(the probe's name), PROBE_LOG (its log) and PROBE_RUN (1..N) set, capture\n"
    "its standard output and error to DIR/PROBE.log, and put the files back byte\n"
    "for byte - after success, failure, Ctrl-C or SIGTERM alike. Then one\n"
    "probe-report over every probe's log: DIR/report.txt (also printed).\n"
    "FILE... must have every probe off. If probe-sweep itself is killed, the\n"
    "next probe-sweep with the same --out (or --recover) puts the files back\n"
    "from the journal in DIR; 'probe-strip --disable FILE...' does too.\n"
    "\n"
    "      --probes A,B,...  the probes to sweep, in this order\n"
    "      --all             every probe of FILE... but " PK_BASE_PROBE ", in order of first appearance\n"
    "      --run CMD         build and run the instrumented sources (a shell command)\n"
    "      --repeat N        run CMD N times per probe (default 1): N runs in one log\n"
    "      --timeout SECONDS stop a run of CMD (its whole process group) after SECONDS;\n"
    "                        the probe counts as failed (status timeout) and the sweep goes on\n"
    "      --out DIR         logs, report, summary and journal (default probe-sweep.out)\n"
    "      --report-arg ARG  pass ARG to probe-report (repeatable), e.g. --report-arg=--repeat=5\n"
    "      --fail-fast       stop at the first probe whose command fails\n"
    "  -n, --dry-run         print the plan; change nothing, run nothing\n"
    "      --recover         only put back the files of an unfinished sweep in DIR\n"
    "      --discard-journal remove a journal in DIR that is refused (not provably\n"
    "                        this user's own, from this machine, for this folder)\n"
    "  -q, --quiet           no progress lines and no summary table\n"
    "  -h, --help            this help;  --version  the version\n"
    "\n"
    "exit: 0 every command succeeded and the report has no finding, 1 a command\n"
    "      failed, a log shows other probes, or the report has findings,\n"
    "      2 usage or input error (files unchanged), 128+N ended by signal N\n"
    "      (files put back first)\n";

#define DEFAULT_OUT "probe-sweep.out"
#define RUN_MARK    "probe-sweep: run "
#define MAX_REPEAT  10000
#define MAX_TIMEOUT 1000000.0 /* seconds */
/* The exit status a run stopped at its time limit counts as (as timeout(1)). */
#define TIMEOUT_STATUS 124

struct sweep_opts {
	const char *probes, *cmd, *out;
	int all, repeat, dry_run, fail_fast, recover, quiet;
	long timeout_ms; /* 0: no time limit */
	char **report_args;
	size_t nreport_args, cap_report_args;
};

/* One probe's part of the sweep. */
struct probe_run {
	const char *name;
	int status;             /* first nonzero exit of its runs, else 0; -1 not run */
	int timed_out;          /* a run was stopped at --timeout */
	int runs;               /* runs done */
	size_t lines;           /* lines its command printed */
	double seconds;         /* enable, runs and restore */
	size_t foreign;         /* lines of other probes in its log */
	char *others;           /* their names */
	char *log, *report_log; /* its log; what the report reads */
	/* the files whose T_BASE runs with it: the files holding the probe
	 * that have one (the same kernel), else every file with one */
	unsigned char *base_in;
	int own_base; /* the probe's own files have a T_BASE */
	long kernel;  /* the file (kernel) whose report holds it: its first file; -1: all */
};

struct sweep {
	struct sweep_opts o;
	char **files;
	size_t nfiles;
	struct pk_fileset fs; /* the files as they were: the bytes to put back */
	struct probe_run *p;
	size_t np;
	char out_abs[PATH_MAX];
};

static int add_report_arg(struct sweep_opts *o, char *arg)
{
	if (!strcmp(arg, "-o") || !strncmp(arg, "--output", 8) || !strncmp(arg, "--run", 5))
		return pk_error("--report-arg '%s': probe-sweep sets the report's output and runs itself", arg);
	PK_GROW(o->report_args, o->cap_report_args, o->nreport_args + 1);
	o->report_args[o->nreport_args++] = arg;
	return 0;
}

static int parse_repeat(struct sweep_opts *o, const char *arg)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (errno || *end || end == arg || v < 1 || v > MAX_REPEAT)
		return pk_error("--repeat '%s': give a count from 1 to %d", arg, MAX_REPEAT);
	o->repeat = (int)v;
	return 0;
}

static int parse_timeout(struct sweep_opts *o, const char *arg)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || *end || end == arg || !(v > 0) || v > MAX_TIMEOUT)
		return pk_error("--timeout '%s': give the seconds a run may take, a number above 0 (e.g. 600)", arg);
	o->timeout_ms = (long)(v * 1000 + 0.5);
	if (o->timeout_ms < 1)
		o->timeout_ms = 1;
	return 0;
}

enum {
	OPT_PROBES = 1,
	OPT_ALL,
	OPT_RUN,
	OPT_REPEAT,
	OPT_OUT,
	OPT_FAIL_FAST,
	OPT_REPORT_ARG,
	OPT_RECOVER,
	OPT_TIMEOUT,
	OPT_DISCARD
};

/* One option of probe-sweep (pk_options' answers). */
static int parse_option(void *user, int c, const char *arg)
{
	struct sweep_opts *o = user;
	switch (c) {
	case OPT_PROBES:
		o->probes = arg;
		return 0;
	case OPT_ALL:
		o->all = 1;
		return 0;
	case OPT_RUN:
		o->cmd = arg;
		return 0;
	case OPT_REPEAT:
		return parse_repeat(o, arg);
	case OPT_OUT:
		o->out = arg;
		return 0;
	case OPT_FAIL_FAST:
		o->fail_fast = 1;
		return 0;
	case OPT_REPORT_ARG:
		return add_report_arg(o, (char *)arg);
	case OPT_RECOVER:
		o->recover = 1;
		return 0;
	case OPT_DISCARD:
		pk_journal_set_discard(1);
		return 0;
	case OPT_TIMEOUT:
		return parse_timeout(o, arg);
	case 'n':
		o->dry_run = 1;
		return 0;
	case 'q':
		o->quiet = 1;
		return 0;
	default:
		return PK_OPT_OTHER;
	}
}

static int parse(int argc, char **argv, struct sweep_opts *o, int *done)
{
	static const struct option longopts[] = {
	    {"probes", required_argument, 0, OPT_PROBES},
	    {"all", no_argument, 0, OPT_ALL},
	    {"run", required_argument, 0, OPT_RUN},
	    {"repeat", required_argument, 0, OPT_REPEAT},
	    {"out", required_argument, 0, OPT_OUT},
	    {"fail-fast", no_argument, 0, OPT_FAIL_FAST},
	    {"report-arg", required_argument, 0, OPT_REPORT_ARG},
	    {"recover", no_argument, 0, OPT_RECOVER},
	    {"discard-journal", no_argument, 0, OPT_DISCARD},
	    {"timeout", required_argument, 0, OPT_TIMEOUT},
	    {"dry-run", no_argument, 0, 'n'},
	    {"quiet", no_argument, 0, 'q'},
	    PK_COMMON_LONGOPTS,
	    {0, 0, 0, 0},
	};
	int rc;
	*done = 0;
	o->repeat = 1;
	o->out = DEFAULT_OUT;
	if (pk_options(argc, argv, ":nqh", longopts, parse_option, o, usage_text, &rc)) {
		*done = rc == PK_EXIT_OK;
		return *done ? 0 : -1;
	}
	if (o->recover)
		return optind < argc || o->cmd || o->probes || o->all
		           ? pk_error("--recover takes only --out DIR (and --quiet, --discard-journal)")
		           : 0;
	if (!o->all == !o->probes)
		return pk_error("give the probes to sweep: --probes A,B,... or --all");
	if (!o->cmd)
		return pk_error("give the command that builds and runs the sources: --run 'CMD'");
	if (optind >= argc)
		return pk_error("no input files: give the sources that hold the probes");
	for (int i = optind; i < argc; i++)
		if (!strcmp(argv[i], "-"))
			return pk_error("'-': probe-sweep rewrites files in place, standard input cannot be swept");
	return 0;
}

/* ---- which probes, and are the files clean -------------------------- */

static void add_probe(struct sweep *sw, const char *name)
{
	sw->p = pk_xrealloc(sw->p, (sw->np + 1) * sizeof(*sw->p));
	memset(&sw->p[sw->np], 0, sizeof(*sw->p));
	sw->p[sw->np].name = name;
	sw->p[sw->np].status = -1;
	sw->np++;
}

static int select_probes(struct sweep *sw)
{
	struct pk_fileset *fs = &sw->fs;
	if (sw->o.all) {
		for (size_t i = 0; i < fs->names.n; i++)
			if (strcmp(fs->names.v[i], PK_BASE_PROBE) || fs->names.n == 1)
				add_probe(sw, fs->names.v[i]);
		if (!sw->np)
			return pk_error("%s: no TIMING_PROBE blocks found: nothing to sweep", sw->files[0]);
		return 0;
	}
	for (char *s = (char *)sw->o.probes, *save = NULL, *t = strtok_r(s, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		if (!pk_probe_name_ok(t))
			return pk_error("--probes: '%s' is not a probe name ([A-Za-z_][A-Za-z0-9_]*)", t);
		long at = pk_fileset_find(fs, t);
		if (at < 0)
			return pk_fileset_unknown(fs, t);
		for (size_t k = 0; k < sw->np; k++)
			if (!strcmp(sw->p[k].name, t))
				return pk_error("--probes: '%s' is given twice", t);
		add_probe(sw, fs->names.v[at]);
	}
	return sw->np ? 0 : pk_error("--probes: the list is empty");
}

static int file_has(const struct pk_file *f, const char *name)
{
	for (size_t k = 0; k < f->src.scan.nblocks; k++)
		if (!strcmp(f->src.scan.blocks[k].name, name))
			return 1;
	return 0;
}

/* Each probe runs with the T_BASE of its own kernel: the files that hold
 * the probe and a T_BASE. A probe whose files have none runs with every
 * T_BASE, as before, and is reported with all kernels (said once). */
static void choose_bases(struct sweep *sw)
{
	for (size_t k = 0; k < sw->np; k++) {
		struct probe_run *r = &sw->p[k];
		r->base_in = pk_xcalloc(sw->fs.n + 1, 1);
		r->kernel = -1;
		for (size_t i = 0; i < sw->fs.n; i++)
			if (file_has(&sw->fs.f[i], r->name) && file_has(&sw->fs.f[i], PK_BASE_PROBE)) {
				r->base_in[i] = 1;
				r->own_base = 1;
				if (r->kernel < 0)
					r->kernel = (long)i;
			}
		if (r->own_base || !strcmp(r->name, PK_BASE_PROBE))
			continue;
		for (size_t i = 0; i < sw->fs.n; i++)
			r->base_in[i] = (unsigned char)file_has(&sw->fs.f[i], PK_BASE_PROBE);
		int any = 0;
		for (size_t i = 0; i < sw->fs.n; i++)
			any |= r->base_in[i];
		if (any && sw->fs.n > 1)
			pk_warning("probe '%s': no file holding it has a " PK_BASE_PROBE
			           " block, so it runs with every file's " PK_BASE_PROBE
			           " and its timeline is taken from whichever printed last; put a " PK_BASE_PROBE
			           " probe at the entry of its own kernel (probe-inject --base)",
			           r->name);
	}
}

/* The sweep turns '#if 0' into '#if 1' and back: every probe must be off. */
static int check_all_off(struct sweep *sw)
{
	for (size_t i = 0; i < sw->fs.n; i++) {
		const struct pk_file *f = &sw->fs.f[i];
		for (size_t k = 0; k < f->src.scan.nblocks; k++)
			if (f->src.scan.blocks[k].enabled)
				return pk_error(
				    "%s:%u: probe '%s' is on; a sweep starts from sources with every probe off: "
				    "if an interrupted probe-sweep left it on, run 'probe-sweep --recover --out DIR', "
				    "else 'probe-strip --disable %s'",
				    f->src.buf.path, f->src.scan.blocks[k].line, f->src.scan.blocks[k].name,
				    f->src.buf.path);
	}
	return 0;
}

/* ---- the plan (--dry-run) ------------------------------------------- */

static void print_blocks(struct sweep *sw, const char *name, const unsigned char *only)
{
	for (size_t i = 0; i < sw->fs.n; i++) {
		const struct pk_file *f = &sw->fs.f[i];
		if (only && !only[i])
			continue;
		const char *sep = " ";
		for (size_t k = 0; k < f->src.scan.nblocks; k++)
			if (!strcmp(f->src.scan.blocks[k].name, name)) {
				printf("%s%s:%u", sep, f->src.buf.path, f->src.scan.blocks[k].line);
				sep = ",";
			}
	}
}

static void print_plan(struct sweep *sw)
{
	int base = pk_fileset_has(&sw->fs, PK_BASE_PROBE);
	printf("probe-sweep plan (dry run: nothing is changed, nothing is run)\n");
	if (sw_journal_exists(sw->o.out))
		printf("first: put back the files named by the journal in %s (an earlier sweep did not finish)\n",
		       sw->o.out);
	printf("files:");
	for (size_t i = 0; i < sw->nfiles; i++)
		printf(" %s", sw->files[i]);
	printf("\ncommand: /bin/sh -c '%s', %d run(s) per probe, with PROBE, PROBE_LOG and PROBE_RUN set\n", sw->o.cmd,
	       sw->o.repeat);
	for (size_t k = 0; k < sw->np; k++) {
		const char *name = sw->p[k].name;
		printf("%zu/%zu %s: enable", k + 1, sw->np, name);
		print_blocks(sw, name, NULL);
		if (base && strcmp(name, PK_BASE_PROBE)) {
			printf(" and " PK_BASE_PROBE);
			print_blocks(sw, PK_BASE_PROBE, sw->p[k].base_in);
		}
		printf("; run; log %s/%s.log; put the files back\n", sw->o.out, name);
	}
	printf("report: probe-report");
	if (sw->o.repeat > 1)
		printf(" --run '" RUN_MARK "'");
	for (size_t i = 0; i < sw->o.nreport_args; i++)
		printf(" %s", sw->o.report_args[i]);
	long *kernels = pk_xcalloc(sw->np + 1, sizeof(*kernels));
	size_t nk = 0;
	for (size_t k = 0; k < sw->np; k++) {
		size_t i = 0;
		while (i < nk && kernels[i] != sw->p[k].kernel)
			i++;
		if (i == nk)
			kernels[nk++] = sw->p[k].kernel;
	}
	free(kernels);
	if (nk > 1)
		printf(" -o %s/report-N.txt for each of %zu kernels (each probe from its own kernel's " PK_BASE_PROBE
		       "), all in %s/report.txt, over the logs of the probes whose command succeeded\n",
		       sw->o.out, nk, sw->o.out);
	else
		printf(" -o %s/report.txt, over the logs of the probes whose command succeeded\n", sw->o.out);
}

/* ---- one probe ------------------------------------------------------- */

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Enable NAME (and T_BASE) through the block planner, as probe-inject
 * --probe does, then check that exactly those are on and nothing else
 * changed. */
static int enable_probe(struct sweep *sw, const struct probe_run *r)
{
	const char *name = r->name;
	struct pk_fileset set;
	const struct pk_emit_opts in_place = {PK_EMIT_INPLACE, NULL};
	size_t changed, n = 0;
	/* the files switched: those holding the probe or a T_BASE that runs with it */
	char **files = pk_xcalloc(sw->fs.n + 1, sizeof(*files));
	for (size_t i = 0; i < sw->fs.n; i++)
		if (file_has(&sw->fs.f[i], name) || r->base_in[i])
			files[n++] = (char *)sw->fs.f[i].src.buf.path;
	int rc = pk_fileset_load(&set, files, n, PK_LOAD_FOR_WRITE, 0);
	free(files);
	if (rc == 0)
		rc = pk_fileset_plan_switch(&set, name, 1, 0);
	if (rc == 0)
		rc = pk_fileset_emit(&set, &in_place, &changed);
	pk_fileset_free(&set);
	struct pk_fileset now = {0};
	if (rc == 0 && pk_fileset_load(&now, sw->files, sw->nfiles, 0, 0) < 0)
		rc = -1;
	for (size_t i = 0; rc == 0 && i < now.n; i++) {
		const struct pk_file *f = &now.f[i], *was = &sw->fs.f[i];
		if (!sw_only_flips(&was->src.buf, &was->src.scan, f->src.buf.data, f->src.buf.len))
			rc = pk_error("%s: changed by more than probe switches while enabling '%s'", f->src.buf.path,
			              name);
		for (size_t k = 0; rc == 0 && k < f->src.scan.nblocks; k++) {
			const struct pk_block *b = &f->src.scan.blocks[k];
			int want = !strcmp(b->name, name) || (!strcmp(b->name, PK_BASE_PROBE) && r->base_in[i]);
			if (b->enabled != want)
				rc = pk_error("%s:%u: probe '%s' is %s after enabling '%s'", f->src.buf.path, b->line,
				              b->name, b->enabled ? "on" : "off", name);
		}
	}
	pk_fileset_free(&now);
	return rc;
}

static int put_back(struct sweep *sw)
{
	struct pk_buf *orig = pk_xcalloc(sw->fs.n, sizeof(*orig));
	struct pk_scan *scans = pk_xcalloc(sw->fs.n, sizeof(*scans));
	for (size_t i = 0; i < sw->fs.n; i++) {
		orig[i] = sw->fs.f[i].src.buf;
		scans[i] = sw->fs.f[i].src.scan;
	}
	char where[PATH_MAX + 16];
	snprintf(where, sizeof(where), "%s/.journal", sw->o.out);
	size_t restored;
	int rc = sw_put_back(orig, scans, sw->fs.n, where, &restored);
	free(orig);
	free(scans);
	return rc;
}

/* Is [P, END) (one log line) a probe line, "[NAME] key=..." or
 * "[T_BASE] N", maybe after a harness prefix? Returns NAME, its length in
 * *LEN; NULL for any other output. */
static const char *probe_line_name(const char *p, const char *end, size_t *len)
{
	static const char *const keys[] = {PK_NAME_LOG_ALL}; /* rules/names.ini [log] */
	for (; (p = memchr(p, '[', (size_t)(end - p))) != NULL; p++) {
		const char *q = p + 1, *v;
		if (q == end || !(isalpha((unsigned char)*q) || *q == '_'))
			continue;
		while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
			q++;
		if (q + 1 >= end || q[0] != ']' || q[1] != ' ')
			continue;
		for (v = q + 1; v < end && *v == ' '; v++)
			;
		*len = (size_t)(q - p - 1);
		if (*len == strlen(PK_BASE_PROBE) && !memcmp(p + 1, PK_BASE_PROBE, *len) && v < end &&
		    isdigit((unsigned char)*v))
			return p + 1;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if ((size_t)(end - v) >= strlen(keys[k]) && !memcmp(v, keys[k], strlen(keys[k])))
				return p + 1;
	}
	return NULL;
}

static void note_other(struct probe_run *r, const char *name, size_t len)
{
	char *quoted = pk_xmalloc(len + 3);
	sprintf(quoted, "'%.*s'", (int)len, name);
	if (!r->others || !strstr(r->others, quoted)) {
		size_t have = r->others ? strlen(r->others) : 0;
		r->others = pk_xrealloc(r->others, have + len + 5);
		sprintf(r->others + have, "%s%s", have ? ", " : "", quoted);
	}
	free(quoted);
}

/* Count the log's lines; find lines of probes other than R's own and T_BASE
 * (another probe was on: the contamination one probe per run forbids). Those
 * get a copy without them for the report. MARKS: lines we wrote ourselves. */
static int read_log(struct sweep *sw, struct probe_run *r, size_t marks)
{
	struct pk_buf b;
	if (pk_buf_load(&b, r->log, PK_LOAD_ALLOW_NUL) < 0) {
		pk_buf_free(&b);
		return -1;
	}
	char *keep = pk_xmalloc(b.len + 1);
	size_t kept = 0, lines = 0;
	for (const char *p = b.data, *end = b.data + b.len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl + 1 : end;
		size_t len;
		const char *name = probe_line_name(p, nl ? nl : end, &len);
		lines++;
		if (name && (len != strlen(r->name) || memcmp(name, r->name, len)) &&
		    (len != strlen(PK_BASE_PROBE) || memcmp(name, PK_BASE_PROBE, len))) {
			r->foreign++;
			note_other(r, name, len);
		} else {
			memcpy(keep + kept, p, (size_t)(e - p));
			kept += (size_t)(e - p);
		}
		p = e;
	}
	r->lines = lines > marks ? lines - marks : 0;
	int rc = 0;
	r->report_log = pk_xstrdup(r->log);
	if (r->foreign) {
		char dir[PATH_MAX + 16];
		snprintf(dir, sizeof(dir), "%s/filtered", sw->o.out);
		if (mkdir(dir, 0777) < 0 && errno != EEXIST)
			rc = pk_error("%s: %s", dir, strerror(errno));
		free(r->report_log);
		r->report_log = pk_xmalloc(strlen(dir) + strlen(r->name) + 8);
		sprintf(r->report_log, "%s/%s.log", dir, r->name);
		if (rc == 0)
			rc = pk_write_atomic(r->report_log, keep, kept, NULL);
		pk_warning(
		    "%s: %zu line(s) of probe %s besides '%s' (and " PK_BASE_PROBE "): another probe was on in "
		    "this build, and its printf skews '%s' (one probe per run); the report reads %s, without them",
		    r->log, r->foreign, r->others, r->name, r->name, r->report_log);
	}
	free(keep);
	pk_buf_free(&b);
	return rc;
}

/* Run the command --repeat times with R's probe on, its output to R's log
 * (runs after the first each start at a marker line: MARKS counts them). */
static int run_command(struct sweep *sw, struct probe_run *r, size_t *marks)
{
	int fd = open(r->log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0666);
	if (fd < 0)
		return pk_error("%s: %s", r->log, strerror(errno));
	char env_probe[128], env_log[PATH_MAX + 160], env_run[32];
	char *env[] = {env_probe, env_log, env_run, NULL};
	char *argv[] = {(char *)"/bin/sh", (char *)"-c", (char *)sw->o.cmd, NULL};
	snprintf(env_probe, sizeof(env_probe), "PROBE=%s", r->name);
	snprintf(env_log, sizeof(env_log), "PROBE_LOG=%s/%s.log", sw->out_abs, r->name);
	int rc = 0;
	for (int k = 1; k <= sw->o.repeat && !sw_caught(); k++) {
		if (sw->o.repeat > 1) {
			dprintf(fd, RUN_MARK "%d of %d (PROBE=%s)\n", k, sw->o.repeat, r->name);
			++*marks;
		}
		snprintf(env_run, sizeof(env_run), "PROBE_RUN=%d", k);
		int st, sr = sw_spawn(argv, env, fd, fd, sw->o.timeout_ms, &st);
		if (sr < 0) {
			rc = -1;
			break;
		}
		if (sr == 1) {
			dprintf(fd, "probe-sweep: timeout: run %d of %s was stopped after %.3g s (--timeout)\n", k,
			        r->name, (double)sw->o.timeout_ms / 1000);
			st = TIMEOUT_STATUS;
		}
		r->runs++;
		if (r->status <= 0) {
			r->status = st;
			r->timed_out = sr == 1;
		}
	}
	close(fd);
	return rc;
}

enum { PROBE_OK = 0, PROBE_FATAL = -1, PROBE_NOT_BACK = -2 };

static void progress(const struct sweep *sw, size_t k)
{
	const struct probe_run *r = &sw->p[k];
	if (sw->o.quiet)
		return;
	struct pk_sb line = {0};
	pk_sb_addf(&line, "probe-sweep: [%zu/%zu] %s: ", k + 1, sw->np, r->name);
	if (r->status < 0)
		pk_sb_add(&line, "not run");
	else
		pk_sb_addf(&line, "exit %d", r->status);
	pk_sb_addf(&line, ", %.2f s, %zu line(s)", r->seconds, r->lines);
	if (r->foreign)
		pk_sb_addf(&line, ", %zu of other probes", r->foreign);
	pk_note("%s -> %s", line.s, r->log);
	pk_sb_free(&line);
}

/* One probe: enable, run, put back (whatever happened), read its log. */
static int sweep_probe(struct sweep *sw, size_t k)
{
	struct probe_run *r = &sw->p[k];
	double t0 = now_s();
	r->log = pk_xmalloc(strlen(sw->o.out) + strlen(r->name) + 8);
	sprintf(r->log, "%s/%s.log", sw->o.out, r->name);
	size_t marks = 0;
	int rc = enable_probe(sw, r) < 0 ? PROBE_FATAL : PROBE_OK;
	if (rc == PROBE_OK && !sw->o.quiet)
		pk_note("probe-sweep: [%zu/%zu] %s: on, running the command", k + 1, sw->np, r->name);
	if (rc == PROBE_OK && run_command(sw, r, &marks) < 0)
		rc = PROBE_FATAL;
	if (put_back(sw) < 0)
		return PROBE_NOT_BACK;
	r->seconds = now_s() - t0;
	if (r->runs && read_log(sw, r, marks) < 0)
		rc = PROBE_FATAL;
	progress(sw, k);
	return rc;
}

/* ---- the report and the summary ------------------------------------- */

static int print_file(const char *path)
{
	struct pk_buf b;
	int rc = pk_buf_load(&b, path, PK_LOAD_ALLOW_NUL);
	if (rc == 0 && fwrite(b.data, 1, b.len, stdout) != b.len)
		rc = pk_error("error writing standard output");
	pk_buf_free(&b);
	return rc;
}

/* probe-report (this very binary) over the logs of the succeeded probes of
 * KERNEL (ANY: every one), into OUT. Returns its exit code (0, 1, or 2:
 * failed), or -1: no log. */
#define ANY_KERNEL (-2)
static int report_logs(struct sweep *sw, long kernel, const char *out)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0) {
		pk_error("cannot find the probe binary to run probe-report: %s", strerror(errno));
		return PK_EXIT_ERROR;
	}
	exe[n] = '\0';
	char **argv = pk_xcalloc(sw->np + sw->o.nreport_args + 8, sizeof(*argv));
	size_t a = 0, logs = 0;
	argv[a++] = exe;
	argv[a++] = (char *)"report";
	if (sw->o.repeat > 1) {
		argv[a++] = (char *)"--run";
		argv[a++] = (char *)RUN_MARK;
	}
	for (size_t i = 0; i < sw->o.nreport_args; i++)
		argv[a++] = sw->o.report_args[i];
	argv[a++] = (char *)"-o";
	argv[a++] = (char *)out;
	for (size_t k = 0; k < sw->np; k++)
		if (sw->p[k].status == 0 && sw->p[k].report_log && (kernel == ANY_KERNEL || sw->p[k].kernel == kernel))
			argv[a + logs++] = sw->p[k].report_log;
	int st = -1;
	if (!logs)
		st = -1;
	else if (sw_spawn(argv, NULL, -1, -1, 0, &st) < 0)
		st = PK_EXIT_ERROR;
	else if (st > PK_EXIT_FINDINGS) {
		if (!sw_caught())
			pk_error("probe-report failed (exit %d): no report", st);
		st = PK_EXIT_ERROR;
	}
	free(argv);
	return st;
}

/* The kernels (files) of the succeeded probes, in the order of the probes;
 * -1 stands for the probes with no T_BASE of their own. */
static size_t report_kernels(const struct sweep *sw, long *kernels)
{
	size_t n = 0;
	for (size_t k = 0; k < sw->np; k++) {
		if (sw->p[k].status != 0 || !sw->p[k].report_log)
			continue;
		size_t i = 0;
		while (i < n && kernels[i] != sw->p[k].kernel)
			i++;
		if (i == n)
			kernels[n++] = sw->p[k].kernel;
	}
	return n;
}

/* One report, or with probes in several kernels one per kernel (each probe
 * measured from its own kernel's T_BASE): DIR/report-N.txt, and
 * DIR/report.txt holding them all under a heading each. */
static int run_report(struct sweep *sw)
{
	char out[PATH_MAX + 32];
	long *kernels = pk_xcalloc(sw->np + 1, sizeof(*kernels));
	size_t nk = report_kernels(sw, kernels);
	int st = -1;
	snprintf(out, sizeof(out), "%s/report.txt", sw->o.out);
	if (nk == 0)
		pk_warning("no probe's command succeeded: no report");
	else if (nk == 1)
		st = report_logs(sw, ANY_KERNEL, out);
	else {
		struct pk_sb all = {0};
		st = PK_EXIT_OK;
		for (size_t g = 0; g < nk && st != PK_EXIT_ERROR; g++) {
			char part[PATH_MAX + 32];
			snprintf(part, sizeof(part), "%s/report-%zu.txt", sw->o.out, g + 1);
			int rc = report_logs(sw, kernels[g], part);
			if (rc == PK_EXIT_ERROR || rc < 0) {
				st = PK_EXIT_ERROR;
				break;
			}
			if (rc > st)
				st = rc;
			if (kernels[g] >= 0)
				pk_sb_addf(
				    &all, "%s== kernel %s (%s), each probe from this kernel's own " PK_BASE_PROBE ":",
				    g ? "\n" : "", sw->fs.f[kernels[g]].src.buf.path, part + strlen(sw->o.out) + 1);
			else
				pk_sb_addf(&all,
				           "%s== probes with no " PK_BASE_PROBE
				           " of their own (%s), from the last one printed:",
				           g ? "\n" : "", part + strlen(sw->o.out) + 1);
			for (size_t k = 0; k < sw->np; k++)
				if (sw->p[k].status == 0 && sw->p[k].report_log && sw->p[k].kernel == kernels[g])
					pk_sb_addf(&all, " %s", sw->p[k].name);
			pk_sb_add(&all, "\n\n");
			char *data;
			size_t len;
			if (rp_slurp(part, &data, &len) < 0) {
				st = PK_EXIT_ERROR;
				break;
			}
			pk_sb_add(&all, data);
			free(data);
		}
		if (st != PK_EXIT_ERROR && pk_write_atomic(out, all.s, all.n, NULL) < 0)
			st = PK_EXIT_ERROR;
		pk_sb_free(&all);
	}
	if ((st == PK_EXIT_OK || st == PK_EXIT_FINDINGS) && print_file(out) < 0)
		st = PK_EXIT_ERROR;
	free(kernels);
	return st;
}

static const char *status_text(const struct probe_run *r, char *buf, size_t cap)
{
	if (r->status < 0)
		return "not run";
	if (r->status == 0)
		return "ok";
	if (r->timed_out)
		return "timeout";
	snprintf(buf, cap, "exit %d", r->status);
	return buf;
}

/* DIR/sweep.tsv: one row per probe, for scripts. */
static void write_table(struct sweep *sw)
{
	size_t cap = 128 + sw->np * (PATH_MAX + 128), len = 0;
	char *t = pk_xmalloc(cap), st[32], path[PATH_MAX + 16];
	len += (size_t)sprintf(t, "probe\tstatus\texit\truns\tlines\tseconds\tother_probe_lines\tlog\n");
	for (size_t k = 0; k < sw->np; k++) {
		const struct probe_run *r = &sw->p[k];
		len += (size_t)snprintf(t + len, cap - len, "%s\t%s\t%d\t%d\t%zu\t%.3f\t%zu\t%s\n", r->name,
		                        status_text(r, st, sizeof(st)), r->status, r->runs, r->lines, r->seconds,
		                        r->foreign, r->log ? r->log : "");
	}
	snprintf(path, sizeof(path), "%s/sweep.tsv", sw->o.out);
	pk_write_atomic(path, t, len, NULL);
	free(t);
}

static void summary(struct sweep *sw, int report_rc, int not_back)
{
	char st[32];
	size_t ok = 0;
	if (!sw->o.quiet) {
		pk_note("probe-sweep: summary\n  %-24s %-10s %4s %7s %9s", "probe", "status", "runs", "lines",
		        "seconds");
		for (size_t k = 0; k < sw->np; k++) {
			const struct probe_run *r = &sw->p[k];
			pk_note("  %-24s %-10s %4d %7zu %9.2f", r->name, status_text(r, st, sizeof(st)), r->runs,
			        r->lines, r->seconds);
		}
	}
	for (size_t k = 0; k < sw->np; k++)
		ok += sw->p[k].status == 0;
	struct pk_sb line = {0};
	pk_sb_addf(&line, "probe-sweep: %zu of %zu probe(s) ok", ok, sw->np);
	const char *sep = "; not in the report: ";
	for (size_t k = 0; k < sw->np; k++)
		if (sw->p[k].status != 0) {
			pk_sb_addf(&line, "%s%s (%s)", sep, sw->p[k].name, status_text(&sw->p[k], st, sizeof(st)));
			sep = ", ";
		}
	sep = "; other probes' lines in the log of: ";
	for (size_t k = 0; k < sw->np; k++)
		if (sw->p[k].foreign) {
			pk_sb_addf(&line, "%s%s", sep, sw->p[k].name);
			sep = ", ";
		}
	if (report_rc == PK_EXIT_OK || report_rc == PK_EXIT_FINDINGS)
		pk_sb_addf(&line, "; report %s/report.txt%s", sw->o.out, report_rc ? " (with findings)" : "");
	if (not_back)
		pk_sb_addf(&line,
		           "; the files are NOT as before: a command changed them, their originals are in %s/.journal",
		           sw->o.out);
	else
		pk_sb_add(&line, "; the files are as before");
	pk_note("%s", line.s);
	pk_sb_free(&line);
}

/* ---- the command ------------------------------------------------------ */

/* DIR made (one level), locked for this sweep, and its absolute path. */
static int open_out(struct sweep *sw, int *lock_fd)
{
	if (mkdir(sw->o.out, 0777) < 0 && errno != EEXIST)
		return pk_error("%s: cannot create the output directory: %s", sw->o.out, strerror(errno));
	if (!realpath(sw->o.out, sw->out_abs))
		return pk_error("%s: %s", sw->o.out, strerror(errno));
	*lock_fd = sw_lock_dir(sw->o.out);
	return *lock_fd < 0 ? -1 : 0;
}

static int load_files(struct sweep *sw)
{
	if (pk_fileset_load(&sw->fs, sw->files, sw->nfiles, 0, 0) < 0 || select_probes(sw) < 0)
		return -1;
	choose_bases(sw);
	/* a dry run does not recover first, so it cannot ask for clean files yet */
	if (sw->o.dry_run && sw_journal_exists(sw->o.out))
		return 0;
	return check_all_off(sw);
}

/* Every probe in turn; then the files are back and the journal goes. */
static int sweep_all(struct sweep *sw, int *failed)
{
	int rc = PROBE_OK;
	for (size_t k = 0; k < sw->np && rc == PROBE_OK && !sw_caught(); k++) {
		rc = sweep_probe(sw, k);
		*failed |= sw->p[k].status != 0 || sw->p[k].foreign != 0;
		if (sw->o.fail_fast && sw->p[k].status != 0)
			break;
	}
	if (rc == PROBE_NOT_BACK)
		pk_error("%s/.journal is kept: once the files are right, remove it", sw->o.out);
	else
		sw_journal_remove(sw->o.out);
	return rc;
}

static int sweep_main(struct sweep *sw)
{
	int lock_fd = -1, failed = 0, rc = PK_EXIT_ERROR;
	if (!sw->o.dry_run && open_out(sw, &lock_fd) < 0)
		goto out;
	if (sw->o.recover) {
		rc = sw_journal_recover(sw->o.out) < 0 ? PK_EXIT_ERROR : PK_EXIT_OK;
		goto out;
	}
	if (!sw->o.dry_run && sw_journal_recover(sw->o.out) < 0)
		goto out;
	if (load_files(sw) < 0)
		goto out;
	if (sw->o.dry_run) {
		print_plan(sw);
		rc = PK_EXIT_OK;
		goto out;
	}
	sw_signals_install(); /* before the first change: a signal now means put back, then exit */
	struct pk_buf *orig = pk_xcalloc(sw->fs.n, sizeof(*orig));
	for (size_t i = 0; i < sw->fs.n; i++)
		orig[i] = sw->fs.f[i].src.buf;
	int jr = sw_journal_write(sw->o.out, orig, sw->fs.n);
	free(orig);
	if (jr < 0)
		goto out;
	int sr = sweep_all(sw, &failed);
	int report_rc = -1;
	if (sr == PROBE_OK && !sw_caught())
		report_rc = run_report(sw);
	write_table(sw);
	summary(sw, report_rc, sr == PROBE_NOT_BACK);
	if (sr != PROBE_OK || (report_rc == PK_EXIT_ERROR && !sw_caught()))
		rc = PK_EXIT_ERROR;
	else if (sw_caught())
		rc = 128 + sw_caught();
	else
		rc = failed || report_rc != 0 ? PK_EXIT_FINDINGS : PK_EXIT_OK;
out:
	if (lock_fd >= 0)
		close(lock_fd);
	return rc;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep sw;
	memset(&sw, 0, sizeof(sw));
	int done;
	if (parse(argc, argv, &sw.o, &done) < 0)
		return PK_EXIT_ERROR;
	if (done)
		return PK_EXIT_OK;
	sw.files = argv + optind;
	sw.nfiles = (size_t)(argc - optind);
	int rc = sweep_main(&sw);
	for (size_t k = 0; k < sw.np; k++) {
		free(sw.p[k].others);
		free(sw.p[k].log);
		free(sw.p[k].report_log);
		free(sw.p[k].base_in);
	}
	free(sw.p);
	free(sw.o.report_args);
	pk_fileset_free(&sw.fs);
	return rc;
}
