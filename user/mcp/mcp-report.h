/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tools over `ktprof report` and `ktprof diff`: each answers with the
 * report's (or the diff's) JSON document for its sections, made by the
 * same library calls as `ktprof report --json` (render_json_object()) on
 * the same settings, so the numbers are the same; the server only orders
 * the long lists, cuts them at `limit` (saying how long they were, in
 * list_totals) and adds the trace's id. The text beside the document is
 * the report's own text rendering.
 */
#ifndef KTPROF_MCP_REPORT_H
#define KTPROF_MCP_REPORT_H

#include "mcp/mcp-call.h"

/* run_all_analyzers, analyze_*, find_scheduling_bottlenecks, detect_outliers, get_profile. */
int mcp_report_analysis(struct mcp_call *c);
json_object *mcp_report_analysis_schema(const struct mcp_tool *t);

/* compare_traces: `ktprof diff` of two loaded traces. */
int mcp_report_compare(struct mcp_call *c);
json_object *mcp_report_compare_schema(const struct mcp_tool *t);

/* detect_outliers' categories, NULL-terminated. */
extern const char *const mcp_report_categories[];

#endif
