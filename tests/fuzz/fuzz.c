// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/capture-format.h"
#include "capture/capture-read.h"
#include "capture/cpu-stats.h"
#include "capture/input.h"
#include "decode/record.h"
#include "fuzz.h"
#include "ktprof_abi.h"
#include "model/model.h"
#include "report/diff.h"
#include "report/render-diff.h"
#include "report/render.h"
#include "report/report.h"

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

static char scratch_symfs[4096];

static void make(const char *what, const char *sub, int fifo)
{
	char p[8192];

	snprintf(p, sizeof(p), "%s%s", scratch_symfs, sub);
	if (fifo ? mkfifo(p, 0600) : mkdir(p, 0700)) {
		perror(what);
		abort();
	}
}

/* A copy of $KTPROF_FUZZ_ELF at @sub, for the FILE records to name. */
static void copy_elf(const char *sub)
{
	const char *elf = getenv("KTPROF_FUZZ_ELF");
	char p[8192], *buf = NULL;
	size_t len = 0, n;
	FILE *f;

	if (!elf || !(f = fopen(elf, "r")))
		return;
	for (;;) {
		char *nb = realloc(buf, len + 65536);

		if (!nb)
			abort();
		buf = nb;
		n = fread(buf + len, 1, 65536, f);
		len += n;
		if (!n)
			break;
	}
	fclose(f);
	snprintf(p, sizeof(p), "%s%s", scratch_symfs, sub);
	fuzz_write(p, buf, len);
	free(buf);
}

const char *fuzz_symfs(void)
{
	if (scratch_symfs[0])
		return scratch_symfs;
	snprintf(scratch_symfs, sizeof(scratch_symfs), "%s/symfs", fuzz_dir());
	make("symfs", "", 0);
	make("symfs", "/tmp", 0);
	make("symfs", "/tmp/ff", 0);
	/* A FILE record naming this path must not block the symbolizer. */
	make("symfs", "/tmp/ff/app", 1);
	/* The golden scenario's binary. */
	make("symfs", "/usr", 0);
	make("symfs", "/usr/bin", 0);
	copy_elf("/usr/bin/app");
	return scratch_symfs;
}


/* CRCs and sequence numbers of the complete chunks, made right. */
void fuzz_fix_chunks(uint8_t *buf, size_t size)
{
	struct ktpc_file_header fh;
	struct ktpc_chunk_header h;
	uint64_t off, seq = 0;

	if (size < sizeof(fh))
		return;
	memcpy(&fh, buf, sizeof(fh));
	if (fh.reserved & 1)
		return;
	for (off = fh.header_size; off + sizeof(h) <= size; off += sizeof(h) + h.stored_len) {
		memcpy(&h, buf + off, sizeof(h));
		if (h.stored_len > size - off - sizeof(h))
			break;
		h.seq = seq++;
		h.crc = ktpc_chunk_crc(&h, buf + off + sizeof(h));
		memcpy(buf + off, &h, sizeof(h));
	}
}

const char *fuzz_capture_file(const uint8_t *data, size_t size)
{
	static char path[4096];
	uint8_t *buf = malloc(size ? size : 1);

	if (!buf)
		return NULL;
	if (!path[0])
		snprintf(path, sizeof(path), "%s/capture.ktp", fuzz_dir());
	memcpy(buf, data, size);
	fuzz_fix_chunks(buf, size);
	fuzz_write(path, buf, size);
	free(buf);
	return path;
}

/* The module's counters, as info reads them. */
static void read_stats(struct capture_reader *r)
{
	struct cpu_stats *st;
	size_t len;
	void *buf = capture_reader_section(r, KTPC_STATS, &len);

	if (!buf)
		return;
	if (cpu_stats_unpack(buf, len, &st) >= 0)
		free(st);
	free(buf);
}

static int input_event(void *ctx, const struct event *ev)
{
	struct model *m = ctx;
	volatile uint64_t seen;
	uint64_t acc = 0;

	record_fields(ev, &sink, &acc);
	if (m->sym && ev->rec && ev->type == KTP_REC_SAMPLE)
		sample_frames(m->sym, ev);
	seen = acc;
	(void)seen;
	return 0;
}

static const struct sched_ops input_ops = { .event = input_event };

/*
 * The model over the input, symbols and all; when the symbols cannot be
 * had (a damaged kallsyms), without them, so that the rest is read still.
 */
void fuzz_input(const char *path, const char *symfs)
{
	struct model_config mc = {
		.sched = 1, .symbols = MODEL_SYMBOLS_ALL, .symfs = symfs, .tolerant = 1,
	};
	struct error err = { 0 };
	struct model *m = model_open(path, &mc, &err);

	if (!m) {
		mc.symbols = MODEL_SYMBOLS_NONE;
		m = model_open(path, &mc, &err);
	}
	if (!m)
		return;
	if (!model_add_client(m, &input_ops, m, 0))
		model_run(m, &err);
	if (input_capture(m->in)) {
		read_stats(input_capture(m->in));
		capture_reader_verify(input_capture(m->in));
	}
	model_close(m);
}

/* Every number in @o finite (JSON has no NaN or Infinity). */
static int finite_numbers(json_object *o)
{
	size_t i;

	switch (json_object_get_type(o)) {
	case json_type_double:
		return isfinite(json_object_get_double(o));
	case json_type_array:
		for (i = 0; i < json_object_array_length(o); i++)
			if (!finite_numbers(json_object_array_get_idx(o, i)))
				return 0;
		return 1;
	case json_type_object: {
		json_object_object_foreach(o, key, val) {
			(void)key;
			if (!finite_numbers(val))
				return 0;
		}
		return 1;
	}
	default:
		return 1;
	}
}

int fuzz_json_valid(const char *buf, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *o;
	size_t end;
	int ok;

	if (!tok)
		abort();
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, buf, (int)len);
	ok = o && json_tokener_get_error(tok) == json_tokener_success && finite_numbers(o);
	for (end = json_tokener_get_parse_end(tok); ok && end < len; end++)
		ok = isspace((unsigned char)buf[end]);
	json_object_put(o);
	json_tokener_free(tok);
	return ok;
}

/* The elements the renderers write (render-html.c, render-diff.c, svg.c). */
static const char *const html_tags[] = {
	"a", "body", "circle", "div", "figcaption", "figure", "g", "h1", "h2", "head", "html",
	"li", "line", "main", "meta", "nav", "ol", "p", "polyline", "rect", "span", "style",
	"svg", "table", "td", "text", "th", "title", "tr", NULL,
};

static int html_tag_ok(const char *tag, size_t n, const char *attrs, size_t alen)
{
	const char *const *t;
	size_t i;

	/* No event handler attribute, no script URL, whatever the tag. */
	for (i = 0; i + 3 < alen; i++) {
		if (isspace((unsigned char)attrs[i]) && tolower((unsigned char)attrs[i + 1]) == 'o' &&
		    tolower((unsigned char)attrs[i + 2]) == 'n')
			return 0;
		if (!strncasecmp(attrs + i, "javascript:", alen - i < 11 ? alen - i : 11))
			return 0;
	}
	for (t = html_tags; *t; t++)
		if (strlen(*t) == n && !strncmp(tag, *t, n))
			return 1;
	return 0;
}

int fuzz_html_valid(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *name, *gt;
	size_t n;

	if (len < 15 || strncmp(buf, "<!DOCTYPE html>", 15))
		return 0;
	for (p = buf + 15; (p = memchr(p, '<', (size_t)(end - p))); p = gt + 1) {
		gt = memchr(p, '>', (size_t)(end - p));
		if (!gt)
			return 0;
		name = p + 1 + (p[1] == '/');
		for (n = 0; name + n < gt && (isalnum((unsigned char)name[n])); n++)
			;
		if (!html_tag_ok(name, n, name + n, (size_t)(gt - name - n)))
			return 0;
	}
	return 1;
}

/* A renderer's output to memory, then @valid on it; aborts if it is not. */
typedef int (*render_fn)(const void *doc, const struct report_view *v, FILE *out);

static void render_checked(render_fn render, const void *doc, const struct report_view *v,
			   int (*valid)(const char *, size_t), const char *what)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		abort();
	ret = render(doc, v, f);
	if (fclose(f))
		abort();
	if (!ret && valid && !valid(buf, len)) {
		fprintf(stderr, "fuzz: %s output not valid:\n%.*s\n", what,
			(int)(len > 4096 ? 4096 : len), buf);
		abort();
	}
	free(buf);
}

static int text_report(const void *r, const struct report_view *v, FILE *out)
{
	return render_text(r, v, out);
}

static int json_report(const void *r, const struct report_view *v, FILE *out)
{
	return render_json(r, v, out);
}

static int html_report(const void *r, const struct report_view *v, FILE *out)
{
	return render_html(r, v, out);
}

static int text_diff(const void *d, const struct report_view *v, FILE *out)
{
	return render_diff_text(d, v, out);
}

static int json_diff(const void *d, const struct report_view *v, FILE *out)
{
	return render_diff_json(d, v, out);
}

static int html_diff(const void *d, const struct report_view *v, FILE *out)
{
	return render_diff_html(d, v, out);
}

void fuzz_report(const char *path, const char *symfs)
{
	struct report_config cfg = { .symfs = symfs };
	struct report_view view = { .summary = 1, .top = 5 };
	struct error err = { 0 };
	struct report *r;

	r = report_run(path, &cfg, &err);
	if (!r)
		return;
	render_checked(text_report, r, &view, NULL, "report text");
	view.summary = 0;
	view.sections = ~0u;
	render_checked(text_report, r, &view, NULL, "report text");
	render_checked(json_report, r, &view, fuzz_json_valid, "report JSON");
	render_checked(html_report, r, &view, fuzz_html_valid, "report HTML");
	report_free(r);
}

void fuzz_diff(const char *path, const char *symfs)
{
	struct diff_config cfg = { .report = { .symfs = symfs } };
	struct report_view view = { .summary = 1, .top = 5 };
	struct error err = { 0 };
	struct diff *d = diff_run(path, path, &cfg, &err);

	if (!d)
		return;
	render_checked(text_diff, d, &view, NULL, "diff text");
	render_checked(json_diff, d, &view, fuzz_json_valid, "diff JSON");
	render_checked(html_diff, d, &view, fuzz_html_valid, "diff HTML");
	diff_free(d);
}
