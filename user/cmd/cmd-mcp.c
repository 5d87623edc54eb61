// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof mcp: the analyses as tools for AI agents, over the Model Context
 * Protocol on standard input and output (mcp/mcp-server.c).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "mcp/mcp-server.h"
#include "util/error.h"

static const struct opt mcp_opts[] = {
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts mcp_cmd = {
	.cmd = "mcp",
	.summary = "serve the analyses to AI agents (Model Context Protocol, stdio)",
	.synopsis = "",
	.description =
		"Serve ktprof's analyses as tools to an AI agent: a Model Context Protocol\n"
		"server (protocol 2025-11-25) on standard input and output, JSON-RPC 2.0,\n"
		"one message per line. An MCP client starts it; it ends at the end of its\n"
		"input. Tools: load_capture, get_trace_summary, run_all_analyzers, the\n"
		"analyze_* tools, find_scheduling_bottlenecks, detect_outliers, get_profile,\n"
		"query_events, query_trace (SQL), compare_traces (docs/mcp.md). Register\n"
		"it with a client as the command `ktprof mcp`.",
	.examples =
		"Try it by hand (an MCP client normally starts it):\n"
		"$ echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}' | ktprof mcp\n",
	.opts = mcp_opts,
};

int cmd_mcp(int argc, char **argv)
{
	struct opts_parser p = { 0 };
	struct mcp_server *s;
	int c, ret;

	while ((c = opts_next(&mcp_cmd, &p, argc, argv)) != -1)
		return cmd_usage(&mcp_cmd, c);
	if (optind != argc)
		return cmd_usage(&mcp_cmd, '?');
	s = mcp_server_new();
	if (!s) {
		cmd_error("mcp", "%s", error_str(-ENOMEM));
		return 1;
	}
	/* A client that goes away is a write error (EPIPE), not a signal's death. */
	signal(SIGPIPE, SIG_IGN);
	ret = mcp_server_serve(s, stdin, stdout);
	mcp_server_free(s);
	if (ret) {
		cmd_error("mcp", "%s", error_str(ret));
		return 1;
	}
	return 0;
}
