// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof report: the analyses of a capture (report/analyzers.c: each has
 * its option here), as text, JSON or an HTML page.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "report/analyze-offcpu.h"
#include "report/analyze-profile.h"
#include "report/render.h"
#include "report/report.h"

enum {
	OPT_FOLDED = OPTS_LONG_ONLY, OPT_METHOD, OPT_THRESHOLD,
	OPT_SOURCE, OPT_SYMFS,
	};

static const struct opt fixed_opts[] = {
	{ "folded", OPT_FOLDED, NULL, "with --profile or --offcpu: folded stacks\n"
		"(comm;root;...;leaf N: samples, or ns off the CPU)" },
	{ "json", CMD_KEY_JSON, NULL, "one JSON document (schema: docs/report.md)" },
	{ "html", CMD_KEY_HTML, "FILE", "a self-contained HTML page with plots" },
	{ "top", CMD_KEY_TOP, "N", "rows per table (default 20; 5 in the summary)" },
	FILTER_OPTS,
	FILTER_OPT_CPUS,
	{ "method", OPT_METHOD, "M", "outliers by iqr (default) or mad" },
	{ "threshold", OPT_THRESHOLD, "RULE=V", NULL },
	{ "source", OPT_SOURCE, "N", "profile sample source N (default 0; -1: all)" },
	{ "symfs", OPT_SYMFS, "DIR", "look for binaries under DIR (recorded paths appended)" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

static const char *section_help(const struct analyzer *a, unsigned int i)
{
	(void)i;
	return a->help;
}

/* An option per analysis (its section), then the fixed ones. */
static const struct opt *report_opts(void)
{
	static struct opt table[REPORT_MAX_ANALYZERS + sizeof(fixed_opts) / sizeof(fixed_opts[0])];
	static char threshold_help[1200];
	unsigned int i;

	if (table[0].name)
		return table;
	cmd_section_opts(table, fixed_opts, CMD_KEY_SECTION, section_help);
	cmd_wrap(threshold_help, sizeof(threshold_help), "a finding's threshold (repeatable): ",
		 findings_rules_help(), 52);
	for (i = 0; table[i].name; i++)
		if (table[i].key == OPT_THRESHOLD)
			table[i].help = threshold_help;
	return table;
}

const struct opts report_cmd = {
	.cmd = "report",
	.summary = "analyse a capture: CPUs, latency, states, findings, profile",
	.synopsis = "[SECTION...] [--json | --html FILE] [--top N] [--from T]\n"
		"[--to T] [-p PID]... [--tid TID]... [--comm NAME] [-C CPUS] DIR|FILE",
	.description =
		"Analyse a capture file, a raw dump directory or a trace-cmd trace.dat\n"
		"(ktprof import says how it is read). SECTION is any of the\n"
		"options before --folded; without one, a summary of them all.\n"
		"Definitions of every figure: docs/report.md. -p and --comm select\n"
		"threads and processes; per-CPU figures stay whole. Time the capture lost\n"
		"(records lost, CPUs offline) is left out of every figure; the report\n"
		"says how much, per CPU, at the top.",
	.examples =
		"A summary of every analysis:\n"
		"$ ktprof report cap.ktp\n"
		"Wakeup and runqueue latency, 10 rows per table:\n"
		"$ ktprof report --latency --top 10 cap.ktp\n"
		"Folded stacks for a flame graph:\n"
		"$ ktprof report --profile --folded cap.ktp > cap.folded\n"
		"Where threads blocked (a capture recorded with -S offcpu):\n"
		"$ ktprof report --offcpu -p 1234 cap.ktp\n"
		"$ ktprof report --offcpu --folded cap.ktp > offcpu.folded\n"
		"Everything as JSON, or as a page with plots:\n"
		"$ ktprof report --json cap.ktp > report.json\n"
		"$ ktprof report --html report.html cap.ktp\n",
	.table = report_opts,
};

struct report_opts {
	struct report_config cfg;
	struct cmd_output out;
	int folded;
	const char *path;
};

static int bad(const char *what, const char *arg)
{
	cmd_error("report", "%s '%s'", what, arg);
	return 2;
}

/* One option; 0, or 2 after saying why. */
static int take_opt(void *ctx, int key, const char *arg)
{
	struct report_opts *o = ctx;
	int ret = cmd_output_take("report", &o->out, &o->cfg.filter, key, arg);
	long v;

	if (ret)
		return ret == 1 ? 0 : ret;
	switch (key) {
	case OPT_FOLDED:
		o->folded = 1;
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
		if (cmd_number(arg, -1, 255, &v))
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
	unsigned int profile = analyzer_section("profile");
	unsigned int offcpu = analyzer_section("offcpu");
	int ret = cmd_parse(&report_cmd, argc, argv, 1, take_opt, o);

	if (ret)
		return ret;
	o->path = argv[optind];
	if (o->folded && ((o->out.view.sections != profile && o->out.view.sections != offcpu) ||
			  o->out.json || o->out.html))
		return bad("--folded goes with --profile or --offcpu alone", "--folded");
	/* --profile asks for it; otherwise there is one when there are samples. */
	if (o->out.view.sections & profile)
		o->cfg.profile = 1;
	if (o->out.html && cmd_same_file(o->out.html, o->path))
		return bad("the HTML page would overwrite the capture", o->out.html);
	return cmd_output_check("report", &o->out, &o->cfg.filter);
}

static void warn(const struct report *r)
{
	if (!r->model->sym || !analyze_profile(r))
		return;
	if (!symbolizer_has_kallsyms(r->model->sym))
		cmd_error("report", "no kallsyms snapshot: kernel frames stay addresses");
	cmd_symbol_files("report", r->model->sym);
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
	struct report_opts o = { .cfg = { .source = 0 }, .out.view = { .top = 20 } };
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
	if (o.folded && o.out.view.sections == analyzer_section("offcpu"))
		analyze_offcpu_write_folded(r, stdout);
	else if (o.folded && analyze_profile(r))
		profile_write_folded(analyze_profile(r), stdout);
	else if (o.out.html)
		ret = cmd_write_file("report", o.out.html, write_html,
				     &(struct html_ctx){ r, &o.out.view });
	else if (o.out.json)
		ret = render_json(r, &o.out.view, stdout) ? 1 : 0;
	else
		ret = render_text(r, &o.out.view, stdout) ? 1 : 0;
	if (!ret && (r->model->truncated || r->model->damaged)) {
		cmd_error("report", "%s: %s%s; the report covers what was read before it",
			  o.path, r->model->damaged ? "damaged: " : "", r->model->problem);
		ret = 1;
	}
	report_free(r);
	return ret;
}
