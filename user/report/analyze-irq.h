/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where interrupts ate the time: hardirq, softirq and work-item time per
 * CPU and per handler (irq number, softirq vector, work function), with
 * the distribution of their durations; IPIs sent and received per CPU and
 * per function (the module records IPIs at the sender: counts, no time).
 *
 * Time is self time: a hardirq inside a softirq counts as hardirq only.
 * Work items run in their worker thread: their time is that thread's
 * runtime, measured from start to end (sleeps included).
 */
#ifndef KTPROF_ANALYZE_IRQ_H
#define KTPROF_ANALYZE_IRQ_H

#include "report/hist.h"
#include "report/report.h"
#include "util/u64-map.h"

#define IRQ_KINDS 3	/* enum sched_irq_kind */

struct irq_cpu_result {
	uint64_t ns[IRQ_KINDS];		/* self time */
	uint64_t count[IRQ_KINDS];
	uint64_t ipi_sent, ipi_received;
};

struct irq_handler {
	enum sched_irq_kind kind;
	uint64_t id;			/* irq, vector, function address */
	uint64_t self_ns;
	struct hist durations;		/* entry to exit */
};

struct irq_ipi {
	uint64_t callback;		/* 0: reschedule */
	uint64_t sent, targets;		/* IPIs, and CPUs they went to */
};

/*
 * IPI delivery: the send (ipi_send_cpu/_cpumask, v6.3+) to the target's
 * vector entry (x86 irq_vectors), by the vector the send raises.
 */
enum irq_ipi_kind { IPI_RESCHEDULE, IPI_CALL_SINGLE, IPI_CALL_MANY, IPI_IRQ_WORK,
		    IPI_NR_KINDS };

struct irq_ipi_delay {
	struct hist delay;		/* send to entry, of sends in the window */
	uint64_t coalesced;		/* sends while one was pending: one entry serves them */
	uint64_t unmatched;		/* entries in the window without a traced send */
};

struct analyze_irq {
	const struct sched *s;
	const struct model *m;
	uint64_t (*pending)[IPI_NR_KINDS];	/* per target CPU: the oldest unserved send, 0: none */
	uint32_t nr_pending;
	struct irq_ipi_delay delivery[IPI_NR_KINDS];
	struct irq_cpu_result *cpus;
	uint32_t nr_cpus;
	struct irq_handler *handlers;
	uint32_t nr_handlers, cap_handlers;
	struct u64_map handler_index;	/* kind << 62 | id -> position + 1 */
	struct irq_ipi *ipis;
	uint32_t nr_ipis, cap_ipis;
	struct u64_map ipi_index;	/* callback -> position + 1 */
	struct hist durations[2];	/* derived: every hardirq's, softirq's */
};

const struct analyze_irq *analyze_irq(const struct report *r);

/* Whether any IPI was delivered, coalesced or entered without a send. */
int analyze_irq_has_delivery(const struct analyze_irq *a);

/* The IPI delivery table (--irq's; --latency's too), nothing without one. */
void analyze_irq_delivery_text(FILE *out, const struct report *r);

extern const struct analyzer analyzer_irq;

#endif
