// SPDX-License-Identifier: GPL-2.0
/*
 * Outliers among the threads and CPUs, by IQR or MAD: threads' p99 wakeup
 * latency, runtime and switch rate, and CPUs' utilization.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-cpu.h"
#include "report/analyze-latency.h"
#include "report/analyze-runtime.h"
#include "report/outliers.h"
#include "report/render.h"
#include "util/array.h"

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Quantile by linear interpolation between order statistics (R's type 7). */
static double quantile(const double *sorted, size_t n, double q)
{
	double h = (n - 1) * q;
	size_t i = (size_t)h;

	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (h - i) * (sorted[i + 1] - sorted[i]);
}

struct metric_value {
	enum finding_subject subject;
	uint32_t id;
	double value;
};

static int add_outlier(struct outliers *f, const char *metric, const char *unit,
		       const struct metric_value *v, double limit, double score)
{
	struct outlier *o;

	if (array_reserve_n((void **)&f->v, &f->cap, f->n, sizeof(*f->v), 16))
		return -ENOMEM;
	o = &f->v[f->n++];
	*o = (struct outlier){ metric, unit, v->subject, v->id, v->value, limit, score };
	return 0;
}

/* The outliers above the others among @n values, by @method. */
/*
 * When half the values or more are equal, IQR and MAD are 0 and would call
 * any value above them abnormal, with an infinite score. The spread then
 * comes from the mean absolute deviation from the median: × 1.253314 it
 * estimates σ of a normal distribution, whose MAD is 0.6745 σ and whose
 * IQR is 1.349 σ. 0 only when every value is the median.
 */
static double sigma_of_mean_deviation(const struct metric_value *v, size_t n, double med)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += fabs(v[i].value - med);
	return 1.253314 * sum / n;
}

/* Above Q3 + 1.5 IQR; score (x - Q3) / IQR. */
static int iqr_outliers(struct outliers *f, const char *metric, const char *unit,
			const struct metric_value *v, size_t n, const double *sorted)
{
	double q3 = quantile(sorted, n, 0.75);
	double spread = q3 - quantile(sorted, n, 0.25), limit;
	size_t i;
	int ret = 0;

	if (spread == 0)
		spread = 1.349 * sigma_of_mean_deviation(v, n, quantile(sorted, n, 0.5));
	if (spread == 0)
		return 0;
	limit = q3 + 1.5 * spread;
	for (i = 0; !ret && i < n; i++)
		if (v[i].value > limit)
			ret = add_outlier(f, metric, unit, &v[i], limit, (v[i].value - q3) / spread);
	return ret;
}

/* Modified z = 0.6745 (x - median) / MAD above 3.5 (Iglewicz and Hoaglin). */
static int mad_outliers(struct outliers *f, const char *metric, const char *unit,
			const struct metric_value *v, size_t n, double *sorted)
{
	double med = quantile(sorted, n, 0.5), spread, limit;
	size_t i;
	int ret = 0;

	for (i = 0; i < n; i++)
		sorted[i] = fabs(v[i].value - med);
	qsort(sorted, n, sizeof(*sorted), by_double);
	spread = quantile(sorted, n, 0.5) / 0.6745;
	if (spread == 0)
		spread = sigma_of_mean_deviation(v, n, med);
	if (spread == 0)
		return 0;
	limit = med + 3.5 * spread;
	for (i = 0; !ret && i < n; i++)
		if (v[i].value > limit)
			ret = add_outlier(f, metric, unit, &v[i], limit, (v[i].value - med) / spread);
	return ret;
}

static int outliers_of(struct outliers *f, enum outlier_method method, const char *metric,
		       const char *unit, const struct metric_value *v, size_t n)
{
	double *x;
	size_t i;
	int ret;

	if (n < 4)
		return 0;	/* too few to call anything abnormal */
	x = malloc(n * sizeof(*x));
	if (!x)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		x[i] = v[i].value;
	qsort(x, n, sizeof(*x), by_double);
	ret = method == OUTLIER_IQR ? iqr_outliers(f, metric, unit, v, n, x) :
		mad_outliers(f, metric, unit, v, n, x);
	free(x);
	return ret;
}

static int outliers_derive(void *state, struct report *r)
{
	struct outliers *f = state;
	enum outlier_method m = r->cfg.findings.method;
	const struct analyze_cpu *c = analyze_cpu(r);
	const struct analyze_runtime *rt = analyze_runtime(r);
	const struct analyze_latency *lt = analyze_latency(r);
	uint32_t n = 0, nl = 0, t, cpu, len = r->model->sched.nr_threads > c->nr_cpus ?
		r->model->sched.nr_threads : c->nr_cpus;
	struct metric_value *lat = calloc(len + 1, sizeof(*lat));
	struct metric_value *run = calloc(len + 1, sizeof(*run));
	struct metric_value *sw = calloc(len + 1, sizeof(*sw));
	double secs = r->model->window_ns / 1e9;
	int ret = -ENOMEM;

	if (!lat || !run || !sw)
		goto out;
	for (t = 0; t < r->model->sched.nr_threads; t++) {
		const struct runtime_result *x = &rt->threads[t];
		const struct hist *h = &lt->threads[t].h[SCHED_WAKEUP];

		if (!r->thread_selected[t])
			continue;
		if (h->count)
			lat[nl++] = (struct metric_value){ SUBJECT_THREAD, t,
							   hist_percentile(h, 99) / 1e6 };
		if (!x->runtime_ns && !x->voluntary && !x->involuntary)
			continue;
		run[n] = (struct metric_value){ SUBJECT_THREAD, t, x->runtime_ns / 1e6 };
		sw[n++] = (struct metric_value){ SUBJECT_THREAD, t, secs > 0 ?
			(x->voluntary + x->involuntary) / secs : 0 };
	}
	ret = outliers_of(f, m, "p99 wakeup latency", "ms", lat, nl);
	if (!ret)
		ret = outliers_of(f, m, "runtime", "ms", run, n);
	if (!ret)
		ret = outliers_of(f, m, "switch rate", "/s", sw, n);
	n = 0;
	for (cpu = 0; !ret && cpu < c->nr_cpus; cpu++)
		if (report_cpu_shown(r, cpu))
			run[n++] = (struct metric_value){ SUBJECT_CPU, cpu, analyze_cpu_util(r, cpu) };
	if (!ret)
		ret = outliers_of(f, m, "CPU utilization", "%", run, n);
out:
	free(lat);
	free(run);
	free(sw);
	return ret;
}

static void outliers_fini(void *state)
{
	struct outliers *f = state;

	free(f->v);
}

const struct outliers *report_outliers(const struct report *r)
{
	return report_state(r, &analyzer_outliers);
}

/* --- Output --- */

static void outliers_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct outliers *f = report_outliers(r);
	const char *method = r->cfg.findings.method == OUTLIER_MAD ?
		"MAD: modified z-score > 3.5" : "IQR: above Q3 + 1.5 IQR";
	char name[64];
	size_t i;

	render_heading(out, "outliers");
	fprintf(out, "  method %s\n", method);
	if (!f->n)
		fprintf(out, "  none\n");
	for (i = 0; i < f->n && i < render_rows(v); i++) {
		const struct outlier *o = &f->v[i];

		fprintf(out, "  %-20s %-26s %10.3f %s (limit %.3f, score %.2f)\n", o->metric,
			findings_subject(r, o->subject, o->id, name, sizeof(name)), o->value,
			o->unit, o->limit, o->score);
	}
}

static void outliers_summary(FILE *out, const struct report *r, const struct report_view *v)
{
	(void)v;
	fprintf(out, "outliers: %zu (%s)\n", report_outliers(r)->n,
		r->cfg.findings.method == OUTLIER_MAD ? "MAD" : "IQR");
}

static void outliers_html(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct outliers *x = report_outliers(r);
	char name[64];
	size_t i;

	fprintf(f, "<h2 id=outliers>Outliers</h2>\n<p>Method: %s.</p>\n",
		r->cfg.findings.method == OUTLIER_MAD ? "MAD, modified z-score above 3.5" :
		"IQR, above Q3 + 1.5 IQR");
	if (!x->n)
		return;
	fputs("<table><tr><th class=l>metric</th><th class=l>subject</th><th>value</th>"
	      "<th>limit</th><th>score</th></tr>\n", f);
	for (i = 0; i < x->n && i < v->top; i++) {
		const struct outlier *o = &x->v[i];

		fputs("<tr><td class=l>", f);
		html_esc(f, o->metric);
		fputs("</td><td class=l>", f);
		if (o->subject == SUBJECT_CPU)
			fprintf(f, "CPU %u", o->id);
		else
			html_esc(f, report_thread_label(r, o->id, name, sizeof(name)));
		fprintf(f, "</td><td>%.3f %s</td><td>%.3f</td><td>%.2f</td></tr>\n", o->value,
			o->unit, o->limit, o->score);
	}
	fputs("</table>\n", f);
}

static const struct outlier *outlier(const struct json_ctx *c)
{
	return c->item;
}

static json_object *get_str(const struct json_field *fl, struct json_ctx *c)
{
	return json_doc_str(!strcmp(fl->name, "metric") ? outlier(c)->metric : outlier(c)->unit);
}

static json_object *get_num(const struct json_field *fl, struct json_ctx *c)
{
	const struct outlier *o = outlier(c);

	return json_doc_num(c, !strcmp(fl->name, "value") ? o->value :
			    !strcmp(fl->name, "limit") ? o->limit : o->score, 6);
}

static json_object *get_subject(const struct json_field *fl, struct json_ctx *c)
{
	(void)fl;
	return findings_subject_json(c, outlier(c)->subject, outlier(c)->id);
}

static json_object *get_method(const struct json_field *fl, struct json_ctx *c)
{
	(void)fl;
	return json_doc_str(render_report(c)->cfg.findings.method == OUTLIER_MAD ? "mad" : "iqr");
}

static int next_outlier(struct json_ctx *c, size_t *pos)
{
	const struct outliers *f = report_outliers(render_report(c));

	if (*pos >= f->n)
		return 0;
	c->item = &f->v[(*pos)++];
	return 1;
}

static const struct json_field outlier_fields[] = {
	{ .name = "metric", .type = JSON_STR, .get = get_str }, { .name = "unit", .type = JSON_STR, .get = get_str },
	{ .name = "subject", .type = JSON_OBJ, .sub = findings_subject_fields, .def = "subject", .get = get_subject },
	{ .name = "value", .type = JSON_NUM, .get = get_num }, { .name = "limit", .type = JSON_NUM, .get = get_num },
	{ .name = "score", .type = JSON_NUM, .get = get_num }, JSON_END
};

static const struct json_field section_fields[] = {
	{ .name = "method", .type = JSON_STR, .get = get_method },
	{ .name = "items", .type = JSON_ARR, .sub = outlier_fields, .flags = JSON_LIST, .next = next_outlier },
	JSON_END
};

static const struct json_field outliers_doc[] = {
	{ .name = "outliers", .type = JSON_OBJ, .sub = section_fields, .flags = 0, .description = "outlying threads and CPUs (IQR or MAD)" },
	JSON_END
};

const struct analyzer analyzer_outliers = {
	.name = "outliers",
	.help = "outlying threads and CPUs (see --method)",
	.size = sizeof(struct outliers),
	.fini = outliers_fini,
	.derive = outliers_derive,
	.late = 1,
	.text = outliers_text,
	.summary = outliers_summary,
	.html = outliers_html,
	.doc = outliers_doc,
	.tool = {
		"detect_outliers", "Outliers",
		"Outlying threads (p99 wakeup latency, runtime, switch rate) and CPUs (utilization) "
		"by IQR or MAD, with their limit and score.",
		ARGS_OUTLIERS, 1u << KTP_REC_SWITCH, NULL,
	},
};
