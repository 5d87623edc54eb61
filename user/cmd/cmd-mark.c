// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof mark: leave a marker in the running session, as a script or an
 * application would by writing to the module's debugfs "marker" file
 * (like ftrace's trace_marker): one write, one MARK record.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "ktprof_abi.h"

#define MARKER_PATH "/sys/kernel/debug/ktprof/marker"

enum { OPT_BEGIN = OPTS_LONG_ONLY, OPT_END };

static const struct opt mark_opts[] = {
	{ "begin", OPT_BEGIN, NULL, "a span's begin (report --probes pairs it with\n"
		"the next end written by the same thread: this\n"
		"process's own; a shell's spans are echo's, below)" },
	{ "end", OPT_END, NULL, "a span's end" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts mark_cmd = {
	.cmd = "mark",
	.summary = "leave a marker in the running session (root)",
	.synopsis = "[--begin|--end] TEXT...",
	.description =
		"Write TEXT (the words joined by spaces, up to 1024 bytes) as a marker\n"
		"of this process into the running session. Programs can write to\n"
		MARKER_PATH " themselves: one write is one marker;\n"
		"\"B TEXT\" begins a span and \"E TEXT\" ends it.",
	.examples =
		"Mark a point of a benchmark script:\n"
		"$ ./warmup; ktprof mark warmup done; ./measure\n"
		"A span in a shell: its own writes (echo is built in), one thread:\n"
		"$ M=/sys/kernel/debug/ktprof/marker\n"
		"$ echo 'B warmup' >$M; ./warmup; echo 'E warmup' >$M\n",
	.opts = mark_opts,
};

int cmd_mark(int argc, char **argv)
{
	char text[KTP_MARK_MAX + 3];
	struct opts_parser p = { 0 };
	const char *prefix = "";
	size_t used;
	int c, fd, i;
	ssize_t n;

	while ((c = opts_next(&mark_cmd, &p, argc, argv)) != -1) {
		if (c == OPT_BEGIN || c == OPT_END)
			prefix = c == OPT_BEGIN ? "B " : "E ";
		else
			return cmd_usage(&mark_cmd, c);
	}
	if (optind == argc)
		return cmd_usage(&mark_cmd, '?');
	used = snprintf(text, sizeof(text), "%s", prefix);
	for (i = optind; i < argc && used < sizeof(text); i++)
		used += snprintf(text + used, sizeof(text) - used, "%s%s",
				 i > optind ? " " : "", argv[i]);
	if (used >= sizeof(text)) {
		fprintf(stderr, "ktprof mark: the text is longer than %d bytes\n", KTP_MARK_MAX);
		return 2;
	}
	fd = open(MARKER_PATH, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "ktprof mark: %s: %s%s\n", MARKER_PATH, strerror(errno),
			errno == ENOENT ? " (is the ktprof module loaded, debugfs mounted?)" : "");
		return 1;
	}
	n = write(fd, text, used);
	if (n < 0)
		fprintf(stderr, "ktprof mark: %s\n",
			errno == ENODATA ? "no session is running" : strerror(errno));
	close(fd);
	return n < 0;
}
