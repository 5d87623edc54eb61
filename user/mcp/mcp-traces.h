/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The captures an MCP session has loaded, by trace id. Loading analyses
 * the whole capture once (report_run() with the defaults of `ktprof report
 * --json`) and keeps that report; a call with a window, filters or other
 * thresholds analyses the file again with them, and the trace keeps that
 * report too, for the next call with the same settings. Memory is bounded:
 * at most MCP_TRACES_MAX traces of two reports each, and a report's size
 * follows threads, CPUs and histogram buckets, not records. query_trace's
 * SQL database of a trace's tables (tables/table-db.h), whose size follows
 * records, is kept for one trace at a time.
 */
#ifndef KTPROF_MCP_TRACES_H
#define KTPROF_MCP_TRACES_H

#include <limits.h>
#include <sys/stat.h>

#include "report/report.h"
#include "tables/table-db.h"

#define MCP_TRACES_MAX 8
#define MCP_TRACE_ID_MAX 64

#define MCP_TRACE_CPUS_MAX FILTER_CPUS_LEN	/* longest CPU list */

/* An analysis with other settings. */
struct mcp_trace_run {
	struct report *r;
	struct report_config cfg;	/* its settings */
};

struct mcp_trace {
	char id[MCP_TRACE_ID_MAX + 1];
	char path[PATH_MAX];
	struct stat st;			/* the file (or directory) as loaded */
	uint64_t fingerprint;		/* a directory's entries as loaded */
	struct report *base;		/* the whole capture, default settings */
	struct mcp_trace_run *other;	/* the last call's with other settings */
	struct table_db *db;		/* query_trace's tables; NULL: not built */
	char db_problem[ERROR_MSG_MAX];	/* where the capture ended early, or "" */
};

struct mcp_traces {
	struct mcp_trace *v[MCP_TRACES_MAX];
	unsigned int n;
};

/* The default settings of an analysis: those of `ktprof report --json`. */
void mcp_traces_default_config(struct report_config *cfg);

/*
 * Load @path as @id (NULL: from the file's name), replacing a trace of
 * that id. 0 with *@out set, or a negative error with the reason in @err
 * (-ENOSPC: MCP_TRACES_MAX are loaded).
 */
int mcp_traces_load(struct mcp_traces *t, const char *path, const char *id,
		    struct mcp_trace **out, struct error *err);

/* Forget trace @id; 0 or -ENOENT. */
int mcp_traces_unload(struct mcp_traces *t, const char *id);

/*
 * Trace @id, or with @id NULL the only one loaded; NULL with the reason
 * (and the ids loaded) in @err.
 */
struct mcp_trace *mcp_traces_find(struct mcp_traces *t, const char *id, struct error *err);

/*
 * The analysis of @tr with @cfg: the loaded one when @cfg is the default,
 * else a new one (kept for the next call). NULL with the reason in @err,
 * e.g. when the file changed since it was loaded.
 */
const struct report *mcp_traces_report(struct mcp_trace *tr, const struct report_config *cfg,
				       struct error *err);

/*
 * The SQL database of @tr's tables, built on first use (the whole capture,
 * stack frames named); another trace's is freed first, so that one
 * database at most is held. NULL with the reason in @err, e.g. when the
 * file changed since it was loaded.
 */
struct table_db *mcp_traces_db(struct mcp_traces *t, struct mcp_trace *tr, struct error *err);

/* 0 if @tr's file is as it was loaded, else -ESTALE with why in @err. */
int mcp_traces_check(const struct mcp_trace *tr, struct error *err);

/* "a, b, c": the ids loaded, in @buf. */
const char *mcp_traces_ids(const struct mcp_traces *t, char *buf, size_t len);

void mcp_traces_fini(struct mcp_traces *t);

#endif
