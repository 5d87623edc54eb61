// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof sql: a capture as an SQLite database (docs/sql.md), queried
 * read-only: one query from the command line, or a prompt; --db writes
 * the database for any SQLite client.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "cmd/cmd.h"
#include "model/filter.h"
#include "tables/table-db.h"
#include "tables/table-text.h"
#include "util/text.h"

struct sql_opts {
	struct table_fill_config fill;
	struct table_limits lim;
	enum table_format format;
	const char *db;
	int header;
};

enum {
	OPT_DB = OPTS_LONG_ONLY, OPT_FORMAT, OPT_MAX_ROWS, OPT_TIMEOUT, OPT_SYMFS,
	OPT_NO_SYMBOLS, OPT_NO_HEADER,
};

static const struct opt sql_opts_table[] = {
	{ "db", OPT_DB, "FILE", "write the database to FILE (an SQLite 3 file, mode 0644)" },
	{ "format", OPT_FORMAT, "FMT", "text (columns split by |, the default), csv, or json "
	  "(one object a row)" },
	{ "no-header", OPT_NO_HEADER, NULL, "text and csv: no line of column names" },
	{ "max-rows", OPT_MAX_ROWS, "N", "stop a query's result after N rows (default "
	  "1000000; 0: no limit)" },
	{ "timeout", OPT_TIMEOUT, "SECS", "stop a query after SECS seconds (default 60; 0: "
	  "never)" },
	{ "from", FILTER_KEY_FROM, "T", "only the window from T after the capture began" },
	{ "to", FILTER_KEY_TO, "T", "to T after the capture began" },
	FILTER_OPT_CPUS,
	{ "symfs", OPT_SYMFS, "DIR", "look for binaries under DIR (recorded paths appended)" },
	{ "no-symbols", OPT_NO_SYMBOLS, NULL, "stack frames as addresses only (faster)" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts sql_cmd = {
	.cmd = "sql",
	.summary = "query a capture with SQL (SQLite)",
	.synopsis = "[OPTIONS] FILE|DIR [QUERY]",
	.description =
		"Build an SQLite database of the capture in memory (tables threads,\n"
		"processes, cpus, slices, thread_states, switches, wakeups,\n"
		"runqueue_waits, migrations, irqs, gaps, samples, stack_frames,\n"
		"probe_hits, markers, scx_dsq, captures: docs/sql.md) and run QUERY,\n"
		"or, without QUERY, read queries from standard input (a prompt on a\n"
		"terminal; .tables, .schema [TABLE], .quit). Queries may only read:\n"
		"one that would write, attach a file or set a PRAGMA is refused. Times\n"
		"are CLOCK_BOOTTIME ns. percentile(X, P) is the nearest-rank\n"
		"percentile report uses. With --db and no QUERY, the database is\n"
		"written and nothing is asked.",
	.examples =
		"The ten longest wakeup latencies and who waited:\n"
		"$ ktprof sql cap.ktp 'SELECT t.comm, w.latency_ns FROM wakeups w JOIN threads t\n"
		"    USING (utid) ORDER BY w.latency_ns DESC LIMIT 10'\n"
		"p99 wakeup latency per process:\n"
		"$ ktprof sql cap.ktp 'SELECT p.comm, percentile(w.latency_ns, 99) FROM wakeups w\n"
		"    JOIN threads t USING (utid) JOIN processes p USING (upid) GROUP BY upid'\n"
		"The database for another client:\n"
		"$ ktprof sql --db cap.sqlite cap.ktp && sqlite3 cap.sqlite .tables\n",
	.opts = sql_opts_table,
};

static int take(void *ctx, int key, const char *arg)
{
	struct sql_opts *o = ctx;
	struct error err = { 0 };
	long v;
	int ret;

	switch (key) {
	case OPT_DB:
		o->db = arg;
		return 0;
	case OPT_FORMAT:
		if (table_format_parse(arg, &o->format))
			break;
		return 0;
	case OPT_NO_HEADER:
		o->header = 0;
		return 0;
	case OPT_MAX_ROWS:
		if (cmd_number(arg, 0, LONG_MAX, &v))
			break;
		o->lim.max_rows = v;
		return 0;
	case OPT_TIMEOUT:
		if (cmd_number(arg, 0, 86400, &v))
			break;
		o->lim.timeout_ms = v * 1000;
		return 0;
	case OPT_SYMFS:
		o->fill.symfs = arg;
		return 0;
	case OPT_NO_SYMBOLS:
		o->fill.symbols = 0;
		return 0;
	default:
		ret = filter_take(&o->fill.filter, key, arg, &err);
		if (ret > 0)
			return 0;
		if (ret < 0) {
			cmd_error("sql", "%s", error_msg(&err));
			return 2;
		}
		return cmd_usage(&sql_cmd, key);
	}
	cmd_error("sql", "--%s: '%s' is not one of its values", key == OPT_FORMAT ? "format" :
		  key == OPT_TIMEOUT ? "timeout" : "max-rows", arg);
	return 2;
}

/* --- Printing a result --- */

struct printer {
	const struct sql_opts *o;
	FILE *out;
};

static int print_columns(void *ctx, unsigned int n, const char *const *names)
{
	struct printer *p = ctx;
	struct table_value v;
	unsigned int i;

	if (p->o->format == TABLE_FORMAT_JSON || !p->o->header)
		return 0;
	for (i = 0; i < n; i++) {
		if (i)
			fputc(p->o->format == TABLE_FORMAT_CSV ? ',' : '|', p->out);
		v = TV_TEXT(names[i]);
		table_text_value(p->out, p->o->format, &v, TABLE_TEXT);
	}
	fputc('\n', p->out);
	return 0;
}

static int print_row(void *ctx, unsigned int n, const char *const *names,
		     const struct table_value *v, const enum table_type *t)
{
	struct printer *p = ctx;
	int json = p->o->format == TABLE_FORMAT_JSON;
	unsigned int i;

	if (json)
		fputc('{', p->out);
	for (i = 0; i < n; i++) {
		if (json)
			table_text_json_key(p->out, names[i], !i);
		else if (i)
			fputc(p->o->format == TABLE_FORMAT_CSV ? ',' : '|', p->out);
		table_text_value(p->out, p->o->format, &v[i], t[i]);
	}
	fputs(json ? "}\n" : "\n", p->out);
	return ferror(p->out) ? -EIO : 0;
}

static const struct table_result_ops print_ops = { print_columns, print_row };

/* One statement of @sql; *@tail what follows it. 0, or 1 after saying why. */
static int run_one(struct table_db *db, const struct sql_opts *o, const char *sql,
		   const char **tail)
{
	struct printer p = { o, stdout };
	struct table_result res;
	struct error err = { 0 };
	int ret = table_db_query(db, sql, tail, &o->lim, &print_ops, &p, &res, &err);

	fflush(stdout);
	if (ret == -EIO)
		return 1;	/* standard output failed: main() says so */
	if (ret) {
		cmd_error("sql", "%s", error_msg(&err));
		return 1;
	}
	if (res.capped)
		cmd_error("sql", "the result was cut at %" PRIu64 " rows (--max-rows)", res.rows);
	return 0;
}

/* Every statement of @sql, in order; stops at the first failure. */
static int run_all(struct table_db *db, const struct sql_opts *o, const char *sql)
{
	const char *tail = sql;

	while (tail && *tail) {
		sql = tail;
		if (run_one(db, o, sql, &tail))
			return 1;
		if (tail == sql)
			break;
	}
	return 0;
}

/* --- The prompt --- */

static void list_tables(void)
{
	unsigned int i;

	for (i = 0; i < TABLE_NR; i++)
		printf("%s\n", table_defs[i].name);
}

static int show_schema(const char *name)
{
	unsigned int i, j, shown = 0;

	for (i = 0; i < TABLE_NR; i++) {
		const struct table_def *d = &table_defs[i];

		if (name[0] && strcmp(name, d->name))
			continue;
		printf("%s: %s\n", d->name, d->doc);
		for (j = 0; j < d->nr_cols; j++)
			printf("  %-22s %-8s %s\n", d->cols[j].name,
			       table_type_sql(d->cols[j].type), d->cols[j].doc);
		shown++;
	}
	if (!shown)
		cmd_error("sql", ".schema: no table '%s'", text_esc(name));
	return 0;
}

/* A dot command: 1 to quit, 0 otherwise. */
static int dot_command(char *line)
{
	char *arg;

	line[strcspn(line, "\r\n")] = '\0';
	arg = line + strcspn(line, " \t");
	if (*arg)
		*arg++ = '\0';
	arg += strspn(arg, " \t");
	if (!strcmp(line, ".quit") || !strcmp(line, ".exit"))
		return 1;
	if (!strcmp(line, ".tables"))
		list_tables();
	else if (!strcmp(line, ".schema"))
		show_schema(arg);
	else if (!strcmp(line, ".help"))
		printf(".tables          the tables\n.schema [TABLE]  their columns\n"
		       ".quit            leave\nAnything else is SQL, ended by ';'.\n");
	else
		cmd_error("sql", "%s: not a command (.help lists them)", text_esc(line));
	fflush(stdout);
	return 0;
}

/*
 * Queries from standard input until its end or .quit, each ended by ';'
 * (sqlite3_complete()). A query's failure is said and the next one read:
 * the exit status is 1 if any failed.
 */
static int prompt(struct table_db *db, const struct sql_opts *o)
{
	int tty = isatty(STDIN_FILENO), failed = 0;
	char *line = NULL, *buf = NULL;
	size_t cap = 0, len = 0, n;
	ssize_t got;

	for (;;) {
		if (tty)
			fputs(len ? "   ...> " : "ktprof> ", stderr);
		got = getline(&line, &cap, stdin);
		if (got < 0)
			break;
		if (!len && line[0] == '.') {
			if (dot_command(line))
				break;
			continue;
		}
		n = (size_t)got;
		if (!(buf = realloc(buf, len + n + 1))) {
			cmd_error("sql", "%s", error_str(-ENOMEM));
			failed = 1;
			break;
		}
		memcpy(buf + len, line, n + 1);
		len += n;
		if (!sqlite3_complete(buf))
			continue;
		failed |= run_all(db, o, buf);
		len = 0;
	}
	if (len && !failed && buf[strspn(buf, " \t\r\n")])
		failed |= run_all(db, o, buf);	/* the last query, without its ';' */
	free(line);
	free(buf);
	return failed;
}

/* Options, then FILE and an optional QUERY: 0, -1 after --help, or 2. */
static int parse(struct sql_opts *o, int argc, char **argv)
{
	struct opts_parser p = { 0 };
	int c, ret;

	while ((c = opts_next(&sql_cmd, &p, argc, argv)) != -1) {
		if (c == 'h' || c == '?')
			return cmd_usage(&sql_cmd, c) ? 2 : -1;
		ret = take(o, c, optarg);
		if (ret)
			return ret;
	}
	if (optind != argc - 1 && optind != argc - 2)
		return cmd_usage(&sql_cmd, '?');
	return 0;
}

int cmd_sql(int argc, char **argv)
{
	struct sql_opts o = {
		.fill.symbols = 1, .header = 1,
		.lim = { .max_rows = 1000000, .timeout_ms = 60000 },
	};
	struct error err = { 0 };
	struct table_db *db;
	const char *path, *query;
	int cut, ret = parse(&o, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	path = argv[optind];
	query = optind + 1 < argc ? argv[optind + 1] : NULL;
	if (o.db && cmd_same_file(o.db, path)) {
		cmd_error("sql", "--db %s is the capture itself", text_esc(o.db));
		return 2;
	}
	db = table_db_new(&err);
	cut = db ? table_db_load(db, path, &o.fill, &err) : -1;
	if (cut < 0) {
		cmd_error("sql", "%s", error_msg(&err));
		table_db_free(db);
		return 1;
	}
	/* A capture cut short: its readable part is queried, the status says so. */
	if (cut)
		cmd_error("sql", "%s", err.msg);
	ret = 0;
	if (o.db) {
		if (table_db_save(db, o.db, &err)) {
			cmd_error("sql", "%s", error_msg(&err));
			ret = 1;
		} else {
			fprintf(stderr, "wrote %s\n", text_esc(o.db));
		}
	}
	if (!ret && query)
		ret = run_all(db, &o, query);
	else if (!ret && !o.db)
		ret = prompt(db, &o);
	table_db_free(db);
	return ret || cut;
}
