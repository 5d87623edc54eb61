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
 * Test ("nmi-nested N" in selftest): a record to push from inside the next
 * push on this CPU, at its most delicate point, as an NMI arriving there
 * would. NULL: none. Set and used by this CPU only.
 */
static DEFINE_PER_CPU(const void *, ktp_stage_nested);

/* Set it (NULL: clear it); the one it replaces, NULL if pushed already. */
const void *ktp_stage_set_nested(const void *rec)
{
	return this_cpu_xchg(ktp_stage_nested, rec);
}

static void ktp_stage_count_drop(struct ktp_stage *st, const struct ktp_hdr *h)
{
	atomic64_inc(&st->dropped[min_t(u32, h->type, KTP_REC_NR_TYPES - 1)]);
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
	const void *nested;
	u32 size = h->size, head, tail, off, room, need;

	if (READ_ONCE(st->producing)) {
		ktp_stage_count_drop(st, h);
		return false;
	}
	nested = this_cpu_read(ktp_stage_nested);
	if (unlikely(nested)) {
		/* The test's "NMI", between the check and the claim. */
		this_cpu_write(ktp_stage_nested, NULL);
		ktp_stage_push(st, nested);
	}
	WRITE_ONCE(st->producing, true);
	/*
	 * The ring is read only once it is claimed: an NMI that came before
	 * has finished its push, which these reads see; one that comes from
	 * here on finds the claim and counts its record lost. (Reading the
	 * head first, a push would write over what such an NMI pushed
	 * meanwhile, uncounted.)
	 */
	barrier();
	head = st->head;
	tail = READ_ONCE(st->tail);
	off = head % KTP_STAGE_SIZE;
	room = KTP_STAGE_SIZE - off;
	need = size + (room < size ? room : 0);
	if (KTP_STAGE_SIZE - (head - tail) < need) {
		barrier();
		WRITE_ONCE(st->producing, false);
		ktp_stage_count_drop(st, h);
		return false;
	}
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
		kc->stats[KTP_STAT_LOST] += dropped - st->dropped_seen[t];
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
