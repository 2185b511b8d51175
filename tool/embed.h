/* embed.h - files from rules/ compiled into the binary (cmake/EmbedFiles.cmake).
 * Any tool/ file may include this. */
#ifndef PK_EMBED_H
#define PK_EMBED_H

#include <stddef.h>

struct pk_embedded {
	const char *name; /* path relative to rules/, e.g. "check.ini" */
	const char *data; /* NUL-terminated */
	size_t len;
};

extern const struct pk_embedded pk_embedded_files[]; /* ends with name == NULL */

/* The rules/ file NAME: from the run-time rules directory if there is one
 * ($PROBEKIT_RULES_DIR, else <exe>/../share/probekit/rules), else the
 * built-in copy. Read once per process: the bytes are kept until it ends,
 * and every caller gets the same (never to be freed). */
int pk_rules_file(const char *name, const char **data, size_t *len);
const struct pk_embedded *pk_embedded_find(const char *name);
/* Names (relative to rules/) of the rule files starting with PREFIX and
 * ending with SUFFIX, sorted; from the same place pk_rules_file reads.
 * Returns a malloc'd NULL-terminated array of malloc'd names. */
char **pk_rules_list(const char *prefix, const char *suffix);
/* The run-time rules directory, or NULL when the built-in copy is used. */
const char *pk_rules_dir(void);

/* One key of an INI file, with the line it is on. Return 0 to go on, or -1
 * after telling the error (pk_error) to stop the read. */
typedef int (*pk_ini_key_fn)(void *user, const char *section, const char *key, const char *value, unsigned line);
/* Read LEN bytes of INI text through libinih, calling FN for each key.
 * Every rules file is read this way. ORIGIN names the text in messages
 * ("rules/timing.ini:12: ..."); EXPECT says what a line may be, for the
 * message on one that is neither ("'[section]' or 'key = value'"). */
int pk_ini_parse(const char *origin, const char *expect, const char *text, size_t len, pk_ini_key_fn fn, void *user);
/* pk_ini_parse over the rules file NAME, from where pk_rules_file reads it. */
int pk_ini_parse_rules(const char *name, pk_ini_key_fn fn, void *user);

#endif
