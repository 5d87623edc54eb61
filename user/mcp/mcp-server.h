/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `ktprof mcp`: a Model Context Protocol server (specification 2025-11-25,
 * also 2025-06-18) over stdio. The lifecycle (initialize with version and
 * capability negotiation, notifications/initialized, ping), tools/list and
 * tools/call over the tool table (mcp-tools.c); one request at a time, in
 * order; the end of input ends the session. Protocol errors are JSON-RPC
 * errors; a tool that fails answers a result with isError, so the model
 * can read why and try again. The server goes on after every error.
 */
#ifndef KTPROF_MCP_SERVER_H
#define KTPROF_MCP_SERVER_H

#include <stddef.h>
#include <stdio.h>

#define MCP_LINE_MAX (1 << 20)	/* longest message read */

struct mcp_server;

struct mcp_server *mcp_server_new(void);
void mcp_server_free(struct mcp_server *s);

/*
 * Handle one message (@len bytes, without its newline). *@reply is the
 * answer to write (malloc'ed, one line without its newline), or NULL
 * when there is none (a notification). 0, or -ENOMEM.
 */
int mcp_server_handle(struct mcp_server *s, const char *msg, size_t len, char **reply,
		      size_t *reply_len);

/*
 * Read messages from @in, one per line, and write the answers to @out
 * until the end of @in: 0 then, or a negative error when reading or
 * writing fails.
 */
int mcp_server_serve(struct mcp_server *s, FILE *in, FILE *out);

#endif
