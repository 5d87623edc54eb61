/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Table values as text, one writer for ktprof sql's output, ktprof
 * export's files and MCP query_trace: CSV (RFC 4180: quoted when it must
 * be, strings as valid UTF-8), JSON (as util/text.h's JSON strings), and
 * the terminal's text (escaped, util/text.h).
 */
#ifndef KTPROF_TABLE_TEXT_H
#define KTPROF_TABLE_TEXT_H

#include <stdio.h>

#include "tables/table-def.h"

enum table_format { TABLE_FORMAT_TEXT, TABLE_FORMAT_CSV, TABLE_FORMAT_JSON };

/* "text", "csv", "json" (and "ndjson" for json): 0 with *@f, or -EINVAL. */
int table_format_parse(const char *s, enum table_format *f);

/* A string as a CSV field, quoted when it holds a comma, a quote or a line break. */
void table_text_csv(const char *s, FILE *out);

/*
 * @v of type @t: CSV and text write nothing for NULL, JSON null; JSON has
 * no NaN or infinity (null); a real is written so that it reads back the same.
 */
void table_text_value(FILE *out, enum table_format f, const struct table_value *v,
		      enum table_type t);

/* A JSON object's key @name and its colon, a comma before it unless @first. */
void table_text_json_key(FILE *out, const char *name, int first);

#endif
