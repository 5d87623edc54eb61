/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where table rows go: an SQLite database (table-db.h), or CSV or NDJSON
 * files (table-export.h). The filler (table-fill.h) calls @capture once
 * before a capture's rows, then @row for each row, whose values are the
 * table's columns in order (table-def.h). A non-zero return stops it.
 */
#ifndef KTPROF_TABLE_SINK_H
#define KTPROF_TABLE_SINK_H

#include "tables/table-def.h"

struct table_sink {
	int (*capture)(void *ctx, const char *name);
	int (*row)(void *ctx, enum table_id t, const struct table_value *v);
	void *ctx;
};

#endif
