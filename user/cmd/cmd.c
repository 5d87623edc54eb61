// SPDX-License-Identifier: GPL-2.0
/* What the subcommands share: error messages, usage, opening inputs. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture-read.h"
#include "capture/input.h"
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
