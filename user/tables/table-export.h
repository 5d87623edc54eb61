/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tables of several captures as files for a fleet's engine (DuckDB,
 * Spark, Trino...): one file a table in a directory, CSV with a header
 * line or NDJSON, every row tagged with its capture in a first column
 * "capture" (the captures table's name for it), and schema.json beside
 * them: each table's columns, types and meaning.
 */
#ifndef KTPROF_TABLE_EXPORT_H
#define KTPROF_TABLE_EXPORT_H

#include "tables/table-fill.h"
#include "tables/table-text.h"
#include "util/error.h"

struct table_export;

/*
 * Start writing into directory @dir (made if absent; a symlink is
 * refused), @f CSV or JSON (NDJSON). The files appear, whole, at
 * table_export_close(). NULL with the reason in @err.
 */
struct table_export *table_export_open(const char *dir, enum table_format f,
				       struct error *err);

/* Add the capture @path's rows: as table_fill() (1: cut short). */
int table_export_add(struct table_export *x, const char *path,
		     const struct table_fill_config *cfg, struct error *err);

/* Put the files in place: 0, or -errno (@err): then a file not put in place is not left. */
int table_export_close(struct table_export *x, struct error *err);

/* Give up: nothing is left of the files. */
void table_export_discard(struct table_export *x);

#endif
