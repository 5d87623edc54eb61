/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subcommands and what they share. Each cmd_<name>() parses its
 * options, calls the library and prints; it returns an exit status: 0 ok,
 * 1 failure, 2 usage error. Each <name>_cmd is its option table, from
 * which its usage, man page and completion are made.
 */
#ifndef KTPROF_CMD_H
#define KTPROF_CMD_H

#include <stdio.h>

#include "report/render.h"
#include "util/opts.h"

struct input;

int cmd_convert(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_mark(int argc, char **argv);
int cmd_mcp(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_sql(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_version(int argc, char **argv);

extern const struct opts convert_cmd, diff_cmd, dump_cmd, help_cmd, import_cmd,
	info_cmd, mark_cmd, mcp_cmd, record_cmd, report_cmd, sql_cmd, export_cmd,
	top_cmd, version_cmd;

/* The command table (ktprof.c): name, entry point, options. */
struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const struct opts *opts;
};

extern const struct cmd cmd_table[];
extern const unsigned int cmd_table_len;

/* "ktprof @cmd: " and the message, on stderr. */
void cmd_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The usual end of option parsing for @key, which opts_next() returned
 * and the command did not handle: -h prints the usage to stdout and
 * returns 0; anything else prints it to stderr and returns 2.
 */
int cmd_usage(const struct opts *o, int key);

/*
 * Write @path through @write, created through util/outfile.h (never
 * through a symlink; it appears, whole, when complete; nothing is left on
 * failure); "wrote PATH" on stderr. The exit status.
 */
/* Whether paths @a and @b name one existing file (the same inode). */
int cmd_same_file(const char *a, const char *b);

int cmd_write_file(const char *cmd, const char *path,
		   int (*write)(void *ctx, FILE *out), void *ctx);

/*
 * On stderr: how many binaries the capture names could not be used for
 * user frames (another build, or unreadable: absent, not a regular file).
 */
struct symbolizer;
void cmd_symbol_files(const char *cmd, const struct symbolizer *s);

/*
 * Parse @argv by @o's table, handing each option to @take (which returns
 * 0, or 2 after saying why), and expect @operands operands after them:
 * 0 (optind is the first), -1 after --help, 2 for a usage error.
 */
int cmd_parse(const struct opts *o, int argc, char **argv, int operands,
	      int (*take)(void *ctx, int key, const char *arg), void *ctx);

/*
 * What report and diff show and how: the sections (an option each, keys
 * CMD_KEY_SECTION + the analysis's index), --json, --html FILE, --top N,
 * and the window and selection (model/filter.h).
 */
enum {
	CMD_KEY_JSON = OPTS_LONG_ONLY + 50, CMD_KEY_HTML, CMD_KEY_TOP,
	CMD_KEY_SECTION = OPTS_LONG_ONLY + 100,
};

struct cmd_output {
	struct report_view view;
	int json;
	const char *html;
};

/*
 * Take option @key into @o or @f: 1 when it was one of theirs, 0 when not,
 * or 2 after saying why on stderr (as "ktprof @cmd: ...").
 */
struct filter;
int cmd_output_take(const char *cmd, struct cmd_output *o, struct filter *f, int key,
		    const char *arg);

/*
 * After the last option: 0, or 2 after saying why (--json with --html,
 * --from after --to). No section: all of them, as one screen each unless
 * the output is JSON or HTML.
 */
int cmd_output_check(const char *cmd, struct cmd_output *o, const struct filter *f);

/*
 * Into @table: an option per analysis that @help names (its help; NULL:
 * none), with key @key0 + its index in the analyses' table, then @fixed.
 * @table has room for REPORT_MAX_ANALYZERS more than @fixed holds.
 */
struct analyzer;
const struct opt *cmd_section_opts(struct opt *table, const struct opt *fixed, int key0,
				   const char *(*help)(const struct analyzer *a, unsigned int i));

/* @head then @text into @buf, a line break after the word that passes @width. */
void cmd_wrap(char *buf, size_t len, const char *head, const char *text, size_t width);

/* A whole number from @min to @max: 0 with *@v, or -EINVAL. */
int cmd_number(const char *arg, long min, long max, long *v);

/* input_open(@path), saying why on stderr when it fails. */
struct input *cmd_input_open(const char *cmd, const char *path);

/*
 * After a command used @in: 0 if the input was whole; for a capture cut
 * short, say so on stderr and return 1, the command's exit status: its
 * output covers only what was readable.
 */
int cmd_input_truncation(const char *cmd, struct input *in, const char *path);

/*
 * The netlink connection to the module, loading @load (a ktprof.ko path;
 * NULL: it must be loaded) if it is not, *@loaded set then; NULL after
 * saying why on stderr.
 */
struct control_client;
struct control_client *cmd_module_connect(const char *cmd, const char *load, int *loaded);

/*
 * The module can start a session for this ktprof: its record ABI, probes
 * if @want_probes, no session running. 0, or a negative error after saying
 * why on stderr.
 */
int cmd_module_check(const char *cmd, struct control_client *ctl, int want_probes);

#endif
