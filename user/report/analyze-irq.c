// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-cpu.h"
#include "report/analyze-irq.h"
#include "report/diff.h"
#include "report/render.h"
#include "util/array.h"
#include "util/text.h"

static struct irq_cpu_result *cpu_res(struct analyze_irq *a, uint32_t cpu)
{
	if (cpu >= 65536 ||
	    array_reserve((void **)&a->cpus, &a->nr_cpus, cpu, sizeof(*a->cpus), 8))
		return NULL;
	return &a->cpus[cpu];
}

static struct irq_handler *handler(struct analyze_irq *a, enum sched_irq_kind kind,
				   uint64_t id)
{
	uint64_t key = (uint64_t)kind << 62 | (id & ((1ull << 62) - 1));
	void *v = u64_map_get(&a->handler_index, key);
	struct irq_handler *h;

	if (v)
		return &a->handlers[(uintptr_t)v - 1];
	if (array_reserve((void **)&a->handlers, &a->cap_handlers, a->nr_handlers, sizeof(*a->handlers), 64))
		return NULL;
	if (u64_map_put(&a->handler_index, key, (void *)(uintptr_t)(a->nr_handlers + 1)))
		return NULL;
	h = &a->handlers[a->nr_handlers++];
	memset(h, 0, sizeof(*h));
	h->kind = kind;
	h->id = id;
	hist_init(&h->durations);
	return h;
}

static int on_irq(void *ctx, uint32_t cpu, const struct sched_irq *irq)
{
	struct analyze_irq *a = ctx;
	struct irq_cpu_result *c = cpu_res(a, cpu);
	struct irq_handler *h = handler(a, irq->kind, irq->id);

	if (!c || !h)
		return -ENOMEM;
	c->ns[irq->kind] += irq->self;
	h->self_ns += irq->self;
	if (!irq->counted)
		return 0;
	c->count[irq->kind]++;
	return hist_add(&h->durations, irq->end - irq->start);
}

static struct irq_ipi *ipi_of(struct analyze_irq *a, uint64_t callback)
{
	void *v = u64_map_get(&a->ipi_index, callback);
	struct irq_ipi *p;

	if (v)
		return &a->ipis[(uintptr_t)v - 1];
	if (array_reserve((void **)&a->ipis, &a->cap_ipis, a->nr_ipis, sizeof(*a->ipis), 32))
		return NULL;
	if (u64_map_put(&a->ipi_index, callback, (void *)(uintptr_t)(a->nr_ipis + 1)))
		return NULL;
	p = &a->ipis[a->nr_ipis++];
	memset(p, 0, sizeof(*p));
	p->callback = callback;
	return p;
}

/* One IPI: the sender, each target, the function. */
static int take_ipi(struct analyze_irq *a, const struct event *ev)
{
	struct irq_cpu_result *from = cpu_res(a, ev->cpu), *to;
	struct irq_ipi *p;
	struct ktp_ipi r;
	uint64_t word;
	unsigned int w, bit;

	memcpy(&r, ev->rec, sizeof(r));
	p = ipi_of(a, r.callback);
	if (!from || !p)
		return -ENOMEM;
	from->ipi_sent++;
	p->sent++;
	/* Targets the session did not have are damage (per-CPU tables grow). */
	if (!ev->flags) {
		if (r.cpu >= a->s->nr_cpus)
			return 0;
		to = cpu_res(a, r.cpu);
		if (!to)
			return -ENOMEM;
		to->ipi_received++;
		p->targets++;
		return 0;
	}
	/* A bitmap of ev->flags words follows; the decoder checked the size. */
	for (w = 0; w < ev->flags; w++) {
		memcpy(&word, (const uint8_t *)ev->rec + sizeof(r) + 8 * w, 8);
		for (bit = 0; word && bit < 64; bit++) {
			if (!(word & (1ull << bit)))
				continue;
			word &= ~(1ull << bit);
			if (w * 64 + bit >= a->s->nr_cpus)
				return 0;
			to = cpu_res(a, w * 64 + bit);
			if (!to)
				return -ENOMEM;
			to->ipi_received++;
			p->targets++;
		}
	}
	return 0;
}

static const char *const ipi_kind_names[IPI_NR_KINDS] = {
	"reschedule", "call_function_single", "call_function", "irq_work",
};

/* The vector a send raises: the kernel's senders (kernel/smp.c, irq_work.c, sched). */
static enum irq_ipi_kind ipi_kind_of_send(const struct event *ev, const struct ktp_ipi *r,
					  uint32_t target)
{
	if (!r->callback)
		return IPI_RESCHEDULE;
	if (ev->flags)
		return IPI_CALL_MANY;
	return target == ev->cpu ? IPI_IRQ_WORK : IPI_CALL_SINGLE;
}

/* A send to @target: pending until the target enters the vector. */
static void ipi_pending(struct analyze_irq *a, const struct event *ev, const struct ktp_ipi *r,
			uint32_t target)
{
	enum irq_ipi_kind k = ipi_kind_of_send(ev, r, target);
	uint64_t *p;

	if (target >= a->nr_pending)
		return;
	p = &a->pending[target][k];
	if (!*p)
		*p = ev->ts;
	else if (sched_in_window(a->s, ev->ts))
		a->delivery[k].coalesced++;
}

static void ipi_sends(struct analyze_irq *a, const struct event *ev)
{
	struct ktp_ipi r;
	uint64_t word;
	unsigned int w, bit;

	memcpy(&r, ev->rec, sizeof(r));
	if (!ev->flags) {
		ipi_pending(a, ev, &r, r.cpu);
		return;
	}
	for (w = 0; w < ev->flags; w++) {
		memcpy(&word, (const uint8_t *)ev->rec + sizeof(r) + 8 * w, 8);
		for (bit = 0; bit < 64; bit++)
			if (word & (1ull << bit))
				ipi_pending(a, ev, &r, w * 64 + bit);
	}
}

/* An x86 vector's entry: the delivery of the oldest send pending for it. */
static int ipi_entry(struct analyze_irq *a, const struct event *ev)
{
	const char *name;
	struct ktp_irq r;
	uint64_t *p;
	int k;

	memcpy(&r, ev->rec, sizeof(r));
	if (r.irq < KTP_IRQ_VECTOR_BASE || ev->cpu >= a->nr_pending ||
	    !(name = model_irq_name(a->m, r.irq)))
		return 0;
	for (k = 0; k < IPI_NR_KINDS && strcmp(name, ipi_kind_names[k]); k++)
		;
	if (k == IPI_NR_KINDS)
		return 0;
	p = &a->pending[ev->cpu][k];
	if (!*p) {
		if (sched_in_window(a->s, ev->ts))
			a->delivery[k].unmatched++;
		return 0;
	}
	if (sched_in_window(a->s, *p) && hist_add(&a->delivery[k].delay, ev->ts - *p))
		return -ENOMEM;
	*p = 0;
	return 0;
}

static int on_event(void *ctx, const struct event *ev)
{
	struct analyze_irq *a = ctx;

	if (ev->type == KTP_REC_IPI_SEND) {
		ipi_sends(a, ev);
		if (sched_in_window(a->s, ev->ts))
			return take_ipi(a, ev);
	} else if (ev->type == KTP_REC_IRQ_ENTRY) {
		return ipi_entry(a, ev);
	} else if (ev->type == EVENT_LOST && ev->cpu < a->nr_pending) {
		/* Its entries may be among the lost: a later one would pair wrongly. */
		memset(a->pending[ev->cpu], 0, sizeof(a->pending[ev->cpu]));
	}
	return 0;
}

static const struct sched_ops irq_ops = {
	.irq = on_irq,
	.event = on_event,
	.event_types = SCHED_TYPE(KTP_REC_IPI_SEND) | SCHED_TYPE(KTP_REC_IRQ_ENTRY),
};

static int irq_init(void *state, struct report *r)
{
	struct analyze_irq *a = state;
	int k;

	a->s = &r->model->sched;
	a->m = r->model;
	u64_map_init(&a->handler_index);
	u64_map_init(&a->ipi_index);
	hist_init(&a->durations[SCHED_HARDIRQ]);
	hist_init(&a->durations[SCHED_SOFTIRQ]);
	for (k = 0; k < IPI_NR_KINDS; k++)
		hist_init(&a->delivery[k].delay);
	a->nr_pending = a->s->nr_cpus;
	a->pending = calloc(a->nr_pending + 1, sizeof(*a->pending));
	if (!a->pending)
		return -ENOMEM;
	return model_add_client(r->model, &irq_ops, a, 0);
}

static void irq_fini(void *state)
{
	struct analyze_irq *a = state;
	uint32_t i;

	for (i = 0; i < a->nr_handlers; i++)
		hist_fini(&a->handlers[i].durations);
	hist_fini(&a->durations[SCHED_HARDIRQ]);
	hist_fini(&a->durations[SCHED_SOFTIRQ]);
	for (i = 0; i < IPI_NR_KINDS; i++)
		hist_fini(&a->delivery[i].delay);
	free(a->pending);
	free(a->handlers);
	free(a->ipis);
	free(a->cpus);
	u64_map_fini(&a->handler_index);
	u64_map_fini(&a->ipi_index);
}

/* Every hardirq's and softirq's durations, merged: the machine's. */
static int irq_derive(void *state, struct report *r)
{
	struct analyze_irq *a = state;
	uint32_t i;

	(void)r;
	for (i = 0; i < a->nr_handlers; i++) {
		const struct irq_handler *h = &a->handlers[i];

		if ((h->kind == SCHED_HARDIRQ || h->kind == SCHED_SOFTIRQ) &&
		    hist_merge(&a->durations[h->kind], &h->durations))
			return -ENOMEM;
	}
	return 0;
}

const struct analyze_irq *analyze_irq(const struct report *r)
{
	return report_state(r, &analyzer_irq);
}

/* "irq 24 virtio0", "softirq TIMER", "work func": a handler's name in text. */
static const char *handler_name(const struct report *r, const struct irq_handler *h,
				char *buf, size_t len)
{
	char sym[128];
	const char *n;

	switch (h->kind) {
	case SCHED_HARDIRQ:
		model_irq_label(r->model, h->id, buf, len);
		break;
	case SCHED_SOFTIRQ:
		n = model_softirq_name(h->id);
		snprintf(buf, len, "softirq %s", n ? n : "?");
		break;
	default:
		snprintf(buf, len, "work %s", report_ksym(r, h->id, sym, sizeof(sym)));
	}
	return buf;
}

/* --- Text --- */

static int by_self(const void *a, const void *b)
{
	const struct irq_handler *x = *(struct irq_handler *const *)a;
	const struct irq_handler *y = *(struct irq_handler *const *)b;

	return x->self_ns < y->self_ns ? 1 : x->self_ns > y->self_ns ? -1 : 0;
}

static void handlers_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_irq *a = analyze_irq(r);
	const struct irq_handler **h = malloc((a->nr_handlers + 1) * sizeof(*h));
	char name[160], b[4][16];
	uint32_t i;

	if (!h)
		return;
	for (i = 0; i < a->nr_handlers; i++)
		h[i] = &a->handlers[i];
	qsort(h, a->nr_handlers, sizeof(*h), by_self);
	fprintf(out, "  %-30s %8s %9s %8s %8s %8s\n", "handler", "count", "time", "mean",
		"p99", "max");
	for (i = 0; i < a->nr_handlers && i < render_rows(v); i++)
		fprintf(out, "  %-30.30s %8" PRIu64 " %9s %8s %8s %8s\n",
			text_esc(handler_name(r, h[i], name, sizeof(name))), h[i]->durations.count,
			render_ns(h[i]->self_ns, b[0], 16),
			render_ns((uint64_t)hist_mean(&h[i]->durations), b[1], 16),
			render_ns(hist_percentile(&h[i]->durations, 99), b[2], 16),
			render_ns(h[i]->durations.max, b[3], 16));
	free(h);
}

/* IPI delivery delay by vector; "-" without a delivery. */
static void delivery_text(FILE *out, const struct analyze_irq *a)
{
	char b[3][16];
	int k;

	if (!analyze_irq_has_delivery(a))
		return;
	fprintf(out, "\n  IPI delivery (send to the target's vector entry)\n");
	fprintf(out, "  %-22s %8s %9s %9s %9s %9s %10s\n", "vector", "IPIs", "coalesced", "p50",
		"p99", "max", "no send");
	for (k = 0; k < IPI_NR_KINDS; k++) {
		const struct irq_ipi_delay *d = &a->delivery[k];

		if (!d->delay.count && !d->coalesced && !d->unmatched)
			continue;
		fprintf(out, "  %-22s %8" PRIu64 " %9" PRIu64 " %9s %9s %9s %10" PRIu64 "\n",
			ipi_kind_names[k], d->delay.count, d->coalesced,
			d->delay.count ? render_ns(hist_percentile(&d->delay, 50), b[0], 16) : "-",
			d->delay.count ? render_ns(hist_percentile(&d->delay, 99), b[1], 16) : "-",
			d->delay.count ? render_ns(d->delay.max, b[2], 16) : "-", d->unmatched);
	}
}

int analyze_irq_has_delivery(const struct analyze_irq *a)
{
	int k;

	for (k = 0; k < IPI_NR_KINDS; k++)
		if (a->delivery[k].delay.count || a->delivery[k].coalesced || a->delivery[k].unmatched)
			return 1;
	return 0;
}

void analyze_irq_delivery_text(FILE *out, const struct report *r)
{
	delivery_text(out, analyze_irq(r));
}

static void irq_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_irq *a = analyze_irq(r);
	char b[3][16], sym[128];
	uint32_t cpu, i;

	render_heading(out, "interrupts (self time; work items run in their worker threads)");
	fprintf(out, "  %-4s %9s %8s %9s %8s %9s %8s %9s %9s\n", "cpu", "hardirq", "count",
		"softirq", "count", "work", "count", "ipi-sent", "ipi-recv");
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		const struct irq_cpu_result *q = &a->cpus[cpu];

		if (!report_cpu_shown(r, cpu))
			continue;
		fprintf(out, "  %-4u %9s %8" PRIu64 " %9s %8" PRIu64 " %9s %8" PRIu64 " %9" PRIu64
			" %9" PRIu64 "\n", cpu, render_ns(q->ns[0], b[0], 16), q->count[0],
			render_ns(q->ns[1], b[1], 16), q->count[1], render_ns(q->ns[2], b[2], 16),
			q->count[2], q->ipi_sent, q->ipi_received);
	}
	handlers_text(out, r, v);
	if (!a->nr_ipis || v->summary)
		return;
	fprintf(out, "  %-30s %8s %8s\n", "IPI function", "sent", "targets");
	for (i = 0; i < a->nr_ipis; i++)
		fprintf(out, "  %-30.30s %8" PRIu64 " %8" PRIu64 "\n",
			a->ipis[i].callback ? text_esc(report_ksym(r, a->ipis[i].callback, sym,
								   sizeof(sym))) : "(reschedule)",
			a->ipis[i].sent, a->ipis[i].targets);
	delivery_text(out, a);
}

static void irq_summary(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_irq *a = analyze_irq(r);
	uint64_t hard = 0, soft = 0, work = 0;
	char c[16];
	uint32_t cpu;

	(void)v;
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		if (!report_cpu_shown(r, cpu))
			continue;
		hard += a->cpus[cpu].ns[SCHED_HARDIRQ];
		soft += a->cpus[cpu].ns[SCHED_SOFTIRQ];
		work += a->cpus[cpu].ns[SCHED_WORK];
	}
	fprintf(out, "interrupts: hardirq %s, ", render_ns(hard, c, sizeof(c)));
	fprintf(out, "softirq %s (%.1f%% of the CPUs' time); ", render_ns(soft, c, sizeof(c)),
		render_pct(hard + soft, r->known_ns));
	fprintf(out, "work items %s in worker threads\n", render_ns(work, c, sizeof(c)));
}

/* --- HTML --- */

static void irq_html(FILE *f, const struct report *r, const struct report_view *v)
{
	static const char *const labels[] = { "hardirq", "softirq", "work items" };
	const struct analyze_irq *a = analyze_irq(r);
	const struct analyze_cpu *ac = analyze_cpu(r);
	const char *colors[] = { svg_color(2), svg_color(1), svg_color(3) };
	struct svg_axis y = { 0, 0.001, 0, svg_fmt_pct };
	uint32_t cpu, n = 0, i = 0;
	double top = 30, bottom = 240, step;
	char label[16];
	int k;

	(void)v;
	fputs("<h2 id=irq>Interrupts</h2>\n", f);
	for (cpu = 0; cpu < a->nr_cpus && cpu < ac->nr_cpus; cpu++) {
		const struct cpu_result *c = &ac->cpus[cpu];
		const struct irq_cpu_result *q = &a->cpus[cpu];
		double sum = render_pct(q->ns[0] + q->ns[1] + q->ns[2], c->busy_ns + c->idle_ns);

		if (!report_cpu_shown(r, cpu))
			continue;
		n++;
		y.max = sum > y.max ? sum : y.max;
	}
	if (!n)
		return;
	svg_nice(&y);
	step = (double)(HTML_W - HTML_RIGHT - HTML_LEFT) / n;
	html_figure_open(f, "irq-per-cpu", HTML_W, 300, "interrupt time per CPU");
	svg_y_axis(f, &y, bottom, top, HTML_LEFT, HTML_W - HTML_RIGHT, "share of the CPU");
	for (cpu = 0; cpu < a->nr_cpus && cpu < ac->nr_cpus; cpu++) {
		const struct cpu_result *c = &ac->cpus[cpu];
		const struct irq_cpu_result *q = &a->cpus[cpu];
		double base = bottom, x;

		if (!report_cpu_shown(r, cpu))
			continue;
		x = HTML_LEFT + i++ * step + step * 0.15;
		for (k = 0; k < 3; k++) {
			double h = bottom - svg_pos(&y, render_pct(q->ns[k], c->busy_ns + c->idle_ns),
						    bottom, top);

			if (h > 0.1)
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
					x, base - h, step * 0.7, h, colors[k]);
			base -= h;
		}
		if (n <= 32 || cpu % 8 == 0) {
			snprintf(label, sizeof(label), "%u", cpu);
			svg_text(f, x + step * 0.35, bottom + 14, "middle", "tick", label);
		}
	}
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
		HTML_LEFT, bottom, HTML_W - HTML_RIGHT, bottom);
	svg_text(f, (HTML_LEFT + HTML_W - HTML_RIGHT) / 2, bottom + 32, "middle", "title", "CPU");
	svg_legend(f, HTML_LEFT, 15, labels, colors, 3);
	html_figure_close(f, "Hardirq, softirq (self time) and work-item time per CPU, as a share of "
			  "its known time.");
}

/* --- JSON --- */

static json_object *get_cpu(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_irq *a = analyze_irq(render_report(c));
	const struct irq_cpu_result *q = c->id < a->nr_cpus ? &a->cpus[c->id] : NULL;

	return json_doc_u64(q ? *(const uint64_t *)((const char *)q + f->off) : 0);
}

#define Q(n, m) { .name = n, .type = JSON_INT, .off = offsetof(struct irq_cpu_result, m), .get = get_cpu }

static const struct json_field cpu_fields[] = {
	Q("hardirq_ns", ns[SCHED_HARDIRQ]), Q("softirq_ns", ns[SCHED_SOFTIRQ]),
	Q("work_ns", ns[SCHED_WORK]), Q("hardirqs", count[SCHED_HARDIRQ]),
	Q("softirqs", count[SCHED_SOFTIRQ]), Q("work_items", count[SCHED_WORK]),
	Q("ipi_sent", ipi_sent), Q("ipi_received", ipi_received),
	JSON_END
};

static const struct irq_handler *handler_of(const struct json_ctx *c)
{
	return c->item;
}

static json_object *get_handler(const struct json_field *f, struct json_ctx *c)
{
	static const char *const kinds[] = { "hardirq", "softirq", "work" };
	const struct irq_handler *h = handler_of(c);
	const struct report *r = render_report(c);
	char sym[128];

	if (!strcmp(f->name, "kind"))
		return json_doc_str(kinds[h->kind]);
	if (!strcmp(f->name, "name"))
		return json_doc_str(h->kind == SCHED_HARDIRQ ? model_irq_name(r->model, h->id) :
				    h->kind == SCHED_SOFTIRQ ? model_softirq_name(h->id) :
				    report_ksym(r, h->id, sym, sizeof(sym)));
	if (!strcmp(f->name, "self_ns"))
		return json_doc_u64(h->self_ns);
	if (!strcmp(f->name, "duration"))
		return json_doc_dist(c, &h->durations);
	/* irq, vector or function: the one of its kind. */
	if ((unsigned int)h->kind != f->off)
		return NULL;
	return json_doc_u64(h->id);
}

static int next_handler(struct json_ctx *c, size_t *pos)
{
	const struct analyze_irq *a = analyze_irq(render_report(c));

	if (*pos >= a->nr_handlers)
		return 0;
	c->item = &a->handlers[(*pos)++];
	return 1;
}

static const struct json_field handler_fields[] = {
	{ .name = "kind", .type = JSON_STR, .get = get_handler },
	{ .name = "irq", .type = JSON_INT, .flags = JSON_OPTIONAL, .off = SCHED_HARDIRQ, .get = get_handler },
	{ .name = "vector", .type = JSON_INT, .flags = JSON_OPTIONAL, .off = SCHED_SOFTIRQ, .get = get_handler },
	{ .name = "function", .type = JSON_INT, .flags = JSON_OPTIONAL, .off = SCHED_WORK, .get = get_handler },
	{ .name = "name", .type = JSON_STR, .get = get_handler }, { .name = "self_ns", .type = JSON_INT, .get = get_handler },
	{ .name = "duration", .type = JSON_DIST, .get = get_handler },
	JSON_END
};

static json_object *get_ipi(const struct json_field *f, struct json_ctx *c)
{
	const struct irq_ipi *p = c->item;
	char sym[128];

	if (!strcmp(f->name, "function"))
		return json_doc_str(p->callback ? report_ksym(render_report(c), p->callback, sym,
							      sizeof(sym)) : "reschedule");
	return json_doc_u64(!strcmp(f->name, "sent") ? p->sent : p->targets);
}

static int next_ipi(struct json_ctx *c, size_t *pos)
{
	const struct analyze_irq *a = analyze_irq(render_report(c));

	if (*pos >= a->nr_ipis)
		return 0;
	c->item = &a->ipis[(*pos)++];
	return 1;
}

static const struct json_field ipi_fields[] = {
	{ .name = "function", .type = JSON_STR, .get = get_ipi }, { .name = "sent", .type = JSON_INT, .get = get_ipi },
	{ .name = "targets", .type = JSON_INT, .get = get_ipi }, JSON_END
};

static int next_delivery(struct json_ctx *c, size_t *pos)
{
	const struct analyze_irq *a = analyze_irq(render_report(c));

	while (*pos < IPI_NR_KINDS && !a->delivery[*pos].delay.count &&
	       !a->delivery[*pos].coalesced && !a->delivery[*pos].unmatched)
		(*pos)++;
	if (*pos >= IPI_NR_KINDS)
		return 0;
	c->id = *pos;
	c->item = &a->delivery[(*pos)++];
	return 1;
}

static json_object *get_delivery(const struct json_field *f, struct json_ctx *c)
{
	const struct irq_ipi_delay *d = c->item;

	if (!strcmp(f->name, "vector"))
		return json_doc_str(ipi_kind_names[c->id]);
	if (!strcmp(f->name, "coalesced"))
		return json_doc_u64(d->coalesced);
	if (!strcmp(f->name, "entries_without_send"))
		return json_doc_u64(d->unmatched);
	return json_doc_dist(c, &d->delay);
}

static const struct json_field delivery_fields[] = {
	{ .name = "vector", .type = JSON_STR, .get = get_delivery },
	{ .name = "delay", .type = JSON_DIST, .get = get_delivery,
	  .description = "send to the target's entry, of sends in the window" },
	{ .name = "coalesced", .type = JSON_INT, .get = get_delivery,
	  .description = "sends while one to the same CPU and vector was pending" },
	{ .name = "entries_without_send", .type = JSON_INT, .get = get_delivery,
	  .description = "entries with no traced send pending (6.1 traces no send)" },
	JSON_END
};

static const struct json_field section_fields[] = {
	{ .name = "handlers", .type = JSON_ARR, .sub = handler_fields, .flags = JSON_LIST, .next = next_handler, .order = "self_ns" },
	{ .name = "ipis", .type = JSON_ARR, .sub = ipi_fields, .flags = JSON_LIST, .next = next_ipi, .order = "sent" },
	{ .name = "ipi_delivery", .type = JSON_ARR, .sub = delivery_fields, .next = next_delivery,
	  .description = "IPI delivery delay by vector (x86; ipi and irq groups)" },
	JSON_END
};

static const struct json_field irq_doc[] = {
	{ .name = "irq", .type = JSON_OBJ, .sub = section_fields, .flags = 0, .description = "hardirq, softirq and work-item handlers; IPIs" },
	JSON_END
};

/* --- Findings --- */

static int judge(struct findings *f, const struct report *r, double th)
{
	const struct analyze_irq *a = analyze_irq(r);
	const struct analyze_cpu *ac = analyze_cpu(r);
	uint32_t cpu;

	for (cpu = 0; cpu < a->nr_cpus && cpu < ac->nr_cpus; cpu++) {
		const struct cpu_result *c = &ac->cpus[cpu];
		const struct irq_cpu_result *q = &a->cpus[cpu];
		uint64_t irq = q->ns[SCHED_HARDIRQ] + q->ns[SCHED_SOFTIRQ];
		double share = render_pct(irq, c->busy_ns + c->idle_ns);
		struct finding *x;

		if (!report_cpu_shown(r, cpu) || share <= th)
			continue;
		x = findings_add(f, SUBJECT_CPU, cpu, share, th);
		if (!x)
			return -ENOMEM;
		snprintf(x->text, sizeof(x->text),
			 "CPU %u: hardirq and softirq took %.1f%% of its time > %g%% (hardirq %.3f ms, softirq %.3f ms)",
			 cpu, share, th, q->ns[SCHED_HARDIRQ] / 1e6, q->ns[SCHED_SOFTIRQ] / 1e6);
	}
	return 0;
}

static const struct findings_rule rules[] = {
	{ "irq", "%", 10, "hardirq and softirq take more than this share of a CPU", judge },
	{ NULL }
};

/* --- diff --- */

static const struct hist *hardirq_durations(const struct report *r, uint32_t id)
{
	(void)id;
	return &analyze_irq(r)->durations[SCHED_HARDIRQ];
}

static const struct hist *softirq_durations(const struct report *r, uint32_t id)
{
	(void)id;
	return &analyze_irq(r)->durations[SCHED_SOFTIRQ];
}

static double cpu_irq_time(const struct report *r, uint32_t cpu)
{
	const struct analyze_irq *a = analyze_irq(r);

	return cpu < a->nr_cpus ? a->cpus[cpu].ns[0] + a->cpus[cpu].ns[1] : 0;
}

static uint32_t handlers(const struct report *r)
{
	return analyze_irq(r)->nr_handlers;
}

/* A handler's name in a diff: matched across runs by it (irq numbers differ). */
static const char *handler_key(const struct report *r, uint32_t i, char *buf, size_t len)
{
	const struct irq_handler *h = &analyze_irq(r)->handlers[i];
	char sym[96];
	const char *n;

	if (h->kind == SCHED_HARDIRQ) {
		n = model_irq_name(r->model, h->id);
		if (n)
			snprintf(buf, len, "irq %s", n);
		else
			model_irq_label(r->model, h->id, buf, len);
	} else if (h->kind == SCHED_SOFTIRQ) {
		n = model_softirq_name(h->id);
		snprintf(buf, len, "softirq %s", n ? n : "?");
	} else {
		snprintf(buf, len, "work %s", report_ksym(r, h->id, sym, sizeof(sym)));
	}
	return buf;
}

static double handler_time(const struct report *r, uint32_t i)
{
	return analyze_irq(r)->handlers[i].self_ns;
}

static const struct hist *handler_durations(const struct report *r, uint32_t i)
{
	return &analyze_irq(r)->handlers[i].durations;
}

static const struct diff_metric metrics[] = {
	{ .name = "hardirq duration", .entity = DIFF_MACHINE, .kind = METRIC_DIST, .dist = hardirq_durations },
	{ .name = "softirq duration", .entity = DIFF_MACHINE, .kind = METRIC_DIST, .dist = softirq_durations },
	{ .name = "hardirq+softirq time", .entity = DIFF_CPU, .kind = METRIC_TIME, .value = cpu_irq_time },
	{ .name = "time", .entity = DIFF_HANDLER, .kind = METRIC_TIME, .value = handler_time, .count = handlers, .name_of = handler_key },
	{ .name = "duration", .entity = DIFF_HANDLER, .kind = METRIC_DIST, .dist = handler_durations, .count = handlers, .name_of = handler_key },
	{ NULL }
};

const struct analyzer analyzer_irq = {
	.name = "irq",
	.help = "hardirq, softirq, work item and IPI time per CPU\nand per handler, with duration distributions",
	.size = sizeof(struct analyze_irq),
	.init = irq_init,
	.fini = irq_fini,
	.derive = irq_derive,
	.text = irq_text,
	.summary = irq_summary,
	.html = irq_html,
	.nav = "interrupts",
	.doc = irq_doc,
	.fields = { [ENTITY_CPU] = cpu_fields },
	.rules = rules,
	.metrics = metrics,
	.tool = {
		"analyze_irqs", "Interrupts",
		"Hardirq, softirq and work-item time per CPU and per handler, with the distribution "
		"of their durations; IPIs per function.",
		ARGS_IRQS, (1u << KTP_REC_IRQ_ENTRY) | (1u << KTP_REC_SOFTIRQ_ENTRY) |
		(1u << KTP_REC_WQ_START) | (1u << KTP_REC_IPI_SEND), NULL,
	},
};
