// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-cpu.h"
#include "report/findings.h"
#include "report/render.h"
#include "util/text.h"
#include "util/array.h"

#define DEFAULT_MIN_SAMPLES 10
#define SUMMARY_FINDINGS 3

/* --- Rules --- */

unsigned int findings_nr_rules(void)
{
	unsigned int n = 0, i;
	const struct findings_rule *x;

	for (i = 0; i < nr_analyzers; i++)
		for (x = analyzers[i]->rules; x && x->name; x++)
			n++;
	return n;
}

const struct findings_rule *findings_rule_at(unsigned int at)
{
	unsigned int n = 0, i;
	const struct findings_rule *x;

	for (i = 0; i < nr_analyzers; i++)
		for (x = analyzers[i]->rules; x && x->name; x++)
			if (n++ == at)
				return x;
	return NULL;
}

static int rule_index(const char *name)
{
	const struct findings_rule *x;
	unsigned int i;

	for (i = 0; (x = findings_rule_at(i)); i++)
		if (!strcmp(x->name, name))
			return i;
	return -1;
}

double findings_threshold(const struct findings_config *c, unsigned int i)
{
	const struct findings_rule *x = findings_rule_at(i);

	if (!x)
		return 0;
	return i < FINDINGS_MAX_RULES && c->threshold[i] > 0 ? c->threshold[i] : x->def;
}

double findings_threshold_of(const struct findings_config *c, const char *name)
{
	int i = rule_index(name);

	return i < 0 ? 0 : findings_threshold(c, i);
}

uint64_t findings_min_samples(const struct findings_config *c)
{
	return c->min_samples ? c->min_samples : DEFAULT_MIN_SAMPLES;
}

int findings_set_threshold(struct findings_config *c, const char *rule, double v)
{
	int i;

	if (!(v >= 0) || isinf(v))
		return -EINVAL;
	if (!strcmp(rule, "min-samples")) {
		if (v < 1 || v != floor(v) || v > 1e15)
			return -EINVAL;
		c->min_samples = (uint64_t)v;
		return 0;
	}
	i = rule_index(rule);
	if (i < 0 || i >= FINDINGS_MAX_RULES)
		return -EINVAL;
	/* 0 would mean "the default": the loss rule's is 0 already. */
	c->threshold[i] = v > 0 ? v : 1e-300;
	return 0;
}

int findings_parse_threshold(struct findings_config *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char rule[32], *end;
	double v;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(rule))
		return -EINVAL;
	v = strtod(eq + 1, &end);
	if (end == eq + 1 || *end)
		return -EINVAL;
	memcpy(rule, arg, eq - arg);
	rule[eq - arg] = '\0';
	return findings_set_threshold(c, rule, v);
}

const char *findings_rules_help(void)
{
	static char buf[1024];
	const struct findings_rule *x;
	size_t off = 0;
	unsigned int i;

	if (buf[0])
		return buf;
	for (i = 0; (x = findings_rule_at(i)) && off < sizeof(buf); i++)
		off += snprintf(buf + off, sizeof(buf) - off, x->def ? "%s (%s, %g), " : "%s, ",
				x->name, x->unit, x->def);
	if (off < sizeof(buf))
		snprintf(buf + off, sizeof(buf) - off, "min-samples (%d)", DEFAULT_MIN_SAMPLES);
	return buf;
}

struct finding *findings_add(struct findings *f, enum finding_subject subject, uint32_t id,
			     double value, double threshold)
{
	struct finding *x;

	if (array_reserve_n((void **)&f->v, &f->cap, f->n, sizeof(*f->v), 16))
		return NULL;
	x = &f->v[f->n++];
	memset(x, 0, sizeof(*x));
	x->rule = f->rule;
	x->subject = subject;
	x->id = id;
	x->value = value;
	x->threshold = threshold;
	x->severity = threshold > 0 ? value / threshold : 1e9;
	return x;
}

const char *findings_subject(const struct report *r, enum finding_subject s, uint32_t id,
			     char *buf, size_t len)
{
	if (s == SUBJECT_CPU)
		snprintf(buf, len, "CPU %u", id);
	else if (s == SUBJECT_THREAD)
		snprintf(buf, len, "%s (%u)", text_esc(report_thread_name(r, id)),
			 r->model->sched.threads[id].pid);
	else
		snprintf(buf, len, "machine");
	return buf;
}

/* Losses: every CPU that lost records or has time unknown for it. */
static int judge_loss(struct findings *f, const struct report *r, double th)
{
	const struct analyze_cpu *c = analyze_cpu(r);
	unsigned int i;

	(void)th;
	for (i = 0; i < r->model->nr_streams; i++) {
		const struct model_stream *st = &r->model->streams[i];
		uint64_t unknown = st->cpu < c->nr_cpus ? c->cpus[st->cpu].gap_ns[SCHED_GAP_LOSS] : 0;
		struct finding *x;

		if (!st->lost && !st->garbage_bytes)
			continue;
		x = findings_add(f, SUBJECT_CPU, st->cpu, st->lost, 0);
		if (!x)
			return -ENOMEM;
		x->severity = 1e9;	/* everything else is judged on partial data */
		snprintf(x->text, sizeof(x->text),
			 "CPU %u lost %" PRIu64 " records%s: %.3f ms of its time is unknown and left out of every figure",
			 st->cpu, st->lost, st->garbage_bytes ? " and has damaged data" : "",
			 unknown / 1e6);
	}
	return 0;
}

static const struct findings_rule own_rules[] = {
	{ "loss", "records", 0, "a CPU lost records: part of its time is unknown", judge_loss },
	{ NULL }
};

/* --- The pass --- */

static int by_severity(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;

	if (x->severity != y->severity)
		return x->severity < y->severity ? 1 : -1;
	if (x->rule != y->rule)
		return x->rule < y->rule ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int findings_derive(void *state, struct report *r)
{
	struct findings *f = state;
	const struct findings_rule *x;
	int ret;

	for (f->rule = 0; (x = findings_rule_at(f->rule)); f->rule++)
		if ((ret = x->judge(f, r, findings_threshold(&r->cfg.findings, f->rule))))
			return ret;
	if (f->n)
		qsort(f->v, f->n, sizeof(*f->v), by_severity);
	return 0;
}

static void findings_fini(void *state)
{
	struct findings *f = state;

	free(f->v);
}

const struct findings *report_findings(const struct report *r)
{
	return report_state(r, &analyzer_findings);
}

/* --- Output --- */

static void findings_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct findings *f = report_findings(r);
	size_t i, rows = v->summary ? SUMMARY_FINDINGS : render_rows(v);

	render_heading(out, "findings (rule: what crossed its threshold; thresholds: --threshold)");
	if (!f->n)
		fprintf(out, "  none\n");
	for (i = 0; i < f->n && i < rows; i++)
		fprintf(out, "  [%s] %s\n", findings_rule_at(f->v[i].rule)->name,
			text_esc(f->v[i].text));
	if (f->n > rows)
		fprintf(out, "  ... %zu more (--findings)\n", f->n - rows);
}

static void findings_html(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct findings *f = report_findings(r);
	size_t i;

	fputs("<h2 id=findings>Findings</h2>\n", out);
	if (!f->n)
		fputs("<p>No rule fired.</p>\n", out);
	for (i = 0; i < f->n && i < v->top; i++) {
		fprintf(out, "<div class=finding><span class=rule>%s</span>",
			findings_rule_at(f->v[i].rule)->name);
		html_esc(out, f->v[i].text);
		fputs("</div>\n", out);
	}
	fputs("<p class=note>Each finding names its rule and threshold (--threshold "
	      "RULE=VALUE); definitions in docs/report.md.</p>\n", out);
}

/* JSON: a finding, and the subject it names (also the outliers'). */
static json_object *get_subject(const struct json_field *fl, struct json_ctx *c);

const struct json_field findings_subject_fields[] = {
	{ .name = "kind", .type = JSON_STR }, { .name = "cpu", .type = JSON_INT, .flags = JSON_OPTIONAL },
	{ .name = "pid", .type = JSON_INT, .flags = JSON_OPTIONAL }, { .name = "tgid", .type = JSON_INT, .flags = JSON_OPTIONAL },
	{ .name = "comm", .type = JSON_STR, .flags = JSON_OPTIONAL }, JSON_END
};

json_object *findings_subject_json(struct json_ctx *c, enum finding_subject s, uint32_t id)
{
	json_object *o;

	if (s == SUBJECT_THREAD) {
		o = render_thread_ref_of(c, id);
		json_build_put(c->b, o, "kind", json_doc_str("thread"));
		return o;
	}
	o = json_object_new_object();
	json_build_put(c->b, o, "kind", json_doc_str(s == SUBJECT_CPU ? "cpu" : "machine"));
	if (s == SUBJECT_CPU)
		json_build_put(c->b, o, "cpu", json_doc_u64(id));
	return o;
}

static const struct finding *finding(const struct json_ctx *c)
{
	return c->item;
}

static json_object *get_subject(const struct json_field *fl, struct json_ctx *c)
{
	(void)fl;
	return findings_subject_json(c, finding(c)->subject, finding(c)->id);
}

static json_object *get_rule(const struct json_field *fl, struct json_ctx *c)
{
	const struct findings_rule *x = findings_rule_at(finding(c)->rule);

	return json_doc_str(!strcmp(fl->name, "rule") ? x->name : x->unit);
}

static json_object *get_value(const struct json_field *fl, struct json_ctx *c)
{
	return json_doc_num(c, !strcmp(fl->name, "value") ? finding(c)->value :
			    finding(c)->threshold, 6);
}

static json_object *get_text(const struct json_field *fl, struct json_ctx *c)
{
	(void)fl;
	return json_doc_str(finding(c)->text);
}

static int next_finding(struct json_ctx *c, size_t *pos)
{
	const struct findings *f = report_findings(render_report(c));

	if (*pos >= f->n)
		return 0;
	c->item = &f->v[(*pos)++];
	return 1;
}

static const struct json_field finding_fields[] = {
	{ .name = "rule", .type = JSON_STR, .get = get_rule },
	{ .name = "subject", .type = JSON_OBJ, .sub = findings_subject_fields, .def = "subject", .get = get_subject },
	{ .name = "value", .type = JSON_NUM, .get = get_value }, { .name = "threshold", .type = JSON_NUM, .get = get_value },
	{ .name = "unit", .type = JSON_STR, .get = get_rule }, { .name = "text", .type = JSON_STR, .get = get_text },
	JSON_END
};

static const struct json_field findings_doc[] = {
	{ .name = "findings", .type = JSON_ARR, .sub = finding_fields, .flags = JSON_LIST, .description = "rule-based bottlenecks, ranked; each names its rule, threshold and value", .next = next_finding },
	JSON_END
};

const struct analyzer analyzer_findings = {
	.name = "findings",
	.help = "rule-based bottlenecks (see --threshold)",
	.size = sizeof(struct findings),
	.fini = findings_fini,
	.derive = findings_derive,
	.late = 1,
	.text = findings_text,
	.summary = findings_text,
	.html = findings_html,
	.nav = "findings",
	.doc = findings_doc,
	.rules = own_rules,
	.tool = {
		"find_scheduling_bottlenecks", "Scheduling bottlenecks",
		"Rule-based findings, ranked: losses, CPUs with high p99 runqueue latency, threads "
		"with high p99 wakeup latency, busy CPUs, load imbalance, IRQ-heavy CPUs, threads "
		"that migrate or are preempted too often; each names its rule, threshold and value.",
		ARGS_FINDINGS, 1u << KTP_REC_SWITCH, NULL,
	},
};
