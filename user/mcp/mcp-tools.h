/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tools `ktprof mcp` offers, as one table of data: name, description,
 * arguments (whose table gives the input schema), output schema, the
 * report sections an analysis shows, and the handler. tools/list is made
 * from the table; tools/call checks the arguments against it and runs the
 * handler. Definitions of every tool: docs/mcp.md.
 */
#ifndef KTPROF_MCP_TOOLS_H
#define KTPROF_MCP_TOOLS_H

#include <json.h>

#include "mcp/mcp-args.h"
#include "mcp/mcp-traces.h"

struct mcp_call;

struct mcp_tool {
	const char *name, *title, *description;
	const struct mcp_arg *const *args;	/* NULL-terminated */
	unsigned int sections;		/* report sections an analysis shows; 0: none */
	int analyzer;			/* listed by list_analyzers */
	unsigned int needs;		/* analyzers: record types (1 << KTP_REC_*)
					 * without which they find nothing */
	const char *order;		/* threads and processes by this field, largest
					 * first ("latency.wakeup.p99_ns"); NULL: runtime */
	int (*run)(struct mcp_call *c);	/* 0, or a negative error with the reason in c->err */
	json_object *(*output_schema)(const struct mcp_tool *t);	/* NULL on ENOMEM */
	int (*applies)(const struct report *r);	/* analyzers: NULL: by @needs */
};

/* The tools, in the order tools/list gives them. */
unsigned int mcp_tools_count(void);
const struct mcp_tool *mcp_tools_at(unsigned int i);

/* The tool named @name, or NULL. */
const struct mcp_tool *mcp_tools_find(const char *name);

/* The result of tools/list: {"tools": [...]}; NULL on ENOMEM. */
json_object *mcp_tools_list(void);

/*
 * Run @t with @args (an object or NULL) over the loaded @traces: the result
 * of tools/call, with structuredContent and its text, or isError and why.
 * NULL on ENOMEM.
 */
json_object *mcp_tools_call(const struct mcp_tool *t, struct mcp_traces *traces,
			    json_object *args);

/* Handlers of this file's own tools. */
int mcp_tools_list_analyzers(struct mcp_call *c);
json_object *mcp_tools_analyzers_schema(const struct mcp_tool *t);

#endif
