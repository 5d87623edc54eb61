/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A capture as an SQLite database (the tables of table-def.h), built in
 * memory in one pass of the model, queried read-only within limits, and
 * written to a file for any SQLite client.
 */
#ifndef KTPROF_TABLE_DB_H
#define KTPROF_TABLE_DB_H

#include <stdint.h>

#include "tables/table-def.h"
#include "tables/table-fill.h"
#include "util/error.h"

struct table_db;

/* An empty database with the tables; NULL with the reason in @err. */
struct table_db *table_db_new(struct error *err);
void table_db_free(struct table_db *db);

/* Read the capture @path into @db: as table_fill() (1: cut short). */
int table_db_load(struct table_db *db, const char *path, const struct table_fill_config *cfg,
		  struct error *err);

/* Rows of the tables, all together (for the bench and the tests). */
uint64_t table_db_rows(const struct table_db *db);

/* Write @db to @path (util/outfile.h: never through a symlink). 0 or -errno. */
int table_db_save(struct table_db *db, const char *path, struct error *err);

/* What a query may take: 0 means no limit. */
struct table_limits {
	uint64_t max_rows;	/* rows given; the query stops after them */
	uint32_t timeout_ms;	/* the query is interrupted after it */
};

struct table_result {
	uint64_t rows;		/* rows given */
	int capped;		/* more rows were left than max_rows */
};

struct table_result_ops {
	/* The result's columns, once before its rows. */
	int (*columns)(void *ctx, unsigned int n, const char *const *names);
	/* A row: @n values, each of type @types[i] (SQLite's: per value). */
	int (*row)(void *ctx, unsigned int n, const char *const *names,
		   const struct table_value *v, const enum table_type *types);
};

/*
 * Run the first statement of @sql, read-only (a statement that would
 * write, attach a file or change the connection is refused: -EPERM), its
 * rows to @ops. *@tail, when not NULL, is set to what follows the
 * statement (a prompt runs several). A statement that is only a comment
 * or blank gives no columns and no rows. 0, -EPERM, -ETIMEDOUT, -EINVAL
 * (an SQL error), with the reason in @err.
 */
int table_db_query(struct table_db *db, const char *sql, const char **tail,
		   const struct table_limits *lim, const struct table_result_ops *ops,
		   void *ctx, struct table_result *res, struct error *err);

#endif
