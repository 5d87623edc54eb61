/* SPDX-License-Identifier: GPL-2.0 */
/*
 * query_trace (scxtop's name): one read-only SQL statement over a loaded
 * capture's tables (docs/sql.md; the database of `ktprof sql`), its
 * columns and rows as arrays, cut at max_rows and stopped at timeout_ms.
 * The database is built on the first query of a trace and kept for the
 * next (mcp_traces_db(): one trace's at a time).
 */
#ifndef KTPROF_MCP_SQL_H
#define KTPROF_MCP_SQL_H

#include "mcp/mcp-call.h"

#define MCP_SQL_ROWS_DEFAULT 1000
#define MCP_SQL_ROWS_MAX 100000
#define MCP_SQL_TIMEOUT_DEFAULT 10000	/* ms */
#define MCP_SQL_TIMEOUT_MAX 60000
#define MCP_SQL_TEXT_ROWS 20		/* rows in the text summary */

int mcp_sql_query(struct mcp_call *c);
json_object *mcp_sql_schema(const struct mcp_tool *t);

#endif
