/* fuzz_tensor.c - libFuzzer target: probe-report's timing-tensor readers
 * (.npy, raw .bin, CSV in tool/report_tensor.c). Built by
 * bench/fuzz.sh with clang -fsanitize=fuzzer,address,undefined.
 *
 * Each input goes to all three readers in a buffer of exactly its size, so
 * ASan sees any read past it. Properties:
 *   - a reader returns 0 or -1; -1 leaves the matrix empty and printed a
 *     "probekit: PATH..." error; 0 gives at least one row and column
 *   - an accepted .npy or .bin holds exactly the input's cells (8k columns,
 *     little-endian values; a uint64 above INT64_MAX is marked bad)
 *   - a .npy file built from fuzzed version, dtype, shape and values reads
 *     back identical; so does a CSV built from fuzzed values */
#include "report.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROPERTY(cond)                                                                                                 \
	do {                                                                                                           \
		if (!(cond)) {                                                                                         \
			fprintf(stderr, "fuzz_tensor: property failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__);      \
			abort();                                                                                       \
		}                                                                                                      \
	} while (0)

/* The readers' error messages, caught instead of printed. */
static char errbuf[512];
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

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void check_result(int rc, const struct rp_matrix *m, const char *path)
{
	PROPERTY(rc == 0 || rc == -1);
	if (rc < 0) {
		PROPERTY(!m->v && !m->bad && !m->colnames && !m->rows && !m->cols);
		PROPERTY(!strncmp(errbuf, "probekit: ", 10) && !strncmp(errbuf + 10, path, strlen(path)));
		return;
	}
	PROPERTY(errbuf[0] == '\0');
	PROPERTY(m->rows > 0 && m->cols > 0 && m->v && m->bad);
}

/* The cells of an accepted binary tensor: the last rows * cols * 8 bytes. */
static void check_cells(const struct rp_matrix *m, const unsigned char *data, size_t size)
{
	PROPERTY(m->cols % 8 == 0 && m->rows * m->cols * 8 <= size);
	const unsigned char *cells = data + size - m->rows * m->cols * 8;
	int is_unsigned = !strcmp(m->dtype, "<u8");
	for (size_t i = 0; i < m->rows * m->cols; i++) {
		uint64_t u = le64(cells + 8 * i);
		PROPERTY(m->v[i] == (int64_t)u);
		PROPERTY(m->bad[i] == (is_unsigned && u > (uint64_t)INT64_MAX));
	}
}

static void fuzz_readers(const uint8_t *data, size_t size)
{
	struct rp_matrix m;
	unsigned char *exact = pk_xmalloc(size ? size : 1);
	memcpy(exact, data, size);

	catch_errors();
	int rc = rp_npy_parse(exact, size, "fuzz.npy", &m);
	release_errors();
	check_result(rc, &m, "fuzz.npy");
	if (rc == 0)
		check_cells(&m, exact, size);
	rp_matrix_free(&m);

	size_t slots = size ? data[0] % 5 : 1; /* 0: refused, needs --slots */
	catch_errors();
	rc = rp_bin_parse(exact, size, slots, "fuzz.bin", &m);
	release_errors();
	check_result(rc, &m, "fuzz.bin");
	if (rc == 0) {
		PROPERTY(m.rows == slots && m.rows * m.cols * 8 == size);
		check_cells(&m, exact, size);
	}
	rp_matrix_free(&m);

	catch_errors();
	rc = rp_csv_parse((const char *)exact, size, "fuzz.csv", &m);
	release_errors();
	check_result(rc, &m, "fuzz.csv");
	rp_matrix_free(&m);
	free(exact);
}

static uint64_t take64(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;
	for (int i = 0; i < 8 && *p < end; i++)
		v = v << 8 | *(*p)++;
	return v;
}

/* A .npy file as numpy writes it (header padded to 64 bytes with spaces and
 * a newline), with fuzzed version, dtype, shape and values. */
static void fuzz_npy_roundtrip(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	uint8_t flags = p < end ? *p++ : 0;
	unsigned major = 1 + flags % 3;
	int is_unsigned = !!(flags & 4);
	size_t rows = 1 + ((flags >> 3) & 3), cols = 8 * (1 + ((flags >> 5) & 3));
	char dict[128];
	int n = snprintf(dict, sizeof(dict), "{'descr': '%s', 'fortran_order': False, 'shape': (%zu, %zu%s), }",
	                 is_unsigned ? "<u8" : "<i8", rows, cols, flags & 128 ? "L" : "");
	size_t pre = major == 1 ? 10 : 12, hlen = (size_t)n + 1;
	hlen += (64 - (pre + hlen) % 64) % 64;
	size_t len = pre + hlen + rows * cols * 8;
	unsigned char *file = pk_xmalloc(len);
	memcpy(file, "\x93NUMPY", 6);
	file[6] = (unsigned char)major;
	file[7] = 0;
	for (size_t i = 0; i < pre - 8; i++)
		file[8 + i] = (unsigned char)(hlen >> (8 * i));
	memset(file + pre, ' ', hlen);
	memcpy(file + pre, dict, (size_t)n);
	file[pre + hlen - 1] = '\n';
	uint64_t *want = pk_xmalloc(rows * cols * sizeof(uint64_t));
	for (size_t i = 0; i < rows * cols; i++) {
		want[i] = take64(&p, end) ^ (uint64_t)i * 0x9e3779b97f4a7c15ull;
		for (int b = 0; b < 8; b++)
			file[pre + hlen + 8 * i + (size_t)b] = (unsigned char)(want[i] >> (8 * b));
	}
	struct rp_matrix m;
	catch_errors();
	int rc = rp_npy_parse(file, len, "built.npy", &m);
	release_errors();
	PROPERTY(rc == 0 && errbuf[0] == '\0');
	PROPERTY(m.rows == rows && m.cols == cols && !m.colnames);
	PROPERTY(!strcmp(m.dtype, is_unsigned ? "<u8" : "<i8"));
	for (size_t i = 0; i < rows * cols; i++) {
		PROPERTY(m.v[i] == (int64_t)want[i]);
		PROPERTY(m.bad[i] == (is_unsigned && want[i] > (uint64_t)INT64_MAX));
	}
	rp_matrix_free(&m);

	/* the same values as CSV (signed), with a header when flags say so */
	size_t cap = 64 + cols * 8 + rows * cols * 22, off = 0;
	char *csv = pk_xmalloc(cap);
	if (flags & 64)
		for (size_t c = 0; c < cols; c++)
			off += (size_t)snprintf(csv + off, cap - off, "%sc%zu", c ? "," : "", c);
	if (flags & 64)
		csv[off++] = '\n';
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols; c++)
			off += (size_t)snprintf(csv + off, cap - off, "%" PRId64 "%s", (int64_t)want[r * cols + c],
			                        c + 1 < cols ? "," : "\n");
	catch_errors();
	rc = rp_csv_parse(csv, off, "built.csv", &m);
	release_errors();
	PROPERTY(rc == 0 && m.rows == rows && m.cols == cols && !!m.colnames == !!(flags & 64));
	for (size_t i = 0; i < rows * cols; i++)
		PROPERTY(m.v[i] == (int64_t)want[i] && !m.bad[i]);
	rp_matrix_free(&m);
	free(csv);
	free(want);
	free(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_readers(data, size);
	fuzz_npy_roundtrip(data, size);
	return 0;
}
