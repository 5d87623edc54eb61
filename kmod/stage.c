// SPDX-License-Identifier: GPL-2.0
/*
 * The NMI staging ring. relay is not NMI-safe, so what NMI context writes
 * (samples of hardware events, their MAP and THROTTLE records, and records
 * of tracepoints that fire in NMI) is copied into a per-CPU ring and moved
 * to relay by the CPU's drain irq_work, or by its STOP or OFFLINE mark. A
 * full ring counts the record as lost, by type.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/string.h>

#include "sample.h"

/* Write @rec (a complete record with its header) to this CPU's buffer. */
static bool ktp_write_copy(const void *rec)
{
	const struct ktp_hdr *src = rec;
	struct ktp_wr w;
	void *p;

	p = ktp_reserve(&w, src->type, src->flags, src->size);
	if (!p)
		return false;
	memcpy(p + sizeof(struct ktp_hdr), rec + sizeof(struct ktp_hdr),
	       src->size - sizeof(struct ktp_hdr));
	ktp_commit(&w);
	return true;
}

/*
 * Emit a complete record now, or stage it when relay cannot be called here
 * (@staged: NMI, or the sample_defer test knob). False if it was lost.
 */
bool ktp_emit(struct ktp_sample_cpu *sc, const void *rec, bool staged)
{
	return staged ? ktp_stage_push(sc->stage, rec) : ktp_write_copy(rec);
}

/*
 * Producer: copy a record into the ring, or count it lost. Producers are
 * NMI handlers, which do not nest, and, with IRQs off, the test modes that
 * stage outside NMI (sample_defer, the "nmi" selftest): a real NMI that
 * finds one of those mid-push counts its record lost rather than write
 * over it.
 */
bool ktp_stage_push(struct ktp_stage *st, const void *rec)
{
	const struct ktp_hdr *h = rec;
	u32 size = h->size;
	u32 head = st->head, tail = READ_ONCE(st->tail);
	u32 off = head % KTP_STAGE_SIZE, room = KTP_STAGE_SIZE - off;
	u32 need = size + (room < size ? room : 0);

	if (READ_ONCE(st->producing) ||
	    KTP_STAGE_SIZE - (head - tail) < need) {
		atomic64_inc(&st->dropped[min_t(u32, h->type, KTP_REC_NR_TYPES - 1)]);
		return false;
	}
	WRITE_ONCE(st->producing, true);
	/* Seen set by an NMI that interrupts from here on. */
	barrier();
	if (room < size) {
		/* No record crosses the end: mark the rest as skipped. */
		if (room >= sizeof(u32))
			memset(st->data + off, 0, sizeof(u32));
		head += room;
		off = 0;
	}
	memcpy(st->data + off, rec, size);
	/* The bytes before the head that publishes them. */
	smp_wmb();
	WRITE_ONCE(st->head, head + size);
	barrier();
	WRITE_ONCE(st->producing, false);
	return true;
}

/* Consumer (this CPU, IRQs off, not NMI): staged records into relay. */
void ktp_stage_drain(struct ktp_stage *st)
{
	struct ktp_cpu *kc = this_cpu_ptr(&ktp_cpus);
	u32 head = READ_ONCE(st->head), tail = st->tail;
	unsigned int t;

	lockdep_assert_irqs_disabled();
	/* Records before the head are complete. */
	smp_rmb();
	while (tail != head) {
		u32 off = tail % KTP_STAGE_SIZE, room = KTP_STAGE_SIZE - off;
		const struct ktp_hdr *h = (void *)(st->data + off);

		if (room < sizeof(*h) || !h->size || h->size > room) {
			tail += room;	/* the skipped end of the ring */
			continue;
		}
		ktp_write_copy(h);
		tail += h->size;
	}
	/* Done reading the records before the producer may reuse the room. */
	smp_mb();
	WRITE_ONCE(st->tail, tail);
	for (t = 0; t < KTP_REC_NR_TYPES; t++) {
		u64 dropped = atomic64_read(&st->dropped[t]);

		if (dropped == st->dropped_seen[t])
			continue;
		kc->lost += dropped - st->dropped_seen[t];
		kc->dropped[t] += dropped - st->dropped_seen[t];
		st->dropped_seen[t] = dropped;
	}
}

/*
 * A record a tracepoint wrote in NMI context (into kc->nmi_rec, see
 * ktp_reserve()): staged when this CPU samples, else lost.
 */
void ktp_stage_nmi_record(struct ktp_cpu *kc, const void *rec)
{
	struct ktp_sample_cpu *sc = this_cpu_read(ktp_sample_cpus);
	const struct ktp_hdr *h = rec;
	bool staged = sc && ktp_stage_push(sc->stage, rec);

	if (!sc)
		this_cpu_inc(ktp_cpus.nmi_dropped[min_t(u32, h->type,
							KTP_REC_NR_TYPES - 1)]);
	/* Free before the irq_work, whose ipi_send_cpu lands here again. */
	kc->nmi_busy = false;
	/* The drain irq_work of this CPU's sampling moves it out. */
	if (staged)
		irq_work_queue(&sc->drain_work);
}
