/* litset.h - literals: the strings a pattern cannot match without, and one
 * pass over a text that says which of a set of strings it holds. probe-check
 * reads a file once with them and runs a rule's pattern only where one of its
 * literals occurs (most files hold none: they cost that one pass). */
#ifndef PK_LITSET_H
#define PK_LITSET_H

#include <stddef.h>
#include <stdint.h>

/* At most this many strings in a set (a bit each in the scan's answer). */
#define PK_LITSET_MAX 64

struct pk_lit {
	const char *s;
	size_t n; /* a string may hold NUL bytes (n 1, "\0": a binary file) */
};

struct pk_litset;

/* A set of the N strings LITS (N <= PK_LITSET_MAX, none empty; a string
 * given twice keeps both bits). The strings are copied. */
struct pk_litset *pk_litset_new(const struct pk_lit *lits, size_t n);
void pk_litset_free(struct pk_litset *s);
/* Which pass scans: 2 AVX2 nibble tables, 1 SSSE3 ones, 0 the compiler's
 * generic vectors; -1 (what pk_litset_new chose) the best this processor
 * has. A pass it lacks gives the best it has. Returns the pass in use (the
 * tests run each). */
int pk_litset_use(struct pk_litset *s, int pass);
/* Bit i set: string i occurs in DATA[0, LEN). One pass; a string is looked
 * for only until it is first found. */
uint64_t pk_litset_scan(const struct pk_litset *s, const char *data, size_t len);

/* The literals of a PCRE2 pattern: strings such that every match holds at
 * least one of them, chosen to be rare in source code. Returns how many were
 * put in *OUT (malloc'd strings in a malloc'd array), 0 when the pattern
 * needs none that can be proved (case-insensitive, a class or an optional
 * part at every place, a construct this reading does not know): then every
 * text must be matched. */
size_t pk_pattern_literals(const char *pattern, char ***out);

#endif
