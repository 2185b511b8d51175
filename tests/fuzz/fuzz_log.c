/* fuzz_log.c - libFuzzer target: probe-report's printf log parser
 * (tool/report_log.c). Built by bench/fuzz.sh with clang
 * -fsanitize=fuzzer,address,undefined.
 *
 * Each line of the input goes to the parser in a buffer of exactly its
 * length plus the one stop byte the parser may read (a newline), so ASan
 * sees any read past a line. Properties:
 *   - every line is counted exactly once: probe + T_BASE + other + garbled
 *     lines equal the lines fed, each kind equals what rp_log_parse_line
 *     says of the lines, and rp_log_read_fd counts the same on a file
 *   - every probe line lands in one probe's count and one series' samples
 *   - a probe's dur mismatch count is its lines with dur != end - start
 *   - a stream read in 1..64-byte pieces counts the same and holds the
 *     same samples as rp_log_read_fd on a file
 *   - a well-formed probe line built from fuzzed numbers (optional prefix,
 *     block=, iter=, run=) parses back to the same name and numbers, and is
 *     flagged as a dur mismatch iff dur != end - start */
#include "report.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#define PROPERTY(cond)                                                                                                 \
	do {                                                                                                           \
		if (!(cond)) {                                                                                         \
			fprintf(stderr, "fuzz_log: property failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__);         \
			abort();                                                                                       \
		}                                                                                                      \
	} while (0)

static int memfd = -1;
static FILE *quiet; /* the parser's read errors, if any, go here, not to the log */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	memfd = memfd_create("fuzz_log", MFD_CLOEXEC);
	quiet = fopen("/dev/null", "w");
	if (memfd < 0 || !quiet)
		abort();
	return 0;
}

struct tally {
	size_t lines, kind[4], mismatches;
};

/* The line as the reader parses it: without ESC [ (digits and ;) m. */
static size_t without_sgr(const char *s, size_t len, char *out)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		size_t j = i + 2;
		while (s[i] == 27 && j < len && (s[j] == ';' || (s[j] >= '0' && s[j] <= '9')))
			j++;
		if (s[i] == 27 && i + 1 < len && s[i + 1] == '[' && j < len && s[j] == 'm')
			i = j;
		else
			out[n++] = s[i];
	}
	out[n] = '\n';
	return n;
}

/* Feed LEN bytes at S as one line, from a buffer that ends at its stop byte. */
static void feed_line(struct rp_log *lg, const char *s, size_t len, struct tally *t)
{
	char *line = pk_xmalloc(len + 1), *clean = pk_xmalloc(len + 1);
	memcpy(line, s, len);
	line[len] = '\n';
	struct rp_line ln;
	size_t n = without_sgr(line, len, clean);
	enum rp_line_kind kind = rp_log_parse_line(clean, n, &ln);
	PROPERTY(kind <= RP_LINE_GARBLED);
	t->lines++;
	t->kind[kind]++;
	if (kind == RP_LINE_PROBE) {
		PROPERTY(ln.name >= clean && ln.name + ln.name_len < clean + n);
		PROPERTY(ln.name_len > 0 && ln.name[ln.name_len] == ']');
		PROPERTY(ln.start >= 0 && ln.end >= 0 && ln.dur >= 0);
		t->mismatches += ln.end - ln.start != ln.dur;
	}
	rp_log_line(lg, line, len);
	free(line);
	free(clean);
}

static void check_counts(const struct rp_log *lg, const struct tally *t)
{
	PROPERTY(lg->total_lines == t->lines);
	PROPERTY(lg->probe_lines == t->kind[RP_LINE_PROBE]);
	PROPERTY(lg->tbase_lines == t->kind[RP_LINE_TBASE]);
	PROPERTY(lg->other_lines == t->kind[RP_LINE_OTHER]);
	PROPERTY(lg->garbled_lines + lg->past_int64_lines == t->kind[RP_LINE_GARBLED]);
	PROPERTY(lg->probe_lines + lg->tbase_lines + lg->other_lines + lg->garbled_lines + lg->past_int64_lines ==
	         lg->total_lines);
	size_t in_probes = 0, in_series = 0, mismatches = 0;
	for (size_t i = 0; i < lg->nprobes; i++) {
		in_probes += lg->probes[i].lines;
		mismatches += lg->probes[i].dur_mismatch;
		PROPERTY(!lg->probes[i].dur_mismatch == !lg->probes[i].first_mismatch_file);
	}
	for (size_t i = 0; i < lg->nseries; i++) {
		PROPERTY(lg->series[i].probe < lg->nprobes);
		PROPERTY(lg->series[i].nrel <= lg->series[i].n);
		in_series += lg->series[i].n;
	}
	PROPERTY(in_probes == lg->probe_lines);
	PROPERTY(in_series == lg->probe_lines);
	PROPERTY(mismatches == t->mismatches);
}

/* Two parsed logs hold the same series with the same samples. */
static void same_samples(const struct rp_log *a, const struct rp_log *b)
{
	PROPERTY(a->nseries == b->nseries && a->nprobes == b->nprobes && a->nruns == b->nruns);
	for (size_t i = 0; i < a->nseries; i++) {
		const struct rp_series *x = &a->series[i], *y = &b->series[i];
		PROPERTY(x->probe == y->probe && x->block == y->block && x->iter == y->iter);
		PROPERTY(x->n == y->n && x->nrel == y->nrel);
		PROPERTY(!memcmp(x->v, y->v, 3 * x->n * sizeof(*x->v)));
	}
}

/* Writes the input into a socket in packets of 1..64 bytes (sizes from the
 * input), so that each read() of the reader gets one of them. */
struct chunker {
	int fd;
	const uint8_t *data;
	size_t size;
};

static void *write_chunks(void *arg)
{
	const struct chunker *c = arg;
	size_t off = 0;
	for (size_t k = 0; off < c->size; k++) {
		size_t n = 1 + (c->size ? c->data[(k * 7) % c->size] % 64 : 0);
		if (n > c->size - off)
			n = c->size - off;
		if (write(c->fd, c->data + off, n) != (ssize_t)n)
			break;
		off += n;
	}
	close(c->fd);
	return NULL;
}

/* The input as a log: line by line, then as a file through rp_log_read_fd. */
static void fuzz_lines(const uint8_t *data, size_t size)
{
	struct rp_log lg;
	struct tally t = {0};
	rp_log_init(&lg, "---", 1);
	rp_log_begin_file(&lg, "fuzz.log");
	const char *p = (const char *)data, *end = p + size;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		feed_line(&lg, p, len, &t);
		p += len + (nl != NULL);
	}
	check_counts(&lg, &t);

	struct rp_log lf;
	rp_log_init(&lf, "---", 1);
	PROPERTY(ftruncate(memfd, 0) == 0);
	PROPERTY(pwrite(memfd, data, size, 0) == (ssize_t)size);
	PROPERTY(lseek(memfd, 0, SEEK_SET) == 0);
	FILE *saved = stderr;
	stderr = quiet;
	int rc = rp_log_read_fd(&lf, memfd, "fuzz.log");
	stderr = saved;
	PROPERTY(rc == 0);
	check_counts(&lf, &t);
	same_samples(&lf, &lg); /* lines one by one know no earlier line */
	rp_log_free(&lg);

	/* and a stream that arrives in small pieces */
	int sv[2];
	PROPERTY(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) == 0);
	struct chunker c = {sv[1], data, size};
	pthread_t writer;
	PROPERTY(pthread_create(&writer, NULL, write_chunks, &c) == 0);
	struct rp_log lp;
	rp_log_init(&lp, "---", 1);
	stderr = quiet;
	rc = rp_log_read_fd(&lp, sv[0], "fuzz.log");
	stderr = saved;
	pthread_join(writer, NULL);
	close(sv[0]);
	PROPERTY(rc == 0);
	check_counts(&lp, &t);
	same_samples(&lp, &lf);
	rp_log_free(&lp);
	rp_log_free(&lf);
}

static uint64_t take64(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;
	for (int i = 0; i < 8 && *p < end; i++)
		v = v << 8 | *(*p)++;
	return v;
}

/* A well-formed probe line from the first bytes of the input. */
static void fuzz_roundtrip(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	uint8_t flags = p < end ? *p++ : 0;
	int64_t start = (int64_t)(take64(&p, end) >> (flags & 1 ? 1 : 28));
	int64_t stop = (int64_t)(take64(&p, end) >> (flags & 2 ? 1 : 28));
	int64_t dur = flags & 4 || stop < start ? (int64_t)(take64(&p, end) >> 1) : stop - start;
	int64_t block = (int64_t)(take64(&p, end) >> 1), iter = block >> 7, run = block >> 13;
	static const char *const names[] = {"STAGE_B", "T_BASE_X", "x", "_0"};
	const char *name = names[(flags >> 3) & 3];
	char line[256];
	int n = snprintf(line, sizeof(line), "%s[%s] start=%" PRId64 " end=%" PRId64 " dur=%" PRId64,
	                 flags & 32 ? "[INFO] dev0: " : "", name, start, stop, dur);
	if (flags & 64)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " block=%" PRId64 " iter=%" PRId64, block, iter);
	if (flags & 128)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " run=%" PRId64, run);
	PROPERTY(n > 0 && (size_t)n < sizeof(line));
	char *exact = pk_xmalloc((size_t)n + 1);
	memcpy(exact, line, (size_t)n);
	exact[n] = '\n';
	struct rp_line ln;
	PROPERTY(rp_log_parse_line(exact, (size_t)n, &ln) == RP_LINE_PROBE);
	PROPERTY(ln.name_len == strlen(name) && !memcmp(ln.name, name, ln.name_len));
	PROPERTY(ln.start == start && ln.end == stop && ln.dur == dur);
	PROPERTY(ln.block == (flags & 64 ? block : -1) && ln.iter == (flags & 64 ? iter : -1));
	PROPERTY(ln.run == (flags & 128 ? run : -1));

	struct rp_log lg;
	rp_log_init(&lg, NULL, 1);
	rp_log_begin_file(&lg, "fuzz.log");
	rp_log_line(&lg, exact, (size_t)n);
	PROPERTY(lg.probe_lines == 1 && lg.nprobes == 1 && lg.nseries == 1);
	PROPERTY(lg.probes[0].dur_mismatch == (size_t)(dur != stop - start));
	PROPERTY(lg.series[0].n == 1 && lg.series[0].v[0] == dur);
	rp_log_free(&lg);
	free(exact);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_lines(data, size);
	fuzz_roundtrip(data, size);
	return 0;
}
