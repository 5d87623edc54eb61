// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "cmd/commands.h"
#include "ktprof_abi.h"

int cmd_version(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "usage: ktprof version\n");
		return 2;
	}
	printf("ktprof %s, record ABI %u.%u\n", KTP_VERSION_STRING,
	       KTP_ABI_MAJOR, KTP_ABI_MINOR);
	return 0;
}
