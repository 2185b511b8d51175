/* report_tensor.c - timing-tensor readers: .npy (format versions 1-3,
 * little-endian int64/uint64, C order, shape (slots, 8k)), raw .bin with a
 * slot count, and CSV. Anything else is refused with the reason. */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void rp_matrix_free(struct rp_matrix *m)
{
	if (m->colnames)
		for (size_t i = 0; i < m->cols; i++)
			free(m->colnames[i]);
	free(m->colnames);
	free(m->v);
	free(m->bad);
	memset(m, 0, sizeof(*m));
}

int rp_slurp(const char *path, char **data, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return pk_error("%s: %s", path, strerror(e));
	}
	pk_note_read(path, &st);
	size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536, n = 0;
	char *buf = pk_xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap)
			buf = pk_xrealloc(buf, cap *= 2);
		ssize_t got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;
			close(fd);
			free(buf);
			return pk_error("%s: %s", path, strerror(e));
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Fill M from little-endian 8-byte cells; uint64 above INT64_MAX is marked bad. */
static void fill(struct rp_matrix *m, const unsigned char *p, size_t rows, size_t cols, int is_unsigned)
{
	m->rows = rows;
	m->cols = cols;
	m->v = pk_xmalloc(rows * cols * sizeof(int64_t));
	m->bad = pk_xcalloc(rows * cols, 1);
	for (size_t i = 0; i < rows * cols; i++) {
		uint64_t u = le64(p + 8 * i);
		if (is_unsigned && u > (uint64_t)INT64_MAX)
			m->bad[i] = 1;
		m->v[i] = (int64_t)u;
	}
}

/* ---- .npy ---- */

/* The value text after 'KEY': in a header dict, or NULL. */
static const char *npy_value(const char *hdr, const char *key)
{
	const char *p = strstr(hdr, key);
	if (!p)
		return NULL;
	p += strlen(key);
	while (*p == ' ')
		p++;
	if (*p++ != ':')
		return NULL;
	while (*p == ' ')
		p++;
	return p;
}

static int npy_shape(const char *p, size_t *dims, int *ndim)
{
	*ndim = 0;
	if (*p++ != '(')
		return -1;
	for (;;) {
		while (*p == ' ' || *p == ',')
			p++;
		if (*p == ')')
			return 0;
		if (*p < '0' || *p > '9' || *ndim == 4)
			return -1;
		char *end;
		dims[(*ndim)++] = (size_t)strtoull(p, &end, 10);
		p = end;
		while (*p == 'L')
			p++;
	}
}

static int npy_header(const char *hdr, const char *path, size_t *rows, size_t *cols, int *is_unsigned, int *ndim_out)
{
	const char *descr = npy_value(hdr, "'descr'"), *fo = npy_value(hdr, "'fortran_order'");
	const char *shape = npy_value(hdr, "'shape'");
	if (!descr || !fo || !shape)
		return pk_error("%s: not a .npy header (needs descr, fortran_order, shape)", path);
	for (const char *const *k = (const char *const[]){"'descr'", "'fortran_order'", "'shape'", NULL}; *k; k++)
		if (strstr(strstr(hdr, *k) + 1, *k))
			return pk_error("%s: the .npy header gives %s twice; which one holds is not known", path, *k);
	if (!strncmp(descr, "'<i8'", 5))
		*is_unsigned = 0;
	else if (!strncmp(descr, "'<u8'", 5))
		*is_unsigned = 1;
	else {
		size_t n = strcspn(descr, ",}");
		return pk_error("%s: dtype %.*s is not supported (int64 '<i8' or uint64 '<u8' only)", path, (int)n,
		                descr);
	}
	if (strncmp(fo, "False", 5))
		return pk_error("%s: Fortran order is not supported (save the tensor in C order)", path);
	size_t dims[4];
	int ndim;
	if (npy_shape(shape, dims, &ndim) < 0)
		return pk_error("%s: cannot read the shape in the .npy header", path);
	*ndim_out = ndim;
	if (ndim == 1) { /* (n,): shaped by the caller from the map's row_words */
		*rows = 1;
		*cols = dims[0];
		return 0;
	}
	if (ndim != 2)
		return pk_error("%s: shape has %d dimensions; expected (slots, 8k)", path, ndim);
	*rows = dims[0];
	*cols = dims[1];
	return 0;
}

static int check_shape(size_t rows, size_t cols, const char *path)
{
	if (rows == 0)
		return pk_error("%s: the tensor holds no slots (zero rows)", path);
	if (cols == 0 || cols % 8)
		return pk_error("%s: %zu columns per slot; expected a multiple of 8 (one 64-byte line per slot)", path,
		                cols);
	return 0;
}

/* A 1-D .npy of N values is N / ROW_WORDS rows (ROW_WORDS 0: refused). */
static int npy_parse(const unsigned char *data, size_t len, const char *path, size_t row_words, struct rp_matrix *m,
                     int *reshaped)
{
	memset(m, 0, sizeof(*m));
	if (len < 10 || memcmp(data, "\x93NUMPY", 6))
		return pk_error("%s: not a .npy file (no \\x93NUMPY magic)", path);
	unsigned major = data[6];
	size_t hlen, off;
	if (major == 1) {
		hlen = (size_t)data[8] | (size_t)data[9] << 8;
		off = 10;
	} else if (major == 2 || major == 3) {
		if (len < 12)
			return pk_error("%s: truncated .npy header", path);
		hlen = (size_t)data[8] | (size_t)data[9] << 8 | (size_t)data[10] << 16 | (size_t)data[11] << 24;
		off = 12;
	} else {
		return pk_error("%s: .npy format version %u is not supported (1, 2 or 3)", path, major);
	}
	if (hlen > len - off)
		return pk_error("%s: truncated .npy header", path);
	char *hdr = pk_xstrndup((const char *)data + off, hlen);
	size_t rows = 0, cols = 0;
	int is_unsigned = 0, ndim = 0;
	int rc = npy_header(hdr, path, &rows, &cols, &is_unsigned, &ndim);
	free(hdr);
	if (rc < 0)
		return -1;
	if (ndim == 1) {
		if (!row_words)
			return pk_error("%s: shape (%zu,) has one dimension and no event map gives \"row_words\": "
			                "expected (slots, 8k); give the map with --events, or save the tensor 2-D",
			                path, cols);
		if (cols % row_words)
			return pk_error("%s: shape (%zu,) is not whole rows of %zu words (the map's \"row_words\")",
			                path, cols, row_words);
		rows = cols / row_words;
		cols = row_words;
		*reshaped = 1;
	}
	if (check_shape(rows, cols, path) < 0)
		return -1;
	off += hlen;
	if (rows > SIZE_MAX / 8 / cols)
		return pk_error("%s: %zu bytes of data; shape (%zu, %zu) needs more bytes than any file holds", path,
		                len - off, rows, cols);
	if (rows > (len - off) / 8 / cols || (len - off) != rows * cols * 8)
		return pk_error("%s: %zu bytes of data; shape (%zu, %zu) needs %zu", path, len - off, rows, cols,
		                rows * cols * 8);
	fill(m, data + off, rows, cols, is_unsigned);
	strcpy(m->dtype, is_unsigned ? "<u8" : "<i8");
	return 0;
}

int rp_npy_parse(const unsigned char *data, size_t len, const char *path, struct rp_matrix *m)
{
	int reshaped = 0;
	return npy_parse(data, len, path, 0, m, &reshaped);
}

/* ---- raw .bin ---- */

int rp_bin_parse(const unsigned char *data, size_t len, size_t slots, const char *path, struct rp_matrix *m)
{
	memset(m, 0, sizeof(*m));
	if (!slots)
		return pk_error("%s: a raw .bin tensor needs --slots N (or an event map giving \"row_words\")", path);
	if (len % (slots * 64))
		return pk_error("%s: %zu bytes is not %zu slots of 8k int64 values (a multiple of %zu bytes)", path,
		                len, slots, slots * 64);
	size_t cols = len / slots / 8;
	if (check_shape(slots, cols, path) < 0)
		return -1;
	fill(m, data, slots, cols, 0);
	strcpy(m->dtype, "<i8");
	return 0;
}

/* ---- CSV ---- */

/* Split one line at commas into FIELDS (pointers into LINE, NUL-terminated). */
static size_t split(char *line, char ***fields, size_t *cap)
{
	size_t n = 0;
	for (char *p = line;;) {
		PK_GROW(*fields, *cap, n + 1);
		char *comma = strchr(p, ',');
		(*fields)[n++] = p;
		if (!comma)
			break;
		*comma = '\0';
		p = comma + 1;
	}
	for (size_t i = 0; i < n; i++) { /* trim blanks and quotes */
		char *s = (*fields)[i], *e = s + strlen(s);
		while (*s == ' ' || *s == '\t' || *s == '"')
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '"'))
			e--;
		*e = '\0';
		(*fields)[i] = s;
	}
	return n;
}

static int parse_i64(const char *s, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		return -1;
	*out = v;
	return 0;
}

static int all_numeric(char **f, size_t n)
{
	int64_t v;
	for (size_t i = 0; i < n; i++)
		if (parse_i64(f[i], &v) < 0)
			return 0;
	return 1;
}

static int csv_row(struct rp_matrix *m, char **f, size_t n, size_t *cap, const char *path, size_t lineno)
{
	if (n != m->cols)
		return pk_error("%s:%zu: %zu fields; the first row has %zu", path, lineno, n, m->cols);
	PK_GROW(m->v, *cap, (m->rows + 1) * m->cols);
	for (size_t i = 0; i < n; i++)
		if (parse_i64(f[i], &m->v[m->rows * m->cols + i]) < 0)
			return pk_error("%s:%zu: field %zu '%s' is not an integer", path, lineno, i + 1, f[i]);
	m->rows++;
	return 0;
}

int rp_csv_parse(const char *data, size_t len, const char *path, struct rp_matrix *m)
{
	memset(m, 0, sizeof(*m));
	char *copy = pk_xstrndup(data, len), **f = NULL, *save = NULL;
	size_t fcap = 0, vcap = 0, lineno = 0;
	int rc = 0;
	strcpy(m->dtype, "csv");
	for (char *line = copy; line && rc == 0; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		lineno++;
		if (strspn(line, " \t\r") == strlen(line) || line[0] == '#')
			continue;
		size_t n = split(line, &f, &fcap);
		if (!m->cols && !all_numeric(f, n) && !m->colnames) {
			m->cols = n;
			m->colnames = pk_xcalloc(n, sizeof(char *));
			for (size_t i = 0; i < n; i++)
				m->colnames[i] = pk_xstrdup(f[i]);
			continue;
		}
		if (!m->cols && !m->colnames)
			m->cols = n;
		rc = csv_row(m, f, n, &vcap, path, lineno);
	}
	free(f);
	free(copy);
	if (rc == 0 && m->rows == 0)
		rc = pk_error("%s: no data rows", path);
	if (rc == 0)
		m->bad = pk_xcalloc(m->rows * m->cols, 1);
	else
		rp_matrix_free(m);
	return rc;
}

/* ---- torch .pt ---- */

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

struct zip_entry {
	const char *name; /* into the archive, not NUL-terminated */
	size_t name_len;
	const unsigned char *data;
	size_t size;
	unsigned method;
};

static int name_ends(const struct zip_entry *e, const char *tail)
{
	size_t t = strlen(tail);
	return e->name_len >= t && !memcmp(e->name + e->name_len - t, tail, t);
}

/* Is E a tensor storage ("ARCHIVE/data/N")? */
static int is_storage(const struct zip_entry *e)
{
	size_t i = e->name_len;
	while (i > 0 && e->name[i - 1] >= '0' && e->name[i - 1] <= '9')
		i--;
	return i < e->name_len && i >= 6 && !memcmp(e->name + i - 6, "/data/", 6);
}

/* The entries of a zip archive from its central directory (no zip64: a
 * timing capture is far below 4 GB). */
static int zip_entries(const unsigned char *d, size_t len, const char *path, struct zip_entry **out, size_t *n)
{
	size_t eocd = len >= 22 ? len - 22 : 0;
	while (eocd > 0 && le32(d + eocd) != 0x06054b50)
		eocd--;
	if (len < 22 || le32(d + eocd) != 0x06054b50)
		return pk_error("%s: not a torch .pt file (no zip directory); save with numpy.save(PATH.npy, "
		                "t.cpu().numpy()) instead",
		                path);
	size_t count = le16(d + eocd + 10), off = le32(d + eocd + 16);
	struct zip_entry *v = pk_xcalloc(count + 1, sizeof(*v));
	for (size_t i = 0; i < count; i++) {
		if (off > len || len - off < 46 || le32(d + off) != 0x02014b50) {
			free(v);
			return pk_error("%s: damaged zip directory", path);
		}
		size_t nl = le16(d + off + 28), xl = le16(d + off + 30), cl = le16(d + off + 32);
		size_t local = le32(d + off + 42), csize = le32(d + off + 20);
		v[i].method = le16(d + off + 10);
		v[i].name = (const char *)d + off + 46;
		v[i].name_len = nl;
		if (len - off - 46 < nl || local > len || len - local < 30 || le32(d + local) != 0x04034b50) {
			free(v);
			return pk_error("%s: damaged zip entry %zu", path, i);
		}
		size_t data = local + 30 + le16(d + local + 26) + le16(d + local + 28);
		if (data > len || len - data < csize) {
			const char *name = v[i].name;
			free(v);
			return pk_error("%s: zip entry %.*s runs past the end of the file", path, (int)nl, name);
		}
		v[i].data = d + data;
		v[i].size = csize;
		off += 46 + nl + xl + cl;
	}
	*out = v;
	*n = count;
	return 0;
}

int rp_pt_parse(const unsigned char *data, size_t len, size_t row_words, const char *path, struct rp_matrix *m)
{
	memset(m, 0, sizeof(*m));
	struct zip_entry *v = NULL;
	size_t n = 0;
	if (zip_entries(data, len, path, &v, &n) < 0)
		return -1;
	const struct zip_entry *pkl = NULL, *storage = NULL, *order = NULL;
	size_t nstorage = 0;
	for (size_t i = 0; i < n; i++) {
		if (name_ends(&v[i], "/data.pkl"))
			pkl = &v[i];
		else if (name_ends(&v[i], "/byteorder"))
			order = &v[i];
		else if (is_storage(&v[i])) {
			storage = &v[i];
			nstorage++;
		}
	}
	int rc = 0;
	const char *convert = "convert it: numpy.save(PATH.npy, torch.load(PATH.pt).cpu().numpy())";
	if (!pkl || nstorage != 1)
		rc = pk_error("%s: a torch file of %zu storages; probe-report reads one int64 tensor: %s", path,
		              nstorage, convert);
	else if (pkl->method != 0 || storage->method != 0)
		rc = pk_error("%s: a compressed torch file; %s", path, convert);
	else if (!memmem(pkl->data, pkl->size, "LongStorage", 11))
		rc = pk_error(
		    "%s: the torch tensor is not int64 (no LongStorage in its pickle): a timing capture is int64; "
		    "save the tensor itself, not a converted copy",
		    path);
	else if (order && (order->method != 0 || order->size < 6 || memcmp(order->data, "little", 6)))
		rc = pk_error("%s: a big-endian torch file: %s", path, convert);
	else if (!row_words)
		rc = pk_error("%s: a torch file's row width comes from the event map's \"row_words\", and none was "
		              "found: give --events, or %s",
		              path, convert);
	else if (storage->size == 0 || storage->size % (row_words * 8))
		rc = pk_error("%s: the int64 storage holds %zu bytes, not whole rows of %zu words", path, storage->size,
		              row_words);
	else if (check_shape(storage->size / (row_words * 8), row_words, path) == 0) {
		fill(m, storage->data, storage->size / (row_words * 8), row_words, 0);
		strcpy(m->dtype, "<i8");
	} else
		rc = -1;
	free(v);
	return rc;
}

/* ---- by extension ---- */

static int has_ext(const char *path, const char *ext)
{
	size_t n = strlen(path), e = strlen(ext);
	return n > e && !strcasecmp(path + n - e, ext);
}

int rp_tensor_load(const char *path, size_t slots, size_t row_words, struct rp_matrix *m, char **note)
{
	*note = NULL;
	char *data;
	size_t len;
	memset(m, 0, sizeof(*m));
	int is_npy = has_ext(path, ".npy"), is_bin = has_ext(path, ".bin"), is_csv = has_ext(path, ".csv");
	int is_pt = has_ext(path, ".pt") || has_ext(path, ".pth");
	if (!is_npy && !is_bin && !is_csv && !is_pt)
		return pk_error("%s: unknown tensor format (expected .npy, .bin, .csv or a torch .pt)", path);
	if (rp_slurp(path, &data, &len) < 0)
		return -1;
	int rc, reshaped = 0;
	if (is_npy)
		rc = npy_parse((const unsigned char *)data, len, path, row_words, m, &reshaped);
	else if (is_bin && !slots && row_words && len % (row_words * 8) == 0 && len > 0) {
		rc = rp_bin_parse((const unsigned char *)data, len, len / (row_words * 8), path, m);
		if (rc == 0)
			*note = pk_xasprintf("%s: %zu rows of %zu words (its size over the event map's row_words)",
			                     path, m->rows, row_words);
	} else if (is_bin)
		rc = rp_bin_parse((const unsigned char *)data, len, slots, path, m);
	else if (is_pt) {
		rc = rp_pt_parse((const unsigned char *)data, len, row_words, path, m);
		if (rc == 0)
			*note = pk_xasprintf("%s: a torch file read as %zu rows of %zu words (its one int64 storage)",
			                     path, m->rows, row_words);
	} else
		rc = rp_csv_parse(data, len, path, m);
	free(data);
	if (rc == 0 && reshaped)
		*note = pk_xasprintf("%s: a 1-D array read as %zu rows of %zu words (the event map's row_words)", path,
		                     m->rows, row_words);
	if (rc == 0 && slots && m->rows != slots)
		rc = pk_error("%s: %zu slots, but --slots says %zu", path, m->rows, slots);
	if (rc == 0 && is_csv && check_shape(m->rows, m->cols, path) < 0)
		rc = -1;
	if (rc < 0)
		rp_matrix_free(m);
	return rc;
}
