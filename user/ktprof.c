// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof: BPF-free scheduler tracing and CPU profiling.
 *
 * main() and the command table; every subcommand lives in cmd/cmd-<name>.c
 * over the library (libktprof.a).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"

const struct cmd cmd_table[] = {
	{ "record", cmd_record, &record_cmd },
	{ "top", cmd_top, &top_cmd },
	{ "import", cmd_import, &import_cmd },
	{ "info", cmd_info, &info_cmd },
	{ "dump", cmd_dump, &dump_cmd },
	{ "convert", cmd_convert, &convert_cmd },
	{ "report", cmd_report, &report_cmd },
	{ "mark", cmd_mark, &mark_cmd },
	{ "diff", cmd_diff, &diff_cmd },
	{ "sql", cmd_sql, &sql_cmd },
	{ "export", cmd_export, &export_cmd },
	{ "mcp", cmd_mcp, &mcp_cmd },
	{ "help", cmd_help, &help_cmd },
	{ "version", cmd_version, &version_cmd },
};
const unsigned int cmd_table_len = sizeof(cmd_table) / sizeof(cmd_table[0]);

static void usage(FILE *out)
{
	unsigned int i;

	fprintf(out,
		"usage: ktprof <command> [options]\n"
		"\n"
		"BPF-free scheduler tracing and CPU profiling for Linux.\n"
		"\n"
		"commands:\n");
	for (i = 0; i < cmd_table_len; i++)
		fprintf(out, "  %-9s %s\n", cmd_table[i].name,
			cmd_table[i].opts->summary);
	fprintf(out, "\n'ktprof <command> --help' describes each command.\n");
}

/*
 * Output that could not be written is an error, not a success with
 * nothing in the file (`ktprof dump x.ktp > /dev/full`), as perf does.
 */
static int check_stdout(int status)
{
	int bad = fflush(stdout) || ferror(stdout);

	if (fclose(stdout))
		bad = 1;
	if (bad && errno != EPIPE) {
		fprintf(stderr, "ktprof: write error on standard output: %s\n",
			strerror(errno));
		return status ? status : 1;
	}
	return status;
}

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		usage(stdout);
		return check_stdout(0);
	}
	for (i = 0; i < cmd_table_len; i++)
		if (!strcmp(argv[1], cmd_table[i].name))
			return check_stdout(cmd_table[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "ktprof: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}
