// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture-read.h"
#include "capture/input.h"
#include "decode/record.h"
#include "fuzz.h"
#include "ktprof_abi.h"
#include "report/render.h"
#include "report/report.h"
#include "symbols/symbolizer-capture.h"

const char *fuzz_dir(void)
{
	static char dir[4096];

	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/ktprof-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(dir)) {
			perror("mkdtemp");
			abort();
		}
	}
	return dir;
}

void fuzz_write(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	const char *p = data;

	if (fd < 0) {
		perror(path);
		abort();
	}
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n <= 0) {
			perror(path);
			abort();
		}
		p += n;
		len -= n;
	}
	close(fd);
}

/* A sink that looks at every field, as a printer would. */
static void sink_u64(void *ctx, const char *key, uint64_t v)
{
	*(uint64_t *)ctx += v + strlen(key);
}

static void sink_s64(void *ctx, const char *key, int64_t v)
{
	*(uint64_t *)ctx += (uint64_t)v + strlen(key);
}

static void sink_str(void *ctx, const char *key, const char *v)
{
	*(uint64_t *)ctx += strlen(v) + strlen(key);
}

static const struct record_sink sink = { sink_u64, sink_s64, sink_u64, sink_str };

static void sample_frames(struct symbolizer *sym, const struct event *ev)
{
	struct ktp_sample s;
	const uint8_t *ips = (const uint8_t *)ev->rec + sizeof(s);
	unsigned int i;

	memcpy(&s, ev->rec, sizeof(s));
	for (i = 0; i < s.nr_kernel + s.nr_user; i++) {
		struct frame f;
		char buf[256];
		uint64_t ip;

		memcpy(&ip, ips + 8 * i, 8);
		symbolizer_frame(sym, s.pid, ip, i < s.nr_kernel, &f);
		frame_str(&f, 1, buf, sizeof(buf));
	}
}

int fuzz_drain(struct merge *m, struct symbolizer *sym)
{
	volatile uint64_t seen = 0;
	uint64_t acc = 0;
	struct event ev;
	int ret;

	while ((ret = merge_next(m, &ev)) > 0) {
		record_fields(&ev, &sink, &acc);
		if (sym && ev.rec) {
			symbolizer_on_event(sym, &ev);
			if (ev.type == KTP_REC_SAMPLE)
				sample_frames(sym, &ev);
		}
	}
	seen = acc;
	(void)seen;
	return ret;
}

void fuzz_input(const char *path, const char *symfs)
{
	struct error err = { 0 };
	struct input *in = input_open(path, &err);
	struct topology_cpu *topo;
	struct symbolizer *sym;
	struct merge *m;

	if (!in)
		return;
	input_meta(in);
	input_nr_cpus(in);
	if (input_topology(in, &topo) >= 0)
		free(topo);
	sym = symbolizer_for_capture(path, in, symfs, &err);
	m = merge_new();
	if (m) {
		merge_set_tolerant(m, 1);
		if (!input_add_streams(in, m))
			fuzz_drain(m, sym);
	}
	merge_free(m);
	symbolizer_free(sym);
	if (input_capture(in))
		capture_reader_verify(input_capture(in));
	input_close(in);
}

void fuzz_report(const char *path, const char *symfs)
{
	struct report_config cfg = { .symbols = 1, .symfs = symfs };
	struct report_view view = { .summary = 1, .top = 5 };
	static FILE *devnull;
	struct error err = { 0 };
	struct report *r;

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	r = report_run(path, &cfg, &err);
	if (!r)
		return;
	render_text(r, &view, devnull);
	view.summary = 0;
	view.sections = ~0u;
	render_text(r, &view, devnull);
	render_json(r, &view, devnull);
	report_free(r);
}
