// SPDX-License-Identifier: GPL-2.0
/*
 * Stacks at the switch and at the waking (-S offcpu, -S waker): the kernel
 * stack of a task that leaves its CPU asleep, and of whatever wakes a task
 * (a task, or the interrupt it is in), with their user stacks on request;
 * and a probe hit's (record --probe ... stack), from its registers.
 *
 * They are unwound in the probe, under the run-queue lock with IRQs off,
 * into this CPU's scratch space, and interned: a stack this CPU has seen
 * in the session is written as its id, a STACK record the first time. A
 * steady workload blocks in a few places, so most switches cost 4 bytes
 * more than without a stack.
 *
 * The table is a hash of the frames to an id: a 64-bit SipHash under a
 * key drawn for the session, so that two stacks share an id only by a
 * 2^-64 accident nobody can provoke; the frames themselves are not kept.
 * An id is entered only once its STACK record was reserved: a stack whose
 * record was dropped is taken again next time. Overwrite mode can lose an
 * old STACK record: a hit re-writes it, with the same id, once the
 * sub-buffers written since could have overwritten it.
 *
 * A kernel stack whose words hold what an earlier walk on this CPU read is
 * taken from that walk, without unwinding (chain.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/module.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/unwind.h>

#include "chain.h"
#include "compat.h"
#include "ktprof.h"
#include "sample.h"

#define KTP_STACK_SLOTS 1024	/* per CPU, a power of two */
#define KTP_STACK_WAYS 4	/* slots a stack may take, from its hash */

struct ktp_stack_slot {
	u64 hash;
	u32 id;			/* 0: empty */
	u32 used;		/* the table's clock at its last use */
	u64 subbuf;		/* sub-buffers started when its record was */
};

/*
 * One CPU's table and scratch space: only that CPU, IRQs off, uses it;
 * @busy while it does, for a probe hit inside a walk (a kprobe on the
 * unwinder) or an NMI's.
 */
struct ktp_stacks_cpu {
	bool busy;
	u32 next_id;
	u32 clock;
	struct ktp_stack_slot slots[KTP_STACK_SLOTS];
	u64 ips[2 * KTP_MAX_FRAMES + 1];	/* and the tgid, for the hash */
	struct ktp_chains chains;
};

static DEFINE_PER_CPU(struct ktp_stacks_cpu *, ktp_stacks_cpus);
static siphash_key_t ktp_stacks_key;
/* The session's KTP_STACKS_* while its tables exist, else 0. */
u32 ktp_stacks_on;

/*
 * Frames of this task's kernel stack from the probe's caller up, by the
 * unwinder; the walk is one to keep when @start is not 0 and it allows.
 * Inlined: the walk starts in the caller's frame, where kept walks are
 * checked from.
 */
static __always_inline unsigned int ktp_stack_walk(struct ktp_stacks_cpu *sc,
						   unsigned long start,
						   bool *truncated)
{
	struct unwind_state state;
	unsigned int n = 0;

	ktp_chain_begin(&sc->chains, start);
	for (unwind_start(&state, current, NULL, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		unsigned long addr = unwind_get_return_address(&state);

		if (!addr)
			break;
		ktp_chain_frame(&sc->chains, &state, addr);
		/* The probe's own frames tell nothing. */
		if (!n && within_module(addr, THIS_MODULE))
			continue;
		if (n == KTP_MAX_FRAMES) {
			*truncated = true;
			break;
		}
		sc->ips[n++] = addr;
	}
	ktp_chain_end(&sc->chains, &state, *truncated ? U32_MAX : n);
	return n;
}

/*
 * This task's kernel stack into @sc->ips: from a kept walk whose words it
 * holds (*@hash the frames' hash), else walked (*@hash 0). With the
 * stack_check knob a kept walk's stack is walked too, and the kept walk
 * counted and forgotten when the two differ. Walks start in this frame,
 * at the same place for the same path here.
 */
static noinline unsigned int ktp_stack_kernel(struct ktp_stacks_cpu *sc,
					      u64 *hash, bool *truncated)
{
	unsigned long start;
	struct ktp_chain *c;
	unsigned int n;

	start = ktp_chain_start((unsigned long)__builtin_frame_address(0));
	*hash = 0;
	c = start ? ktp_chain_find(&sc->chains, start) : NULL;
	/* One call site: the walk is inlined. A checked walk is not kept. */
	if (!c || ktp_session.cfg.stack_check) {
		n = ktp_stack_walk(sc, c ? 0 : start, truncated);
		if (!c)
			return n;
		if (n != c->nr_ips ||
		    memcmp(sc->ips, c->ips, n * sizeof(u64))) {
			this_cpu_inc(ktp_cpus.stats[KTP_STAT_STACK_MISMATCH]);
			ktp_chain_forget(&sc->chains, c);
			return n;
		}
	}
	this_cpu_inc(ktp_cpus.stats[KTP_STAT_STACK_CACHED]);
	memcpy(sc->ips, c->ips, c->nr_ips * sizeof(u64));
	*hash = c->hash;
	return c->nr_ips;
}

/* The intern hash of @n frames in @sc->ips, @nu of them user frames. */
static u64 ktp_stack_hash(struct ktp_stacks_cpu *sc, unsigned int n,
			  unsigned int nu)
{
	/*
	 * User addresses mean something in one process only: a stack with
	 * user frames is its process's (the tgid joins the hash), and the
	 * tools read them with the pid of the switch that names it.
	 */
	sc->ips[n] = current->tgid;
	return siphash(sc->ips, (n + !!nu) * sizeof(u64), &ktp_stacks_key);
}

/*
 * The id of the stack in @sc->ips (@nk kernel then @nu user frames, @hash
 * theirs): found in the table, or entered with a STACK record written
 * first. 0 when that record could not be reserved.
 */
static u32 ktp_stack_intern(struct ktp_stacks_cpu *sc, unsigned int nk,
			    unsigned int nu, u64 hash, u8 flags)
{
	unsigned int n = nk + nu, i;
	struct ktp_stack_slot *slot = NULL, *victim = NULL;
	struct ktp_stack *r;
	struct ktp_wr w;
	u64 subbufs;
	u32 id;

	subbufs = this_cpu_read(ktp_cpus.stats[KTP_STAT_SUBBUFS]);
	sc->clock++;
	/*
	 * Its ways in order: slots are never emptied one by one, so an
	 * empty one ends the search; a full set gives up its least
	 * recently used.
	 */
	for (i = 0; i < KTP_STACK_WAYS; i++) {
		struct ktp_stack_slot *s;

		s = &sc->slots[(hash + i) & (KTP_STACK_SLOTS - 1)];
		if (!s->id) {
			victim = s;
			break;
		}
		if (s->hash == hash) {
			slot = s;
			break;
		}
		if (!victim || sc->clock - s->used > sc->clock - victim->used)
			victim = s;
	}
	if (slot) {
		slot->used = sc->clock;
		/* Half the buffer written since: it may be overwritten soon. */
		if (!ktp_session.cfg.overwrite ||
		    subbufs - slot->subbuf < ktp_session.cfg.n_subbufs / 2)
			return slot->id;
		id = slot->id;
	} else {
		/* Ids are never reused: a u32 of them spent, no new stacks. */
		if (sc->next_id == U32_MAX)
			return 0;
		id = ++sc->next_id;
		slot = victim;
	}
	r = ktp_reserve(&w, KTP_REC_STACK, flags, sizeof(*r) + n * sizeof(u64));
	if (!r)
		return 0;
	r->id = id;
	r->nr_kernel = nk;
	r->nr_user = nu;
	memcpy(r + 1, sc->ips, n * sizeof(u64));
	ktp_commit(&w);
	*slot = (struct ktp_stack_slot){
		.hash = hash, .id = id, .used = sc->clock,
		.subbuf = this_cpu_read(ktp_cpus.stats[KTP_STAT_SUBBUFS]),
	};
	return id;
}

/* Frame-pointer walk of this task's user stack, bounded, faults tolerated. */
static unsigned int ktp_stack_user(u64 *ips, bool *truncated)
{
	if (!current->mm || (current->flags & PF_KTHREAD))
		return 0;
	return ktp_user_stack(task_pt_regs(current), ips, truncated);
}

/*
 * The mappings of user frames, as the sampler writes them (MAP records,
 * and FILE records from process context), with its IRQ context's cache:
 * IRQs are off here as there. A session with user stacks has the
 * sampler's state without sources too (ktp_sample_start()).
 */
static void ktp_stack_maps(const u64 *ips, unsigned int n)
{
	struct ktp_sample_cpu *smp = this_cpu_read(ktp_sample_cpus);

	if (!smp)
		return;
	ktp_maps_resolve(smp, &smp->cache[KTP_CTX_IRQ], ips, n, false);
	if (ktp_files_pending(smp))
		irq_work_queue(&smp->drain_work);
}

/*
 * The current stack's id, for a record this CPU is about to write; 0 when
 * this CPU is not tracing, the write path is busy under us (a waking from
 * inside it), or the STACK record was dropped.
 */
u32 ktp_stack_here(void)
{
	struct ktp_stacks_cpu *sc;
	unsigned int nk, nu = 0;
	bool ktrunc = false, utrunc = false;
	unsigned long flags;
	u64 khash;
	u32 id = 0;

	/* A waking outside the run-queue lock may have IRQs on. */
	local_irq_save(flags);
	sc = this_cpu_read(ktp_stacks_cpus);
	if (!sc || sc->busy || !this_cpu_read(ktp_cpus.active) ||
	    this_cpu_read(ktp_cpus.in_write) || this_cpu_read(ktp_cpus.closing))
		goto out;
	sc->busy = true;
	nk = ktp_stack_kernel(sc, &khash, &ktrunc);
	/* A walk to keep goes with its kernel frames' hash. */
	if (!khash && sc->chains.keep)
		khash = ktp_stack_hash(sc, nk, 0);
	if ((READ_ONCE(ktp_stacks_on) & KTP_STACKS_USER) && in_task()) {
		nu = ktp_stack_user(sc->ips + nk, &utrunc);
		ktp_stack_maps(sc->ips + nk, nu);
	}
	if (nk || nu)
		id = ktp_stack_intern(sc, nk, nu,
				      nu || !khash ?
				      ktp_stack_hash(sc, nk + nu, nu) : khash,
				      (ktrunc ? KTP_STACK_KTRUNC : 0) |
				      (utrunc ? KTP_STACK_UTRUNC : 0));
	/* Kept only once its STACK record is written. */
	if (id)
		ktp_chain_keep(&sc->chains, sc->ips, khash);
	sc->busy = false;
out:
	local_irq_restore(flags);
	return id;
}

/*
 * The kernel stack a probe's @regs were taken in, from the probed
 * address up, as perf takes a kprobe event's: unwound from @regs, so the
 * kprobe's own frames (the int3 or ftrace path, this module) are not in
 * it. Not kept for chain.c: a probe hits where it likes.
 */
static unsigned int ktp_stack_regs(struct ktp_stacks_cpu *sc,
				   struct pt_regs *regs, bool *truncated)
{
	struct unwind_state state;
	unsigned int n = 0;

	sc->ips[n++] = instruction_pointer(regs);
	for (unwind_start(&state, current, regs, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		unsigned long addr = unwind_get_return_address(&state);

		if (!addr)
			break;
		/* The unwinder's first frame is @regs' own. */
		if (n == 1 && addr == sc->ips[0])
			continue;
		if (n == KTP_MAX_FRAMES) {
			*truncated = true;
			break;
		}
		sc->ips[n++] = addr;
	}
	return n;
}

/*
 * A probe's user stack: at a function's entry (KTP_PROBE_AT_ENTRY) its
 * caller's return address is the word at the stack pointer, and the frame
 * pointer still the caller's: the walk goes on from there.
 */
static unsigned int ktp_stack_probe_user(struct pt_regs *regs, u32 kinds,
					 u64 *ips, bool *truncated)
{
	struct pt_regs caller;
	unsigned long ret;
	unsigned int n;

	if (!current->mm || (current->flags & PF_KTHREAD))
		return 0;
	regs = user_mode(regs) ? regs : task_pt_regs(current);
	if (!(kinds & KTP_PROBE_AT_ENTRY) || !user_mode(regs) ||
	    copy_from_user_nofault(&ret, (void __user *)regs->sp, sizeof(ret)) ||
	    !ret || ret >= TASK_SIZE_MAX)
		return ktp_user_stack(regs, ips, truncated);
	caller = *regs;
	caller.ip = ret;
	ips[0] = regs->ip;
	n = 1 + ktp_user_stack(&caller, ips + 1, truncated);
	/* The one frame more stays within a stack's KTP_MAX_FRAMES. */
	if (n > KTP_MAX_FRAMES) {
		n = KTP_MAX_FRAMES;
		*truncated = true;
	}
	return n;
}

/*
 * The id of the stacks @kinds (KTP_PROBE_STACK_*) a probe's hit takes:
 * the kernel's from @regs of a kprobe, the task's user stack (a uprobe's
 * regs are the user's). Any context, NMI included; 0 as ktp_stack_here().
 */
u32 ktp_stack_probe(struct pt_regs *regs, u32 kinds)
{
	bool ktrunc = false, utrunc = false;
	struct ktp_stacks_cpu *sc;
	unsigned int nk = 0, nu = 0;
	unsigned long flags;
	u32 id = 0;

	local_irq_save(flags);
	sc = this_cpu_read(ktp_stacks_cpus);
	if (!sc || sc->busy || this_cpu_read(ktp_cpus.in_write) ||
	    this_cpu_read(ktp_cpus.closing))
		goto out;
	sc->busy = true;
	if ((kinds & KTP_PROBE_STACK_KERNEL) && !user_mode(regs))
		nk = ktp_stack_regs(sc, regs, &ktrunc);
	/* As at a waking: a task's own user stack, not an interrupted one's. */
	if ((kinds & KTP_PROBE_STACK_USER) && in_task()) {
		nu = ktp_stack_probe_user(regs, kinds, sc->ips + nk, &utrunc);
		ktp_stack_maps(sc->ips + nk, nu);
	}
	if (nk || nu)
		id = ktp_stack_intern(sc, nk, nu,
				      ktp_stack_hash(sc, nk + nu, nu),
				      (ktrunc ? KTP_STACK_KTRUNC : 0) |
				      (utrunc ? KTP_STACK_UTRUNC : 0));
	sc->busy = false;
out:
	local_irq_restore(flags);
	return id;
}

/* Whether @p is in the filter's cgroup subtree; any context, NMI too. */
static bool ktp_task_in_cgroup(const struct ktp_config *cfg,
			       struct task_struct *p)
{
#ifdef CONFIG_CGROUPS
	bool in;

	if (!cfg->sample_cgrp)
		return true;
	/* The css_set may change meanwhile: RCU, which NMIs may take. */
	rcu_read_lock();
	in = task_under_cgroup_hierarchy(p, cfg->sample_cgrp);
	rcu_read_unlock();
	return in;
#else
	return true;
#endif
}

/* Whether @p is one of the filter's processes or has its comm (-p, --comm). */
static bool ktp_task_named(const struct ktp_config *cfg, struct task_struct *p)
{
	unsigned int i;

	if (!cfg->nr_sample_pids && !cfg->sample_comm[0])
		return true;
	for (i = 0; i < cfg->nr_sample_pids; i++)
		if (cfg->sample_pids[i] == p->tgid)
			return true;
	return cfg->sample_comm[0] &&
	       !strncmp(p->comm, cfg->sample_comm, TASK_COMM_LEN);
}

/* Whether @p is one the session's sample filter keeps (-p, --comm, -G). */
bool ktp_task_wanted(const struct ktp_config *cfg, struct task_struct *p)
{
	return ktp_task_named(cfg, p) && ktp_task_in_cgroup(cfg, p);
}

/* The tables of a session that asked for stacks; process context. */
int ktp_stacks_alloc(u32 kinds)
{
	int cpu;

	if (!kinds)
		return 0;
	get_random_bytes(&ktp_stacks_key, sizeof(ktp_stacks_key));
	for_each_possible_cpu(cpu) {
		struct ktp_stacks_cpu *sc;

		sc = vzalloc_node(sizeof(*sc), cpu_to_node(cpu));
		if (!sc) {
			ktp_stacks_free();
			return -ENOMEM;
		}
		per_cpu(ktp_stacks_cpus, cpu) = sc;
	}
	WRITE_ONCE(ktp_stacks_on, kinds);
	return 0;
}

/* With no probe left running (ktp_probes_unregister() has returned). */
void ktp_stacks_free(void)
{
	int cpu;

	WRITE_ONCE(ktp_stacks_on, 0);
	for_each_possible_cpu(cpu) {
		vfree(per_cpu(ktp_stacks_cpus, cpu));
		per_cpu(ktp_stacks_cpus, cpu) = NULL;
	}
}

static const char * const ktp_stack_kind_names[] = { "offcpu", "waker", "user" };

const char *ktp_stack_kind_name(unsigned int bit)
{
	return bit < ARRAY_SIZE(ktp_stack_kind_names) ?
	       ktp_stack_kind_names[bit] : NULL;
}

/*
 * "offcpu,waker,user" (any of them, "" or "none" for no stacks) as
 * KTP_STACKS_*; "user" alone takes no stack, so it is refused.
 */
int ktp_parse_stacks(const char *s, u32 *kinds)
{
	u32 mask;

	if (ktp_parse_bits(s, ktp_stack_kind_name, "none", 0, &mask) ||
	    mask == KTP_STACKS_USER)
		return -EINVAL;
	*kinds = mask;
	return 0;
}
