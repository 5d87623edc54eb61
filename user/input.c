// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ktprof_abi.h"
#include "input.h"
#include "rawdir.h"

struct ktp_input {
	struct rawdir *rd;
	struct ktp_meta meta;
	int have_meta;
	char *kallsyms;
	int kallsyms_loaded;
};

static int load_meta(struct ktp_input *in, const char *path, char *err,
		     size_t errlen)
{
	char *text = rawdir_read_file(in->rd, "meta", NULL);
	int ret;

	if (!text)
		return 0;	/* optional: streams decode without it */
	ret = meta_parse(text, &in->meta);
	free(text);
	if (ret == -EPROTONOSUPPORT) {
		snprintf(err, errlen, "%s/meta: record ABI %u.%u; this ktprof reads %u.x",
			 path, in->meta.abi_major, in->meta.abi_minor,
			 KTP_ABI_MAJOR);
		return ret;
	}
	if (ret) {
		snprintf(err, errlen, "%s/meta: malformed", path);
		return ret;
	}
	in->have_meta = 1;
	return 0;
}

struct ktp_input *input_open(const char *path, char *err, size_t errlen)
{
	struct ktp_input *in;
	struct stat st;

	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a raw dump directory", path);
		return NULL;
	}
	in = calloc(1, sizeof(*in));
	if (!in) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return NULL;
	}
	in->rd = rawdir_open(path);
	if (!in->rd) {
		if (errno == ENOENT)
			snprintf(err, errlen, "%s: no cpuN files (raw dump directory expected)",
				 path);
		else
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(in);
		return NULL;
	}
	if (load_meta(in, path, err, errlen)) {
		input_close(in);
		return NULL;
	}
	return in;
}

void input_close(struct ktp_input *in)
{
	if (!in)
		return;
	rawdir_close(in->rd);
	free(in->kallsyms);
	free(in);
}

const struct ktp_meta *input_meta(const struct ktp_input *in)
{
	return in->have_meta ? &in->meta : NULL;
}

int input_add_streams(struct ktp_input *in, struct merge *m)
{
	return rawdir_add_streams(in->rd, m);
}

const char *input_kallsyms(struct ktp_input *in)
{
	if (!in->kallsyms_loaded) {
		in->kallsyms = rawdir_read_file(in->rd, "kallsyms", NULL);
		in->kallsyms_loaded = 1;
	}
	return in->kallsyms;
}

int input_scan(const char *path, int (*fn)(const struct ktp_event *ev, void *ctx),
	       void *ctx, char *err, size_t errlen)
{
	struct ktp_input *in = input_open(path, err, errlen);
	struct ktp_event ev;
	struct merge *m;
	int ret;

	if (!in)
		return -EINVAL;
	m = merge_new();
	ret = m ? input_add_streams(in, m) : -ENOMEM;
	while (!ret && (ret = merge_next(m, &ev)) > 0)
		ret = fn(&ev, ctx);
	if (ret < 0)
		snprintf(err, errlen, "reading %s: %s", path, strerror(-ret));
	merge_free(m);
	input_close(in);
	return ret < 0 ? ret : 0;
}
