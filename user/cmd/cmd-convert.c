// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof convert: a capture (or raw dump directory) to a Perfetto trace,
 * for ui.perfetto.dev or trace_processor.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture/input.h"
#include "cmd/cmd.h"
#include "perfetto/convert.h"
#include "symbols/symbolizer-capture.h"
#include "util/units.h"

#define MAX_PIDS 64
#define MAX_CPUS 8192	/* more in a capture's metadata is damage */

enum { OPT_VIEW = OPTS_LONG_ONLY, OPT_FROM, OPT_TO, OPT_COMM, OPT_NO_SYMBOLS,
	OPT_SYMFS };

static const struct opt convert_opts_table[] = {
	{ "output", 'o', "OUT", "output file (default: the input's name + .pftrace);\n"
		"a name ending in .gz is gzip-compressed" },
	{ "view", OPT_VIEW, "LIST", "any of sched,threads,samples (default: all)\n"
		"  sched:   per-CPU scheduler tracks, process tree\n"
		"  threads: a track per thread with on-CPU slices,\n"
		"           wakeup and preemption flows; per-CPU IRQ,\n"
		"           softirq, IPI, workqueue and loss tracks\n"
		"  samples: CPU samples with symbolized callstacks" },
	{ "from", OPT_FROM, "T", "start T after the capture began (500ms, 2s, ...)" },
	{ "to", OPT_TO, "T", "end T after the capture began" },
	{ "pid", 'p', "PID", "thread tracks and samples of this process only\n"
		"(repeatable); the sched view stays whole" },
	{ "comm", OPT_COMM, "NAME", "same, for processes whose main thread is NAME" },
	{ "no-symbols", OPT_NO_SYMBOLS, NULL, "leave sample frames as object+offset (faster)" },
	{ "symfs", OPT_SYMFS, "DIR", "look for binaries under DIR (recorded paths appended)" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts convert_cmd = {
	.cmd = "convert",
	.summary = "write a Perfetto trace (scheduler, threads, samples)",
	.synopsis = "[-o OUT] [--view LIST] [--from T] [--to T]\n"
		"[-p PID]... [--comm NAME] [--no-symbols]\n"
		"[--symfs DIR] DIR|FILE",
	.description =
		"Write a Perfetto trace (open it in https://ui.perfetto.dev or with\n"
		"trace_processor) from a capture file or a raw dump directory.",
	.examples =
		"A Perfetto trace of one process, gzip-compressed:\n"
		"$ ktprof convert -p 1234 -o cap.pftrace.gz cap.ktp\n",
	.opts = convert_opts_table,
};

struct convert_opts {
	struct convert_config opt;
	uint32_t pids[MAX_PIDS];
	uint64_t from_rel, to_rel;
	int have_from, have_to;
	const char *out, *symfs, *in;
};

static int parse_views(const char *list, struct convert_config *o)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	o->view_sched = o->view_threads = o->view_samples = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "sched")) {
			o->view_sched = 1;
		} else if (!strcmp(tok, "threads")) {
			o->view_threads = 1;
		} else if (!strcmp(tok, "samples")) {
			o->view_samples = 1;
		} else {
			fprintf(stderr, "ktprof convert: unknown view '%s' (sched, threads, samples)\n",
				tok);
			ret = -EINVAL;
		}
	}
	free(copy);
	if (!ret && !o->view_sched && !o->view_threads && !o->view_samples) {
		fprintf(stderr, "ktprof convert: --view names no view\n");
		ret = -EINVAL;
	}
	return ret;
}

/* 0; -1 after --help; 2 (usage) after saying why. */
static int parse_args(int argc, char **argv, struct convert_opts *a)
{
	struct opts_parser p = { 0 };
	unsigned long pid;
	char *end;
	int c;

	a->opt.view_sched = a->opt.view_threads = a->opt.view_samples = 1;
	a->opt.symbols = 1;
	while ((c = opts_next(&convert_cmd, &p, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			a->out = optarg;
			break;
		case OPT_VIEW:
			if (parse_views(optarg, &a->opt))
				return 2;
			break;
		case OPT_FROM:
		case OPT_TO:
			if (units_parse_duration(optarg, c == OPT_FROM ? &a->from_rel : &a->to_rel)) {
				fprintf(stderr, "ktprof convert: --%s wants a duration (500ms, 2s, ...), not '%s'\n",
					c == OPT_FROM ? "from" : "to", optarg);
				return 2;
			}
			*(c == OPT_FROM ? &a->have_from : &a->have_to) = 1;
			break;
		case 'p':
			errno = 0;
			pid = strtoul(optarg, &end, 10);
			if (*end || !pid || pid > INT_MAX || errno) {
				fprintf(stderr, "ktprof convert: -p wants a process id, not '%s'\n",
					optarg);
				return 2;
			}
			if (a->opt.nr_pids == MAX_PIDS) {
				fprintf(stderr, "ktprof convert: at most %d -p options\n", MAX_PIDS);
				return 2;
			}
			a->pids[a->opt.nr_pids++] = pid;
			break;
		case OPT_COMM:
			if (!*optarg || strlen(optarg) >= KTP_COMM_LEN) {
				fprintf(stderr, "ktprof convert: --comm wants a name of 1 to %d characters\n",
					KTP_COMM_LEN - 1);
				return 2;
			}
			a->opt.comm = optarg;
			break;
		case OPT_NO_SYMBOLS:
			a->opt.symbols = 0;
			break;
		case OPT_SYMFS:
			a->symfs = optarg;
			break;
		default:
			c = cmd_usage(&convert_cmd, c);
			return c ? c : -1;
		}
	}
	if (optind != argc - 1)
		return cmd_usage(&convert_cmd, '?');
	if (a->have_from && a->have_to && a->from_rel >= a->to_rel) {
		fprintf(stderr, "ktprof convert: --from must come before --to\n");
		return 2;
	}
	a->opt.pids = a->pids;
	a->in = argv[optind];
	return 0;
}

/* "DIR/" or "x.ktp" -> "DIR.pftrace", "x.ktp.pftrace". */
static char *default_output(const char *in)
{
	size_t n = strlen(in);
	char *out;

	while (n > 1 && in[n - 1] == '/')
		n--;
	if (asprintf(&out, "%.*s.pftrace", (int)n, in) < 0)
		return NULL;
	return out;
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
		sa.st_ino == sb.st_ino;
}

/*
 * The window in CLOCK_BOOTTIME: relative to the session's start. A dump
 * without metadata has no start: refuse rather than guess.
 */
static int set_window(struct convert_opts *a, const struct meta *meta)
{
	if (!a->have_from && !a->have_to)
		return 0;
	if (!meta || !meta->have_session) {
		fprintf(stderr, "ktprof convert: --from/--to need the session's start time, and %s has no session metadata\n",
			a->in);
		return -EINVAL;
	}
	if (a->have_from)
		a->opt.from_ns = meta->clock_boot + a->from_rel;
	if (a->have_to)
		a->opt.to_ns = meta->clock_boot + a->to_rel;
	/* 0 means "open": a window from the very start is just that. */
	if (a->have_from && !a->opt.from_ns)
		a->opt.from_ns = 1;
	return 0;
}

static void warn_symbols(struct symbolizer *sym)
{
	if (!symbolizer_has_kallsyms(sym))
		fprintf(stderr, "ktprof convert: no kallsyms snapshot: kernel frames stay addresses\n");
	cmd_symbol_files("convert", sym);
}

int cmd_convert(int argc, char **argv)
{
	struct convert_opts a = { 0 };
	struct convert_ctx *ctx = NULL;
	struct convert_stats stats;
	struct symbolizer *sym = NULL;
	struct task_table tasks;
	struct input *in;
	struct merge *m = NULL;
	struct pf_out *out = NULL;
	struct error err = { 0 };
	char *out_name = NULL;
	int ret = 1, rc;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	in = cmd_input_open("convert", a.in);
	if (!in)
		return 1;
	task_table_init(&tasks);
	out_name = a.out ? strdup(a.out) : default_output(a.in);
	if (!out_name) {
		fprintf(stderr, "ktprof convert: %s\n", strerror(ENOMEM));
		goto out;
	}
	if (same_file(out_name, a.in)) {
		fprintf(stderr, "ktprof convert: %s is the input\n", out_name);
		goto out;
	}
	if (set_window(&a, input_meta(in)))
		goto out;
	if (input_nr_cpus(in) > MAX_CPUS) {
		fprintf(stderr, "ktprof convert: %s claims %u CPUs: damaged metadata?\n",
			a.in, input_nr_cpus(in));
		goto out;
	}
	/* Samples need the file records first; the other views only kallsyms. */
	if (a.opt.view_samples)
		sym = symbolizer_for_capture(a.in, in, a.symfs, &err);
	else
		sym = symbolizer_for_kernel(in, a.symfs, &err);
	if (!sym) {
		cmd_error("convert", "%s", error_msg(&err));
		goto out;
	}
	ctx = calloc(1, sizeof(*ctx));
	m = merge_new();
	if (!ctx || !m || input_add_streams(in, m)) {
		fprintf(stderr, "ktprof convert: %s\n", strerror(ENOMEM));
		goto out;
	}
	out = pf_out_open(out_name);
	if (!out) {
		fprintf(stderr, "ktprof convert: %s: %s\n", out_name, error_str(errno));
		goto out;
	}
	ctx->out = out;
	ctx->tasks = &tasks;
	ctx->sym = sym;
	ctx->meta = input_meta(in);
	ctx->opt = a.opt;
	ctx->nr_cpus = input_nr_cpus(in);
	rc = convert_run(ctx, m, &stats);
	if (rc) {
		fprintf(stderr, "ktprof convert: %s: %s\n", rc == -EBADMSG ? a.in : out_name,
			rc == -EBADMSG ? input_problem(in) : strerror(-rc));
		goto out;
	}
	rc = pf_out_close(out);
	out = NULL;
	if (rc) {
		fprintf(stderr, "ktprof convert: %s: %s\n", out_name, error_str(rc));
		goto out;
	}
	if (a.opt.view_samples && a.opt.symbols)
		warn_symbols(sym);
	if (stats.lost)
		fprintf(stderr, "ktprof convert: the kernel lost %" PRIu64 " records; the trace marks where\n",
			stats.lost);
	if (stats.outside_cpus)
		fprintf(stderr, "ktprof convert: %" PRIu64 " events of CPUs beyond the session's %u skipped\n",
			stats.outside_cpus, ctx->nr_cpus);
	fprintf(stderr, "ktprof convert: wrote %s from %" PRIu64 " events\n", out_name,
		stats.events);
	ret = cmd_input_truncation("convert", in, a.in);
out:
	if (out)
		pf_out_abort(out);
	free(ctx);
	merge_free(m);
	symbolizer_free(sym);
	task_table_fini(&tasks);
	input_close(in);
	free(out_name);
	return ret;
}
