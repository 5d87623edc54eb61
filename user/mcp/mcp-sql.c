// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp-sql.h"
#include "report/json-build.h"
#include "tables/table-text.h"

struct answer {
	const char **tail;	/* what follows the statement, once prepared */
	int second;		/* a second statement followed: refused */
	int given;		/* the statement had columns */
	json_object *columns, *rows;
	struct json_build b;
	FILE *text;		/* the summary's first rows */
	uint64_t shown;		/* rows in @rows */
	size_t bytes;		/* their JSON's size, at most */
	int full;		/* cut at MCP_SQL_BYTES_MAX */
};

/* Whether @s holds nothing but blanks, semicolons and comments. */
static int only_blank(const char *s)
{
	for (;;) {
		s += strspn(s, " \t\r\n\f\v;");
		if (s[0] == '-' && s[1] == '-') {
			s += strcspn(s, "\n");
		} else if (s[0] == '/' && s[1] == '*') {
			const char *end = strstr(s + 2, "*/");

			if (!end)
				return 1;	/* SQLite reads an open comment to the end */
			s = end + 2;
		} else {
			return !*s;
		}
	}
}

/* Before the first row is made: a second statement is refused here. */
static int take_columns(void *ctx, unsigned int n, const char *const *names)
{
	struct answer *a = ctx;
	unsigned int i;

	if (*a->tail && !only_blank(*a->tail)) {
		a->second = 1;
		return -E2BIG;
	}
	a->given = 1;
	for (i = 0; i < n; i++) {
		json_build_push(&a->b, a->columns, json_object_new_string(names[i]));
		if (a->text)
			fprintf(a->text, "%s%s", i ? "|" : "", names[i]);
	}
	if (a->text)
		fputc('\n', a->text);
	return a->b.nomem ? -ENOMEM : 0;
}

/* @v as JSON: NULL is null (as json-c has it), and so is a NaN or infinity. */
static json_object *value(const struct table_value *v, enum table_type t, int *nomem)
{
	json_object *x;

	if (v->null || (t == TABLE_REAL && !(v->r - v->r == 0)))
		return NULL;
	if (t == TABLE_INT)
		x = json_object_new_int64(v->i);
	else if (t == TABLE_REAL)
		x = json_object_new_double(v->r);
	else
		x = json_object_new_string(v->s);
	*nomem |= !x;
	return x;
}

/* The most bytes @v takes in JSON, with its comma. */
static size_t json_len(const struct table_value *v, enum table_type t)
{
	const unsigned char *p;
	size_t n = 3;	/* quotes, comma */
	uint64_t u;

	if (v->null || (t == TABLE_TEXT && !v->s))
		return 5;
	if (t == TABLE_REAL)
		return 25;
	if (t == TABLE_INT) {
		for (u = v->i < 0 ? -(uint64_t)v->i : (uint64_t)v->i, n = 2; u >= 10; u /= 10)
			n++;
		return n + 1;
	}
	/* "\u00XX" for a control character, two bytes for one that is not UTF-8. */
	for (p = (const unsigned char *)v->s; *p; p++)
		n += *p < 0x20 ? 6 : *p == '"' || *p == '\\' || *p >= 0x80 ? 2 : 1;
	return n;
}

/* @v in the summary: a long string's first MCP_SQL_TEXT_VALUE bytes. */
static void text_value(FILE *out, const struct table_value *v, enum table_type t)
{
	char cut[MCP_SQL_TEXT_VALUE + 1];
	struct table_value w = *v;

	if (t == TABLE_TEXT && !v->null && v->s && strlen(v->s) > MCP_SQL_TEXT_VALUE) {
		memcpy(cut, v->s, MCP_SQL_TEXT_VALUE);
		cut[MCP_SQL_TEXT_VALUE] = '\0';
		w.s = cut;
	}
	table_text_value(out, TABLE_FORMAT_TEXT, &w, t);
	if (w.s != v->s)
		fputs("...", out);
}

static int take_row(void *ctx, unsigned int n, const char *const *names,
		    const struct table_value *v, const enum table_type *t)
{
	struct answer *a = ctx;
	json_object *row;
	size_t bytes = 0;
	unsigned int i;

	(void)names;
	for (i = 0, bytes = 3; i < n; i++)
		bytes += json_len(&v[i], t[i]);
	if (a->bytes + bytes > MCP_SQL_BYTES_MAX) {
		a->full = 1;
		return -E2BIG;	/* the result ends here, as at max_rows */
	}
	a->bytes += bytes;
	row = json_object_new_array_ext(n);
	for (i = 0; i < n; i++) {
		json_object *x = value(&v[i], t[i], &a->b.nomem);

		if (!row || json_object_array_add(row, x)) {
			json_object_put(x);
			a->b.nomem = 1;
		}
	}
	json_build_push(&a->b, a->rows, row);
	if (a->text && a->shown < MCP_SQL_TEXT_ROWS) {
		for (i = 0; i < n; i++) {
			if (i)
				fputc('|', a->text);
			text_value(a->text, &v[i], t[i]);
		}
		fputc('\n', a->text);
	}
	a->shown++;
	return a->b.nomem ? -ENOMEM : 0;
}

/* What went wrong, for the model: the statement, the limits, the SQL. */
static int say_why(struct mcp_call *c, const struct answer *a, int ret, const char *tail,
		   const struct table_limits *lim)
{
	char why[sizeof(c->err.msg)];

	if (a->second)
		return error_set(&c->err, -EINVAL,
				 "query: one statement a call; another follows the first at '%.40s'",
				 tail + strspn(tail, " \t\r\n;"));
	switch (ret) {
	case 0:
		return a->given ? 0 : error_set(&c->err, -EINVAL,
						"query: no statement, only blanks or comments");
	case -ETIMEDOUT:
		return error_set(&c->err, ret,
				 "the query ran out of time (timeout_ms %u): ask for less, or allow more time (timeout_ms up to %d)",
				 lim->timeout_ms, MCP_SQL_TIMEOUT_MAX);
	case -EPERM:
		return error_set(&c->err, ret,
				 "refused: a query may only read (SELECT or WITH); no writes, ATTACH, "
				 "or PRAGMA but table_info, table_xinfo and table_list");
	case -EINVAL:
		snprintf(why, sizeof(why), "%s", c->err.msg);
		return error_set(&c->err, ret, "SQL error: %s", why);
	default:
		return c->err.code ? c->err.code : error_set(&c->err, ret, NULL);
	}
}

static const struct table_result_ops answer_ops = { take_columns, take_row };

int mcp_sql_query(struct mcp_call *c)
{
	const char *sql = mcp_args_str(c->args, "query"), *tail = NULL, *at;
	struct table_limits lim = {
		.max_rows = mcp_args_int(c->args, "max_rows", MCP_SQL_ROWS_DEFAULT),
		.timeout_ms = mcp_args_int(c->args, "timeout_ms", MCP_SQL_TIMEOUT_DEFAULT),
	};
	struct answer a = { .tail = &tail };
	struct mcp_trace *tr = mcp_call_trace(c, "trace_id");
	struct table_result res = { 0 };
	json_object *cols, *rows;
	struct table_db *db;
	char *summary = NULL;
	size_t len = 0;
	int ret;

	if (!tr || !(db = mcp_traces_db(c->traces, tr, &c->err)))
		return c->err.code;
	a.columns = json_object_new_array();
	a.rows = json_object_new_array();
	a.text = open_memstream(&summary, &len);
	if (!a.columns || !a.rows || !a.text) {
		ret = error_set(&c->err, -ENOMEM, NULL);
		goto out;
	}
	/* Blank statements and comments before the statement are skipped. */
	for (at = sql; ; at = tail) {
		ret = table_db_query(db, at, &tail, &lim, &answer_ops, &a, &res, &c->err);
		if (ret || a.given || !tail || tail == at || only_blank(tail))
			break;
	}
	if (a.full && ret == -E2BIG)
		ret = 0;
	ret = say_why(c, &a, ret, tail, &lim);
	if (ret)
		goto out;
	fflush(a.text);
	cols = a.columns;
	rows = a.rows;
	a.columns = a.rows = NULL;
	c->doc = json_object_new_object();
	/* Each value is taken, put or not: nothing leaks on ENOMEM. */
	json_build_put(&a.b, c->doc, "trace_id", json_object_new_string(tr->id));
	json_build_put(&a.b, c->doc, "columns", cols);
	json_build_put(&a.b, c->doc, "rows", rows);
	json_build_put(&a.b, c->doc, "row_count", json_object_new_uint64(a.shown));
	json_build_put(&a.b, c->doc, "truncated", json_object_new_boolean(res.capped || a.full));
	if (tr->db_problem[0])
		json_build_put(&a.b, c->doc, "problem", json_object_new_string(tr->db_problem));
	if (a.b.nomem) {
		ret = error_set(&c->err, -ENOMEM, NULL);
		goto out;
	}
	ret = mcp_call_text(c, "%" PRIu64 " row%s%s%s%s%s:\n%s", a.shown,
			    a.shown == 1 ? "" : "s",
			    res.capped ? " (cut at max_rows: more matched)" :
			    a.full ? " (cut at 3 MiB of JSON: more matched)" : "",
			    tr->db_problem[0] ? "; the capture ended early: " : "", tr->db_problem,
			    a.shown > MCP_SQL_TEXT_ROWS ? "; the first 20 (all are in the JSON)" : "",
			    summary ? summary : "");
out:
	if (a.text)
		fclose(a.text);
	free(summary);
	json_object_put(a.columns);
	json_object_put(a.rows);
	return ret;
}

static const struct json_field query_fields[] = {
	{ .name = "trace_id", .type = JSON_STR, .description = "the trace" },
	{ .name = "columns", .type = JSON_STRS, .description = "the result's column names" },
	{ .name = "rows", .type = JSON_ANY,
	  .description = "the rows: an array of each row's values (integer, number, string or "
	  "null), in the order of columns" },
	{ .name = "row_count", .type = JSON_INT, .description = "the rows answered (rows' length)" },
	{ .name = "truncated", .type = JSON_BOOL,
	  .description = "the result was cut at max_rows, or at 3 MiB of JSON: more rows "
	  "matched" },
	{ .name = "problem", .type = JSON_STR, .flags = JSON_OPTIONAL,
	  .description = "the capture ended early or was damaged: the tables hold what was readable" },
	{ NULL },
};

json_object *mcp_sql_schema(const struct mcp_tool *t)
{
	(void)t;
	return json_doc_schema(query_fields, 0);
}
