// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sym-prescan.h"

static int take_files(const struct ktp_event *ev, void *ctx)
{
	return ev->type == KTP_REC_FILE ? symbolizer_on_event(ctx, ev) : 0;
}

struct symbolizer *symbolizer_for_capture(const char *path, struct ktp_input *in,
					  const char *symfs, char *err,
					  size_t errlen)
{
	struct symbolizer *s = symbolizer_new(input_kallsyms(in), symfs);

	if (!s) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return NULL;
	}
	if (input_scan(path, take_files, s, err, errlen)) {
		symbolizer_free(s);
		return NULL;
	}
	return s;
}
