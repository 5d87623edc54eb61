// SPDX-License-Identifier: GPL-2.0
/*
 * The relay channel: per-CPU buffers, the record write path, loss
 * accounting, and the debugfs cpuN files readers use.
 *
 * Records are written with IRQs off from reserve to commit, so on one CPU a
 * record is always complete before the next begins (hardirq tracepoints
 * cannot interleave with task-context ones; NMI context never writes
 * here). A sub-buffer therefore holds whole records in time order.
 *
 * Readers only ever see sub-buffers relay has finished ("produced"): relay's
 * own read() would also return the sub-buffer being filled, and a record
 * reserved but not yet written in it. The partly filled sub-buffer becomes
 * readable on flush, at stop, and when its CPU goes offline.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "compat.h"
#include "ktprof.h"

DEFINE_PER_CPU(struct ktp_cpu, ktp_cpus);

/*
 * Readers of each CPU's file take its lock. The offset already read in the
 * oldest sub-buffer lives in the buffer itself (buf->bytes_consumed, which
 * relay's own read() would use and ours replaces), so a file still open on
 * a previous session's buffer cannot disturb the new session's reader.
 */
struct ktp_reader {
	struct mutex lock;
};

static DEFINE_PER_CPU(struct ktp_reader, ktp_readers);

static const struct file_operations ktp_relay_fops;

static void ktp_count_drop(struct ktp_cpu *kc, unsigned int type)
{
	kc->stats[KTP_STAT_LOST]++;
	if (type < KTP_REC_NR_TYPES)
		kc->dropped[type]++;
}

/*
 * A CPU's drops of type @t: those counted, and those NMI context counted
 * that its next sub-buffer or mark has not folded in yet (for readers of
 * the counters: stats, netlink).
 */
u64 ktp_cpu_dropped(struct ktp_cpu *kc, unsigned int t)
{
	return READ_ONCE(kc->dropped[t]) + READ_ONCE(kc->nmi_dropped[t]) -
	       READ_ONCE(kc->nmi_dropped_seen[t]);
}

/* A CPU's loss, NMI drops not yet folded in included. */
static u64 ktp_cpu_lost(struct ktp_cpu *kc)
{
	u64 lost = READ_ONCE(kc->stats[KTP_STAT_LOST]);
	unsigned int t;

	for (t = 0; t < KTP_REC_NR_TYPES; t++)
		lost += READ_ONCE(kc->nmi_dropped[t]) -
			READ_ONCE(kc->nmi_dropped_seen[t]);
	return lost;
}

/* NR is the number of KTP_CA_<NAME> (ktprof_abi.h). */
#define KTP_STAT_DESC(NAME, NR, name, ...) \
	[KTP_STAT_##NAME] = { .key = #name, .attr = NR },

const struct ktp_stat_desc ktp_stat_descs[KTP_NR_STATS] = {
	KTP_CPU_STATS(KTP_STAT_DESC)
};

/* A CPU's counters as the stats file and netlink give them. */
void ktp_cpu_stats(struct ktp_cpu *kc, u64 v[KTP_NR_STATS])
{
	unsigned int i;

	for (i = 0; i < KTP_NR_STATS; i++)
		v[i] = READ_ONCE(kc->stats[i]);
	v[KTP_STAT_LOST] = ktp_cpu_lost(kc);
}

/*
 * Move the drops NMI context counted into the loss counts. Not in NMI:
 * NMI only increments nmi_dropped[], so reading it here is race-free.
 */
void ktp_fold_nmi_drops(struct ktp_cpu *kc)
{
	unsigned int t;

	for (t = 0; t < KTP_REC_NR_TYPES; t++) {
		u64 n = READ_ONCE(kc->nmi_dropped[t]);

		if (n != kc->nmi_dropped_seen[t]) {
			kc->stats[KTP_STAT_LOST] += n - kc->nmi_dropped_seen[t];
			kc->dropped[t] += n - kc->nmi_dropped_seen[t];
			kc->nmi_dropped_seen[t] = n;
		}
	}
}

/*
 * Room kept free at the end of every sub-buffer, so that a CPU's final
 * mark (STOP, OFFLINE: its loss count) can land even when its buffer is
 * full; see ktp_write_tail_mark().
 */
#define KTP_TAIL_RESERVE sizeof(struct ktp_cpu_mark)

/* What starts a sub-buffer: its header, and with the TSC a CLOCK record. */
static size_t ktp_subbuf_head(const struct ktp_cpu *kc)
{
	return sizeof(struct ktp_subbuf) +
	       (kc->tsc ? sizeof(struct ktp_clock) : 0);
}

/* relay_reserve(), with records kept out of the tail reserve. */
static __always_inline void *ktp_relay_reserve(struct ktp_cpu *kc,
					       struct rchan *chan,
					       unsigned int len)
{
	struct rchan_buf *buf = *this_cpu_ptr(chan->buf);
	size_t limit = chan->subbuf_size - KTP_TAIL_RESERVE;

	if (len > limit - ktp_subbuf_head(kc))
		return NULL;
	/* A current sub-buffer (not the full state) and no room: next one. */
	if (buf->offset <= chan->subbuf_size && buf->offset + len > limit)
		relay_switch_subbuf(buf, len);
	return relay_reserve(chan, len);
}

/*
 * The time of a record about to be reserved, in the session's stamps, and
 * the bytes it needs before it: a TIME record when a boot-time delta would
 * not fit in 24 bits (a short record's), a CLOCK record when the TSC has gone a span past
 * this CPU's last one (or back before it: a counter reset).
 */
static __always_inline u64 ktp_stamp(struct ktp_cpu *kc, unsigned int *extra)
{
	u64 ts;

	if (likely(kc->tsc)) {
		ts = ktp_cycles();
		if (unlikely(ts - kc->anchor_cycles > ktp_session.clock_span)) {
			*extra = sizeof(struct ktp_clock);
			return ktp_clock_next(kc, &kc->pending_clock);
		}
		return max(ts, kc->last_ts);
	}
	/* The fast clock may step back a little; times never go back here. */
	ts = max(ktime_get_boot_fast_ns(), kc->last_ts);
	if (unlikely(ts - kc->last_ts > KTP_DELTA_MAX))
		*extra = sizeof(struct ktp_time);
	/* A sub-buffer this record starts begins at its time. */
	kc->pending_ts = ts;
	return ts;
}

/*
 * Count a record written in the current sub-buffer: a committed one, or a
 * TIME or CLOCK record in front of another.
 */
static __always_inline void ktp_count_written(struct ktp_cpu *kc,
					      unsigned int type,
					      unsigned int size)
{
	kc->stats[KTP_STAT_RECORDS]++;
	kc->stats[KTP_STAT_BYTES] += size;
	kc->written[type]++;
	kc->subbuf_records[kc->cur_subbuf]++;
}

/*
 * Write the TIME or CLOCK record ktp_stamp() asked for, for a record
 * stamped @ts, at @p; returns where the record itself goes. The record's
 * delta from it is 0 (ktp_stamp() returned the CLOCK record's stamp).
 */
static void *ktp_write_stamp(struct ktp_cpu *kc, void *p, unsigned int extra,
			     u64 ts)
{
	if (extra == sizeof(struct ktp_clock)) {
		memcpy(p, &kc->pending_clock, sizeof(kc->pending_clock));
		ktp_clock_taken(kc, &kc->pending_clock);
	} else {
		struct ktp_time *t = p;

		t->h = (struct ktp_hdr){ .type = KTP_REC_TIME,
					 .size = sizeof(*t) };
		t->ts = ts;
		kc->last_ts = ts;
	}
	ktp_count_written(kc, ((struct ktp_hdr *)p)->type, extra);
	return p + extra;
}

static void ktp_write_nested(struct ktp_cpu *kc);

/*
 * In NMI: relay is not NMI-safe. Tracepoints reach here from NMI when an
 * NMI handler queues an irq_work (ipi_send_cpu, v6.3+), ours included: the
 * record goes to the staging ring, or is counted with NMI-safe ops and
 * folded into the loss later. IRQs are off; NULL to drop.
 */
static void *ktp_reserve_nmi(struct ktp_wr *w, struct ktp_cpu *kc,
			     unsigned int type, unsigned int flags,
			     unsigned int size)
{
	struct ktp_hdr *h;

	/* This CPU is writing its final mark: its recording has ended. */
	if (kc->closing)
		return NULL;
	if (kc->nmi_busy || size > sizeof(kc->nmi_rec)) {
		this_cpu_inc(ktp_cpus.nmi_dropped[min(type, KTP_REC_NR_TYPES - 1U)]);
		return NULL;
	}
	kc->nmi_busy = true;
	h = (struct ktp_hdr *)kc->nmi_rec;
	*h = (struct ktp_hdr){ .type = type, .flags = flags, .size = size };
	w->kc = kc;
	w->type = type;
	w->size = size;
	w->nested = false;
	w->nmi = true;
	return h;
}

/* A tracepoint inside our own write path: set its record aside. */
static void *ktp_reserve_nested(struct ktp_wr *w, struct ktp_cpu *kc,
				unsigned int type, unsigned int flags,
				unsigned int size)
{
	struct ktp_hdr *h;

	if (kc->closing)
		return NULL;	/* our own reader wakeup, at the end */
	if (kc->nest_len + size > sizeof(kc->nest_buf)) {
		kc->stats[KTP_STAT_NESTED]++;
		ktp_count_drop(kc, type);
		return NULL;
	}
	h = (struct ktp_hdr *)(kc->nest_buf + kc->nest_len);
	*h = (struct ktp_hdr){ .type = type, .flags = flags, .size = size };
	w->kc = kc;
	w->type = type;
	w->size = size;
	w->nested = true;
	w->nmi = false;
	return h;
}

/*
 * The write path: a record of @size bytes, with the header of a record of
 * @type, or with a short record's header of short type @stype (when
 * nonzero; @type then names it in the counts). Short records are not set
 * aside nor staged (the nesting buffer and the staging ring hold full
 * records): there the caller is told to write the full record instead.
 */
static __always_inline void *__ktp_reserve(struct ktp_wr *w, unsigned int type,
					   unsigned int flags, unsigned int size,
					   unsigned int stype)
{
	struct rchan *chan = ktp_session.chan;
	struct ktp_cpu *kc;
	struct ktp_hdr *h;
	unsigned int extra = 0;
	u64 ts;
	void *p;

	local_irq_save(w->irqflags);
	kc = this_cpu_ptr(&ktp_cpus);
	if (unlikely(!kc->active))
		goto out;
	if (unlikely(in_nmi() || kc->in_write)) {
		if (stype) {
			w->not_short = true;
			goto out;
		}
		p = in_nmi() ? ktp_reserve_nmi(w, kc, type, flags, size) :
			       ktp_reserve_nested(w, kc, type, flags, size);
		if (!p)
			goto out;
		return p;
	}
	kc->in_write = true;
	w->nested = false;
	w->nmi = false;

	ts = ktp_stamp(kc, &extra);
	/* May start a sub-buffer: ktp_subbuf_start() moves last_ts. */
	p = ktp_relay_reserve(kc, chan, size + extra);
	if (unlikely(!p)) {
		ktp_count_drop(kc, type);
		kc->in_write = false;
		/* What the failed switch set aside goes now (or is lost), in order. */
		if (unlikely(kc->nest_len) && !kc->draining)
			ktp_write_nested(kc);
		goto out;
	}
	if (unlikely(extra))
		p = ktp_write_stamp(kc, p, extra, ts);
	/* A new sub-buffer's CLOCK record read the counter after us. */
	ts = max(ts, kc->last_ts);
	if (stype) {
		*(u32 *)p = stype | (u32)(ts - kc->last_ts) << 8;
	} else {
		h = p;
		h->type = type;
		h->flags = flags;
		h->size = size;
		h->ts_delta = ts - kc->last_ts;
	}
	kc->last_ts = ts;
	w->kc = kc;
	w->type = type;
	w->size = size;
	return p;
out:
	local_irq_restore(w->irqflags);
	return NULL;
}

void *ktp_reserve(struct ktp_wr *w, unsigned int type, unsigned int flags,
		  unsigned int size)
{
	return __ktp_reserve(w, type, flags, size, 0);
}

void *ktp_reserve_short(struct ktp_wr *w, unsigned int stype,
			unsigned int type, unsigned int size)
{
	w->not_short = false;
	return __ktp_reserve(w, type, 0, size, stype);
}

/*
 * Write the records set aside during the last write, in order. Writing
 * them can set more aside (another wakeup): loop until none is left.
 */
static void ktp_write_nested(struct ktp_cpu *kc)
{
	u8 copy[KTP_NEST_BUF] __aligned(8);
	unsigned int len, off;

	kc->draining = true;
	while (kc->nest_len) {
		len = kc->nest_len;
		memcpy(copy, kc->nest_buf, len);
		kc->nest_len = 0;
		for (off = 0; off < len;) {
			const struct ktp_hdr *src = (void *)(copy + off);
			struct ktp_wr w;
			void *p;

			p = ktp_reserve(&w, src->type, src->flags, src->size);
			if (p) {
				memcpy(p + sizeof(*src), src + 1,
				       src->size - sizeof(*src));
				ktp_commit(&w);
			}
			off += src->size;
		}
	}
	kc->draining = false;
}

void ktp_commit(struct ktp_wr *w)
{
	struct ktp_cpu *kc = w->kc;

	if (w->nmi) {
		/* Frees kc->nmi_rec. */
		ktp_stage_nmi_record(kc, kc->nmi_rec);
		local_irq_restore(w->irqflags);
		return;
	}
	if (w->nested) {
		kc->nest_len += w->size;
		local_irq_restore(w->irqflags);
		return;
	}
	/* The record's bytes before any store that publishes its sub-buffer. */
	smp_wmb();
	ktp_count_written(kc, w->type, w->size);
	kc->in_write = false;
	if (unlikely(kc->nest_len) && !kc->draining)
		ktp_write_nested(kc);
	local_irq_restore(w->irqflags);
}

/*
 * Called by relay on the writing CPU (IRQs off) when a record does not fit,
 * from our flushes, and once per buffer at creation. Returning 0 makes
 * relay drop records until a reader frees a sub-buffer.
 */
static int ktp_subbuf_start(KTP_SUBBUF_START_PROTO)
{
	struct ktp_cpu *kc = per_cpu_ptr(&ktp_cpus, buf->cpu);
	unsigned int idx = buf->subbufs_produced % buf->chan->n_subbufs;
	struct ktp_subbuf *sb = subbuf;
	size_t head = sizeof(*sb);
	u64 ts;

	/* The end of this CPU's data: no new sub-buffer takes a slot. */
	if (kc->finishing)
		return 0;
	ktp_fold_nmi_drops(kc);
	if (relay_buf_full(buf)) {
		if (!ktp_session.cfg.overwrite) {
			kc->full = true;
			return 0;
		}
		/* Flight recorder: the oldest sub-buffer's records are lost. */
		kc->stats[KTP_STAT_OVERWRITTEN] += kc->subbuf_records[idx];
		kc->stats[KTP_STAT_LOST] += kc->subbuf_records[idx];
	}
	if (unlikely(kc->full)) {
		/* A reader made room: FILE records dropped meanwhile retry. */
		kc->full = false;
		ktp_files_room();
	}
	kc->subbuf_records[idx] = 0;
	kc->cur_subbuf = idx;

	if (kc->tsc && prev_subbuf) {
		/* On the writing CPU: the counter's pair opens the sub-buffer. */
		struct ktp_clock *c = (void *)(sb + 1);

		ktp_clock_pair(kc, c);
		ts = c->ts;
		ktp_clock_taken(kc, c);
		ktp_count_written(kc, KTP_REC_CLOCK, sizeof(*c));
		head += sizeof(*c);
	} else {
		/*
		 * relay makes a buffer's first sub-buffer on whichever CPU
		 * opens the channel or brings the CPU up: with the TSC, the
		 * CPU's first record takes its own pair (anchor_cycles 0).
		 */
		ts = prev_subbuf ? kc->pending_ts : ktime_get_boot_fast_ns();
		kc->last_ts = kc->tsc ? 0 : ts;
		kc->anchor_cycles = 0;
	}
	*sb = (struct ktp_subbuf){
		.h = { .type = KTP_REC_SUBBUF, .size = sizeof(*sb) },
		.magic = KTP_SUBBUF_MAGIC,
		.cpu = buf->cpu,
		.abi_major = KTP_ABI_MAJOR,
		.abi_minor = KTP_ABI_MINOR,
		.seq = kc->stats[KTP_STAT_SUBBUFS]++,
		.lost = kc->stats[KTP_STAT_LOST],
		.ts = ts,
		.session_id = ktp_session.id,
	};
	subbuf_start_reserve(buf, head);
	return 1;
}

static struct dentry *ktp_create_buf_file(const char *filename,
					  struct dentry *parent, umode_t mode,
					  struct rchan_buf *buf, int *is_global)
{
	return debugfs_create_file(filename, 0400, parent, buf,
				   &ktp_relay_fops);
}

static int ktp_remove_buf_file(struct dentry *dentry)
{
	debugfs_remove(dentry);
	return 0;
}

static const struct rchan_callbacks ktp_relay_callbacks = {
	.subbuf_start = ktp_subbuf_start,
	.create_buf_file = ktp_create_buf_file,
	.remove_buf_file = ktp_remove_buf_file,
};

/* Overwrite mode rewrites finished sub-buffers: read only when stopped. */
static bool ktp_read_forbidden(void)
{
	return READ_ONCE(ktp_session.cfg.overwrite) &&
	       READ_ONCE(ktp_session.state) == KTP_SESSION_RUNNING;
}

/* relay_subbufs_consumed() ignores more than n_subbufs at a time. */
static void ktp_skip_subbufs(struct rchan_buf *buf, size_t count)
{
	while (count) {
		size_t step = min(count, buf->chan->n_subbufs);

		relay_subbufs_consumed(buf->chan, buf->cpu, step);
		count -= step;
	}
}

/* How many of the newest sub-buffers an overwrite-mode reader may read. */
static size_t ktp_whole_subbufs(struct rchan_buf *buf)
{
	bool writing = READ_ONCE(buf->offset) <= buf->chan->subbuf_size;

	return buf->chan->n_subbufs - (writing ? 1 : 0);
}

static ssize_t ktp_relay_read(struct file *filp, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct rchan_buf *buf = filp->private_data;
	struct ktp_reader *r = per_cpu_ptr(&ktp_readers, buf->cpu);
	size_t n = buf->chan->n_subbufs, size = buf->chan->subbuf_size;
	ssize_t done = 0;

	if (mutex_lock_interruptible(&r->lock))
		return -ERESTARTSYS;
	if (ktp_read_forbidden()) {
		done = -EBUSY;
		goto out;
	}
	while (count) {
		size_t produced = READ_ONCE(buf->subbufs_produced);
		size_t consumed = READ_ONCE(buf->subbufs_consumed);
		size_t idx, end, len;

		/* Sub-buffer contents are read after their publication. */
		smp_rmb();
		/*
		 * In overwrite mode a sub-buffer being written took the slot
		 * of the oldest one: only the newest n - 1 are whole. After
		 * the final flush none is being written: all n are.
		 * (In drop mode a full buffer has no sub-buffer being written.)
		 */
		if (ktp_session.cfg.overwrite &&
		    produced - consumed > ktp_whole_subbufs(buf)) {
			ktp_skip_subbufs(buf, produced - consumed -
					 ktp_whole_subbufs(buf));
			buf->bytes_consumed = 0;
			continue;
		}
		if (produced == consumed)
			break;
		idx = consumed % n;
		end = size - buf->padding[idx];
		len = min(end - buf->bytes_consumed, count);
		if (copy_to_user(ubuf + done, buf->start + idx * size +
				 buf->bytes_consumed, len)) {
			if (!done)
				done = -EFAULT;
			break;
		}
		done += len;
		count -= len;
		buf->bytes_consumed += len;
		if (buf->bytes_consumed == end) {
			buf->bytes_consumed = 0;
			relay_subbufs_consumed(buf->chan, buf->cpu, 1);
		}
	}
	if (done > 0)
		*ppos += done;
out:
	mutex_unlock(&r->lock);
	return done;
}

static __poll_t ktp_relay_poll(struct file *filp, poll_table *wait)
{
	struct rchan_buf *buf = filp->private_data;
	__poll_t mask = 0;

	if (buf->finalized)
		return EPOLLERR;
	poll_wait(filp, &buf->read_wait, wait);
	if (READ_ONCE(buf->subbufs_produced) != READ_ONCE(buf->subbufs_consumed)) {
		if (!ktp_read_forbidden())
			mask |= EPOLLIN | EPOLLRDNORM;
	} else if (READ_ONCE(ktp_session.state) != KTP_SESSION_RUNNING) {
		/* Stopped and drained: nothing more will come. */
		mask |= EPOLLHUP;
	}
	return mask;
}

/* relay's open and release keep the buffer's reference count. */
static int ktp_relay_file_open(struct inode *inode, struct file *filp)
{
	return relay_file_operations.open(inode, filp);
}

static int ktp_relay_file_release(struct inode *inode, struct file *filp)
{
	return relay_file_operations.release(inode, filp);
}

/*
 * No mmap: that keeps the files usable under lockdown (debugfs refuses
 * files with mmap then), and a mapping would expose the sub-buffer being
 * written.
 */
static const struct file_operations ktp_relay_fops = {
	.owner = THIS_MODULE,
	.open = ktp_relay_file_open,
	.release = ktp_relay_file_release,
	.read = ktp_relay_read,
	.poll = ktp_relay_poll,
};

int ktp_relay_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		mutex_init(&per_cpu_ptr(&ktp_readers, cpu)->lock);
	return 0;
}

/* Clear every CPU's counters for a new session; no CPU may be active. */
void ktp_relay_reset_cpus(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct ktp_cpu *kc = per_cpu_ptr(&ktp_cpus, cpu);

		vfree(kc->subbuf_records);
		memset(kc, 0, sizeof(*kc));
	}
}

int ktp_relay_open(void)
{
	const struct ktp_config *cfg = &ktp_session.cfg;
	int cpu;

	ktp_relay_reset_cpus();
	for_each_possible_cpu(cpu) {
		struct ktp_cpu *kc = per_cpu_ptr(&ktp_cpus, cpu);

		kc->subbuf_records = vzalloc(array_size(cfg->n_subbufs,
							sizeof(u32)));
		if (!kc->subbuf_records)
			goto nomem;
		kc->tsc = ktp_session.clock == KTP_CLOCK_TSC;
	}
	/*
	 * relay makes buffers for the CPUs online now, and its hotplug step
	 * (CPUHP_RELAY_PREPARE) for those that come up once the channel is
	 * listed: a CPU past that step but not yet online would get none.
	 * Under the hotplug lock no CPU is midway (relay takes it before
	 * relay_channels_mutex itself, in that step). One parked midway by
	 * the hotplug state control still gets none: ktp_relay_has_buf().
	 */
	cpus_read_lock();
	ktp_session.chan = relay_open("cpu", ktp_debugfs_dir, cfg->subbuf_size,
				      cfg->n_subbufs, &ktp_relay_callbacks,
				      NULL);
	cpus_read_unlock();
	if (!ktp_session.chan)
		goto nomem;
	return 0;
nomem:
	ktp_relay_reset_cpus();
	return -ENOMEM;
}

/* Has this CPU a relay buffer? A CPU without one must not record. */
bool ktp_relay_has_buf(void)
{
	return ktp_session.chan && *this_cpu_ptr(ktp_session.chan->buf);
}

/* Close the channel: files go away; open readers see EIO. */
void ktp_relay_close(void)
{
	if (!ktp_session.chan)
		return;
	relay_close(ktp_session.chan);
	ktp_session.chan = NULL;
	ktp_relay_reset_cpus();
}

/*
 * Finish this CPU's partly filled sub-buffer so readers get it. IRQs off.
 *
 * relay_switch_subbuf() wakes readers with irq_work_queue(), which fires
 * the ipi_send_cpu tracepoint (v6.3+) after the old sub-buffer is
 * published but before the new one starts. Our own probe must not write
 * then: the record would land past the published end, or switch
 * sub-buffers inside this switch and publish one never written. With
 * in_write set it goes aside and is written after; a second switch then
 * publishes it without another tracepoint, since the first wakeup's
 * irq_work is still pending (IRQs are off).
 */
void ktp_flush_local(void)
{
	struct ktp_cpu *kc = this_cpu_ptr(&ktp_cpus);
	struct rchan_buf *buf;
	int pass;

	lockdep_assert_irqs_disabled();
	if (!ktp_session.chan || kc->in_write)
		return;
	buf = *this_cpu_ptr(ktp_session.chan->buf);
	for (pass = 0; buf && pass < 2; pass++) {
		/* Nothing but the header, or no current sub-buffer (full). */
		if (buf->offset <= ktp_subbuf_head(kc) ||
		    buf->offset > buf->chan->subbuf_size)
			return;
		/* The new sub-buffer's time (with the TSC, it reads its own). */
		if (!kc->tsc)
			kc->pending_ts = max(ktime_get_boot_fast_ns(),
					     kc->last_ts);
		kc->in_write = true;
		relay_switch_subbuf(buf, 0);
		kc->in_write = false;
		if (!kc->nest_len)
			return;
		ktp_write_nested(kc);
	}
}

/*
 * Publish this CPU's last sub-buffer at its STOP or OFFLINE mark, after
 * which it writes nothing (IRQs off, not active). No sub-buffer starts
 * after it, so in overwrite mode none of the kept ones is overwritten by
 * an empty successor, and the mark's loss count stays the final one. A
 * CPU that comes back online starts a new sub-buffer with its first record.
 */
void ktp_flush_final(void)
{
	struct ktp_cpu *kc = this_cpu_ptr(&ktp_cpus);
	struct rchan_buf *buf;

	lockdep_assert_irqs_disabled();
	if (!ktp_session.chan || kc->active)
		return;
	buf = *this_cpu_ptr(ktp_session.chan->buf);
	if (!buf || buf->offset > buf->chan->subbuf_size)
		return;
	kc->finishing = true;
	relay_switch_subbuf(buf, 0);
	kc->finishing = false;
}

void ktp_relay_wake_readers(void)
{
	int cpu;

	if (!ktp_session.chan)
		return;
	for_each_possible_cpu(cpu) {
		struct rchan_buf *buf = *per_cpu_ptr(ktp_session.chan->buf, cpu);

		if (buf)
			wake_up_interruptible(&buf->read_wait);
	}
}

static void ktp_fill_mark(struct ktp_cpu_mark *m, struct ktp_cpu *kc,
			  enum ktp_cpu_reason reason)
{
	ktp_fold_nmi_drops(kc);
	m->pid = current->pid;
	m->reason = reason;
	m->prio = ktp_prio(current->prio);
	m->pad = 0;
	m->records = kc->stats[KTP_STAT_RECORDS];
	m->lost = kc->stats[KTP_STAT_LOST];
}

/*
 * A full buffer (drop mode) has no sub-buffer being written and all of its
 * sub-buffers unread, the newest one included: append the mark in that
 * one's tail reserve and shrink its padding, so readers get it. IRQs off.
 */
static void ktp_write_tail_mark(struct ktp_cpu *kc, enum ktp_cpu_reason reason)
{
	struct rchan_buf *buf = *this_cpu_ptr(ktp_session.chan->buf);
	size_t size = buf->chan->subbuf_size, n = buf->chan->n_subbufs, idx;
	struct ktp_cpu_mark *m;
	u64 now;

	lockdep_assert_irqs_disabled();
	if (kc->in_write || buf->offset != size + 1 ||
	    buf->subbufs_produced - buf->subbufs_consumed != n)
		return;
	idx = (buf->subbufs_produced - 1) % n;
	if (buf->padding[idx] < sizeof(*m))
		return;
	m = buf->start + idx * size + (size - buf->padding[idx]);
	/* It follows the last record kept, in that sub-buffer. */
	now = max(kc->tsc ? ktp_cycles() : ktime_get_boot_fast_ns(),
		  kc->last_ts);
	m->h = (struct ktp_hdr){ .type = KTP_REC_CPU, .size = sizeof(*m),
				 .ts_delta = min_t(u64, now - kc->last_ts,
						   U32_MAX) };
	kc->last_ts += m->h.ts_delta;
	/* The failed reserve counted this mark as dropped: it is not. */
	kc->stats[KTP_STAT_LOST]--;
	kc->dropped[KTP_REC_CPU]--;
	ktp_fill_mark(m, kc, reason);
	/* The mark's bytes before the padding that exposes them. */
	smp_wmb();
	buf->padding[idx] -= sizeof(*m);
	kc->stats[KTP_STAT_RECORDS]++;
	kc->stats[KTP_STAT_BYTES] += sizeof(*m);
	kc->written[KTP_REC_CPU]++;
}

/*
 * Write a per-CPU session marker on this CPU. START and ONLINE name the
 * running task, the first "prev" of this CPU's switch sequence; STOP and
 * OFFLINE carry the final counts and always land (see above).
 */
void ktp_cpu_mark(enum ktp_cpu_reason reason)
{
	bool final = reason == KTP_CPU_STOP || reason == KTP_CPU_OFFLINE;
	struct ktp_cpu_mark *m;
	struct ktp_wr w;

	m = ktp_reserve(&w, KTP_REC_CPU, 0, sizeof(*m));
	if (!m) {
		struct ktp_cpu *kc = this_cpu_ptr(&ktp_cpus);

		if (final && kc->active && ktp_session.chan)
			ktp_write_tail_mark(kc, reason);
		return;
	}
	ktp_fill_mark(m, w.kc, reason);
	ktp_commit(&w);
}
