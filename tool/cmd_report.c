/* cmd_report.c - probe-report: read printf probe logs, timing
 * tensors (with an optional L2 swimlane file) or merged/split pairs, and
 * render one report. Exit 0: report, no finding; 1: report with findings
 * (warnings); 2: usage or unreadable input, nothing written. */
#include "emit.h"
#include "pk.h"
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct report_opts {
	enum rp_format format;
	const char *out_path;
	double freq_hz;
	const char *run_sep;
	size_t repeat;
	const char *timing, *events, *l2, *pairs, *swimlane;
	int no_swimlane;
	size_t slots;
	int64_t l2_task;
	int64_t invocation;    /* --invocation I, -1 none */
	size_t per_invocation; /* --slots-per-invocation N */
	struct rp_tensor_opts tensor;
};

static const char usage_text[] =
    "usage: probe-report [options] [LOG...]        printf probe logs (stdin without LOG)\n"
    "   or: probe-report --timing FILE [options]   timing tensor (.npy, .bin, .csv, .pt)\n"
    "   or: probe-report --pairs FILE [options]    merged vs split paired runs (CSV)\n"
    "\n"
    "output:\n"
    "  --format FMT       text (default), csv, json, trace (Chrome/Perfetto), svg\n"
    "  -o FILE            write the report to FILE (atomically) instead of stdout\n"
    "  --freq-hz HZ       counter frequency: adds times in us (no built-in default)\n"
    "logs:\n"
    "  --run TEXT         a line containing TEXT starts a new run (each file is a run)\n"
    "  --repeat N         probe lines expected per probe, block and iteration in one\n"
    "                     run (default 1); more means warmup output leaked\n"
    "timing tensors:\n"
    "  --timing FILE      int64/uint64 [slots, 8k]: .npy (2-D, or 1-D with the map's\n"
    "                     row_words), .bin, .csv, torch .pt of one int64 storage\n"
    "  --slots N          number of slots (rows) of a .bin file (default: its size\n"
    "                     over the map's row_words)\n"
    "  --events FILE      JSON event map {\"events\":[{\"name\",\"column\",\"kind\"}...]}\n"
    "                     (default: entry, producer_done, collective_arrival,\n"
    "                     collective_release, body_done in columns 0-4)\n"
    "  --active LIST      participating slots, e.g. 0-3,8 (default: all)\n"
    "  --producers LIST   active producers (default: every participant)\n"
    "  --l2 FILE          chip_swimlane_records.json / l2_swimlane_records.json\n"
    "  --l2-task ID       only aicore_tasks rows with this reg_task_id\n"
    "  --same-epoch       L2 and in-core cycles share unit and epoch: combine them\n"
    "  --swimlane FILE    chip_swimlane_records.json: each row joined to its task,\n"
    "                     phases drawn inside the task bars (default: the one\n"
    "                     beside the tensor or in the test's outputs/ folder)\n"
    "  --no-swimlane      do not look for a swimlane file\n"
    "  --generation G     the current launch's generation id (event map with\n"
    "                     \"generation\"): rows of another generation are stale\n"
    "  --invocation I     report invocation I's rows [I*N, (I+1)*N) of a matrix\n"
    "  --slots-per-invocation N  shared by concurrent invocations\n"
    "\n"
    "exit: 0 report, no finding; 1 report with findings (warnings on stderr);\n"
    "      2 usage error or unreadable input\n";

/* S as a whole number from MIN to MAX (BASE 10, or 0 for 0x... too) into
 * *OUT; else the message "OPT: 'S' is not WHAT". */
static int parse_number(const char *opt, const char *s, int base, unsigned long long min, unsigned long long max,
                        const char *what, unsigned long long *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, base);
	if (errno || end == s || *end || s[strspn(s, " \t")] == '-' || v < min || v > max)
		return pk_error("%s: '%s' is not %s", opt, s, what);
	*out = v;
	return 0;
}

static int parse_size(const char *opt, const char *s, size_t *out)
{
	unsigned long long v = 0; /* set by parse_number on success */
	if (parse_number(opt, s, 10, 1, SIZE_MAX, "a positive integer", &v) < 0)
		return -1;
	*out = (size_t)v;
	return 0;
}

/* An id or an index: a whole number a signed 64-bit field holds. */
static int parse_index(const char *opt, const char *s, const char *what, int64_t *out)
{
	unsigned long long v = 0; /* set by parse_number on success */
	if (parse_number(opt, s, 10, 0, INT64_MAX, what, &v) < 0)
		return -1;
	*out = (int64_t)v;
	return 0;
}

static int parse_format(const char *s, enum rp_format *f)
{
	static const char *const names[] = {"text", "csv", "json", "trace", "svg"};
	for (int i = 0; i < 5; i++)
		if (!strcmp(s, names[i])) {
			*f = (enum rp_format)i;
			return 0;
		}
	return pk_error("--format: '%s' is not one of text, csv, json, trace, svg", s);
}

enum {
	O_FORMAT = 256,
	O_FREQ,
	O_RUN,
	O_REPEAT,
	O_TIMING,
	O_SLOTS,
	O_EVENTS,
	O_ACTIVE,
	O_PRODUCERS,
	O_L2,
	O_L2_TASK,
	O_SAME_EPOCH,
	O_PAIRS,
	O_HELP,
	O_VERSION,
	O_GENERATION,
	O_INVOCATION,
	O_PER_INVOCATION,
	O_SWIMLANE,
	O_NO_SWIMLANE
};

static const struct option long_opts[] = {
    {"format", required_argument, NULL, O_FORMAT},
    {"freq-hz", required_argument, NULL, O_FREQ},
    {"run", required_argument, NULL, O_RUN},
    {"repeat", required_argument, NULL, O_REPEAT},
    {"timing", required_argument, NULL, O_TIMING},
    {"slots", required_argument, NULL, O_SLOTS},
    {"events", required_argument, NULL, O_EVENTS},
    {"active", required_argument, NULL, O_ACTIVE},
    {"producers", required_argument, NULL, O_PRODUCERS},
    {"l2", required_argument, NULL, O_L2},
    {"l2-task", required_argument, NULL, O_L2_TASK},
    {"same-epoch", no_argument, NULL, O_SAME_EPOCH},
    {"pairs", required_argument, NULL, O_PAIRS},
    {"generation", required_argument, NULL, O_GENERATION},
    {"invocation", required_argument, NULL, O_INVOCATION},
    {"slots-per-invocation", required_argument, NULL, O_PER_INVOCATION},
    {"swimlane", required_argument, NULL, O_SWIMLANE},
    {"no-swimlane", no_argument, NULL, O_NO_SWIMLANE},
    PK_COMMON_LONGOPTS,
    {NULL, 0, NULL, 0},
};

/* Returns -1 to continue, PK_EXIT_ERROR on an error, -2 for an option
 * pk_options answers. */
static int one_option(struct report_opts *o, int c, const char *arg)
{
	char *end;
	switch (c) {
	case 'o':
		o->out_path = arg;
		return -1;
	case O_FORMAT:
		return parse_format(arg, &o->format) < 0 ? PK_EXIT_ERROR : -1;
	case O_FREQ:
		errno = 0;
		o->freq_hz = strtod(arg, &end);
		if (errno || end == arg || *end || !isfinite(o->freq_hz) || o->freq_hz <= 0) {
			pk_error("--freq-hz: '%s' is not a positive frequency in Hz", arg);
			return PK_EXIT_ERROR;
		}
		return -1;
	case O_RUN:
		o->run_sep = arg;
		return -1;
	case O_REPEAT:
		return parse_size("--repeat", arg, &o->repeat) < 0 ? PK_EXIT_ERROR : -1;
	case O_TIMING:
		o->timing = arg;
		return -1;
	case O_SLOTS:
		return parse_size("--slots", arg, &o->slots) < 0 ? PK_EXIT_ERROR : -1;
	case O_EVENTS:
		o->events = arg;
		return -1;
	case O_ACTIVE:
		o->tensor.active = arg;
		return -1;
	case O_PRODUCERS:
		o->tensor.producers = arg;
		return -1;
	case O_L2:
		o->l2 = arg;
		return -1;
	case O_L2_TASK:
		return parse_index("--l2-task", arg, "a task id", &o->l2_task) < 0 ? PK_EXIT_ERROR : -1;
	case O_SAME_EPOCH:
		o->tensor.same_epoch = 1;
		return -1;
	case O_PAIRS:
		o->pairs = arg;
		return -1;
	case O_GENERATION: {
		unsigned long long v = 0; /* set by parse_number on success */
		if (parse_number("--generation", arg, 0, 0, UINT64_MAX, "a generation id", &v) < 0)
			return PK_EXIT_ERROR;
		o->tensor.generation = (uint64_t)v;
		o->tensor.have_generation = 1;
		return -1;
	}
	case O_INVOCATION:
		return parse_index("--invocation", arg, "an invocation index", &o->invocation) < 0 ? PK_EXIT_ERROR : -1;
	case O_SWIMLANE:
	case O_NO_SWIMLANE:
		o->swimlane = c == O_SWIMLANE ? arg : o->swimlane;
		o->no_swimlane |= c == O_NO_SWIMLANE;
		return -1;
	case O_PER_INVOCATION:
		return parse_size("--slots-per-invocation", arg, &o->per_invocation) < 0 ? PK_EXIT_ERROR : -1;
	default:
		return -2;
	}
}

static int report_option(void *user, int c, const char *arg)
{
	int r = one_option(user, c, arg);
	return r == -1 ? PK_OPT_TAKEN : r == -2 ? PK_OPT_OTHER : PK_OPT_REFUSED;
}

static int parse_args(struct report_opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof(*o));
	o->l2_task = -1;
	o->invocation = -1;
	int rc;
	if (pk_options(argc, argv, ":o:h", long_opts, report_option, o, usage_text, &rc))
		return rc;
	if ((o->slots && !o->timing) || (o->events && !o->timing) || (o->l2 && !o->timing) ||
	    (o->tensor.active && !o->timing) || (o->tensor.producers && !o->timing)) {
		pk_error("--slots, --events, --active, --producers and --l2 need --timing");
		return PK_EXIT_ERROR;
	}
	if ((o->tensor.have_generation || o->invocation >= 0 || o->per_invocation) && !o->timing) {
		pk_error("--generation, --invocation and --slots-per-invocation need --timing");
		return PK_EXIT_ERROR;
	}
	if ((o->invocation >= 0) != (o->per_invocation > 0)) {
		pk_error("--invocation I and --slots-per-invocation N go together");
		return PK_EXIT_ERROR;
	}
	if ((o->swimlane || o->no_swimlane) && !o->timing) {
		pk_error("--swimlane and --no-swimlane need --timing");
		return PK_EXIT_ERROR;
	}
	if (o->swimlane && (o->l2 || o->no_swimlane)) {
		pk_error("--swimlane joins rows to tasks; --l2 bounds the partition, and --no-swimlane says none: "
		         "give one of them");
		return PK_EXIT_ERROR;
	}
	if ((o->l2_task >= 0 || o->tensor.same_epoch) && !o->l2) {
		pk_error("--l2-task and --same-epoch need --l2");
		return PK_EXIT_ERROR;
	}
	return -1;
}

static int read_logs(const struct report_opts *o, int nfiles, char **files, struct rp_doc *d)
{
	struct rp_log lg;
	int rc = 0;
	rp_log_init(&lg, o->run_sep, o->repeat);
	for (int i = 0; i < (nfiles ? nfiles : 1) && rc == 0; i++) {
		const char *path = nfiles ? files[i] : "-";
		int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
		if (fd < 0) {
			rc = pk_error("%s: %s", path, strerror(errno));
			break;
		}
		pk_note_read(nfiles ? path : "-", NULL);
#ifdef POSIX_FADV_SEQUENTIAL
		posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
		rc = rp_log_read_fd(&lg, fd, fd == STDIN_FILENO ? "<stdin>" : path);
		if (fd != STDIN_FILENO)
			close(fd);
	}
	if (rc == 0)
		rp_log_analyse(&lg, d);
	rp_log_free(&lg);
	return rc;
}

/* The counter frequency for presentation: --freq-hz, else the L2 metadata. */
static void choose_freq(const struct report_opts *o, const struct rp_l2 *l2, struct rp_doc *d)
{
	if (o->freq_hz > 0) {
		d->freq_hz = o->freq_hz;
		d->freq_source = "--freq-hz";
		if (l2 && l2->clock_freq_hz > 0 && l2->clock_freq_hz != o->freq_hz)
			rp_warn(d, "--freq-hz %.0f differs from clock_freq_hz %.0f in '%s'", o->freq_hz,
			        l2->clock_freq_hz, o->l2 ? o->l2 : o->tensor.swim_path);
	} else if (l2 && l2->clock_freq_hz > 0) {
		d->freq_hz = l2->clock_freq_hz;
		d->freq_source = o->l2 ? o->l2 : o->tensor.swim_path;
	}
}

/* Data in a column the map does not name: the tensor comes from a build
 * with other events. Read with the standard columns, its numbers would be
 * wrong: refused, naming --events; with a map, a warning. */
static int unnamed_data(const char *path, const struct rp_matrix *m, const struct rp_event_map *em, const char *map,
                        struct rp_doc *d)
{
	for (size_t i = 0; i < em->n; i++)
		if (em->cols[i] >= (int)m->cols)
			return 0; /* the analysis refuses the map */
	long c = rp_events_unnamed_column(m, em);
	if (c < 0)
		return 0;
	if (!map)
		return pk_error("%s: column %ld holds data, but the standard columns (entry 0, producer_done 1, "
		                "collective_arrival 2, collective_release 3, body_done 4) name no such column: the "
		                "tensor comes from a build with other events; give its map with --events "
		                "KERNEL.timing.json (probe-inject --timing-tensor wrote it beside the kernel)",
		                path, c);
	rp_warn(d,
	        "%s: column %ld holds data that the event map %s names no event for: are the tensor and the map from "
	        "the same build?",
	        path, c, map);
	return 0;
}

static int read_tensor(struct report_opts *o, const struct rp_l2 *l2, const struct rp_l2 *swim, struct rp_doc *d)
{
	struct rp_matrix m = {0};
	struct rp_event_map em;
	int rc = -1;
	char *found = NULL;
	if (!o->events && rp_events_find(o->timing, &found) < 0)
		return -1;
	const char *map = o->events ? o->events : found;
	if (map ? rp_events_load(map, &em) < 0 : (rp_events_default(&em), 0)) {
		free(found);
		return -1;
	}
	if (found)
		rp_note(d, "event map: %s (found beside the tensor; --events FILE names another)", found);
	if (o->tensor.have_generation && !em.generation) {
		pk_error("--generation: the event map %s has no generation (inject with --generation)",
		         map ? map : "(default)");
		rp_events_free(&em);
		free(found);
		return -1;
	}
	char *note = NULL;
	int loaded = rp_tensor_load(o->timing, o->slots, em.row_words, &m, &note);
	if (note)
		rp_note(d, "%s", note);
	free(note);
	if (loaded < 0) {
		rp_events_free(&em);
		free(found);
		return -1;
	}
	if (o->invocation >= 0) {
		/* invocation I owns rows [I*N, (I+1)*N); slot s is row I*N + s */
		size_t first = (size_t)o->invocation * o->per_invocation;
		if (o->per_invocation > m.rows || (size_t)o->invocation >= m.rows / o->per_invocation) {
			pk_error("%s: --invocation %lld of %zu slots needs rows %zu..%zu, the tensor has %zu",
			         o->timing, (long long)o->invocation, o->per_invocation, first,
			         first + o->per_invocation - 1, m.rows);
			rp_matrix_free(&m);
			rp_events_free(&em);
			free(found);
			return -1;
		}
		memmove(m.v, m.v + first * m.cols, o->per_invocation * m.cols * sizeof(*m.v));
		if (m.bad)
			memmove(m.bad, m.bad + first * m.cols, o->per_invocation * m.cols);
		m.rows = o->per_invocation;
	}
	o->tensor.path = o->timing;
	o->tensor.l2 = o->l2 ? l2 : NULL;
	o->tensor.l2_path = o->l2;
	o->tensor.map_path = map;
	o->tensor.swim = o->tensor.swim_path ? swim : NULL;
	rc = unnamed_data(o->timing, &m, &em, map, d);
	if (rc == 0)
		rc = rp_tensor_analyse(&m, &em, &o->tensor, d);
	rp_matrix_free(&m);
	rp_events_free(&em);
	free(found);
	return rc;
}

static int read_pairs(const char *path, struct rp_doc *d)
{
	char *data;
	size_t len;
	struct rp_matrix m = {0};
	if (rp_slurp(path, &data, &len) < 0)
		return -1;
	int rc = rp_csv_parse(data, len, path, &m);
	free(data);
	if (rc == 0)
		rc = rp_pairs_analyse(&m, path, d);
	rp_matrix_free(&m);
	return rc;
}

static void render(FILE *f, enum rp_format fmt, const struct rp_doc *d)
{
	switch (fmt) {
	case RP_FMT_TEXT:
		rp_write_text(f, d);
		break;
	case RP_FMT_CSV:
		rp_write_csv(f, d);
		break;
	case RP_FMT_JSON:
		rp_write_json(f, d);
		break;
	case RP_FMT_TRACE:
		rp_write_trace(f, d);
		break;
	case RP_FMT_SVG:
		rp_write_svg(f, d);
		break;
	}
}

static int deliver(const struct report_opts *o, const struct rp_doc *d)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (!f)
		return pk_error("cannot buffer the report: %s", strerror(errno));
	render(f, o->format, d);
	int rc = fclose(f) ? pk_error("cannot buffer the report: %s", strerror(errno)) : 0;
	if (rc == 0 && o->out_path)
		rc = pk_write_atomic(o->out_path, out, len, NULL);
	else if (rc == 0 && fwrite(out, 1, len, stdout) != len)
		rc = pk_error("error writing standard output");
	free(out);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o;
	int rc = parse_args(&o, argc, argv);
	if (rc >= 0)
		return rc;
	struct rp_doc d;
	struct rp_l2 l2 = {0}, swim = {0};
	char *found_swim = NULL;
	rp_doc_init(&d);
	if (o.l2 && rp_l2_load(o.l2, o.l2_task, &l2) < 0)
		return PK_EXIT_ERROR;
	if (o.timing && !o.l2 && !o.swimlane && !o.no_swimlane) {
		char *why = NULL;
		rp_swimlane_find(o.timing, &found_swim, &why);
		if (why)
			rp_note(&d, "%s", why);
		free(why);
		if (found_swim)
			rp_note(&d,
			        "swimlane: %s (found beside the capture or in its test's outputs/; --swimlane FILE "
			        "names another, --no-swimlane none)",
			        found_swim);
	}
	o.tensor.swim_path = o.swimlane ? o.swimlane : found_swim;
	if (o.tensor.swim_path && rp_l2_load(o.tensor.swim_path, -1, &swim) < 0) {
		rp_l2_free(&l2);
		free(found_swim);
		rp_doc_free(&d);
		return PK_EXIT_ERROR;
	}
	choose_freq(&o, o.l2 ? &l2 : o.tensor.swim_path ? &swim : NULL, &d);
	int nfiles = argc - optind;
	rc = 0;
	if (nfiles || (!o.timing && !o.pairs))
		rc = read_logs(&o, nfiles, argv + optind, &d);
	if (rc == 0 && o.timing)
		rc = read_tensor(&o, &l2, &swim, &d);
	if (rc == 0 && o.pairs)
		rc = read_pairs(o.pairs, &d);
	if (rc == 0)
		rc = deliver(&o, &d);
	int exit_code = rc < 0 ? PK_EXIT_ERROR : d.nwarnings ? PK_EXIT_FINDINGS : PK_EXIT_OK;
	rp_doc_free(&d);
	rp_l2_free(&l2);
	rp_l2_free(&swim);
	free(found_swim);
	return exit_code;
}
