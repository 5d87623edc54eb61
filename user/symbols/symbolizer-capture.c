// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>

#include "capture/capture-read.h"
#include "capture/file-index.h"
#include "symbols/symbolizer-capture.h"

static int take_files(const struct event *ev, void *ctx)
{
	return ev->type == KTP_REC_FILE ? symbolizer_on_event(ctx, ev) : 0;
}

/*
 * From the FILES section when the writer indexed every stream: 1 if
 * taken, 0 if the capture has no usable index, -errno.
 */
static int take_index(struct symbolizer *s, struct input *in)
{
	struct capture_reader *cap = input_capture(in);
	struct event ev;
	size_t len, off = 0;
	void *recs;
	int ret;

	if (!cap || !capture_reader_files_complete(cap))
		return 0;
	recs = capture_reader_section(cap, KTPC_FILES, &len);
	if (!recs)
		return 0;	/* damaged: the streams still have them */
	while ((ret = file_index_next(recs, len, &off, &ev)) > 0) {
		ret = symbolizer_on_event(s, &ev);
		if (ret)
			break;
	}
	free(recs);
	return ret == -EBADMSG ? 0 : ret ? ret : 1;
}

struct symbolizer *symbolizer_for_kernel(struct input *in, const char *symfs,
					 struct error *err)
{
	struct symbolizer *s;
	const char *kallsyms;

	if (input_kallsyms(in, &kallsyms, err))
		return NULL;
	s = symbolizer_new(kallsyms, symfs);
	if (!s)
		error_set(err, -ENOMEM, NULL);
	return s;
}

struct symbolizer *symbolizer_for_capture(const char *path, struct input *in,
					  const char *symfs, struct error *err)
{
	struct symbolizer *s = symbolizer_for_kernel(in, symfs, err);
	int ret;

	if (!s)
		return NULL;
	ret = take_index(s, in);
	if (ret < 0) {
		error_set(err, ret, NULL);
		symbolizer_free(s);
		return NULL;
	}
	if (!ret && input_scan(path, take_files, s, err)) {
		symbolizer_free(s);
		return NULL;
	}
	return s;
}
