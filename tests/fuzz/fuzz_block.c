/* fuzz_block.c - libFuzzer target: the TIMING_PROBE block scanner and the
 * three rewrites built on it (enable, disable, strip).
 * Built by bench/fuzz.sh with clang -fsanitize=fuzzer,address,undefined.
 *
 * Besides "no crash, no out-of-bounds read", every input is held to the
 * properties probekit promises (a failed property aborts, so libFuzzer
 * saves the input as a crash):
 *   - the scan is consistent: blocks in order, offsets inside the file, the
 *     value byte is the 0/1 the block reports, names are valid, every
 *     directive starts a line, comment ranges are ordered
 *   - a file without "TIMING_PROBE" has no probe block and strips to
 *     itself, byte for byte
 *   - enable NAME then disable NAME is the identity (NAME all off before)
 *   - enabling changes no offsets: the enabled text scans to the same blocks
 *   - strip output scans to no block and no error, strips to itself again,
 *     and holds no TIMING_PROBE text when all of it was inside blocks
 *   - inject then strip equals strip
 *   - line numbers agree with a count of newlines
 * The rewrite properties apply to what the commands accept: no scan error
 * and no NUL byte (a binary file is refused). */
#include "buf.h"
#include "edit.h"
#include "emit.h"
#include "marks.h"
#include "pk.h"
#include "scan.h"
#include "source.h"
#include "timing_strip.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROPERTY(cond)                                                                                                 \
	do {                                                                                                           \
		if (!(cond)) {                                                                                         \
			fprintf(stderr, "fuzz_block: property failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__);       \
			abort();                                                                                       \
		}                                                                                                      \
	} while (0)

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	return 0;
}

static void load(struct pk_buf *b, struct pk_scan *s, const char *data, size_t n)
{
	pk_buf_from_mem(b, "fuzz.cpp", pk_xstrndup(data, n), n);
	pk_scan_buf(b, s, PK_SCAN_COMMENTS);
}

static void unload(struct pk_buf *b, struct pk_scan *s)
{
	pk_scan_free(s);
	pk_buf_free(b);
}

static size_t newlines_before(const struct pk_buf *b, size_t off)
{
	size_t c = 0;
	for (size_t i = 0; i < off; i++)
		c += b->data[i] == '\n';
	return c;
}

static void check_scan(struct pk_buf *b, const struct pk_scan *s)
{
	for (size_t k = 0; k < s->nblocks; k++) {
		const struct pk_block *blk = &s->blocks[k];
		PROPERTY(blk->dir_start <= blk->value_off && blk->value_off < blk->dir_end);
		PROPERTY(blk->dir_end <= blk->endif_start && blk->endif_start < blk->endif_end);
		PROPERTY(blk->endif_end <= b->len);
		PROPERTY(b->data[blk->value_off] == (blk->enabled ? '1' : '0'));
		PROPERTY(pk_probe_name_ok(blk->name));
		/* a directive starts a line (after the BOM on line 1, which stays) */
		PROPERTY(blk->dir_start == 0 || b->data[blk->dir_start - 1] == '\n' ||
		         (blk->dir_start == 3 && !memcmp(b->data, "\xef\xbb\xbf", 3)));
		PROPERTY(b->data[blk->endif_start] != '\n');
		PROPERTY(blk->endif_end == b->len || b->data[blk->endif_end - 1] == '\n');
		PROPERTY(k == 0 || s->blocks[k - 1].endif_end <= blk->dir_start);
		PROPERTY(blk->line >= 1 && blk->endif_line > blk->line);
		PROPERTY(blk->line == 1 + newlines_before(b, blk->dir_start));
		PROPERTY(pk_buf_line_of(b, blk->value_off) >= blk->line); /* later when spliced */
		PROPERTY(blk->endif_line == 1 + newlines_before(b, blk->endif_start));
		PROPERTY(pk_scan_block_at(s, blk->value_off) == (long)k);
		PROPERTY(pk_scan_block_at(s, blk->endif_end - 1) == (long)k);
		PROPERTY(blk->scope < s->nscopes);
		PROPERTY(pk_scope_within(s, blk->scope, 0));
	}
	for (size_t k = 0; k < s->nerrors; k++) {
		PROPERTY(s->errors[k].off <= b->len);
		PROPERTY(s->errors[k].msg && s->errors[k].msg[0]);
	}
	for (size_t k = 0; k < s->ncomments; k++) {
		PROPERTY(s->comments[k].start < s->comments[k].end && s->comments[k].end <= b->len);
		PROPERTY(k == 0 || s->comments[k - 1].end <= s->comments[k].start);
		PROPERTY(pk_scan_in_comment(s, s->comments[k].start));
	}
}

/* Apply PLAN to B; the plan must check. */
static char *apply(const struct pk_buf *b, struct pk_plan *plan, size_t *n)
{
	PROPERTY(pk_plan_check(plan, b->path, b->len) == 0);
	char *out;
	pk_plan_apply(plan, b->data, b->len, &out, n);
	return out;
}

/* Set every block named NAME (all of them when NAME is NULL) to VALUE. */
static char *set_value(const struct pk_buf *b, const struct pk_scan *s, const char *name, int value, size_t *n)
{
	struct pk_plan plan;
	pk_plan_init(&plan);
	for (size_t k = 0; k < s->nblocks; k++)
		if ((!name || !strcmp(s->blocks[k].name, name)) && s->blocks[k].enabled != value)
			pk_plan_add(&plan, s->blocks[k].value_off, s->blocks[k].value_off + 1, value ? "1" : "0", 1);
	if (devnull && plan.n) { /* the --diff of the same plan must not misbehave */
		PROPERTY(pk_plan_check(&plan, b->path, b->len) == 0);
		pk_print_diff(devnull, (struct pk_buf *)b, &plan);
	}
	char *out = apply(b, &plan, n);
	pk_plan_free(&plan);
	return out;
}

/* The block engine's strip: every block removed whole. */
static char *strip_blocks(const struct pk_buf *b, const struct pk_scan *s, size_t *n)
{
	struct pk_plan plan;
	pk_plan_init(&plan);
	for (size_t k = 0; k < s->nblocks; k++)
		pk_plan_add(&plan, s->blocks[k].dir_start, s->blocks[k].endif_end, NULL, 0);
	char *out = apply(b, &plan, n);
	pk_plan_free(&plan);
	return out;
}

/* probe-strip's whole plan (blocks, brace marks, timing marks) on B's bytes
 * loaded as a pk_source, as cmd_strip.c builds it: only memory safety and a
 * plan that checks. */
static void strip_all(const struct pk_buf *b)
{
	struct pk_source src;
	memset(&src, 0, sizeof(src));
	pk_buf_from_mem(&src.buf, b->path, pk_xstrndup(b->data, b->len), b->len);
	pk_source_scan(&src, 0);
	struct pk_plan plan;
	pk_plan_init(&plan);
	for (size_t k = 0; k < src.scan.nblocks; k++)
		pk_plan_add(&plan, src.scan.blocks[k].dir_start, src.scan.blocks[k].endif_end, NULL, 0);
	if (pk_marks_plan_strip(&src, NULL, &plan) >= 0 && pk_timing_plan_strip(&src, &plan) >= 0) {
		size_t n;
		free(apply(&src.buf, &plan, &n));
	}
	pk_plan_free(&plan);
	pk_source_free(&src);
}

/* Does every "TIMING_PROBE" of B lie inside a probe block? */
static int markers_only_in_blocks(const struct pk_buf *b, const struct pk_scan *s)
{
	for (const char *p = b->data; (p = memmem(p, b->len - (size_t)(p - b->data), "TIMING_PROBE", 12)); p++)
		if (pk_scan_block_at(s, (size_t)(p - b->data)) < 0)
			return 0;
	return 1;
}

static void same_blocks(const struct pk_scan *a, const struct pk_scan *b)
{
	PROPERTY(a->nblocks == b->nblocks && b->nerrors == 0);
	for (size_t k = 0; k < a->nblocks; k++) {
		PROPERTY(!strcmp(a->blocks[k].name, b->blocks[k].name));
		PROPERTY(a->blocks[k].dir_start == b->blocks[k].dir_start);
		PROPERTY(a->blocks[k].endif_end == b->blocks[k].endif_end);
		PROPERTY(a->blocks[k].value_off == b->blocks[k].value_off);
	}
}

static void check_strip(const char *text, size_t n, int markers_inside, const char *orig_stripped, size_t orig_n)
{
	struct pk_buf b;
	struct pk_scan s;
	load(&b, &s, text, n);
	size_t sn;
	char *stripped = strip_blocks(&b, &s, &sn);
	if (orig_stripped)
		PROPERTY(sn == orig_n && !memcmp(stripped, orig_stripped, sn)); /* inject then strip == strip */
	struct pk_buf b2;
	struct pk_scan s2;
	load(&b2, &s2, stripped, sn);
	PROPERTY(s2.nblocks == 0);
	PROPERTY(s2.nerrors == 0);
	if (markers_inside)
		PROPERTY(!memmem(stripped, sn, "TIMING_PROBE", 12));
	unload(&b2, &s2);
	free(stripped);
	unload(&b, &s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct pk_buf b;
	struct pk_scan s;
	load(&b, &s, text, size);
	check_scan(&b, &s);
	if (!memmem(text, size, "TIMING_PROBE", 12)) {
		/* no probe: nothing to find, and strip gives the same bytes */
		PROPERTY(s.nblocks == 0);
		size_t n;
		char *out = strip_blocks(&b, &s, &n);
		PROPERTY(n == size && !memcmp(out, text, size));
		free(out);
	}
	strip_all(&b);
	/* the commands refuse such a file (scan errors, or NUL bytes: binary):
	 * nothing more to hold than memory safety */
	if (s.nerrors || memchr(text, '\0', size)) {
		unload(&b, &s);
		return 0;
	}

	size_t stripped_n;
	char *stripped = strip_blocks(&b, &s, &stripped_n);
	int inside = markers_only_in_blocks(&b, &s);
	check_strip(text, size, inside, NULL, 0);

	/* enable then disable, per name (a few names per input) */
	size_t tried = 0;
	for (size_t k = 0; k < s.nblocks && tried < 4; k++) {
		const char *name = s.blocks[k].name;
		int seen = 0, any_on = 0;
		for (size_t j = 0; j < s.nblocks; j++) {
			if (!strcmp(s.blocks[j].name, name)) {
				seen |= j < k;
				any_on |= s.blocks[j].enabled;
			}
		}
		if (seen)
			continue;
		tried++;
		size_t n1;
		char *on = set_value(&b, &s, name, 1, &n1);
		PROPERTY(n1 == size);
		struct pk_buf b1;
		struct pk_scan s1;
		load(&b1, &s1, on, n1);
		same_blocks(&s, &s1);
		for (size_t j = 0; j < s1.nblocks; j++)
			PROPERTY(s1.blocks[j].enabled == (s.blocks[j].enabled || !strcmp(s1.blocks[j].name, name)));
		check_strip(on, n1, inside, stripped, stripped_n);
		if (!any_on) {
			size_t n2;
			char *back = set_value(&b1, &s1, name, 0, &n2);
			PROPERTY(n2 == size && !memcmp(back, text, size));
			free(back);
		}
		unload(&b1, &s1);
		free(on);
	}

	/* disable everything: same blocks, all off; a second time changes nothing */
	size_t nd;
	char *off = set_value(&b, &s, NULL, 0, &nd);
	struct pk_buf bd;
	struct pk_scan sd;
	load(&bd, &sd, off, nd);
	same_blocks(&s, &sd);
	for (size_t j = 0; j < sd.nblocks; j++)
		PROPERTY(!sd.blocks[j].enabled);
	size_t nd2;
	char *off2 = set_value(&bd, &sd, NULL, 0, &nd2);
	PROPERTY(nd2 == nd && !memcmp(off2, off, nd));
	free(off2);
	unload(&bd, &sd);
	free(off);

	/* the canonical spelling of each name scans back to that name */
	for (size_t k = 0; k < s.nblocks && k < 4; k++) {
		char line[600];
		int w = pk_canonical_directive(line, sizeof(line) - 8, s.blocks[k].enabled, s.blocks[k].name);
		if (w < 0 || (size_t)w >= sizeof(line) - 8)
			continue;
		memcpy(line + w, "\n#endif\n", 9);
		struct pk_buf bc;
		struct pk_scan sc;
		load(&bc, &sc, line, strlen(line));
		PROPERTY(sc.nblocks == 1 && sc.nerrors == 0 && !strcmp(sc.blocks[0].name, s.blocks[k].name));
		PROPERTY(sc.blocks[0].enabled == s.blocks[k].enabled);
		unload(&bc, &sc);
	}
	free(stripped);
	unload(&b, &s);
	return 0;
}
