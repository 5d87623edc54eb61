// SPDX-License-Identifier: GPL-2.0
/* ktprof version: the tool's version and the record ABI it reads. */
#include <stdio.h>

#include "cmd/cmd.h"
#include "ktprof_abi.h"

static const struct opt version_opts[] = {
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts version_cmd = {
	.cmd = "version",
	.summary = "print ktprof's version and record ABI",
	.synopsis = "",
	.description = "Print ktprof's version and the record ABI it reads.",
	.opts = version_opts,
};

int cmd_version(int argc, char **argv)
{
	struct opts_parser p = { 0 };
	int c;

	while ((c = opts_next(&version_cmd, &p, argc, argv)) != -1)
		return cmd_usage(&version_cmd, c);
	if (optind != argc)
		return cmd_usage(&version_cmd, '?');
	printf("ktprof %s, record ABI %u.%u\n", KTP_VERSION_STRING,
	       KTP_ABI_MAJOR, KTP_ABI_MINOR);
	return 0;
}
