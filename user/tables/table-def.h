/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tables a capture is seen as by SQL (ktprof sql, MCP query_trace)
 * and by fleets' engines (ktprof export): their names, columns and what
 * each means, in one place. docs/sql.md documents the same list, and a
 * test checks that it does.
 */
#ifndef KTPROF_TABLE_DEF_H
#define KTPROF_TABLE_DEF_H

#include <stdint.h>

enum table_type { TABLE_INT, TABLE_TEXT, TABLE_REAL };

struct table_column {
	const char *name;
	enum table_type type;
	const char *doc;
};

enum table_id {
	TABLE_CAPTURES,
	TABLE_CPUS,
	TABLE_PROCESSES,
	TABLE_THREADS,
	TABLE_SLICES,
	TABLE_THREAD_STATES,
	TABLE_SWITCHES,
	TABLE_WAKEUPS,
	TABLE_RUNQUEUE_WAITS,
	TABLE_MIGRATIONS,
	TABLE_IRQS,
	TABLE_GAPS,
	TABLE_SAMPLES,
	TABLE_STACK_FRAMES,
	TABLE_PROBE_HITS,
	TABLE_MARKERS,
	TABLE_SCX_DSQ,
	TABLE_NR
};

struct table_def {
	const char *name;
	const char *doc;
	const struct table_column *cols;
	unsigned int nr_cols;
	int keyed;		/* its first column is a key: one row each */
};

extern const struct table_def table_defs[TABLE_NR];

/* The table named @name, or NULL. */
const struct table_def *table_def_find(const char *name);

/* "INTEGER", "TEXT", "REAL": the SQL type of @t. */
const char *table_type_sql(enum table_type t);

/* One value of a row: a column's, by the column's type; null when @null. */
struct table_value {
	int64_t i;
	double r;
	const char *s;
	int null;
};

#define TV_INT(x) ((struct table_value){ .i = (int64_t)(x) })
static inline struct table_value table_text(const char *s)
{
	return (struct table_value){ .s = s, .null = !s };
}

#define TV_TEXT(x) table_text(x)
#define TV_REAL(x) ((struct table_value){ .r = (x) })
#define TV_NULL ((struct table_value){ .null = 1 })

#endif
