// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof dump: every record of a capture, decoded, in global time order;
 * text, or NDJSON with --json.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "decode/record.h"
#include "model/event-json.h"
#include "model/model.h"
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
		"stats and a copy of /proc/kallsyms); FILE a capture file or a trace-cmd\n"
		"trace.dat, as its translation into records (ktprof import). A probe\n"
		"hit (record --probe)\n"
		"is named after its probe, its arguments by their names and types.",
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

/* A frame of a sample's stack: a line of its own. */
static void print_frame(void *ctx, uint64_t ip, int kernel, int first, const char *name,
			const char *object)
{
	FILE *out = ctx;

	(void)kernel, (void)first;
	fprintf(out, "\t%16" PRIx64 " ", ip);
	text_fputs(name, out);
	if (object) {
		fputs(" (", out);
		text_fputs(object, out);
		fputc(')', out);
	}
	fputc('\n', out);
}

struct printer {
	const struct dump_opts *opt;
	struct model *m;
};

static int print_event(void *ctx, const struct event *ev)
{
	const struct printer *p = ctx;
	struct symbolizer *sym = p->m->sym;
	char tbuf[16];

	if (p->opt->json) {
		event_json_write(stdout, ev, 0, 0, sym, &p->m->probes);
		fputc('\n', stdout);
		return 0;
	}
	printf("%6" PRIu64 ".%09" PRIu64 " [%03u] %-14s", ev->ts / 1000000000,
	       ev->ts % 1000000000, ev->cpu, event_json_type(ev, tbuf, sizeof(tbuf)));
	event_record_fields(ev, &p->m->probes, &text_sink, stdout);
	fputc('\n', stdout);
	if (sym && (ev->type == KTP_REC_SAMPLE || ev->type == KTP_REC_STACK))
		event_sample_frames(ev, sym, print_frame, stdout);
	return 0;
}

static const struct sched_ops printer_ops = { .event = print_event };

/* Loss and damage go to stderr: they must never pass unnoticed. */
static void print_summary(const struct model *m)
{
	unsigned int i;

	for (i = 0; i < m->nr_streams; i++) {
		const struct model_stream *st = &m->streams[i];

		if (st->lost || st->lost_subbufs || st->garbage_bytes || st->truncated)
			cmd_error("dump", "cpu %u: %" PRIu64 " records lost in the kernel, %" PRIu64
				  " sub-buffers missing, %" PRIu64
				  " bytes skipped as invalid, %" PRIu64 " bytes truncated",
				  st->cpu, st->lost, st->lost_subbufs, st->garbage_bytes,
				  st->truncated);
	}
}

int cmd_dump(int argc, char **argv)
{
	struct dump_opts opt = { 0 };
	struct printer pr = { .opt = &opt };
	struct model_config mc = { 0 };
	struct opts_parser p = { 0 };
	struct error err = { 0 };
	static char outbuf[1 << 16];
	struct model *m;
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
	mc.symbols = opt.symbolize ? MODEL_SYMBOLS_ALL : MODEL_SYMBOLS_NONE;
	mc.symfs = opt.symfs;
	m = model_open(argv[optind], &mc, &err);
	if (!m) {
		cmd_error("dump", "%s", error_msg(&err));
		return 1;
	}
	if (m->sym && !symbolizer_has_kallsyms(m->sym))
		cmd_error("dump", "no kallsyms snapshot: kernel frames stay addresses");
	pr.m = m;
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	ret = model_add_client(m, &printer_ops, &pr, 0);
	if (!ret)
		ret = model_run(m, &err);
	/* Records before the summary, when both go to a terminal. */
	fflush(stdout);
	if (m->sym)
		cmd_symbol_files("dump", m->sym);
	if (ret < 0)
		cmd_error("dump", "%s", error_msg(&err));
	else if (!opt.quiet)
		print_summary(m);
	if (ret >= 0)
		ret = -cmd_input_truncation("dump", m->in, argv[optind]);
	model_close(m);
	return ret < 0 ? 1 : 0;
}
