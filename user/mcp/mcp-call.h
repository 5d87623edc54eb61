/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One tools/call as its handler sees it: the checked arguments, the loaded
 * traces, and where the result goes (a document for structuredContent and
 * a text summary of it), or why the tool failed.
 */
#ifndef KTPROF_MCP_CALL_H
#define KTPROF_MCP_CALL_H

#include <stdio.h>

#include <json.h>

#include "mcp/mcp-tools.h"
#include "report/json-doc.h"

#define MCP_LIMIT_DEFAULT 20	/* rows of each list */
#define MCP_LIMIT_MAX 1000

struct mcp_call {
	const struct mcp_tool *tool;
	struct mcp_traces *traces;
	json_object *args;		/* checked against tool->args; NULL: none */
	json_object *doc;		/* the result: structuredContent */
	char *text;			/* its summary, malloc'ed */
	struct error err;		/* or why the tool failed */
};

/* The trace the argument @name names (absent: the only one loaded); NULL with c->err. */
struct mcp_trace *mcp_call_trace(struct mcp_call *c, const char *name);

/*
 * The analysis settings the arguments ask for (from, to, pid, comm, cpus,
 * method, thresholds), over the defaults; @pid is where the pid list
 * points. 0, or -EINVAL with c->err.
 */
int mcp_call_config(struct mcp_call *c, struct report_config *cfg);

/* c->text from @fmt; -ENOMEM when it cannot be made. */
int mcp_call_text(struct mcp_call *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* c->text from what @write writes into a memory stream. */
int mcp_call_text_from(struct mcp_call *c, int (*write)(const void *ctx, FILE *out),
		       const void *ctx);

/* Put @val (taken; NULL: ENOMEM) under @key of c->doc; 0 or -ENOMEM. */
int mcp_call_put(struct mcp_call *c, const char *key, json_object *val);

/*
 * @schema (taken) with the fields @extra too (a tool's own beside a
 * document's); NULL on ENOMEM.
 */
json_object *mcp_call_schema_extend(json_object *schema, const struct json_field *extra);

#endif
