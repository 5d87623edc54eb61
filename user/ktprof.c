// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof: BPF-free scheduler tracing and CPU profiling.
 *
 * main() and the command table; every subcommand lives in cmd-<name>.c.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "record", cmd_record, "record scheduler events and CPU samples (root)" },
	{ "import", cmd_import, "turn a raw dump directory into a capture file" },
	{ "info", cmd_info, "session, config, per-CPU counts, losses, truncation" },
	{ "dump", cmd_dump, "print every record of a capture, decoded, in time order" },
	{ "convert", cmd_convert, "write a Perfetto trace (scheduler, threads, samples)" },
	{ "report", cmd_report, "analyse a capture (--profile: CPU profile)" },
	{ "version", cmd_version, "print ktprof's version and record ABI" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"usage: ktprof <command> [options]\n"
		"\n"
		"BPF-free scheduler tracing and CPU profiling for Linux.\n"
		"\n"
		"commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'ktprof <command> --help' describes each command.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "ktprof: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}
