// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof report: the scheduler analyses of a capture (CPUs, runtime,
 * latency, task states, migrations, preemption, wakers, interrupts,
 * findings, outliers) and its CPU profile, as text, JSON or an HTML page.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "report/render.h"
#include "report/report.h"
#include "util/units.h"

enum {
	OPT_CPU = OPTS_LONG_ONLY, OPT_RUNTIME, OPT_LATENCY, OPT_STATES, OPT_MIGRATIONS,
	OPT_PREEMPTION, OPT_WAKERS, OPT_IRQ, OPT_FINDINGS, OPT_OUTLIERS, OPT_PROFILE,
	OPT_FOLDED, OPT_JSON, OPT_HTML, OPT_TOP, OPT_FROM, OPT_TO, OPT_COMM,
	OPT_METHOD, OPT_THRESHOLD, OPT_SOURCE, OPT_SYMFS,
};

static const struct opt report_opts_table[] = {
	{ "cpu", OPT_CPU, NULL, "per CPU: busy, idle, utilization, irq time,\n"
		"switches/s, migrations in and out" },
	{ "runtime", OPT_RUNTIME, NULL, "per thread and process: runtime, % of a CPU and\n"
		"of the machine, voluntary/involuntary switches" },
	{ "latency", OPT_LATENCY, NULL, "wakeup and runqueue latency distributions, per\n"
		"thread, process, CPU and overall" },
	{ "states", OPT_STATES, NULL, "time running, runnable, sleeping (S), blocked (D),\n"
		"other, per thread" },
	{ "migrations", OPT_MIGRATIONS, NULL, "same-LLC, cross-LLC and cross-NUMA\n"
		"migrations per thread and CPU pair" },
	{ "preemption", OPT_PREEMPTION, NULL, "(preemptor, preempted) pairs" },
	{ "wakers", OPT_WAKERS, NULL, "waker -> wakee edges with the wakee's latency" },
	{ "irq", OPT_IRQ, NULL, "hardirq, softirq, work item and IPI time per CPU\n"
		"and per handler, with duration distributions" },
	{ "findings", OPT_FINDINGS, NULL, "rule-based bottlenecks (see --threshold)" },
	{ "outliers", OPT_OUTLIERS, NULL, "outlying threads and CPUs (see --method)" },
	{ "profile", OPT_PROFILE, NULL, "CPU profile: top symbols by self and total samples,\n"
		"overall and per process" },
	{ "folded", OPT_FOLDED, NULL, "with --profile: folded stacks (comm;root;...;leaf N)" },
	{ "json", OPT_JSON, NULL, "one JSON document (schema: docs/report.md)" },
	{ "html", OPT_HTML, "FILE", "a self-contained HTML page with plots" },
	{ "top", OPT_TOP, "N", "rows per table (default 20; 5 in the summary)" },
	{ "from", OPT_FROM, "T", "start T after the capture began (500ms, 2s, ...)" },
	{ "to", OPT_TO, "T", "end T after the capture began" },
	{ "pid", 'p', "PID", "only this process (repeatable); per-CPU figures\n"
		"stay whole" },
	{ "comm", OPT_COMM, "NAME", "only processes whose main thread was NAME" },
	{ "cpus", 'C', "LIST", "only these CPUs, e.g. 0-3,6" },
	{ "method", OPT_METHOD, "M", "outliers by iqr (default) or mad" },
	{ "threshold", OPT_THRESHOLD, "RULE=V", "a finding's threshold (repeatable): loss,\n"
		"runqueue (ms, 10), wakeup (ms, 5), cpu-busy (%, 95),\n"
		"imbalance (points, 40), irq (%, 10), migrations\n"
		"(/s, 100), preempted (/s, 200), min-samples (10)" },
	{ "source", OPT_SOURCE, "N", "profile sample source N (default 0; -1: all)" },
	{ "symfs", OPT_SYMFS, "DIR", "look for binaries under DIR (recorded paths appended)" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts report_cmd = {
	.cmd = "report",
	.summary = "analyse a capture: CPUs, latency, states, findings, profile",
	.synopsis = "[SECTION...] [--json | --html FILE] [--top N] [--from T]\n"
		"[--to T] [-p PID]... [--comm NAME] [-C CPUS] DIR|FILE",
	.description =
		"Analyse a capture file or raw dump directory. SECTION is any of the\n"
		"options from --cpu to --profile; without one, a summary of them all.\n"
		"Definitions of every figure: docs/report.md. Time the capture lost\n"
		"(records lost, CPUs offline) is left out of every figure; the report\n"
		"says how much, per CPU, at the top.",
	.examples =
		"A summary of every analysis:\n"
		"$ ktprof report cap.ktp\n"
		"Wakeup and runqueue latency, 10 rows per table:\n"
		"$ ktprof report --latency --top 10 cap.ktp\n"
		"Folded stacks for a flame graph:\n"
		"$ ktprof report --profile --folded cap.ktp > cap.folded\n"
		"Everything as JSON, or as a page with plots:\n"
		"$ ktprof report --json cap.ktp > report.json\n"
		"$ ktprof report --html report.html cap.ktp\n",
	.opts = report_opts_table,
};

struct report_opts {
	struct report_config cfg;
	struct report_view view;
	int json, folded;
	const char *html;
	uint32_t pids[REPORT_MAX_PIDS];
	const char *path;
};

static int bad(const char *what, const char *arg)
{
	cmd_error("report", "%s '%s'", what, arg);
	return 2;
}

static int take_number(const char *arg, long min, long max, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(arg, &end, 10);
	return *end || end == arg || errno || *v < min || *v > max ? -EINVAL : 0;
}

/* One option; 0, or 2 after saying why. */
static int take_opt(struct report_opts *o, int key, const char *arg)
{
	static const int sections[] = {
		[OPT_CPU - OPTS_LONG_ONLY] = SECTION_CPU,
		[OPT_RUNTIME - OPTS_LONG_ONLY] = SECTION_RUNTIME,
		[OPT_LATENCY - OPTS_LONG_ONLY] = SECTION_LATENCY,
		[OPT_STATES - OPTS_LONG_ONLY] = SECTION_STATES,
		[OPT_MIGRATIONS - OPTS_LONG_ONLY] = SECTION_MIGRATIONS,
		[OPT_PREEMPTION - OPTS_LONG_ONLY] = SECTION_PREEMPTION,
		[OPT_WAKERS - OPTS_LONG_ONLY] = SECTION_WAKERS,
		[OPT_IRQ - OPTS_LONG_ONLY] = SECTION_IRQ,
		[OPT_FINDINGS - OPTS_LONG_ONLY] = SECTION_FINDINGS,
		[OPT_OUTLIERS - OPTS_LONG_ONLY] = SECTION_OUTLIERS,
		[OPT_PROFILE - OPTS_LONG_ONLY] = SECTION_PROFILE,
	};
	long v;

	if (key >= OPT_CPU && key <= OPT_PROFILE) {
		o->view.sections |= sections[key - OPTS_LONG_ONLY];
		return 0;
	}
	switch (key) {
	case OPT_FOLDED:
		o->folded = 1;
		return 0;
	case OPT_JSON:
		o->json = 1;
		return 0;
	case OPT_HTML:
		o->html = arg;
		return 0;
	case OPT_TOP:
		if (take_number(arg, 1, INT_MAX, &v))
			return bad("--top wants a positive number, not", arg);
		o->view.top = v;
		return 0;
	case OPT_FROM:
	case OPT_TO:
		if (units_parse_duration(arg, key == OPT_FROM ? &o->cfg.from_rel : &o->cfg.to_rel))
			return bad(key == OPT_FROM ? "--from wants a duration (500ms, 2s, ...), not" :
				   "--to wants a duration (500ms, 2s, ...), not", arg);
		*(key == OPT_FROM ? &o->cfg.have_from : &o->cfg.have_to) = 1;
		return 0;
	case 'p':
		if (take_number(arg, 1, INT_MAX, &v))
			return bad("-p wants a process id, not", arg);
		if (o->cfg.nr_pids == REPORT_MAX_PIDS)
			return bad("too many -p options; the most is 64, at", arg);
		o->pids[o->cfg.nr_pids++] = v;
		return 0;
	case OPT_COMM:
		if (!*arg || strlen(arg) >= KTP_COMM_LEN)
			return bad("--comm wants a name of 1 to 15 characters, not", arg);
		o->cfg.comm = arg;
		return 0;
	case 'C':
		o->cfg.cpus = arg;
		return 0;
	case OPT_METHOD:
		if (strcmp(arg, "iqr") && strcmp(arg, "mad"))
			return bad("--method is iqr or mad, not", arg);
		o->cfg.findings.method = strcmp(arg, "mad") ? OUTLIER_IQR : OUTLIER_MAD;
		return 0;
	case OPT_THRESHOLD:
		if (findings_parse_threshold(&o->cfg.findings, arg))
			return bad("--threshold wants RULE=VALUE with a rule of --help, not", arg);
		return 0;
	case OPT_SOURCE:
		if (take_number(arg, -1, 255, &v))
			return bad("--source wants 0..255 or -1, not", arg);
		o->cfg.source = v;
		return 0;
	case OPT_SYMFS:
		o->cfg.symfs = arg;
		return 0;
	}
	return cmd_usage(&report_cmd, key);
}

/* 0; -1 after --help; 2 (usage) after saying why. */
static int parse_args(int argc, char **argv, struct report_opts *o)
{
	struct opts_parser p = { 0 };
	int c, ret;

	while ((c = opts_next(&report_cmd, &p, argc, argv)) != -1) {
		ret = take_opt(o, c, optarg);
		if (ret || c == 'h')
			return c == 'h' ? -1 : ret;
	}
	if (optind != argc - 1)
		return cmd_usage(&report_cmd, '?');
	o->path = argv[optind];
	if (o->json && o->html)
		return bad("choose one output form: --json or --html, not both;", "--html");
	if (o->folded && (o->view.sections != SECTION_PROFILE || o->json || o->html))
		return bad("--folded goes with --profile alone", "--folded");
	if (o->cfg.have_from && o->cfg.have_to && o->cfg.from_rel >= o->cfg.to_rel)
		return bad("--from must come before --to:", "--to");
	o->cfg.pids = o->pids;
	/* --profile asks for it; otherwise there is one when there are samples. */
	if (o->view.sections & SECTION_PROFILE)
		o->cfg.profile = 1;
	if (!o->view.sections) {
		o->view.sections = SECTION_ALL;
		o->view.summary = !o->json && !o->html;
	}
	return 0;
}

static void warn(const struct report *r)
{
	if (!r->sym || !r->profile)
		return;
	if (!symbolizer_has_kallsyms(r->sym))
		cmd_error("report", "no kallsyms snapshot: kernel frames stay addresses");
	cmd_symbol_files("report", r->sym);
}

struct html_ctx {
	const struct report *r;
	const struct report_view *v;
};

static int write_html(void *ctx, FILE *out)
{
	const struct html_ctx *h = ctx;

	return render_html(h->r, h->v, out);
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .cfg = { .source = 0, .symbols = 1 }, .view = { .top = 20 } };
	struct error err = { 0 };
	struct report *r;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	r = report_run(o.path, &o.cfg, &err);
	if (!r) {
		cmd_error("report", "%s", error_msg(&err));
		return err.code == -EINVAL ? 2 : 1;
	}
	warn(r);
	if (o.folded && r->profile)
		profile_write_folded(r->profile, stdout);
	else if (o.html)
		ret = cmd_write_file("report", o.html, write_html,
				     &(struct html_ctx){ r, &o.view });
	else if (o.json)
		ret = render_json(r, &o.view, stdout) ? 1 : 0;
	else
		ret = render_text(r, &o.view, stdout) ? 1 : 0;
	if (!ret && (r->truncated || r->damaged)) {
		cmd_error("report", "%s: %s%s; the report covers what was read before it",
			  o.path, r->damaged ? "damaged: " : "", r->problem);
		ret = 1;
	}
	report_free(r);
	return ret;
}
