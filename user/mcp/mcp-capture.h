/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tools that load, describe and unload captures: load_capture,
 * get_trace_summary, unload_capture. What they say of a capture comes
 * from its report document (render_json_object()), as in `ktprof report
 * --json`.
 */
#ifndef KTPROF_MCP_CAPTURE_H
#define KTPROF_MCP_CAPTURE_H

#include "mcp/mcp-call.h"

int mcp_capture_load(struct mcp_call *c);
json_object *mcp_capture_load_schema(const struct mcp_tool *t);

int mcp_capture_unload(struct mcp_call *c);
json_object *mcp_capture_unload_schema(const struct mcp_tool *t);

int mcp_capture_summary(struct mcp_call *c);
json_object *mcp_capture_summary_schema(const struct mcp_tool *t);

#endif
