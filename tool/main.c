/* main.c - the multi-call binary: `probe-inject ...` (by argv[0]) or
 * `probe inject ...`. One sorted table names every command. */
#include "pk.h"

#include <stdio.h>
#include <string.h>

struct pk_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct pk_cmd commands[] = {
    {"check", cmd_check, "pre-commit gate: fail when probe code remains"},
    {"inject", cmd_inject, "enable a probe, insert one on the AST, or add the timing tensor"},
    {"list", cmd_list, "list probes with their state, blocks and problems"},
    {"report", cmd_report, "turn probe logs and timing tensors into numbers and timelines"},
    {"strip", cmd_strip, "remove probes for the production build"},
    {"sweep", cmd_sweep, "one probe per build and run: enable, run, capture, restore; then one report"},
};

static const struct pk_cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* "'injet' is not a probekit command; did you mean 'inject'?" when one is close. */
static void not_a_command(const char *name, const char *see)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1, limit = strlen(name) / 3 > 1 ? strlen(name) / 3 : 1;
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		size_t d = pk_distance(name, commands[i].name);
		if (d < best_d) {
			best_d = d;
			best = commands[i].name;
		}
	}
	if (best && best_d <= limit)
		pk_error("'%s' is not a probekit command; did you mean '%s'? (see '%s')", name, best, see);
	else
		pk_error("'%s' is not a probekit command (see '%s')", name, see);
}

static int usage(FILE *out)
{
	fprintf(out, "usage: probe <command> [options] [FILE...]\n"
	             "   or: probe-<command> [options] [FILE...]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'probe help <command>' (or 'probe <command> --help') describes one command;\n"
	             "'man probe-<command>' gives the same text.\n"
	             "exit codes: 0 clean or nothing to do, 1 findings or would change, 2 error\n");
	return out == stderr ? PK_EXIT_ERROR : PK_EXIT_OK;
}

/* probe help [COMMAND]: the command's --help (the text its man page holds) */
static int help(int argc, char **argv)
{
	if (argc < 2)
		return usage(stdout);
	const struct pk_cmd *cmd = find_cmd(argv[1]);
	if (!cmd) {
		not_a_command(argv[1], "probe help");
		return PK_EXIT_ERROR;
	}
	static char progname[64];
	snprintf(progname, sizeof(progname), "probe-%s", cmd->name);
	pk_progname = progname;
	char *args[] = {progname, "--help", NULL};
	return cmd->fn(2, args);
}

int main(int argc, char **argv)
{
	static char progname[64];
	const char *base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];

	const struct pk_cmd *cmd = NULL;
	if (!strncmp(base, "probe-", 6))
		cmd = find_cmd(base + 6);
	if (!cmd) {
		if (argc < 2)
			return usage(stderr);
		if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
			return usage(stdout);
		if (!strcmp(argv[1], "--version"))
			return pk_print_version();
		if (!strcmp(argv[1], "help"))
			return help(argc - 1, argv + 1);
		cmd = find_cmd(argv[1]);
		if (!cmd) {
			not_a_command(argv[1], "probe --help");
			return PK_EXIT_ERROR;
		}
		argc--;
		argv++;
	}
	snprintf(progname, sizeof(progname), "probe-%s", cmd->name);
	pk_progname = progname;
	argv[0] = progname;
	int rc = cmd->fn(argc, argv);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		pk_error("error writing standard output");
		return PK_EXIT_ERROR;
	}
	return rc;
}
