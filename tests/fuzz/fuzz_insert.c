/* fuzz_insert.c - libFuzzer target: probe-inject's AST insertion path
 * (tool/ast*.c through probe-inject's option parser and pk_ast_inject,
 * libclang-14).
 * Built by bench/fuzz.sh with clang -fsanitize=fuzzer,address,undefined.
 *
 * The input is not a kernel: its bytes pick one of the small kernels in
 * tests/fuzz/kernels/ (read once at start), a placement (--begin/--end with
 * after:/before:/line:/entry:/exit: SPECs, --around, --wait, --base[=FUNC],
 * with callee and function names taken from the kernel's own calls, #n and
 * line numbers from the input), --off, --all-blocks, -o or --stdout, and
 * optionally a small edit of the kernel text (bytes inserted or deleted, a
 * line copied, two lines joined, at a chosen offset: make_text). Layout,
 * one byte each unless said (missing bytes are 0):
 *   kernel, mode, name, begin SPEC (kind, word, n), end SPEC (kind, word, n),
 *   edit (op, offset high, offset low, length), the rest: bytes to insert;
 * mode: & 3 range/--around/--wait/--base, 0x10 --off, 0x20 --all-blocks,
 * 0x40 --base=FUNC (the end SPEC's word), 0x80 --stdout instead of -o.
 *
 * Every input is held to what docs/insert.md promises (a failed property
 * aborts, so libFuzzer saves the input as a crash):
 *   - the exit code is 0 (inserted) or 2 (refused), the input file is never
 *     changed, and a refusal leaves the output untouched
 *   - an insertion changes the text, the result scans with the block
 *     scanner without an error, and holds blocks named NAME, all #if 1
 *     (#if 0 with --off)
 *   - probe-strip --probe NAME (cmd_strip, its real entry) gives back the
 *     original bytes exactly */
#include "buf.h"
#include "inject.h"
#include "pk.h"
#include "scan.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FUZZ_RULES_DIR
#error "build with -DFUZZ_RULES_DIR=\"<source>/rules\" (bench/fuzz.sh does)"
#endif
#ifndef FUZZ_KERNELS_DIR
#error "build with -DFUZZ_KERNELS_DIR=\"<source>/tests/fuzz/kernels\" (bench/fuzz.sh does)"
#endif

/* probe-inject with a placement, as the core runs it: parse, then the
 * module's entry point with the parsed options. */
static int inject_main(int argc, char **argv)
{
	struct pk_inject_opts o;
	int rc;
	optind = 0;
	if (pk_inject_parse(argc, argv, &o, &rc) == PK_INJECT_RUN)
		rc = pk_ast_inject(&o);
	pk_inject_opts_free(&o);
	return rc;
}

#define PROPERTY(cond)                                                                                                 \
	do {                                                                                                           \
		if (!(cond)) {                                                                                         \
			fprintf(stderr, "fuzz_insert: property failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__);      \
			abort();                                                                                       \
		}                                                                                                      \
	} while (0)

#define MAX_KERNELS 8
#define MAX_WORDS   64

struct kernel {
	char *text;
	size_t len;
	char *words[MAX_WORDS]; /* names followed by '(': callees and functions */
	size_t nwords;
	unsigned nlines;
};

static struct kernel kernels[MAX_KERNELS];
static size_t nkernels;
static char dir[64], in_path[96], out_path[96], strip_path[96];
static const char sentinel[] = "untouched\n";

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0, got;
	char *s = malloc(cap);
	while (s && (got = fread(s + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap)
			s = realloc(s, cap *= 2);
	}
	fclose(f);
	*n = len;
	return s;
}

static void spit(const char *path, const char *s, size_t n)
{
	FILE *f = fopen(path, "wb");
	PROPERTY(f && fwrite(s, 1, n, f) == n);
	PROPERTY(fclose(f) == 0);
}

static int is_word(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static void find_words(struct kernel *k)
{
	const char *s = k->text;
	for (size_t i = 0; i < k->len; i++) {
		k->nlines += s[i] == '\n';
		if (!is_word(s[i]) || (i > 0 && is_word(s[i - 1])) || (s[i] >= '0' && s[i] <= '9'))
			continue;
		size_t j = i;
		while (j < k->len && is_word(s[j]))
			j++;
		size_t p = j;
		while (p < k->len && s[p] == ' ')
			p++;
		if (p < k->len && s[p] == '(' && k->nwords < MAX_WORDS) {
			char *w = strndup(s + i, j - i);
			int seen = 0;
			for (size_t m = 0; m < k->nwords; m++)
				seen |= !strcmp(k->words[m], w);
			if (seen)
				free(w);
			else
				k->words[k->nwords++] = w;
		}
		i = j - 1;
	}
}

/* The scratch directory goes after every input: libFuzzer's fork-mode
 * workers end without running atexit handlers. */
static void remove_scratch(void)
{
	unlink(in_path);
	unlink(out_path);
	unlink(strip_path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* the stubs and async.ini: read from the source tree, as the tests do */
	setenv("PROBEKIT_RULES_DIR", FUZZ_RULES_DIR, 1);
	glob_t g;
	if (glob(FUZZ_KERNELS_DIR "/*.cpp", 0, NULL, &g) != 0) {
		fprintf(stderr, "fuzz_insert: no kernels in %s\n", FUZZ_KERNELS_DIR);
		exit(2);
	}
	for (size_t i = 0; i < g.gl_pathc && nkernels < MAX_KERNELS; i++) {
		struct kernel *k = &kernels[nkernels];
		if (!(k->text = slurp(g.gl_pathv[i], &k->len)))
			continue;
		find_words(k);
		nkernels++;
	}
	globfree(&g);
	snprintf(dir, sizeof(dir), "/tmp/fuzz_insert.XXXXXX");
	if (!nkernels || !mkdtemp(dir)) {
		fprintf(stderr, "fuzz_insert: no kernels or no scratch directory\n");
		exit(2);
	}
	rmdir(dir); /* only the name is kept: each input makes and removes it */
	snprintf(in_path, sizeof(in_path), "%s/k.cpp", dir);
	snprintf(out_path, sizeof(out_path), "%s/out.cpp", dir);
	snprintf(strip_path, sizeof(strip_path), "%s/stripped.cpp", dir);
	return 0;
}

/* The input's bytes, read in order; 0 once they run out. */
struct bytes {
	const uint8_t *p;
	size_t n;
};

static unsigned take(struct bytes *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static const char *pick_word(const struct kernel *k, unsigned b)
{
	if (b == 255 || !k->nwords)
		return "Nope"; /* a name the kernel does not have */
	return k->words[b % k->nwords];
}

/* A SPEC such as "after:Work#2" or "line:12" into BUF. */
static void make_spec(char *buf, size_t size, const struct kernel *k, struct bytes *in)
{
	static const char *const kinds[] = {"after:", "before:", "line:", "entry:", "exit:"};
	unsigned kind = take(in) % 5, w = take(in), n = take(in);
	if (kind == 2)
		snprintf(buf, size, "line:%u", w % (k->nlines + 2));
	else if (kind < 2 && (n & 0x80))
		snprintf(buf, size, "%s%s#%u", kinds[kind], pick_word(k, w), n & 7);
	else
		snprintf(buf, size, "%s%s", kinds[kind], pick_word(k, w));
}

/* Start of line N (from 0, wrapping) of K. */
static size_t line_start(const struct kernel *k, unsigned n)
{
	n %= k->nlines + 1;
	size_t off = 0;
	while (n-- && off < k->len)
		off = (size_t)((const char *)memchr(k->text + off, '\n', k->len - off) - k->text) + 1;
	return off;
}

/* The kernel's text, maybe with an edit at a chosen offset: 1 the rest of
 * the input inserted, 2 LEN bytes deleted, 3 the rest inserted on a line of
 * its own, 4 a copy of line LEN inserted (a second call, a statement moved
 * next to another), 5 the next line break deleted (two lines joined). */
static char *make_text(const struct kernel *k, struct bytes *in, size_t *n)
{
	unsigned op = take(in) % 6, hi = take(in), lo = take(in), len = take(in);
	size_t off = ((size_t)hi << 8 | lo) % (k->len + 1);
	char *t = malloc(k->len + in->n + k->len + 2);
	memcpy(t, k->text, off);
	size_t w = off;
	if (op == 1 || op == 3) {
		if (op == 3)
			t[w++] = '\n';
		memcpy(t + w, in->p, in->n);
		w += in->n;
	} else if (op == 2) {
		off = len > k->len - off ? k->len : off + len;
	} else if (op == 4) {
		size_t from = line_start(k, len), to = from;
		while (to < k->len && k->text[to++] != '\n')
			;
		memcpy(t + w, k->text + from, to - from);
		w += to - from;
	} else if (op == 5) {
		const char *nl = memchr(k->text + off, '\n', k->len - off);
		if (nl) {
			size_t at = (size_t)(nl - k->text);
			memcpy(t + w, k->text + off, at - off);
			w += at - off;
			off = at + 1;
		}
	}
	memcpy(t + w, k->text + off, k->len - off);
	*n = w + k->len - off;
	return t;
}

/* Run the command with stdout into OUT (for --stdout). */
static int run_to_file(int (*fn)(int, char **), int argc, char **argv, const char *out)
{
	fflush(stdout);
	int saved = dup(1), fd = open(out, O_WRONLY | O_TRUNC | O_CREAT, 0644);
	PROPERTY(saved >= 0 && fd >= 0);
	dup2(fd, 1);
	close(fd);
	optind = 0; /* each command parses its own argv with getopt */
	int rc = fn(argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	return rc;
}

static void check_inserted(const char *out, size_t out_n, const char *orig, size_t orig_n, const char *name, int off)
{
	PROPERTY(out_n != orig_n || memcmp(out, orig, orig_n));
	struct pk_buf b;
	struct pk_scan s;
	pk_buf_from_mem(&b, "out.cpp", pk_xstrndup(out, out_n), out_n);
	pk_scan_buf(&b, &s, PK_SCAN_COMMENTS);
	PROPERTY(s.nerrors == 0);
	size_t named = 0;
	for (size_t i = 0; i < s.nblocks; i++) {
		if (strcmp(s.blocks[i].name, name))
			continue;
		named++;
		PROPERTY(s.blocks[i].enabled == !off);
	}
	PROPERTY(named > 0);
	pk_scan_free(&s);
	pk_buf_free(&b);

	/* probe-strip --probe NAME -o STRIPPED OUT gives the original back */
	spit(out_path, out, out_n);
	char *argv[] = {"probe-strip", "--probe", (char *)name, "-o", strip_path, out_path, NULL};
	unlink(strip_path);
	optind = 0;
	PROPERTY(cmd_strip(6, argv) == PK_EXIT_OK);
	size_t back_n;
	char *back = slurp(strip_path, &back_n);
	PROPERTY(back && back_n == orig_n && !memcmp(back, orig, orig_n));
	free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {"P", "STAGE_A", "OLD", "T_BASE", "Row", "_x9"};
	struct bytes in = {data, size};
	const struct kernel *k = &kernels[take(&in) % nkernels];
	unsigned mode = take(&in);
	const char *name = names[take(&in) % (sizeof(names) / sizeof(names[0]))];
	char begin[96], end[96], opt[112];
	make_spec(begin, sizeof(begin), k, &in);
	make_spec(end, sizeof(end), k, &in);
	size_t text_n;
	char *text = make_text(k, &in, &text_n);
	PROPERTY(mkdir(dir, 0700) == 0 || errno == EEXIST);
	spit(in_path, text, text_n);

	char *argv[16];
	int argc = 0;
	argv[argc++] = "probe-inject";
	argv[argc++] = "--no-base"; /* the one probe, so that stripping it gives the original back */
	argv[argc++] = "--probe";
	argv[argc++] = (char *)name;
	switch (mode & 3) {
	case 0:
		argv[argc++] = "--begin";
		argv[argc++] = begin;
		argv[argc++] = "--end";
		argv[argc++] = end;
		break;
	case 1:
	case 2: /* --around / --wait CALLEE: the word of the begin SPEC */
		argv[argc++] = mode & 1 ? "--around" : "--wait";
		argv[argc++] = strchr(begin, ':') + 1;
		break;
	default:
		if (mode & 0x40) {
			snprintf(opt, sizeof(opt), "--base=%s", strchr(end, ':') + 1);
			argv[argc++] = opt;
		} else {
			argv[argc++] = "--base";
		}
	}
	int off = (mode & 0x10) != 0, to_stdout = (mode & 0x80) != 0;
	if (off)
		argv[argc++] = "--off";
	if (mode & 0x20)
		argv[argc++] = "--all-blocks";
	if (to_stdout) {
		argv[argc++] = "--stdout";
	} else {
		argv[argc++] = "-o";
		argv[argc++] = out_path;
		spit(out_path, sentinel, sizeof(sentinel) - 1);
	}
	argv[argc++] = in_path;
	argv[argc] = NULL;

	if (getenv("FUZZ_INSERT_VERBOSE")) { /* replaying one input: show the command */
		for (int i = 0; i < argc; i++)
			fprintf(stderr, "%s ", argv[i]);
		fprintf(stderr, "(%zu bytes)\n", text_n);
	}
	int rc;
	if (to_stdout) {
		rc = run_to_file(inject_main, argc, argv, out_path);
	} else {
		rc = inject_main(argc, argv);
	}
	PROPERTY(rc == PK_EXIT_OK || rc == PK_EXIT_ERROR);
	size_t in_n, out_n;
	char *in_now = slurp(in_path, &in_n);
	PROPERTY(in_now && in_n == text_n && !memcmp(in_now, text, text_n)); /* the input is never changed */
	free(in_now);
	char *out = slurp(out_path, &out_n);
	PROPERTY(out);
	if (rc == PK_EXIT_ERROR) /* refused: nothing written */
		PROPERTY(to_stdout ? out_n == 0 : out_n == sizeof(sentinel) - 1 && !memcmp(out, sentinel, out_n));
	else
		check_inserted(out, out_n, text, text_n, name, off);
	free(out);
	free(text);
	remove_scratch();
	return 0;
}
