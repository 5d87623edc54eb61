// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof dump: every record of a capture, decoded, in global time order;
 * text, or NDJSON with --json.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "capture/input.h"
#include "cmd/cmd.h"
#include "decode/merge.h"
#include "decode/record.h"
#include "symbols/symbolizer-capture.h"
#include "util/text.h"

struct dump_opts {
	int json;
	int quiet;
	int symbolize;
	const char *symfs;
};

enum { OPT_JSON = OPTS_LONG_ONLY, OPT_SYMBOLIZE, OPT_SYMFS };

static const struct opt dump_opts_table[] = {
	{ "json", OPT_JSON, NULL, "one JSON object per line (NDJSON)" },
	{ "symbolize", OPT_SYMBOLIZE, NULL, "print sample stacks with function names" },
	{ "symfs", OPT_SYMFS, "DIR", "look for binaries under DIR (recorded paths appended)" },
	{ "quiet", 'q', NULL, "no loss summary on stderr" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts dump_cmd = {
	.cmd = "dump",
	.summary = "print every record of a capture, decoded, in time order",
	.synopsis = "[--json] [--symbolize [--symfs DIR]] [-q] DIR|FILE",
	.description =
		"Print every record of a capture, decoded, in global time order.\n"
		"DIR is a raw dump directory (cpuN files taken with cat, plus meta,\n"
		"stats and a copy of /proc/kallsyms).",
	.examples =
		"Every record, with sample stacks named:\n"
		"$ ktprof dump --symbolize cap.ktp | less\n"
		"As NDJSON, for scripts:\n"
		"$ ktprof dump --json cap.ktp > cap.ndjson\n",
	.opts = dump_opts_table,
};

static void text_u64(void *ctx, const char *key, uint64_t v)
{
	fprintf(ctx, " %s=%" PRIu64, key, v);
}

static void text_s64(void *ctx, const char *key, int64_t v)
{
	fprintf(ctx, " %s=%" PRId64, key, v);
}

static void text_hex(void *ctx, const char *key, uint64_t v)
{
	fprintf(ctx, " %s=0x%" PRIx64, key, v);
}

/* Names come from the capture: escaped, as --json does (util/text.h). */
static void text_str(void *ctx, const char *key, const char *v)
{
	fprintf(ctx, " %s=", key);
	text_fputs(v, ctx);
}

static const struct record_sink text_sink = {
	text_u64, text_s64, text_hex, text_str,
};

static void json_u64(void *ctx, const char *key, uint64_t v)
{
	fprintf(ctx, ",\"%s\":%" PRIu64, key, v);
}

static void json_s64(void *ctx, const char *key, int64_t v)
{
	fprintf(ctx, ",\"%s\":%" PRId64, key, v);
}

static void json_hex(void *ctx, const char *key, uint64_t v)
{
	fprintf(ctx, ",\"%s\":\"0x%" PRIx64 "\"", key, v);
}

static void json_escape(FILE *f, const char *v)
{
	for (; *v; v++) {
		unsigned char c = *v;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
}

static void json_str(void *ctx, const char *key, const char *v)
{
	FILE *f = ctx;

	fprintf(f, ",\"%s\":\"", key);
	json_escape(f, v);
	fputc('"', f);
}

static const struct record_sink json_sink = {
	json_u64, json_s64, json_hex, json_str,
};

static const char *type_name(const struct event *ev, char *buf, size_t len)
{
	const char *name = event_type_name(ev->type);

	if (name)
		return name;
	snprintf(buf, len, "type%u", ev->type);
	return buf;
}

/* One stack of a sample, symbolized: text lines or a JSON array. */
static void print_stack(FILE *out, struct symbolizer *sym, uint32_t pid,
			const uint8_t *ips, unsigned int n, int kernel, int json,
			const char *key)
{
	unsigned int i;

	if (json)
		fprintf(out, ",\"%s\":[", key);
	for (i = 0; i < n; i++) {
		struct frame f;
		char buf[512];
		uint64_t ip;

		memcpy(&ip, ips + 8 * i, 8);
		symbolizer_frame(sym, pid, ip, kernel, &f);
		frame_str(&f, 1, buf, sizeof(buf));
		if (json) {
			fprintf(out, "%s\"", i ? "," : "");
			json_escape(out, buf);
			if (!kernel && f.resolved) {
				fputs(" (", out);
				json_escape(out, f.object);
				fputc(')', out);
			}
			fputc('"', out);
		} else {
			fprintf(out, "\t%16" PRIx64 " ", ip);
			text_fputs(buf, out);
			if (!kernel && f.resolved) {
				fputs(" (", out);
				text_fputs(f.object, out);
				fputc(')', out);
			}
			fputc('\n', out);
		}
	}
	if (json)
		fputc(']', out);
}

static void print_sample_stacks(FILE *out, struct symbolizer *sym,
				const struct event *ev, int json)
{
	struct ktp_sample r;
	const uint8_t *ips = (const uint8_t *)ev->rec + sizeof(r);

	memcpy(&r, ev->rec, sizeof(r));
	print_stack(out, sym, r.pid, ips, r.nr_kernel, 1, json, "kframes");
	print_stack(out, sym, r.pid, ips + 8 * r.nr_kernel, r.nr_user, 0, json,
		    "uframes");
}

static void print_event(FILE *out, const struct event *ev, int json,
			struct symbolizer *sym)
{
	char tbuf[16];
	const char *name = type_name(ev, tbuf, sizeof(tbuf));
	int stacks = sym && ev->type == KTP_REC_SAMPLE;

	if (json) {
		fprintf(out, "{\"ts\":%" PRIu64 ",\"cpu\":%u,\"type\":\"%s\"",
			ev->ts, ev->cpu, name);
		record_fields(ev, &json_sink, out);
		if (stacks)
			print_sample_stacks(out, sym, ev, 1);
		fputs("}\n", out);
	} else {
		fprintf(out, "%6" PRIu64 ".%09" PRIu64 " [%03u] %-14s",
			ev->ts / 1000000000, ev->ts % 1000000000, ev->cpu, name);
		record_fields(ev, &text_sink, out);
		fputc('\n', out);
		if (stacks)
			print_sample_stacks(out, sym, ev, 0);
	}
}

/* Loss and damage go to stderr: they must never pass unnoticed. */
static void print_summary(const struct merge *m)
{
	unsigned int i;

	for (i = 0; i < merge_nr_inputs(m); i++) {
		const struct relay_decoder *d = merge_decoder(m, i);
		const struct relay_decoder_stats *st = relay_decoder_stats(d);

		if (st->lost || st->lost_subbufs || st->garbage_bytes ||
		    st->truncated)
			fprintf(stderr,
				"ktprof dump: cpu %d: %" PRIu64 " records lost in the kernel, %" PRIu64
				" sub-buffers missing, %" PRIu64
				" bytes skipped as invalid, %" PRIu64 " bytes truncated\n",
				relay_decoder_cpu(d), st->lost, st->lost_subbufs,
				st->garbage_bytes, st->truncated);
	}
}

int cmd_dump(int argc, char **argv)
{
	struct dump_opts opt = { 0 };
	struct opts_parser p = { 0 };
	struct error err = { 0 };
	static char outbuf[1 << 16];
	struct symbolizer *sym = NULL;
	struct input *in;
	struct event ev;
	struct merge *m;
	int c, ret;

	while ((c = opts_next(&dump_cmd, &p, argc, argv)) != -1) {
		switch (c) {
		case OPT_JSON:
			opt.json = 1;
			break;
		case 'q':
			opt.quiet = 1;
			break;
		case OPT_SYMBOLIZE:
			opt.symbolize = 1;
			break;
		case OPT_SYMFS:
			opt.symfs = optarg;
			break;
		default:
			return cmd_usage(&dump_cmd, c);
		}
	}
	if (optind != argc - 1)
		return cmd_usage(&dump_cmd, '?');
	in = cmd_input_open("dump", argv[optind]);
	if (!in)
		return 1;
	if (opt.symbolize) {
		sym = symbolizer_for_capture(argv[optind], in, opt.symfs, &err);
		if (!sym) {
			cmd_error("dump", "%s", error_msg(&err));
			input_close(in);
			return 1;
		}
		if (!symbolizer_has_kallsyms(sym))
			fprintf(stderr, "ktprof dump: no kallsyms snapshot: kernel frames stay addresses\n");
	}
	m = merge_new();
	if (!m || input_add_streams(in, m)) {
		fprintf(stderr, "ktprof dump: %s\n", strerror(ENOMEM));
		merge_free(m);
		symbolizer_free(sym);
		input_close(in);
		return 1;
	}
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	while ((ret = merge_next(m, &ev)) > 0) {
		if (sym)
			symbolizer_on_event(sym, &ev);
		print_event(stdout, &ev, opt.json, sym);
	}
	/* Records before the summary, when both go to a terminal. */
	fflush(stdout);
	if (sym)
		cmd_symbol_files("dump", sym);
	if (ret < 0)
		fprintf(stderr, "ktprof dump: reading %s: %s\n", argv[optind],
			ret == -EBADMSG ? input_problem(in) : strerror(-ret));
	else if (!opt.quiet)
		print_summary(m);
	if (ret >= 0)
		ret = -cmd_input_truncation("dump", in, argv[optind]);
	merge_free(m);
	symbolizer_free(sym);
	input_close(in);
	return ret < 0 ? 1 : 0;
}
