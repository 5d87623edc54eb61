/* SPDX-License-Identifier: GPL-2.0 */
/*
 * query_events: a loaded capture's decoded events, as `ktprof dump --json`
 * gives them, in time order, filtered (window, CPU, pid, types, a probe's
 * hits by its name or id) and paged: an answer holds at most `limit`
 * events and, when more match, a cursor to pass back for the next page. Each call reads the file again, from
 * its start, up to the page's end: memory follows the page, not the
 * capture.
 */
#ifndef KTPROF_MCP_EVENTS_H
#define KTPROF_MCP_EVENTS_H

#include "mcp/mcp-call.h"

#define MCP_EVENTS_DEFAULT 100
#define MCP_EVENTS_MAX 10000

/* The event type names (ev->type's), NULL-terminated. */
extern const char *const mcp_events_types[];

int mcp_events_query(struct mcp_call *c);
json_object *mcp_events_schema(const struct mcp_tool *t);

#endif
