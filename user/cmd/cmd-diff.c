// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof diff: two captures compared, metric by metric, with a verdict on
 * what changed (report/diff.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "report/render-diff.h"
#include "util/units.h"

enum {
	OPT_CPU = OPTS_LONG_ONLY, OPT_RUNTIME, OPT_LATENCY, OPT_IRQ, OPT_JSON, OPT_HTML,
	OPT_TOP, OPT_FROM, OPT_TO, OPT_COMM, OPT_ABSOLUTE, OPT_PER_CPU, OPT_ALPHA,
	OPT_MIN_EFFECT,
};

static const struct opt diff_opts_table[] = {
	{ "cpu", OPT_CPU, NULL, "per CPU: utilization, switches, irq time, latency" },
	{ "runtime", OPT_RUNTIME, NULL, "per process and thread group: runtime, switches,\n"
		"migrations" },
	{ "latency", OPT_LATENCY, NULL, "every latency and slice distribution" },
	{ "irq", OPT_IRQ, NULL, "interrupt handlers: time and durations" },
	{ "json", OPT_JSON, NULL, "one JSON document (schema: docs/diff.md)" },
	{ "html", OPT_HTML, "FILE", "a self-contained HTML page, A and B overlaid" },
	{ "top", OPT_TOP, "N", "rows per table (default 10)" },
	{ "from", OPT_FROM, "T", "compare from T after each capture began" },
	{ "to", OPT_TO, "T", "to T after each capture began" },
	{ "pid", 'p', "PID", "only this process, in both (repeatable)" },
	{ "comm", OPT_COMM, "NAME", "only processes whose main thread was NAME" },
	{ "cpus", 'C', "LIST", "only these CPUs, e.g. 0-3,6" },
	{ "absolute", OPT_ABSOLUTE, NULL, "compare totals, not rates per second of window" },
	{ "per-cpu", OPT_PER_CPU, NULL, "machine totals divided by the number of CPUs" },
	{ "alpha", OPT_ALPHA, "P", "significance level of the tests (default 0.01)" },
	{ "min-effect", OPT_MIN_EFFECT, "E", "smallest |effect| called a change (default 0.1)" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts diff_cmd = {
	.cmd = "diff",
	.summary = "compare two captures, with a verdict on what changed",
	.synopsis = "[--cpu] [--runtime] [--latency] [--irq] [--json | --html FILE]\n"
		"[--absolute] [--per-cpu] [filters] A B",
	.description =
		"Compare capture B with capture A (files or raw dump directories): every\n"
		"figure of the report per CPU, per process and per thread (matched by\n"
		"name: pids differ between runs), overall; distributions tested for a\n"
		"real difference (Mann-Whitney U, with its effect size); and a verdict:\n"
		"the changes that matter most, ranked. Windows of different lengths are\n"
		"compared as rates. Definitions: docs/diff.md.",
	.examples =
		"What changed between two runs, ranked:\n"
		"$ ktprof diff before.ktp after.ktp\n"
		"Latency only, as an HTML page:\n"
		"$ ktprof diff --latency --html diff.html before.ktp after.ktp\n",
	.opts = diff_opts_table,
};

struct diff_opts {
	struct diff_config cfg;
	struct report_view view;
	int json;
	const char *html;
	uint32_t pids[REPORT_MAX_PIDS];
	const char *a, *b;
};

static int bad(const char *what, const char *arg)
{
	cmd_error("diff", "%s '%s'", what, arg);
	return 2;
}

static int take_double(const char *arg, double lo, double hi, double *v)
{
	char *end;

	*v = strtod(arg, &end);
	return *end || end == arg || !(*v > lo && *v < hi) ? -EINVAL : 0;
}

static int take_opt(struct diff_opts *o, int key, const char *arg)
{
	static const unsigned int sections[] = {
		[OPT_CPU - OPTS_LONG_ONLY] = SECTION_CPU,
		[OPT_RUNTIME - OPTS_LONG_ONLY] = SECTION_RUNTIME,
		[OPT_LATENCY - OPTS_LONG_ONLY] = SECTION_LATENCY,
		[OPT_IRQ - OPTS_LONG_ONLY] = SECTION_IRQ,
	};
	char *end;
	long v;

	if (key >= OPT_CPU && key <= OPT_IRQ) {
		o->view.sections |= sections[key - OPTS_LONG_ONLY];
		return 0;
	}
	switch (key) {
	case OPT_JSON:
		o->json = 1;
		return 0;
	case OPT_HTML:
		o->html = arg;
		return 0;
	case OPT_TOP:
		v = strtol(arg, &end, 10);
		if (*end || v < 1 || v > INT_MAX)
			return bad("--top wants a positive number, not", arg);
		o->view.top = v;
		return 0;
	case OPT_FROM:
	case OPT_TO:
		if (units_parse_duration(arg, key == OPT_FROM ? &o->cfg.report.from_rel :
					 &o->cfg.report.to_rel))
			return bad("--from/--to want a duration (500ms, 2s, ...), not", arg);
		*(key == OPT_FROM ? &o->cfg.report.have_from : &o->cfg.report.have_to) = 1;
		return 0;
	case 'p':
		v = strtol(arg, &end, 10);
		if (*end || v < 1 || v > INT_MAX)
			return bad("-p wants a process id, not", arg);
		if (o->cfg.report.nr_pids == REPORT_MAX_PIDS)
			return bad("too many -p options; the most is 64, at", arg);
		o->pids[o->cfg.report.nr_pids++] = v;
		return 0;
	case OPT_COMM:
		if (!*arg || strlen(arg) >= KTP_COMM_LEN)
			return bad("--comm wants a name of 1 to 15 characters, not", arg);
		o->cfg.report.comm = arg;
		return 0;
	case 'C':
		o->cfg.report.cpus = arg;
		return 0;
	case OPT_ABSOLUTE:
		o->cfg.absolute = 1;
		return 0;
	case OPT_PER_CPU:
		o->cfg.per_cpu = 1;
		return 0;
	case OPT_ALPHA:
		if (take_double(arg, 0, 1, &o->cfg.alpha))
			return bad("--alpha wants a probability between 0 and 1, not", arg);
		return 0;
	case OPT_MIN_EFFECT:
		if (take_double(arg, 0, 1, &o->cfg.min_effect))
			return bad("--min-effect wants a number between 0 and 1, not", arg);
		return 0;
	}
	return cmd_usage(&diff_cmd, key);
}

static int parse_args(int argc, char **argv, struct diff_opts *o)
{
	struct opts_parser p = { 0 };
	int c, ret;

	while ((c = opts_next(&diff_cmd, &p, argc, argv)) != -1) {
		ret = take_opt(o, c, optarg);
		if (ret || c == 'h')
			return c == 'h' ? -1 : ret;
	}
	if (optind != argc - 2)
		return cmd_usage(&diff_cmd, '?');
	o->a = argv[optind];
	o->b = argv[optind + 1];
	if (o->json && o->html)
		return bad("choose one output form: --json or --html, not both;", "--html");
	if (o->cfg.report.have_from && o->cfg.report.have_to &&
	    o->cfg.report.from_rel >= o->cfg.report.to_rel)
		return bad("--from must come before --to:", "--to");
	o->cfg.report.pids = o->pids;
	o->cfg.report.profile = -1;	/* nothing of the profile is compared */
	if (!o->view.sections) {
		o->view.sections = SECTION_ALL;
		o->view.summary = !o->json && !o->html;
	}
	return 0;
}

struct html_ctx {
	const struct diff *d;
	const struct report_view *v;
};

static int write_html(void *ctx, FILE *out)
{
	const struct html_ctx *h = ctx;

	return render_diff_html(h->d, h->v, out);
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { .view = { .top = 10 } };
	struct error err = { 0 };
	struct diff *d;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	d = diff_run(o.a, o.b, &o.cfg, &err);
	if (!d) {
		cmd_error("diff", "%s", error_msg(&err));
		return err.code == -EINVAL ? 2 : 1;
	}
	if (o.html)
		ret = cmd_write_file("diff", o.html, write_html, &(struct html_ctx){ d, &o.view });
	else
		ret = (o.json ? render_diff_json : render_diff_text)(d, &o.view, stdout) ? 1 : 0;
	if (!ret && (d->a.r->truncated || d->a.r->damaged || d->b.r->truncated ||
		     d->b.r->damaged)) {
		const struct report *r = d->a.r->truncated || d->a.r->damaged ? d->a.r : d->b.r;

		cmd_error("diff", "%s: %s%s; the comparison covers what was read before it",
			  r->path, r->damaged ? "damaged: " : "", r->problem);
		ret = 1;
	}
	diff_free(d);
	return ret;
}
