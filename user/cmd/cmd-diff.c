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

enum {
	OPT_JSON = OPTS_LONG_ONLY, OPT_HTML, OPT_TOP, OPT_ABSOLUTE, OPT_PER_CPU, OPT_ALPHA,
	OPT_MIN_EFFECT,
	};

static const struct opt fixed_opts[] = {
	{ "json", CMD_KEY_JSON, NULL, "one JSON document (schema: docs/diff.md)" },
	{ "html", CMD_KEY_HTML, "FILE", "a self-contained HTML page, A and B overlaid" },
	{ "top", CMD_KEY_TOP, "N", "rows per table (default 10)" },
	FILTER_OPTS,
	FILTER_OPT_CPUS,
	{ "absolute", OPT_ABSOLUTE, NULL, "compare totals, not rates per second" },
	{ "per-cpu", OPT_PER_CPU, NULL, "machine totals per second of the CPUs' known time" },
	{ "alpha", OPT_ALPHA, "P", "false discovery rate over all the tests (default 0.01)" },
	{ "min-effect", OPT_MIN_EFFECT, "E", "smallest |shift effect| called a change (default 0.1)" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

static const char *section_help(const struct analyzer *a, unsigned int i)
{
	static char help[REPORT_MAX_ANALYZERS][96];

	if (!a->metrics)
		return NULL;
	snprintf(help[i], sizeof(help[i]), "the figures of --%s, A beside B", a->name);
	return help[i];
}

/* An option per analysis that offers figures to compare, then the fixed ones. */
static const struct opt *diff_opts(void)
{
	static struct opt table[REPORT_MAX_ANALYZERS + sizeof(fixed_opts) / sizeof(fixed_opts[0])];

	return cmd_section_opts(table, fixed_opts, CMD_KEY_SECTION, section_help);
}

const struct opts diff_cmd = {
	.cmd = "diff",
	.summary = "compare two captures, with a verdict on what changed",
	.synopsis = "[SECTION...] [--json | --html FILE]\n"
		"[--absolute] [--per-cpu] [filters] A B",
	.description =
		"Compare capture B with capture A (files, raw dump directories or\n"
		"trace-cmd trace.dat files): every\n"
		"figure of the report per CPU, per process and per thread (matched by\n"
		"name: pids differ between runs), overall; distributions tested for a\n"
		"shift (Mann-Whitney U) and for a longer or shorter tail above A's p99\n"
		"and p99.9 (Fisher's exact test), the false discovery rate held over all\n"
		"the tests (Benjamini-Hochberg); and a verdict: the changes that matter\n"
		"most, ranked. SECTION (--cpu, --latency, ...)\n"
		"shows the figures of that analysis. Windows of different lengths are\n"
		"compared as rates. The window and the selection apply to both captures.\n"
		"Definitions: docs/diff.md.",
	.examples =
		"What changed between two runs, ranked:\n"
		"$ ktprof diff before.ktp after.ktp\n"
		"Latency only, as an HTML page:\n"
		"$ ktprof diff --latency --html diff.html before.ktp after.ktp\n",
	.table = diff_opts,
};

struct diff_opts {
	struct diff_config cfg;
	struct cmd_output out;
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

static int take_opt(void *ctx, int key, const char *arg)
{
	struct diff_opts *o = ctx;
	int ret = cmd_output_take("diff", &o->out, &o->cfg.report.filter, key, arg);

	if (ret)
		return ret == 1 ? 0 : ret;
	switch (key) {
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
	int ret = cmd_parse(&diff_cmd, argc, argv, 2, take_opt, o);

	if (ret)
		return ret;
	o->a = argv[optind];
	o->b = argv[optind + 1];
	o->cfg.report.profile = -1;	/* nothing of the profile is compared */
	if (o->out.html && (cmd_same_file(o->out.html, o->a) || cmd_same_file(o->out.html, o->b)))
		return bad("the HTML page would overwrite a capture", o->out.html);
	return cmd_output_check("diff", &o->out, &o->cfg.report.filter);
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
	struct diff_opts o = { .out.view = { .top = 10 } };
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
	if (o.out.html)
		ret = cmd_write_file("diff", o.out.html, write_html, &(struct html_ctx){ d, &o.out.view });
	else
		ret = (o.out.json ? render_diff_json : render_diff_text)(d, &o.out.view, stdout) ? 1 : 0;
	if (!ret && (d->a.r->model->truncated || d->a.r->model->damaged || d->b.r->model->truncated ||
		     d->b.r->model->damaged)) {
		const struct report *r = d->a.r->model->truncated || d->a.r->model->damaged ? d->a.r : d->b.r;

		cmd_error("diff", "%s: %s%s; the comparison covers what was read before it",
			  r->model->path, r->model->damaged ? "damaged: " : "", r->model->problem);
		ret = 1;
	}
	diff_free(d);
	return ret;
}
