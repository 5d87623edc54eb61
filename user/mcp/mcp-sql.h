/* SPDX-License-Identifier: GPL-2.0 */
/*
 * query_trace (scxtop's name): one read-only SQL statement over a loaded
 * capture's tables (docs/sql.md; the database of `ktprof sql`), its
 * columns and rows as arrays, cut at max_rows (or MCP_SQL_BYTES_MAX) and
 * stopped at timeout_ms.
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
#define MCP_SQL_TEXT_VALUE 200		/* bytes of a value there */
/*
 * The most bytes of JSON the rows may take: a result is cut there as at
 * max_rows, so that no query's answer fills memory (100000 rows of
 * 16 MiB strings) and the answer, whose text block holds the JSON again
 * (escaped: twice its size at worst), stays under 10 MiB, what the MCP
 * SDK's stdio transport reads at most.
 */
#define MCP_SQL_BYTES_MAX (3 << 20)

int mcp_sql_query(struct mcp_call *c);
json_object *mcp_sql_schema(const struct mcp_tool *t);

#endif
