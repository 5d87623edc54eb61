// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-cpu.h"
#include "report/analyze-irq.h"
#include "report/analyze-latency.h"
#include "report/analyze-power.h"
#include "report/diff.h"
#include "report/render.h"

static struct cpu_result *cpu_res(struct analyze_cpu *a, uint32_t cpu)
{
	uint32_t n = a->nr_cpus, i;
	struct cpu_result *r;

	if (cpu < a->nr_cpus)
		return &a->cpus[cpu];
	while (n <= cpu)
		n = n ? n * 2 : 8;
	r = realloc(a->cpus, n * sizeof(*r));
	if (!r)
		goto nomem;
	memset(r + a->nr_cpus, 0, (n - a->nr_cpus) * sizeof(*r));
	a->cpus = r;
	for (i = a->nr_cpus; i < n; i++) {
		r[i].timeline = calloc(CPU_TIMELINE_BUCKETS, sizeof(uint64_t));
		r[i].timeline_known = calloc(CPU_TIMELINE_BUCKETS, sizeof(uint64_t));
		if (!r[i].timeline || !r[i].timeline_known) {
			a->nr_cpus = i + 1;
			goto nomem;
		}
	}
	a->nr_cpus = n;
	return &a->cpus[cpu];
nomem:
	a->error = -ENOMEM;
	return NULL;
}

/* Twice as wide buckets: pairs merge, for every CPU alike. */
static void widen(struct analyze_cpu *a)
{
	uint32_t cpu, i;

	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		uint64_t *b = a->cpus[cpu].timeline, *k = a->cpus[cpu].timeline_known;

		for (i = 0; i < CPU_TIMELINE_BUCKETS / 2; i++) {
			b[i] = b[2 * i] + b[2 * i + 1];
			k[i] = k[2 * i] + k[2 * i + 1];
		}
		memset(b + i, 0, (CPU_TIMELINE_BUCKETS - i) * sizeof(*b));
		memset(k + i, 0, (CPU_TIMELINE_BUCKETS - i) * sizeof(*k));
	}
	a->bucket_ns *= 2;
}

static void add_timeline(struct analyze_cpu *a, struct cpu_result *r, uint64_t from,
			 uint64_t to, int busy)
{
	/* Without a session start, the timeline starts at the first slice. */
	if (!a->t0)
		a->t0 = from;
	if (from < a->t0)
		from = a->t0;
	if (to <= from)
		return;
	/*
	 * Divided, not multiplied: times come from the capture and can be
	 * anything, and bucket_ns * CPU_TIMELINE_BUCKETS would wrap.
	 */
	while ((to - a->t0 - 1) / CPU_TIMELINE_BUCKETS >= a->bucket_ns)
		widen(a);
	while (from < to) {
		uint64_t i = (from - a->t0) / a->bucket_ns, end;
		uint64_t d;

		if (__builtin_mul_overflow(i + 1, a->bucket_ns, &end) ||
		    __builtin_add_overflow(end, a->t0, &end))
			end = UINT64_MAX;	/* the last bucket reaches the end of time */
		d = (to < end ? to : end) - from;

		if (busy)
			r->timeline[i] += d;
		r->timeline_known[i] += d;
		from += d;
	}
}

static void on_cpu_time(void *ctx, uint32_t cpu, uint32_t t, uint64_t from, uint64_t to)
{
	struct analyze_cpu *a = ctx;
	struct cpu_result *r = cpu_res(a, cpu);

	if (!r)
		return;
	r->seen = 1;
	if (t == SCHED_IDLE)
		r->idle_ns += to - from;
	else
		r->busy_ns += to - from;
	add_timeline(a, r, from, to, t != SCHED_IDLE);
}

static void on_gap(void *ctx, uint32_t cpu, enum sched_gap gap, uint64_t from, uint64_t to)
{
	struct cpu_result *r = cpu_res(ctx, cpu);

	/*
	 * A CPU whose time in the window is all unknown is one of the
	 * window's CPUs still: its unknown time is said, not left out.
	 */
	if (r) {
		r->gap_ns[gap] += to - from;
		r->seen = 1;
	}
}

static void on_switch(void *ctx, uint32_t cpu, uint64_t ts, uint32_t prev,
		      uint32_t next, int involuntary)
{
	struct cpu_result *r = cpu_res(ctx, cpu);

	(void)ts, (void)prev, (void)next, (void)involuntary;
	if (r)
		r->switches++;
}

static int on_migrate(void *ctx, uint32_t t, uint32_t from, uint32_t to, uint64_t ts)
{
	struct analyze_cpu *a = ctx;
	struct cpu_result *r;

	(void)t, (void)ts;
	r = cpu_res(a, from);
	if (r)
		r->migrations_out++;
	r = cpu_res(a, to);
	if (r)
		r->migrations_in++;
	return a->error;
}

static const struct sched_ops cpu_ops = {
	.cpu_time = on_cpu_time,
	.gap = on_gap,
	.switch_out = on_switch,
	.migrate = on_migrate,
};

static int cpu_init(void *state, struct report *r)
{
	struct analyze_cpu *a = state;
	struct sched *s = &r->model->sched;

	a->s = s;
	a->t0 = s->from;
	a->bucket_ns = 1000;	/* 1 us to begin with: it doubles as needed */
	if (!cpu_res(a, s->nr_cpus ? s->nr_cpus - 1 : 0))
		return -ENOMEM;
	return model_add_client(r->model, &cpu_ops, a, 0);
}

static void cpu_fini(void *state)
{
	struct analyze_cpu *a = state;
	uint32_t i;

	for (i = 0; i < a->nr_cpus; i++) {
		free(a->cpus[i].timeline);
		free(a->cpus[i].timeline_known);
	}
	free(a->cpus);
}

const struct analyze_cpu *analyze_cpu(const struct report *r)
{
	return report_state(r, &analyzer_cpu);
}

void analyze_cpu_totals(struct report *r)
{
	const struct analyze_cpu *a = analyze_cpu(r);
	uint32_t cpu;

	r->nr_cpus = 0;
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		const struct cpu_result *c = &a->cpus[cpu];

		if (!c->seen)
			continue;
		r->busy_ns += c->busy_ns;
		r->known_ns += c->busy_ns + c->idle_ns;
		if (cpu + 1 > r->nr_cpus)
			r->nr_cpus = cpu + 1;
	}
}

double analyze_cpu_util(const struct report *r, uint32_t cpu)
{
	const struct cpu_result *c = &analyze_cpu(r)->cpus[cpu];

	return render_pct(c->busy_ns, c->busy_ns + c->idle_ns);
}

/* --- Text --- */

static void print_cpu_row(FILE *out, const char *label, uint64_t busy, uint64_t idle,
			  uint64_t hard, uint64_t soft, uint64_t sw, uint64_t in,
			  uint64_t outm, uint64_t unknown)
{
	char a[16], b[16], c[16], d[16], e[16];

	fprintf(out, "  %-4s %9s %9s %5.1f%% %9s %9s %9.1f %6" PRIu64 " %6" PRIu64 " %9s\n",
		label, render_ns(busy, a, sizeof(a)), render_ns(idle, b, sizeof(b)),
		render_pct(busy, busy + idle), render_ns(hard, c, sizeof(c)),
		render_ns(soft, d, sizeof(d)), render_per_s(sw, busy + idle), in, outm,
		unknown ? render_ns(unknown, e, sizeof(e)) : "-");
}

/* With -e power: each CPU's idle-state residency and mean frequency (--power has more). */
static void power_lines(FILE *out, const struct report *r, const struct analyze_cpu *a)
{
	char line[512];
	uint32_t cpu;
	int head = 0;

	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		if (!report_cpu_shown(r, cpu) || !analyze_power_cpu_line(r, cpu, line, sizeof(line)))
			continue;
		if (!head++)
			fprintf(out, "  idle states (time in each, of the idle time) and mean "
				"frequency:\n");
		fprintf(out, "  %-4u %s\n", cpu, line);
	}
}

static void cpu_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_cpu *a = analyze_cpu(r);
	const struct analyze_irq *q = analyze_irq(r);
	uint64_t t[8] = { 0 };
	char label[16];
	uint32_t cpu;

	(void)v;
	render_heading(out, "CPUs (utilization = busy / (busy + idle); irq time lies inside them)");
	fprintf(out, "  %-4s %9s %9s %6s %9s %9s %9s %6s %6s %9s\n", "cpu", "busy", "idle",
		"util", "hardirq", "softirq", "switch/s", "mig-in", "mig-out", "unknown");
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		const struct cpu_result *c = &a->cpus[cpu];
		const struct irq_cpu_result *i = cpu < q->nr_cpus ? &q->cpus[cpu] : NULL;
		uint64_t x[8] = {
			c->busy_ns, c->idle_ns, i ? i->ns[SCHED_HARDIRQ] : 0,
			i ? i->ns[SCHED_SOFTIRQ] : 0, c->switches, c->migrations_in,
			c->migrations_out, c->gap_ns[0] + c->gap_ns[1] + c->gap_ns[2],
		};
		int k;

		if (!report_cpu_shown(r, cpu))
			continue;
		snprintf(label, sizeof(label), "%u", cpu);
		print_cpu_row(out, label, x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]);
		for (k = 0; k < 8; k++)
			t[k] += x[k];
	}
	print_cpu_row(out, "all", t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]);
	if (analyze_power_recorded(r))
		power_lines(out, r, a);
}

#define SUMMARY_CPUS 8		/* more CPUs: the busiest and idlest only */

static void cpu_summary(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_cpu *a = analyze_cpu(r);
	uint32_t cpu, n = 0, hi = 0, lo = 0;
	double uhi = -1, ulo = 101;
	char b1[16], b2[16];

	(void)v;
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		double u = analyze_cpu_util(r, cpu);

		if (!report_cpu_shown(r, cpu))
			continue;
		n++;
		if (u > uhi) {
			uhi = u;
			hi = cpu;
		}
		if (u < ulo) {
			ulo = u;
			lo = cpu;
		}
	}
	fprintf(out, "\nCPUs: %.1f%% busy (%s busy, %s known)", render_pct(r->busy_ns, r->known_ns),
		render_ns(r->busy_ns, b1, sizeof(b1)), render_ns(r->known_ns, b2, sizeof(b2)));
	if (n > SUMMARY_CPUS) {
		fprintf(out, "; busiest CPU %u %.1f%%, idlest CPU %u %.1f%%\n", hi, uhi, lo, ulo);
		return;
	}
	fputc('\n', out);
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		const struct cpu_result *c = &a->cpus[cpu];

		if (report_cpu_shown(r, cpu))
			fprintf(out, "  CPU %-3u %5.1f%% busy, %8.1f switches/s\n", cpu,
				analyze_cpu_util(r, cpu),
				render_per_s(c->switches, c->busy_ns + c->idle_ns));
	}
}

/* --- HTML --- */

/* Buckets of the timeline inside the window. */
static uint32_t timeline_buckets(const struct report *r)
{
	const struct analyze_cpu *a = analyze_cpu(r);
	uint64_t n = a->bucket_ns ? (r->model->window_ns + a->bucket_ns - 1) / a->bucket_ns : 0;

	return n > CPU_TIMELINE_BUCKETS ? CPU_TIMELINE_BUCKETS : n ? n : 1;
}

static void machine_line(FILE *f, const struct report *r, uint32_t nb, double top, double h)
{
	const struct analyze_cpu *a = analyze_cpu(r);
	struct svg_axis x = { 0, (double)nb * a->bucket_ns, 0, svg_fmt_ns };
	struct svg_axis y = { 0, 100, 0, svg_fmt_pct };
	uint32_t i, cpu;

	svg_y_axis(f, &y, top + h, top, HTML_LEFT, HTML_W - HTML_RIGHT, "machine busy");
	fputs("<polyline fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"1.5\" points=\"", f);
	for (i = 0; i < nb; i++) {
		uint64_t busy = 0, known = 0;

		for (cpu = 0; cpu < a->nr_cpus; cpu++) {
			if (!report_cpu_shown(r, cpu))
				continue;
			busy += a->cpus[cpu].timeline[i];
			known += a->cpus[cpu].timeline_known[i];
		}
		fprintf(f, "%.1f,%.1f ",
			svg_pos(&x, (i + 0.5) * a->bucket_ns, HTML_LEFT, HTML_W - HTML_RIGHT),
			svg_pos(&y, render_pct(busy, known), top + h, top));
	}
	fputs("\"/>\n", f);
}

static void cpu_heatmap(FILE *f, const struct report *r)
{
	const struct analyze_cpu *a = analyze_cpu(r);
	uint32_t nb = timeline_buckets(r), cpu, shown = 0, row = 0, i;
	double cell_w, cell_h, top = 130, ht;
	struct svg_axis x;
	char c[8], label[32];

	for (cpu = 0; cpu < a->nr_cpus; cpu++)
		shown += report_cpu_shown(r, cpu);
	if (!shown)
		return;
	cell_h = shown <= 16 ? 18 : shown <= 64 ? 6 : 3;
	ht = shown * cell_h;
	html_figure_open(f, "cpu-utilization", HTML_W, (int)(top + ht + 90),
			 "CPU utilization over time");
	machine_line(f, r, nb, 10, 100);
	x = (struct svg_axis){ 0, (double)nb * a->bucket_ns, 0, svg_fmt_ns };
	cell_w = (double)(HTML_W - HTML_RIGHT - HTML_LEFT) / nb;
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		const struct cpu_result *cr = &a->cpus[cpu];
		double y = top + row * cell_h;

		if (!report_cpu_shown(r, cpu))
			continue;
		if (cell_h >= 10) {
			snprintf(label, sizeof(label), "CPU %u", cpu);
			svg_text(f, HTML_LEFT - 5, y + cell_h - 5, "end", "tick", label);
		}
		for (i = 0; i < nb; i++) {
			uint64_t k = cr->timeline_known[i];

			fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>\n",
				HTML_LEFT + i * cell_w, y, cell_w + 0.05, cell_h - (cell_h >= 6),
				k ? svg_heat((double)cr->timeline[i] / k, c) : "#d1d5db");
		}
		row++;
	}
	svg_x_axis(f, &x, HTML_LEFT, HTML_W - HTML_RIGHT, top + ht + 2, top + ht + 2,
		   "time since the window's start");
	for (i = 0; i <= 10; i++)
		fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"20\" height=\"10\" fill=\"%s\"/>\n",
			HTML_LEFT + (int)i * 20, top + ht + 48, svg_heat(i / 10.0, c));
	svg_text(f, HTML_LEFT + 230, top + ht + 57, "start", "legend",
		 "0% .. 100% busy per CPU (grey: unknown)");
	html_figure_close(f, "Per-CPU utilization in time buckets (busy / known time), and the "
			  "machine's above.");
}

static void cpu_table(FILE *f, const struct report *r)
{
	const struct analyze_cpu *a = analyze_cpu(r);
	const struct analyze_irq *q = analyze_irq(r);
	char b[4][16];
	uint32_t cpu;

	fputs("<table><tr><th>cpu</th><th>busy</th><th>idle</th><th>util</th><th class=l></th>"
	      "<th>hardirq</th><th>softirq</th><th>switches/s</th><th>mig in</th>"
	      "<th>mig out</th></tr>\n", f);
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		const struct cpu_result *c = &a->cpus[cpu];
		const struct irq_cpu_result *i = cpu < q->nr_cpus ? &q->cpus[cpu] : NULL;
		uint64_t known = c->busy_ns + c->idle_ns;
		double u = render_pct(c->busy_ns, known);

		if (!report_cpu_shown(r, cpu))
			continue;
		fprintf(f, "<tr><td>%u</td><td>%s</td><td>%s</td><td>%.1f%%</td>"
			"<td class=l><span class=bar style=\"width:%.0fpx\"></span></td>"
			"<td>%s</td><td>%s</td><td>%.1f</td><td>%" PRIu64 "</td><td>%" PRIu64
			"</td></tr>\n", cpu, render_ns(c->busy_ns, b[0], 16),
			render_ns(c->idle_ns, b[1], 16), u, u, render_ns(i ? i->ns[0] : 0, b[2], 16),
			render_ns(i ? i->ns[1] : 0, b[3], 16),
			known ? c->switches / (known / 1e9) : 0, c->migrations_in,
			c->migrations_out);
	}
	fputs("</table>\n", f);
}

static void cpu_html(FILE *f, const struct report *r, const struct report_view *v)
{
	(void)v;
	fputs("<h2 id=cpu>CPUs</h2>\n", f);
	cpu_heatmap(f, r);
	cpu_table(f, r);
}

/* --- JSON --- */

static const struct cpu_result *item(const struct json_ctx *c)
{
	return c->item;
}

static json_object *get_util(const struct json_field *f, struct json_ctx *c)
{
	(void)f;
	return json_doc_num(c, render_pct(item(c)->busy_ns, item(c)->busy_ns + item(c)->idle_ns), 3);
}

static json_object *get_switch_rate(const struct json_field *f, struct json_ctx *c)
{
	uint64_t known = item(c)->busy_ns + item(c)->idle_ns;

	(void)f;
	return json_doc_num(c, known ? item(c)->switches / (known / 1e9) : 0, 3);
}

static json_object *get_gap(const struct json_field *f, struct json_ctx *c)
{
	static const char *const names[SCHED_NR_GAPS] = { "nodata_ns", "loss_ns", "offline_ns" };
	int g;

	for (g = 0; g < SCHED_NR_GAPS && strcmp(names[g], f->name); g++)
		;
	return json_doc_u64(g < SCHED_NR_GAPS ? item(c)->gap_ns[g] : 0);
}

static const struct json_field unknown_fields[] = {
	{ .name = "nodata_ns", .type = JSON_INT, .get = get_gap }, { .name = "loss_ns", .type = JSON_INT, .get = get_gap },
	{ .name = "offline_ns", .type = JSON_INT, .get = get_gap }, JSON_END
};

#define CPU_INT(n, m) { .name = n, .type = JSON_INT, .off = offsetof(struct cpu_result, m) }

static const struct json_field cpu_fields[] = {
	CPU_INT("busy_ns", busy_ns), CPU_INT("idle_ns", idle_ns),
	{ .name = "utilization_pct", .type = JSON_NUM, .get = get_util },
	CPU_INT("switches", switches),
	{ .name = "switches_per_s", .type = JSON_NUM, .get = get_switch_rate },
	CPU_INT("migrations_in", migrations_in), CPU_INT("migrations_out", migrations_out),
	{ .name = "unknown", .type = JSON_OBJ, .sub = unknown_fields },
	JSON_END
};

/* --- Findings --- */

static int judge_busy(struct findings *f, const struct report *r, double th)
{
	const struct analyze_cpu *a = analyze_cpu(r);
	uint32_t cpu;

	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		double u = analyze_cpu_util(r, cpu);
		struct finding *x;

		if (!report_cpu_shown(r, cpu) || u <= th)
			continue;
		x = findings_add(f, SUBJECT_CPU, cpu, u, th);
		if (!x)
			return -ENOMEM;
		snprintf(x->text, sizeof(x->text), "CPU %u: busy %.1f%% of its time > %g%%",
			 cpu, u, th);
	}
	return 0;
}

static int judge_imbalance(struct findings *f, const struct report *r, double th)
{
	const struct analyze_cpu *a = analyze_cpu(r);
	const struct analyze_latency *l = analyze_latency(r);
	uint32_t cpu, hi_cpu = 0, lo_cpu = 0, n = 0;
	double hi = -1, lo = 101;
	struct finding *x;

	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		double u = analyze_cpu_util(r, cpu);

		if (!report_cpu_shown(r, cpu))
			continue;
		n++;
		if (u > hi) {
			hi = u;
			hi_cpu = cpu;
		}
		if (u < lo) {
			lo = u;
			lo_cpu = cpu;
		}
	}
	if (n < 2 || hi - lo <= th)
		return 0;
	x = findings_add(f, SUBJECT_MACHINE, 0, hi - lo, th);
	if (!x)
		return -ENOMEM;
	snprintf(x->text, sizeof(x->text),
		 "load imbalance: CPU %u busy %.1f%%, CPU %u busy %.1f%%: %.1f points > %g; p99 runqueue latency on CPU %u %.3f ms",
		 hi_cpu, hi, lo_cpu, lo, hi - lo, th, hi_cpu,
		 hi_cpu < l->nr_cpus ?
		 hist_percentile(&l->cpus[hi_cpu].h[SCHED_RUNQUEUE], 99) / 1e6 : 0);
	return 0;
}

static const struct findings_rule cpu_rules[] = {
	{ "cpu-busy", "%", 95, "a CPU is busy more than this share of its time", judge_busy },
	{ "imbalance", "points", 40, "the busiest and the idlest CPU differ by more than this",
	  judge_imbalance },
	{ NULL }
};

/* --- diff --- */

static double machine_util(const struct report *r, uint32_t id)
{
	(void)id;
	return r->known_ns ? 100.0 * r->busy_ns / r->known_ns : 0;
}

static double cpu_switches(const struct report *r, uint32_t cpu)
{
	return analyze_cpu(r)->cpus[cpu].switches;
}

/* Machine-wide like its CPUs' (idle included, every thread, -p or not). */
static double machine_switches(const struct report *r, uint32_t id)
{
	const struct analyze_cpu *c = analyze_cpu(r);
	uint64_t n = 0;
	uint32_t cpu;

	(void)id;
	for (cpu = 0; cpu < c->nr_cpus; cpu++)
		if (report_cpu_shown(r, cpu))
			n += c->cpus[cpu].switches;
	return n;
}

static const struct diff_metric cpu_metrics[] = {
	{ .name = "utilization", .entity = DIFF_MACHINE, .kind = METRIC_PERCENT, .value = machine_util },
	{ .name = "context switches", .entity = DIFF_MACHINE, .kind = METRIC_COUNT, .value = machine_switches },
	{ .name = "utilization", .entity = DIFF_CPU, .kind = METRIC_PERCENT, .value = analyze_cpu_util },
	{ .name = "context switches", .entity = DIFF_CPU, .kind = METRIC_COUNT, .value = cpu_switches },
	{ NULL }
};

const struct analyzer analyzer_cpu = {
	.name = "cpu",
	.help = "per CPU: busy, idle, utilization, irq time,\nswitches/s, tasks moved in and out",
	.size = sizeof(struct analyze_cpu),
	.init = cpu_init,
	.fini = cpu_fini,
	.text = cpu_text,
	.summary = cpu_summary,
	.html = cpu_html,
	.nav = "CPUs",
	.fields = { [ENTITY_CPU] = cpu_fields },
	.rules = cpu_rules,
	.metrics = cpu_metrics,
	.tool = {
		"analyze_cpu_utilization", "CPU utilization",
		"Per CPU: busy and idle time, utilization, hardirq/softirq/work-item time, context "
		"switches per second, tasks migrated in and out, IPIs, time unknown (lost records, "
		"offline); and the machine's total.",
		ARGS_CPUS, 1u << KTP_REC_SWITCH, NULL,
	},
};
