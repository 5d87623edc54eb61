// SPDX-License-Identifier: GPL-2.0
/* ktprof help CMD: a command's usage, made from its option table. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"

static const struct opt help_opts[] = {
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts help_cmd = {
	.cmd = "help",
	.summary = "describe a command",
	.synopsis = "[COMMAND]",
	.description = "Print the usage of COMMAND, or the list of commands.",
	.opts = help_opts,
};

int cmd_help(int argc, char **argv)
{
	struct opts_parser p = { 0 };
	unsigned int i;
	int c;

	while ((c = opts_next(&help_cmd, &p, argc, argv)) != -1)
		return cmd_usage(&help_cmd, c);
	if (optind != argc - 1)
		return cmd_usage(&help_cmd, '?');
	for (i = 0; i < cmd_table_len; i++) {
		if (!strcmp(argv[optind], cmd_table[i].name)) {
			opts_usage(cmd_table[i].opts, stdout);
			return 0;
		}
	}
	cmd_error("help", "unknown command '%s'", argv[optind]);
	return 2;
}
