// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof export: the tables of ktprof sql (docs/sql.md) of one or more
 * captures, as CSV or NDJSON files a fleet's engine reads together.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "tables/table-export.h"
#include "util/text.h"

struct export_opts {
	struct table_fill_config fill;
	enum table_format format;
	const char *dir;
};

enum { OPT_FORMAT = OPTS_LONG_ONLY, OPT_SYMFS, OPT_NO_SYMBOLS };

static const struct opt export_opts_table[] = {
	{ "output", 'o', "DIR", "the directory to write (made if absent)" },
	{ "format", OPT_FORMAT, "FMT", "csv (a header line, the default) or ndjson" },
	{ "symfs", OPT_SYMFS, "DIR", "look for binaries under DIR (recorded paths appended)" },
	{ "no-symbols", OPT_NO_SYMBOLS, NULL, "stack frames as addresses only (faster)" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts export_cmd = {
	.cmd = "export",
	.summary = "the SQL tables of captures as CSV or NDJSON files",
	.synopsis = "[--format csv|ndjson] -o DIR FILE|DIR...",
	.description =
		"Write the tables of ktprof sql (docs/sql.md) of every capture given\n"
		"into DIR, one file a table (threads.csv, wakeups.csv, ...), every\n"
		"row's first column \"capture\" naming its capture (HOST/SESSION_ID,\n"
		"or the file's name; the captures table has its host, kernel and\n"
		"start), and schema.json, each column's type and meaning. DuckDB,\n"
		"Spark or Trino read them together: docs/sql.md shows how. Files\n"
		"appear whole when all captures were read, never through a symlink.",
	.examples =
		"Three hosts' captures, for DuckDB:\n"
		"$ ktprof export -o tables/ a.ktp b.ktp c.ktp\n"
		"$ duckdb -c \"SELECT capture, count(*) FROM 'tables/wakeups.csv' GROUP BY 1\"\n",
	.opts = export_opts_table,
};

static int take(void *ctx, int key, const char *arg)
{
	struct export_opts *o = ctx;

	switch (key) {
	case 'o':
		o->dir = arg;
		return 0;
	case OPT_FORMAT:
		if (table_format_parse(arg, &o->format) || o->format == TABLE_FORMAT_TEXT) {
			cmd_error("export", "--format: '%s' is not csv or ndjson", text_esc(arg));
			return 2;
		}
		return 0;
	case OPT_SYMFS:
		o->fill.symfs = arg;
		return 0;
	case OPT_NO_SYMBOLS:
		o->fill.symbols = 0;
		return 0;
	}
	return cmd_usage(&export_cmd, key);
}

int cmd_export(int argc, char **argv)
{
	struct export_opts o = { .fill.symbols = 1, .format = TABLE_FORMAT_CSV };
	struct opts_parser p = { 0 };
	struct error err = { 0 };
	struct table_export *x;
	int c, i, ret, cut = 0;

	while ((c = opts_next(&export_cmd, &p, argc, argv)) != -1) {
		if (c == 'h' || c == '?')
			return cmd_usage(&export_cmd, c);
		ret = take(&o, c, optarg);
		if (ret)
			return ret;
	}
	if (optind >= argc || !o.dir) {
		if (!o.dir && optind < argc)
			cmd_error("export", "-o DIR is required");
		return cmd_usage(&export_cmd, '?');
	}
	x = table_export_open(o.dir, o.format, &err);
	if (!x) {
		cmd_error("export", "%s", error_msg(&err));
		return 1;
	}
	for (i = optind; i < argc; i++) {
		ret = table_export_add(x, argv[i], &o.fill, &err);
		if (ret < 0) {
			cmd_error("export", "%s", error_msg(&err));
			table_export_discard(x);
			return 1;
		}
		/* Its readable part is exported; the status says one was cut short. */
		if (ret) {
			cmd_error("export", "%s", err.msg);
			cut = 1;
		}
	}
	if (table_export_close(x, &err)) {
		cmd_error("export", "%s", error_msg(&err));
		return 1;
	}
	fprintf(stderr, "wrote %s: %d capture%s\n", text_esc(o.dir), argc - optind,
		argc - optind == 1 ? "" : "s");
	return cut;
}
