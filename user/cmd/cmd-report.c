// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof report: analysis of a capture. For now the CPU profile (--profile):
 * top symbols by self and total samples, overall and per process, and
 * folded stacks for flame graph tools (--folded).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/input.h"
#include "cmd/cmd.h"
#include "decode/merge.h"
#include "decode/task-table.h"
#include "report/profile.h"
#include "symbols/symbolizer-capture.h"

struct report_opts {
	int profile;
	int folded;
	unsigned int top;
	int source;
	uint32_t pid;
	const char *symfs;
};

enum { OPT_PROFILE = OPTS_LONG_ONLY, OPT_FOLDED, OPT_TOP, OPT_SOURCE, OPT_SYMFS };

static const struct opt report_opts_table[] = {
	{ "profile", OPT_PROFILE, NULL, "CPU profile: top symbols by self and total samples,\n"
		"with count and % of samples, overall and per process" },
	{ "folded", OPT_FOLDED, NULL, "folded stacks (comm;root;...;leaf COUNT) instead" },
	{ "top", OPT_TOP, "N", "symbols per table (default 20)" },
	{ "pid", 'p', "PID", "only this process (thread group id)" },
	{ "source", OPT_SOURCE, "N", "only sample source N (default 0; -1: all)" },
	{ "symfs", OPT_SYMFS, "DIR", "look for binaries under DIR (recorded paths appended)" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts report_cmd = {
	.cmd = "report",
	.summary = "analyse a capture (--profile: CPU profile)",
	.synopsis = "--profile [--folded] [--top N] [-p PID] [--source N]\n"
		"[--symfs DIR] DIR|FILE",
	.description = "Analyse a capture.",
	.opts = report_opts_table,
};

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

static void print_table(FILE *out, const struct profile *p, int64_t tgid,
			uint64_t samples, unsigned int top)
{
	struct profile_row *rows;
	unsigned int n = profile_rows(p, tgid, &rows), i;

	fprintf(out, "  %8s %6s %8s %6s  %s\n", "self", "self%", "total",
		"total%", "symbol");
	for (i = 0; i < n && i < top; i++)
		fprintf(out, "  %8" PRIu64 " %5.1f%% %8" PRIu64 " %5.1f%%  %s\n",
			rows[i].self, pct(rows[i].self, samples), rows[i].total,
			pct(rows[i].total, samples), rows[i].symbol);
	free(rows);
}

static void print_profile(FILE *out, const struct profile *p,
			  const struct task_table *tasks,
			  const struct meta *meta, unsigned int top)
{
	uint64_t total = profile_samples(p), *samples;
	uint32_t *pids;
	unsigned int n = profile_processes(p, &pids, &samples), i;

	fprintf(out, "CPU profile: %" PRIu64 " samples", total);
	if (meta && meta->samples[0])
		fprintf(out, " of %s", meta->samples);
	fprintf(out, ", %u processes\n\n", n);
	fprintf(out, "all processes, top %u symbols:\n", top);
	print_table(out, p, -1, total, top);
	for (i = 0; i < n; i++) {
		char comm[32];

		fprintf(out, "\nprocess %u %s: %" PRIu64 " samples (%.1f%%)\n",
			pids[i], task_table_comm(tasks, pids[i], comm, sizeof(comm)),
			samples[i], pct(samples[i], total));
		print_table(out, p, pids[i], samples[i], top);
	}
	free(pids);
	free(samples);
}

int cmd_report(int argc, char **argv)
{
	struct report_opts opt = { .top = 20, .source = 0 };
	struct opts_parser p = { 0 };
	struct error err = { 0 };
	struct symbolizer *sym = NULL;
	struct profile *prof = NULL;
	struct task_table tasks;
	struct input *in;
	struct event ev;
	struct merge *m = NULL;
	char *end;
	int c, ret = 1;

	while ((c = opts_next(&report_cmd, &p, argc, argv)) != -1) {
		switch (c) {
		case OPT_PROFILE:
			opt.profile = 1;
			break;
		case OPT_FOLDED:
			opt.folded = 1;
			break;
		case OPT_TOP:
			opt.top = strtoul(optarg, &end, 10);
			if (*end || !opt.top) {
				fprintf(stderr, "ktprof report: --top wants a positive number\n");
				return 2;
			}
			break;
		case OPT_SOURCE:
			opt.source = strtol(optarg, &end, 10);
			if (*end || opt.source < -1 || opt.source > 255) {
				fprintf(stderr, "ktprof report: --source wants 0..255 or -1\n");
				return 2;
			}
			break;
		case 'p':
			opt.pid = strtoul(optarg, &end, 10);
			if (*end || !opt.pid) {
				fprintf(stderr, "ktprof report: -p wants a process id\n");
				return 2;
			}
			break;
		case OPT_SYMFS:
			opt.symfs = optarg;
			break;
		default:
			return cmd_usage(&report_cmd, c);
		}
	}
	if (optind != argc - 1)
		return cmd_usage(&report_cmd, '?');
	if (!opt.profile) {
		fprintf(stderr, "ktprof report: only the CPU profile exists so far: use --profile\n");
		return 2;
	}
	in = cmd_input_open("report", argv[optind]);
	if (!in)
		return 1;
	task_table_init(&tasks);
	sym = symbolizer_for_capture(argv[optind], in, opt.symfs, &err);
	if (!sym) {
		cmd_error("report", "%s", error_msg(&err));
		goto out;
	}
	prof = profile_new(sym, &tasks, opt.source, opt.pid);
	m = merge_new();
	if (!prof || !m || input_add_streams(in, m)) {
		fprintf(stderr, "ktprof report: %s\n", strerror(ENOMEM));
		goto out;
	}
	while ((c = merge_next(m, &ev)) > 0) {
		if (symbolizer_on_event(sym, &ev) || task_table_on_event(&tasks, &ev) ||
		    profile_on_event(prof, &ev)) {
			c = -ENOMEM;
			break;
		}
	}
	if (c < 0) {
		fprintf(stderr, "ktprof report: reading %s: %s\n", argv[optind],
			c == -EBADMSG ? input_problem(in) : strerror(-c));
		goto out;
	}
	if (!symbolizer_has_kallsyms(sym))
		fprintf(stderr, "ktprof report: no kallsyms snapshot: kernel frames stay addresses\n");
	if (symbolizer_mismatched(sym))
		fprintf(stderr, "ktprof report: %u binaries differ from the ones that ran (build id): their frames stay unresolved\n",
			symbolizer_mismatched(sym));
	if (opt.folded)
		profile_write_folded(prof, stdout);
	else
		print_profile(stdout, prof, &tasks, input_meta(in), opt.top);
	ret = cmd_input_truncation("report", in, argv[optind]);
out:
	merge_free(m);
	profile_free(prof);
	symbolizer_free(sym);
	task_table_free(&tasks);
	input_close(in);
	return ret;
}
