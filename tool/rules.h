/* rules.h - probe-check rules: data from rules/check*.ini and --rules files.
 * Included by check.h (probe-check's files, and probe-list and probe-strip,
 * which walk directories as probe-check does), rules.c and the rule tests. */
#ifndef PK_RULES_H
#define PK_RULES_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stddef.h>

enum pk_rule_match {
	PK_MATCH_PATTERN = 0,
	PK_MATCH_ENABLED_PROBE,
	PK_MATCH_DISABLED_PROBE,
	PK_MATCH_MALFORMED_PROBE,
};

enum pk_severity { PK_SEV_ERROR = 0, PK_SEV_WARNING, PK_SEV_NOTE };

struct pk_rule {
	char *id;
	enum pk_rule_match match;
	char *pattern;
	unsigned pattern_line; /* where the pattern was set, for messages */
	char *origin;          /* file that set the pattern */
	pcre2_code *re;
	enum pk_severity severity;
	int strict_only;
	int in_comments;
	int enabled;
	char *message;
	char *description; /* what the rule is for (SARIF, --list-rules) */
	char *fix;         /* the command that removes a finding (SARIF help) */
	int added_only;    /* heuristic: in a change, only on the lines it adds */
	int needs_sign;    /* full run: a note unless its function shows probe work */
	int python;        /* also runs on Python files (test scripts, pypto models) */
	int fallback;      /* on a line another rule also flags, the other one speaks */
	char *sign;        /* a pattern that, on the finding's line, is such a sign */
	pcre2_code *sign_re;
	char **lits; /* prefilter: the pattern cannot match without one of these */
	size_t nlits;
};

struct pk_ruleset {
	struct pk_rule *r;
	size_t n, cap;
};

/* Load the default rules (rules/check.ini and rules/check-*.ini from the
 * run-time rules directory, else the built-in copy). */
int pk_rules_load_defaults(struct pk_ruleset *rs);
/* Add or override rules from an INI file on disk. */
int pk_rules_load_file(struct pk_ruleset *rs, const char *path);
/* Add or override rules from INI text; ORIGIN names it in messages. */
int pk_rules_load_text(struct pk_ruleset *rs, const char *origin, const char *text, size_t len);
/* Compile every enabled pattern (JIT). A bad pattern is reported with its
 * file, line and PCRE2's message; returns -1. */
int pk_rules_compile(struct pk_ruleset *rs);
void pk_rules_free(struct pk_ruleset *rs);
/* Expand {name} in a rule message. Returns malloc'd text. */
char *pk_rule_message(const struct pk_rule *r, const char *name);
/* Expand {name} (the probe) and {file} (the file of the finding) in a rule
 * message; a NULL value leaves its placeholder as written. */
char *pk_rule_message_in(const struct pk_rule *r, const char *name, const char *file);

#endif
