// SPDX-License-Identifier: GPL-2.0
/* What the subcommands share: error messages, usage, opening inputs. */
#include <errno.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture-read.h"
#include "capture/input.h"
#include "report/analyzer.h"
#include "cmd/cmd.h"
#include "symbols/symbolizer.h"
#include "util/outfile.h"

void cmd_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ktprof %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cmd_usage(const struct opts *o, int key)
{
	if (key == 'h') {
		opts_usage(o, stdout);
		return 0;
	}
	opts_usage(o, stderr);
	return 2;
}

int cmd_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
		sa.st_ino == sb.st_ino;
}

int cmd_write_file(const char *cmd, const char *path,
		   int (*write)(void *ctx, FILE *out), void *ctx)
{
	struct outfile *of = outfile_open(path, 0644, 0);
	FILE *f = NULL;
	int fd = -1, ret;

	if (of)
		fd = dup(outfile_fd(of));	/* fclose() closes it, not the outfile's */
	if (fd >= 0)
		f = fdopen(fd, "w");
	if (!f) {
		ret = errno;
		cmd_error(cmd, "%s: %s", path, error_str(ret));
		if (fd >= 0)
			close(fd);
		if (of)
			outfile_discard(of);
		return 1;
	}
	ret = write(ctx, f);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		outfile_discard(of);
	else
		ret = outfile_close(of);
	if (ret) {
		cmd_error(cmd, "%s: %s", path, error_str(ret));
		return 1;
	}
	fprintf(stderr, "ktprof %s: wrote %s\n", cmd, path);
	return 0;
}

void cmd_symbol_files(const char *cmd, const struct symbolizer *s)
{
	if (symbolizer_mismatched(s))
		cmd_error(cmd, "%u binaries differ from the ones that ran (build id): their frames stay unresolved",
			  symbolizer_mismatched(s));
	if (symbolizer_unreadable(s))
		cmd_error(cmd, "%u binaries could not be read (absent, or not regular files on a disk): their frames stay unresolved",
			  symbolizer_unreadable(s));
}

struct input *cmd_input_open(const char *cmd, const char *path)
{
	struct error err = { 0 };
	struct input *in = input_open(path, &err);

	if (!in)
		cmd_error(cmd, "%s", error_msg(&err));
	return in;
}

int cmd_input_truncation(const char *cmd, struct input *in, const char *path)
{
	const struct capture_reader *cap = input_capture(in);
	const struct capture_status *st;

	if (!cap)
		return 0;
	st = capture_reader_status(cap);
	if (st->complete)
		return 0;
	cmd_error(cmd, "%s: %s; the output covers the %" PRIu64
		  " complete chunks before offset %" PRIu64, path, st->problem,
		  st->chunks, st->end_offset);
	return 1;
}

int cmd_number(const char *arg, long min, long max, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(arg, &end, 10);
	return *end || end == arg || errno || *v < min || *v > max ? -EINVAL : 0;
}

void cmd_wrap(char *buf, size_t len, const char *head, const char *text, size_t width)
{
	size_t off = snprintf(buf, len, "%s", head), col = off;

	for (; *text && off + 2 < len; text++) {
		if (*text == ' ' && col >= width) {
			buf[off++] = '\n';
			col = 0;
			continue;
		}
		buf[off++] = *text;
		col++;
	}
	buf[off < len ? off : len - 1] = '\0';
}

int cmd_parse(const struct opts *o, int argc, char **argv, int operands,
	      int (*take)(void *ctx, int key, const char *arg), void *ctx)
{
	struct opts_parser p = { 0 };
	int c, ret;

	while ((c = opts_next(o, &p, argc, argv)) != -1) {
		if (c == 'h' || c == '?')
			return cmd_usage(o, c) ? 2 : -1;
		ret = take(ctx, c, optarg);
		if (ret)
			return ret;
	}
	return optind == argc - operands ? 0 : cmd_usage(o, '?');
}

const struct opt *cmd_section_opts(struct opt *table, const struct opt *fixed, int key0,
				   const char *(*help)(const struct analyzer *a, unsigned int i))
{
	unsigned int i, n = 0;

	if (table[0].name)
		return table;
	for (i = 0; i < nr_analyzers; i++)
		if (help(analyzers[i], i))
			table[n++] = (struct opt){ analyzers[i]->name, key0 + (int)i, NULL,
						   help(analyzers[i], i) };
	for (; fixed->name; fixed++)
		table[n++] = *fixed;
	return table;
}

int cmd_output_take(const char *cmd, struct cmd_output *o, struct filter *f, int key,
		    const char *arg)
{
	struct error err = { 0 };
	long v;
	int ret = filter_take(f, key, arg, &err);

	if (ret < 0) {
		cmd_error(cmd, "%s", error_msg(&err));
		return 2;
	}
	if (ret)
		return 1;
	if (key >= CMD_KEY_SECTION && key < CMD_KEY_SECTION + (int)nr_analyzers) {
		o->view.sections |= 1u << (key - CMD_KEY_SECTION);
		return 1;
	}
	switch (key) {
	case CMD_KEY_JSON:
		o->json = 1;
		return 1;
	case CMD_KEY_HTML:
		o->html = arg;
		return 1;
	case CMD_KEY_TOP:
		if (!cmd_number(arg, 1, INT_MAX, &v)) {
			o->view.top = v;
			return 1;
		}
		cmd_error(cmd, "--top wants a positive number, not '%s'", arg);
		return 2;
	}
	return 0;
}

int cmd_output_check(const char *cmd, struct cmd_output *o, const struct filter *f)
{
	struct error err = { 0 };

	if (o->json && o->html) {
		cmd_error(cmd, "choose one output form: --json or --html, not both");
		return 2;
	}
	if (filter_check(f, &err)) {
		cmd_error(cmd, "%s", error_msg(&err));
		return 2;
	}
	if (!o->view.sections) {
		o->view.sections = analyzer_sections_all();
		o->view.summary = !o->json && !o->html;
	}
	return 0;
}
