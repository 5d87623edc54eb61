// SPDX-License-Identifier: GPL-2.0
/*
 * Kept stack walks. Unwinding is most of what a stack at the switch costs
 * (ORC's walk: a few hundred instructions a frame), and a task that blocks
 * where it blocked before has the same return addresses in the same places
 * of its stack. So each CPU keeps, for the kernel stacks it walked last,
 * the stack words each walk read and what they held, and a stack that
 * holds the same there is taken from the kept walk: the unwinder's result
 * depends on nothing else.
 *
 * The places: a walk starts in ktp_stack_kernel(), whose frame (it keeps
 * a frame pointer) is anchor 0, and every place is counted from an
 * anchor. The frame-pointer unwinder reads two words a frame: the saved
 * frame pointer, which it follows (each one is a new anchor), and the
 * return address. ORC reads the return address at the frame's CFA, which
 * it finds from the stack pointer and the return address's table entry,
 * or, for a function that keeps a frame pointer (Debian's __schedule()
 * does, and do_syscall_64(), which moves the stack by a random offset at
 * each syscall), from rbp as a callee saved it. Such a frame's rbp is its
 * CFA less two words; it is a new anchor, and every word between the
 * walk's start and that frame holding its value is read too: among them
 * is the one the unwinder took it from, since ktp_stack_kernel() saves
 * the rbp it was called with at anchor 0. A frame whose rbp points into
 * it otherwise (a realigned stack) is not kept.
 *
 * So a kept walk is checked by reading its words at their places, counted
 * from the anchors as the words give them, in order: the same return
 * addresses, words that give an anchor agreeing, the places going up the
 * stack as the unwinder demands, the user registers where the walk ended.
 * Walks on other stacks (an interrupt's), through interrupt frames, with
 * return addresses the unwinder recovered (kretprobes), of a task that
 * ftrace's graph tracer has run in (its return trampoline may be left
 * unrecovered), or ending in a kernel thread's stack are not kept. The
 * unwinder's tables and what counts as kernel text are taken to be the
 * same for the same return addresses: a module unloading could break
 * that (another at the same address), so it forgets every kept walk.
 *
 * Each CPU's walks are used with IRQs off by that CPU only, never in NMI.
 */
#include <linux/module.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <asm/ptrace.h>

#include "chain.h"

/* Module unloads: a kept walk from an earlier generation is not used. */
static atomic_t ktp_chain_gen;

static int ktp_chain_module_event(struct notifier_block *nb,
				  unsigned long action, void *data)
{
	if (action == MODULE_STATE_GOING)
		atomic_inc(&ktp_chain_gen);
	return NOTIFY_DONE;
}

static struct notifier_block ktp_chain_module_nb = {
	.notifier_call = ktp_chain_module_event,
};

int ktp_chain_init(void)
{
	return register_module_notifier(&ktp_chain_module_nb);
}

void ktp_chain_exit(void)
{
	unregister_module_notifier(&ktp_chain_module_nb);
}

/* Whether ftrace's graph tracer has given @t a return stack. */
static bool ktp_chain_graph_traced(struct task_struct *t)
{
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	return READ_ONCE(t->ret_stack);
#else
	return false;
#endif
}

static bool ktp_chain_on_stack(unsigned long base, unsigned long addr)
{
	return addr >= base && addr - base < THREAD_SIZE &&
	       IS_ALIGNED(addr, sizeof(long));
}

/*
 * Where a walk from the function whose frame pointer is @frame starts:
 * @frame, on the task's stack; 0 elsewhere (a waking in an interrupt),
 * where walks are not kept.
 */
unsigned long ktp_chain_start(unsigned long frame)
{
	if (!in_task() || ktp_chain_graph_traced(current) ||
	    !ktp_chain_on_stack((unsigned long)task_stack_page(current), frame))
		return 0;
	return frame;
}

void ktp_chain_begin(struct ktp_chains *cs, unsigned long start)
{
	cs->keep = start != 0;
	cs->gen = atomic_read(&ktp_chain_gen);
	cs->base = (unsigned long)task_stack_page(current);
	cs->last_sp = 0;
	cs->last_bp = 0;
	cs->last_word = 0;
	cs->anchor[0] = start;
	cs->walk.nr_ops = 0;
	cs->walk.nr_anchors = 1;
}

/* The anchor that @addr's place is counted from: the last below it. */
static unsigned int ktp_chain_anchor_below(const struct ktp_chains *cs,
					   unsigned long addr)
{
	unsigned int a = cs->walk.nr_anchors - 1;

	while (a && cs->anchor[a] > addr)
		a--;
	return a;
}

/* Read the word at @addr into the walk; @pin: it gives that anchor. */
static bool ktp_chain_op(struct ktp_chains *cs, unsigned long addr,
			 unsigned int pin)
{
	struct ktp_chain *c = &cs->walk;
	unsigned int at;
	long where;

	if (!ktp_chain_on_stack(cs->base, addr) || c->nr_ops == KTP_CHAIN_OPS)
		return false;
	at = ktp_chain_anchor_below(cs, addr);
	where = ((long)addr - (long)cs->anchor[at]) / (long)sizeof(long);
	if (where < S16_MIN || where > S16_MAX)
		return false;
	c->op[c->nr_ops] = (struct ktp_chain_op){
		.where = where, .at = at, .pin = pin,
	};
	c->word[c->nr_ops++] = READ_ONCE_NOCHECK(*(unsigned long *)addr);
	return true;
}

/* A return address, @want, at @addr: above the last one, as unwound. */
static bool ktp_chain_check(struct ktp_chains *cs, unsigned long addr,
			    unsigned long want)
{
	if (addr <= cs->last_word || !ktp_chain_op(cs, addr, 0) ||
	    cs->walk.word[cs->walk.nr_ops - 1] != want)
		return false;
	cs->last_word = addr;
	return true;
}

/*
 * Whether anchor @val may follow anchor @prev: the frame-pointer unwinder
 * wants each frame above the last one's two words; ORC's anchors are
 * frame pointers of frames further up, above the walk's start.
 */
static bool ktp_chain_anchor_ok(unsigned long prev, unsigned long val)
{
	return IS_ENABLED(CONFIG_UNWINDER_FRAME_POINTER) ?
	       val >= prev + 2 * sizeof(long) : val >= prev;
}

/* A new anchor at @val: the words from it up are counted from it. */
static bool ktp_chain_anchor(struct ktp_chains *cs, unsigned long val)
{
	struct ktp_chain *c = &cs->walk;

	if (c->nr_anchors == KTP_CHAIN_ANCHORS ||
	    !ktp_chain_on_stack(cs->base, val) ||
	    !ktp_chain_anchor_ok(cs->anchor[c->nr_anchors - 1], val))
		return false;
	cs->anchor[c->nr_anchors++] = val;
	return true;
}

#if defined(CONFIG_UNWINDER_ORC)
/*
 * The last frame, which ends at @cfa (0: not known): if its rbp points
 * into it, it must be a frame pointer, pinned by the words that hold it.
 */
static __no_kmsan_checks bool ktp_chain_orc_bp(struct ktp_chains *cs,
						       unsigned long cfa)
{
	unsigned int m = cs->walk.nr_anchors;
	unsigned long bp = cs->last_bp, a;
	bool pinned = false;

	/* The first frame's CFA is not the unwinder's to find: anchor 0's. */
	if (!cs->last_sp || bp < cs->last_sp ||
	    bp >= (cfa ? cfa : cs->base + THREAD_SIZE))
		return true;
	if (!cfa || bp != cfa - 2 * sizeof(long))
		return false;
	for (a = cs->anchor[0]; a < cs->last_sp; a += sizeof(long)) {
		if (READ_ONCE_NOCHECK(*(unsigned long *)a) != bp)
			continue;
		if (!ktp_chain_op(cs, a, m))
			return false;
		pinned = true;
	}
	/* Its saved rbp and all above are counted from it. */
	return pinned && ktp_chain_anchor(cs, bp);
}

static bool ktp_chain_unwound(struct ktp_chains *cs,
			      struct unwind_state *state, unsigned long addr)
{
	if (!ktp_chain_orc_bp(cs, state->sp))
		return false;
	cs->last_sp = state->sp;
	cs->last_bp = state->bp;
	return ktp_chain_check(cs, state->sp - sizeof(long), addr);
}

static bool ktp_chain_unwound_all(struct ktp_chains *cs)
{
	return ktp_chain_orc_bp(cs, 0);
}
#elif defined(CONFIG_UNWINDER_FRAME_POINTER)
static bool ktp_chain_unwound(struct ktp_chains *cs,
			      struct unwind_state *state, unsigned long addr)
{
	unsigned long frame = (unsigned long)state->bp;

	/* The word followed here: the last frame's saved frame pointer. */
	if (cs->last_bp &&
	    (!ktp_chain_op(cs, cs->last_bp, cs->walk.nr_anchors) ||
	     cs->walk.word[cs->walk.nr_ops - 1] != frame ||
	     !ktp_chain_anchor(cs, frame)))
		return false;
	cs->last_bp = frame;
	return ktp_chain_check(cs, frame + sizeof(long), addr);
}

/*
 * The frame-pointer unwinder ends at a frame two words below the user
 * registers by its place alone; other places (a realigned or ftrace
 * frame) it tells by words a kept walk does not check: not kept.
 */
static bool ktp_chain_unwound_all(struct ktp_chains *cs)
{
	return cs->anchor[cs->walk.nr_anchors - 1] + 2 * sizeof(long) ==
	       (unsigned long)task_pt_regs(current);
}
#else
static bool ktp_chain_unwound(struct ktp_chains *cs,
			      struct unwind_state *state, unsigned long addr)
{
	return false;
}

static bool ktp_chain_unwound_all(struct ktp_chains *cs)
{
	return false;
}
#endif

/* The unwinder's @state, at a frame that returns to @addr. */
void ktp_chain_frame(struct ktp_chains *cs, struct unwind_state *state,
		     unsigned long addr)
{
	if (cs->keep)
		cs->keep = !state->regs &&
			   state->stack_info.type == STACK_TYPE_TASK &&
			   ktp_chain_unwound(cs, state, addr);
}

/*
 * The walk ended at @state, with @nr_ips frames: at the user registers,
 * whose ip the unwinder took for no frame (not kernel text).
 */
void ktp_chain_end(struct ktp_chains *cs, struct unwind_state *state,
		   unsigned int nr_ips)
{
	struct pt_regs *regs = task_pt_regs(current);
	struct ktp_chain *c = &cs->walk;
	long where;

	if (!cs->keep)
		return;
	cs->keep = false;
	if (nr_ips > KTP_CHAIN_FRAMES || unwind_error(state) ||
	    state->regs != regs || !user_mode(regs) ||
	    !ktp_chain_unwound_all(cs))
		return;
	c->end_at = c->nr_anchors - 1;
	where = ((long)regs - (long)cs->anchor[c->end_at]) / (long)sizeof(long);
	if (where < S16_MIN || where > S16_MAX)
		return;
	c->end_where = where;
	c->nr_ips = nr_ips;
	cs->keep = true;
}

/* Make the kept walk at @pos in the order the most recently used. */
static void ktp_chain_touch(struct ktp_chains *cs, unsigned int pos)
{
	u8 i = cs->order[pos];

	memmove(&cs->order[1], &cs->order[0], pos);
	cs->order[0] = i;
}

/* Keep the walk just made, with its frames @ips and their @hash. */
void ktp_chain_keep(struct ktp_chains *cs, const u64 *ips, u64 hash)
{
	struct ktp_chain *c;

	if (!cs->keep)
		return;
	cs->keep = false;
	if (cs->nr_kept < KTP_CHAINS) {
		cs->order[cs->nr_kept] = cs->nr_kept;
		cs->nr_kept++;
	}
	c = &cs->chains[cs->order[cs->nr_kept - 1]];
	*c = cs->walk;
	c->hash = hash;
	c->gen = cs->gen;
	memcpy(c->ips, ips, c->nr_ips * sizeof(u64));
	ktp_chain_touch(cs, cs->nr_kept - 1);
}

/*
 * Whether this task's stack holds @c's words, for a walk from @start. The
 * anchors found go in the walk's scratch array: a walk is only begun after.
 */
static __no_kmsan_checks bool ktp_chain_holds(struct ktp_chains *cs,
					      const struct ktp_chain *c,
					      unsigned long start, int gen)
{
	unsigned long base = (unsigned long)task_stack_page(current);
	struct pt_regs *regs = task_pt_regs(current);
	unsigned long *anchor = cs->anchor, last = 0;
	unsigned int k, known = 1;

	if (!c->nr_anchors || c->gen != gen)
		return false;
	anchor[0] = start;
	for (k = 0; k < c->nr_ops; k++) {
		const struct ktp_chain_op *op = &c->op[k];
		unsigned long addr, val;

		if (op->at >= known)
			return false;
		addr = anchor[op->at] + op->where * (long)sizeof(long);
		if (!ktp_chain_on_stack(base, addr))
			return false;
		val = READ_ONCE_NOCHECK(*(unsigned long *)addr);
		if (!op->pin) {
			if (val != c->word[k] || addr <= last)
				return false;
			last = addr;
		} else if (op->pin == known) {
			if (!ktp_chain_on_stack(base, val) ||
			    !ktp_chain_anchor_ok(anchor[known - 1], val))
				return false;
			anchor[known++] = val;
		} else if (anchor[op->pin] != val) {
			return false;
		}
	}
	/* User registers: their ip no frame, as when the walk was made. */
	return known == c->nr_anchors &&
	       anchor[c->end_at] + c->end_where * (long)sizeof(long) ==
	       (unsigned long)regs && user_mode(regs) &&
	       regs->ip < TASK_SIZE_MAX;
}

/*
 * A kept walk from @start whose words this task's stack holds, or NULL. A
 * walk made before and not kept (its STACK record lost) is void now.
 */
struct ktp_chain *ktp_chain_find(struct ktp_chains *cs, unsigned long start)
{
	int gen = atomic_read(&ktp_chain_gen);
	unsigned int i;

	lockdep_assert_irqs_disabled();
	cs->keep = false;
	for (i = 0; i < cs->nr_kept; i++) {
		struct ktp_chain *c = &cs->chains[cs->order[i]];

		if (ktp_chain_holds(cs, c, start, gen)) {
			ktp_chain_touch(cs, i);
			return c;
		}
	}
	return NULL;
}

/* Forget @c, found wrong (the stack_check knob): it is reused first. */
void ktp_chain_forget(struct ktp_chains *cs, struct ktp_chain *c)
{
	unsigned int i;

	c->nr_anchors = 0;
	for (i = 0; i < cs->nr_kept; i++) {
		if (&cs->chains[cs->order[i]] != c)
			continue;
		memmove(&cs->order[i], &cs->order[i + 1], cs->nr_kept - 1 - i);
		cs->order[cs->nr_kept - 1] = c - cs->chains;
		return;
	}
}
