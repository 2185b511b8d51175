/* fuzz_json.c - libFuzzer target: probe-report's JSON readers, the timing
 * tensor's event map and the L2 swimlane records (tool/report_json.c, via
 * libjansson). Built by bench/fuzz.sh with clang
 * -fsanitize=fuzzer,address,undefined.
 *
 * Each input is the file both readers load (a memfd, read by path).
 * Properties:
 *   - a reader returns 0 or -1, and -1 printed a "probekit: PATH..." error
 *     and left its result empty
 *   - input jansson cannot parse is refused as "PATH:LINE:COLUMN: malformed
 *     JSON", with a line inside the input
 *   - an accepted event map has 1..n events with distinct names and
 *     columns in 0..65535, the standard row's events at their columns, and a magic
 *     column (if any) that no event uses
 *   - accepted L2 records have at least one task, each starting no later
 *     than it ends, inside [m0, m1], and a frequency >= 0 */
#include "report.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PROPERTY(cond)                                                                                                 \
	do {                                                                                                           \
		if (!(cond)) {                                                                                         \
			fprintf(stderr, "fuzz_json: property failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__);        \
			abort();                                                                                       \
		}                                                                                                      \
	} while (0)

static int memfd = -1;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	memfd = memfd_create("fuzz_json", MFD_CLOEXEC);
	if (memfd < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	return 0;
}

/* The readers' error messages, caught instead of printed. */
static char errbuf[1024];
static FILE *errf, *saved_stderr;

static void catch_errors(void)
{
	errbuf[0] = '\0';
	errf = fmemopen(errbuf, sizeof(errbuf), "w");
	PROPERTY(errf != NULL);
	saved_stderr = stderr;
	stderr = errf;
}

static void release_errors(void)
{
	stderr = saved_stderr;
	fclose(errf);
}

/* A refusal: one error naming the file; for MALFORMED input, with a position
 * inside the input (LINES lines). */
static void check_error(int malformed, size_t lines)
{
	size_t n = strlen(path);
	PROPERTY(!strncmp(errbuf, "probekit: ", 10) && !strncmp(errbuf + 10, path, n));
	if (!malformed)
		return;
	int line = -1, column = -1, used = 0;
	PROPERTY(sscanf(errbuf + 10 + n, ":%d:%d: malformed JSON: %n", &line, &column, &used) == 2 && used > 0);
	PROPERTY(line >= 1 && (size_t)line <= lines && column >= 0);
}

static void check_events(const struct rp_event_map *em)
{
	PROPERTY(em->n >= 1 && em->names && em->kinds && em->cols);
	for (size_t i = 0; i < em->n; i++) {
		PROPERTY(em->cols[i] >= 0 && em->cols[i] <= 65535 && em->kinds[i]);
		PROPERTY(em->cols[i] != em->magic_column);
		for (size_t k = 0; k < i; k++)
			PROPERTY(strcmp(em->names[k], em->names[i]) && em->cols[k] != em->cols[i]);
	}
	for (int e = 0; e < RP_EV_N; e++) {
		int found = -1;
		for (size_t i = 0; i < em->n; i++)
			if (!strcmp(em->names[i], rp_event_names[e]))
				found = em->cols[i];
		PROPERTY(em->column[e] == found);
	}
	PROPERTY(em->magic_column >= -1 && em->magic_column <= 65535);
}

static void check_l2(const struct rp_l2 *l2)
{
	PROPERTY(l2->ntasks >= 1 && l2->clock_freq_hz >= 0);
	PROPERTY(l2->m0 <= l2->m1);
	for (size_t i = 0; i < l2->ntasks; i++)
		PROPERTY(l2->start[i] <= l2->end[i] && l2->start[i] >= l2->m0 && l2->end[i] <= l2->m1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	PROPERTY(ftruncate(memfd, 0) == 0);
	PROPERTY(pwrite(memfd, data, size, 0) == (ssize_t)size);
	json_error_t jerr;
	json_t *root = json_loadb((const char *)data, size, 0, &jerr);
	int malformed = root == NULL;
	json_decref(root);
	size_t lines = 1;
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';

	struct rp_event_map em;
	catch_errors();
	int rc = rp_events_load(path, &em);
	release_errors();
	PROPERTY(rc == 0 || rc == -1);
	PROPERTY(!malformed || rc < 0);
	if (rc < 0) {
		check_error(malformed, lines);
		PROPERTY(em.n == 0 && !em.names && em.magic_column == -1);
	} else {
		check_events(&em);
	}
	rp_events_free(&em);

	static const int64_t tasks[] = {-1, 5};
	for (size_t t = 0; t < 2; t++) {
		struct rp_l2 l2;
		catch_errors();
		rc = rp_l2_load(path, tasks[t], &l2);
		release_errors();
		PROPERTY(rc == 0 || rc == -1);
		PROPERTY(!malformed || rc < 0);
		if (rc < 0) {
			check_error(malformed, lines);
			PROPERTY(l2.ntasks == 0 && !l2.core && !l2.start && !l2.end);
		} else {
			check_l2(&l2);
		}
		rp_l2_free(&l2);
	}
	return 0;
}
