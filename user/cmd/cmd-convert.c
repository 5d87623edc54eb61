// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof convert: a capture (or raw dump directory) to a Perfetto trace,
 * for ui.perfetto.dev or trace_processor.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "perfetto/convert.h"

enum { OPT_VIEW = OPTS_LONG_ONLY, OPT_NO_SYMBOLS, OPT_SYMFS };

static const struct opt convert_opts_table[] = {
	{ "output", 'o', "OUT", "output file (default: the input's name + .pftrace);\n"
		"a name ending in .gz is gzip-compressed" },
	{ "view", OPT_VIEW, "LIST", "any of sched,threads,samples (default: all)\n"
		"  sched:   per-CPU scheduler tracks, process tree\n"
		"  threads: a track per thread with on-CPU slices,\n"
		"           wakeup and preemption flows; per-CPU IRQ,\n"
		"           softirq, IPI, workqueue and loss tracks\n"
		"  samples: CPU samples with symbolized callstacks" },
	FILTER_OPTS,
	{ "no-symbols", OPT_NO_SYMBOLS, NULL, "leave sample frames as object+offset (faster)" },
	{ "symfs", OPT_SYMFS, "DIR", "look for binaries under DIR (recorded paths appended)" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts convert_cmd = {
	.cmd = "convert",
	.summary = "write a Perfetto trace (scheduler, threads, samples)",
	.synopsis = "[-o OUT] [--view LIST] [--from T] [--to T]\n"
		"[-p PID]... [--tid TID]... [--comm NAME] [--no-symbols]\n"
		"[--symfs DIR] DIR|FILE",
	.description =
		"Write a Perfetto trace (open it in https://ui.perfetto.dev or with\n"
		"trace_processor) from a capture file, a raw dump directory or a\n"
		"trace-cmd trace.dat. -p and\n"
		"--comm select the thread tracks and samples; the sched view stays whole.",
	.examples =
		"A Perfetto trace of one process, gzip-compressed:\n"
		"$ ktprof convert -p 1234 -o cap.pftrace.gz cap.ktp\n",
	.opts = convert_opts_table,
};

struct convert_opts {
	struct convert_config opt;
	struct filter filter;
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
	struct error err = { 0 };
	int c, ret;

	a->opt.view_sched = a->opt.view_threads = a->opt.view_samples = 1;
	a->opt.symbols = 1;
	while ((c = opts_next(&convert_cmd, &p, argc, argv)) != -1) {
		ret = filter_take(&a->filter, c, optarg, &err);
		if (ret < 0) {
			cmd_error("convert", "%s", error_msg(&err));
			return 2;
		}
		if (ret)
			continue;
		switch (c) {
		case 'o':
			a->out = optarg;
			break;
		case OPT_VIEW:
			if (parse_views(optarg, &a->opt))
				return 2;
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
	if (filter_check(&a->filter, &err)) {
		cmd_error("convert", "%s", error_msg(&err));
		return 2;
	}
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

static void warn_symbols(struct symbolizer *sym)
{
	if (!symbolizer_has_kallsyms(sym))
		fprintf(stderr, "ktprof convert: no kallsyms snapshot: kernel frames stay addresses\n");
	cmd_symbol_files("convert", sym);
}

static struct model *open_model(const struct convert_opts *a)
{
	struct model_config mc = {
		.filter = a->filter, .sched = 1, .symfs = a->symfs, .session_cpus = 1,
		/*
		 * Samples need the FILE records first, and so do the threads
		 * view's off-CPU stacks when they have user frames (-S user);
		 * the CPU view only kallsyms.
		 */
		.symbols = a->opt.view_samples ? MODEL_SYMBOLS_ALL :
			a->opt.view_threads ? MODEL_SYMBOLS_SAMPLED : MODEL_SYMBOLS_KERNEL,
	};
	struct error err = { 0 };
	struct model *m = model_open(a->in, &mc, &err);

	if (!m)
		cmd_error("convert", "%s", error_msg(&err));
	return m;
}

int cmd_convert(int argc, char **argv)
{
	struct convert_opts a = { 0 };
	struct convert_ctx ctx = { 0 };
	struct model *m = NULL;
	struct pf_out *out = NULL;
	struct error err = { 0 };
	char *out_name = NULL;
	int ret = 1, rc;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? 0 : rc;
	out_name = a.out ? strdup(a.out) : default_output(a.in);
	if (!out_name) {
		cmd_error("convert", "%s", strerror(ENOMEM));
		goto out;
	}
	if (cmd_same_file(out_name, a.in)) {
		cmd_error("convert", "%s is the input", out_name);
		goto out;
	}
	m = open_model(&a);
	if (!m)
		goto out;
	out = pf_out_open(out_name);
	if (!out) {
		cmd_error("convert", "%s: %s", out_name, error_str(errno));
		goto out;
	}
	ctx.out = out;
	ctx.model = m;
	ctx.meta = m->have_meta ? &m->meta : NULL;
	ctx.opt = a.opt;
	ctx.nr_cpus = m->nr_cpus;
	rc = convert_run(&ctx, &err);
	if (rc) {
		cmd_error("convert", "%s", rc == -EBADMSG || !err.msg[0] ?
			  error_msg(&err) : error_msg(&err));
		goto out;
	}
	rc = pf_out_close(out);
	out = NULL;
	if (rc) {
		cmd_error("convert", "%s: %s", out_name, error_str(rc));
		goto out;
	}
	if (a.opt.view_samples && a.opt.symbols)
		warn_symbols(m->sym);
	if (m->lost_seen)
		cmd_error("convert", "the kernel lost %" PRIu64 " records; the trace marks where",
			  m->lost_seen);
	if (m->outside_cpus)
		cmd_error("convert", "%" PRIu64 " events of CPUs beyond the session's %u skipped",
			  m->outside_cpus, m->nr_cpus);
	cmd_error("convert", "wrote %s from %" PRIu64 " events", out_name, m->events);
	ret = cmd_input_truncation("convert", m->in, a.in);
out:
	if (out)
		pf_out_abort(out);
	model_close(m);
	free(out_name);
	return ret;
}
