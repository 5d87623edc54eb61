// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof report: analysis of a capture. For now the CPU profile (--profile):
 * top symbols by self and total samples, overall and per process, and
 * folded stacks for flame graph tools (--folded).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/input.h"
#include "cmd/commands.h"
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

static const char report_usage[] =
	"usage: ktprof report --profile [--folded] [--top N] [-p PID] [--source N]\n"
	"                     [--symfs DIR] DIR|FILE\n"
	"\n"
	"Analyse a capture.\n"
	"\n"
	"  --profile     CPU profile: top symbols by self and total samples,\n"
	"                with count and % of samples, overall and per process\n"
	"  --folded      folded stacks (comm;root;...;leaf COUNT) instead\n"
	"  --top N       symbols per table (default 20)\n"
	"  -p PID        only this process (thread group id)\n"
	"  --source N    only sample source N (default 0; -1: all)\n"
	"  --symfs DIR   look for binaries under DIR (recorded paths appended)\n"
	"  -h            this text\n";

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
	static const struct option longopts[] = {
		{ "profile", no_argument, NULL, 'P' },
		{ "folded", no_argument, NULL, 'f' },
		{ "top", required_argument, NULL, 't' },
		{ "source", required_argument, NULL, 's' },
		{ "symfs", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts opt = { .top = 20, .source = 0 };
	struct symbolizer *sym = NULL;
	struct profile *prof = NULL;
	struct task_table tasks;
	struct input *in;
	struct event ev;
	struct merge *m = NULL;
	char err[512], *end;
	int c, ret = 1;

	while ((c = getopt_long(argc, argv, "p:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'P':
			opt.profile = 1;
			break;
		case 'f':
			opt.folded = 1;
			break;
		case 't':
			opt.top = strtoul(optarg, &end, 10);
			if (*end || !opt.top) {
				fprintf(stderr, "ktprof report: --top wants a positive number\n");
				return 2;
			}
			break;
		case 's':
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
		case 'S':
			opt.symfs = optarg;
			break;
		case 'h':
			fputs(report_usage, stdout);
			return 0;
		default:
			fputs(report_usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fputs(report_usage, stderr);
		return 2;
	}
	if (!opt.profile) {
		fprintf(stderr, "ktprof report: only the CPU profile exists so far: use --profile\n");
		return 2;
	}
	in = input_open(argv[optind], err, sizeof(err));
	if (!in) {
		fprintf(stderr, "ktprof report: %s\n", err);
		return 1;
	}
	task_table_init(&tasks);
	sym = symbolizer_for_capture(argv[optind], in, opt.symfs, err, sizeof(err));
	if (!sym) {
		fprintf(stderr, "ktprof report: %s\n", err);
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
	ret = input_report_truncation(in, "report", argv[optind]);
out:
	merge_free(m);
	profile_free(prof);
	symbolizer_free(sym);
	task_table_free(&tasks);
	input_close(in);
	return ret;
}
