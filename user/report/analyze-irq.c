// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-irq.h"
#include "util/array.h"

#define IRQ_NAMES_MAX 65536	/* irq numbers named; others stay numbers */

const char *analyze_irq_softirq_name(uint64_t vec)
{
	static const char *const names[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
		"TASKLET", "SCHED", "HRTIMER", "RCU",
	};

	return vec < sizeof(names) / sizeof(names[0]) ? names[vec] : NULL;
}

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
	if (a->nr_handlers == a->cap_handlers) {
		uint32_t cap = a->cap_handlers ? a->cap_handlers * 2 : 64;
		struct irq_handler *n = realloc(a->handlers, cap * sizeof(*n));

		if (!n)
			return NULL;
		a->handlers = n;
		a->cap_handlers = cap;
	}
	if (u64_map_put(&a->handler_index, key, (void *)(uintptr_t)(a->nr_handlers + 1)))
		return NULL;
	h = &a->handlers[a->nr_handlers++];
	memset(h, 0, sizeof(*h));
	h->kind = kind;
	h->id = id;
	hist_init(&h->durations);
	return h;
}

static int on_irq(void *ctx, uint32_t cpu, enum sched_irq_kind kind, uint64_t id,
		  uint64_t start, uint64_t end, uint64_t self)
{
	struct analyze_irq *a = ctx;
	struct irq_cpu_result *c = cpu_res(a, cpu);
	struct irq_handler *h = handler(a, kind, id);

	if (!c || !h || hist_add(&h->durations, end - start))
		return -ENOMEM;
	c->ns[kind] += self;
	c->count[kind]++;
	h->self_ns += self;
	return 0;
}

static struct irq_ipi *ipi_of(struct analyze_irq *a, uint64_t callback)
{
	void *v = u64_map_get(&a->ipi_index, callback);
	struct irq_ipi *p;

	if (v)
		return &a->ipis[(uintptr_t)v - 1];
	if (a->nr_ipis == a->cap_ipis) {
		uint32_t cap = a->cap_ipis ? a->cap_ipis * 2 : 32;
		struct irq_ipi *n = realloc(a->ipis, cap * sizeof(*n));

		if (!n)
			return NULL;
		a->ipis = n;
		a->cap_ipis = cap;
	}
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

static int take_name(struct analyze_irq *a, const struct event *ev)
{
	struct ktp_irq_name r;
	size_t max = ev->size - sizeof(r);

	memcpy(&r, ev->rec, sizeof(r));
	if (r.irq >= IRQ_NAMES_MAX)
		return 0;
	if (r.irq >= a->nr_names) {
		uint32_t len = a->nr_names ? a->nr_names : 64;
		char (*n)[KTP_IRQ_NAME_MAX];

		while (len <= r.irq)
			len *= 2;
		n = realloc(a->names, len * sizeof(*n));
		if (!n)
			return -ENOMEM;
		memset(n + a->nr_names, 0, (len - a->nr_names) * sizeof(*n));
		a->names = n;
		a->nr_names = len;
	}
	if (max >= KTP_IRQ_NAME_MAX)
		max = KTP_IRQ_NAME_MAX - 1;
	memcpy(a->names[r.irq], (const char *)ev->rec + sizeof(r), max);
	a->names[r.irq][max] = '\0';
	return 0;
}

static int on_event(void *ctx, const struct event *ev)
{
	struct analyze_irq *a = ctx;

	if (ev->type == KTP_REC_IRQ_NAME)
		return take_name(a, ev);
	if (ev->type == KTP_REC_IPI_SEND && sched_in_window(a->s, ev->ts))
		return take_ipi(a, ev);
	return 0;
}

static const struct sched_ops irq_ops = {
	.irq = on_irq,
	.event = on_event,
};

const char *analyze_irq_name(const struct analyze_irq *a, uint64_t irq)
{
	return irq < a->nr_names && a->names[irq][0] ? a->names[irq] : NULL;
}

int analyze_irq_init(struct analyze_irq *a, struct sched *s)
{
	memset(a, 0, sizeof(*a));
	a->s = s;
	u64_map_init(&a->handler_index);
	u64_map_init(&a->ipi_index);
	return sched_add_client(s, &irq_ops, a);
}

void analyze_irq_fini(struct analyze_irq *a)
{
	uint32_t i;

	for (i = 0; i < a->nr_handlers; i++)
		hist_fini(&a->handlers[i].durations);
	free(a->handlers);
	free(a->ipis);
	free(a->cpus);
	free(a->names);
	u64_map_fini(&a->handler_index);
	u64_map_fini(&a->ipi_index);
	memset(a, 0, sizeof(*a));
}
