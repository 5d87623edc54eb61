// SPDX-License-Identifier: GPL-2.0
/*
 * Probes of the user's choosing (record --probe): kprobes and return
 * probes on kernel functions, uprobes and return probes on a file's code,
 * each hit a PROBE record with the arguments its spec asks for.
 *
 * The recorder resolves names (a uprobe's symbol to its file offset) and
 * sends struct ktp_probe_spec[]. ktp_dyn_prepare() checks them in the
 * sender's context, where its credentials are: kprobes need CAP_SYS_ADMIN
 * (as kprobe_events does), a uprobe's file must be a regular file the
 * sender may read; it holds each file from then on. The session's start
 * registers them all, kprobes disabled, refuses a kprobe that landed in
 * this module's own code, and only then lets hits through: a refused list
 * leaves nothing registered, and no hit comes from a half-registered one.
 *
 * Handlers run where the probed code runs: any context, NMI included for
 * kprobes. A hit fetches its arguments into this CPU's scratch record
 * with IRQs off (strings read without faulting, a page at a time, so a
 * string that ends before an unmapped page is still read whole) and
 * writes it. A hit that finds the scratch busy (an NMI that hit a probe
 * inside another hit) is a miss; the kernel's own misses (a kprobe hit
 * inside a kprobe handler, as when one is placed on a function this write
 * path calls; kretprobe instances exhausted) are added at the stop.
 *
 * A USDT probe comes as one uprobe a site, each with its semaphore's file
 * offset: the kernel counts the semaphore up in every process mapping the
 * file while the uprobe is registered (its ref_ctr), so the program's
 * "is anyone probing?" test is true only during the session. Its
 * arguments are registers, constants or memory at a register plus a
 * displacement, read without faulting. -p and -G filter hits as they
 * filter everything else; a hit may take its stacks (stacks.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include "compat.h"
#include "ktprof.h"

struct ktp_dyn_probe {
	struct ktp_probe_spec spec;
	u8 strings;		/* bit i: argument i is a string */
	bool registered;
	u64 __percpu *hits;
	atomic64_t missed;	/* scratch busy */
	/* A kprobe is @rp.kp; a return probe all of @rp. */
	struct kretprobe rp;
	struct uprobe_consumer uc;
	struct path path;	/* a uprobe's file, held from prepare to free */
#if KTP_UPROBE_HANDLE
	struct uprobe *uprobe;
#endif
};

struct ktp_dyn_set {
	unsigned int n;
	bool live;		/* every probe registered: hits are recorded */
	struct ktp_dyn_probe probes[];
};

/* The running (or last) session's set; ktp_lock for changes. */
static struct ktp_dyn_set *ktp_dyn;

#define KTP_DYN_REC_MAX (sizeof(struct ktp_probe_hit) + \
			 8 * KTP_PROBE_MAX_ARGS + sizeof(u32) + \
			 KTP_PROBE_MAX_ARGS * KTP_PROBE_STR_MAX + 4)

struct ktp_dyn_scratch {
	bool busy;
	u8 rec[KTP_DYN_REC_MAX] __aligned(8);
};

static DEFINE_PER_CPU(struct ktp_dyn_scratch, ktp_dyn_scratch);

static bool ktp_dyn_is_kernel(const struct ktp_probe_spec *s)
{
	return s->kind == KTP_PROBE_KPROBE || s->kind == KTP_PROBE_KRETPROBE;
}

static const unsigned short ktp_reg_offsets[KTP_NR_REGS] = {
	[KTP_REG_AX] = offsetof(struct pt_regs, ax),
	[KTP_REG_BX] = offsetof(struct pt_regs, bx),
	[KTP_REG_CX] = offsetof(struct pt_regs, cx),
	[KTP_REG_DX] = offsetof(struct pt_regs, dx),
	[KTP_REG_SI] = offsetof(struct pt_regs, si),
	[KTP_REG_DI] = offsetof(struct pt_regs, di),
	[KTP_REG_BP] = offsetof(struct pt_regs, bp),
	[KTP_REG_SP] = offsetof(struct pt_regs, sp),
	[KTP_REG_R8] = offsetof(struct pt_regs, r8),
	[KTP_REG_R9] = offsetof(struct pt_regs, r9),
	[KTP_REG_R10] = offsetof(struct pt_regs, r10),
	[KTP_REG_R11] = offsetof(struct pt_regs, r11),
	[KTP_REG_R12] = offsetof(struct pt_regs, r12),
	[KTP_REG_R13] = offsetof(struct pt_regs, r13),
	[KTP_REG_R14] = offsetof(struct pt_regs, r14),
	[KTP_REG_R15] = offsetof(struct pt_regs, r15),
	[KTP_REG_IP] = offsetof(struct pt_regs, ip),
};

static unsigned long ktp_dyn_reg(struct pt_regs *regs, unsigned int reg)
{
	return *(unsigned long *)((u8 *)regs + ktp_reg_offsets[reg]);
}

/* The fetch's width at register + displacement; 0 and a flag on a fault. */
static u64 ktp_dyn_memory(const struct ktp_probe_arg *a, struct pt_regs *regs,
			  bool user, u8 *flags)
{
	static const u8 width[] = {
		[KTP_FETCH_U8] = 1, [KTP_FETCH_U16] = 2, [KTP_FETCH_U32] = 4,
	};
	unsigned long at = ktp_dyn_reg(regs, a->index) + (long)a->disp;
	size_t size = a->fetch < KTP_FETCH_U64 ? width[a->fetch] : 8;
	u64 v = 0;
	long ret;

	/* Little-endian: the low bytes of @v are the value's. */
	if (user)
		ret = copy_from_user_nofault(&v, (const void __user *)at, size);
	else
		ret = copy_from_kernel_nofault(&v, (const void *)at, size);
	if (ret) {
		*flags |= KTP_PROBE_HIT_FAULT;
		return 0;
	}
	return v;
}

static u64 ktp_dyn_value(const struct ktp_dyn_probe *dp,
			 const struct ktp_probe_arg *a, struct pt_regs *regs,
			 u8 *flags)
{
	switch (a->src) {
	case KTP_ARG_FN:
		return regs_get_kernel_argument(regs, a->index);
	case KTP_ARG_REG:
		return ktp_dyn_reg(regs, a->index);
	case KTP_ARG_MEM:
		return ktp_dyn_memory(a, regs, !ktp_dyn_is_kernel(&dp->spec),
				      flags);
	case KTP_ARG_CONST:
		return (u64)(s64)a->disp;
	default:
		return regs_return_value(regs);
	}
}

/*
 * Up to KTP_PROBE_STR_MAX bytes of the string at @src into @dst: its
 * length, NUL excluded. Page by page: a read that crosses into the next
 * page only when the string does.
 */
static u32 ktp_dyn_string(char *dst, unsigned long src, bool user, u8 *flags)
{
	u32 n = 0;

	while (n < KTP_PROBE_STR_MAX) {
		unsigned long at = src + n;
		u32 chunk = min_t(u32, KTP_PROBE_STR_MAX - n,
				  PAGE_SIZE - offset_in_page(at));
		long ret;
		char *nul;

		if (user)
			ret = copy_from_user_nofault(dst + n,
						     (const void __user *)at,
						     chunk);
		else
			ret = copy_from_kernel_nofault(dst + n,
						       (const void *)at, chunk);
		if (ret) {
			*flags |= KTP_PROBE_HIT_FAULT;
			return n;
		}
		nul = memchr(dst + n, 0, chunk);
		if (nul)
			return nul - dst;
		n += chunk;
	}
	*flags |= KTP_PROBE_HIT_TRUNC;
	return n;
}

static const u64 ktp_fetch_mask[] = {
	[KTP_FETCH_U8] = 0xff,
	[KTP_FETCH_U16] = 0xffff,
	[KTP_FETCH_U32] = 0xffffffff,
	[KTP_FETCH_U64] = ~0ULL,
};

/* The hit's record in @rec (its stack id in, if any); its size. */
static u32 ktp_dyn_fetch(const struct ktp_dyn_probe *dp, struct pt_regs *regs,
			 u8 *rec, u8 *flags)
{
	struct ktp_probe_hit *h = (struct ktp_probe_hit *)rec;
	u32 size = sizeof(*h) + 8 * dp->spec.nargs;
	unsigned int i;

	h->pid = current->pid;
	h->id = dp->spec.id;
	h->nargs = dp->spec.nargs;
	h->strings = dp->strings;
	if (dp->spec.flags & KTP_PROBE_STACKS) {
		*flags |= KTP_PROBE_HIT_STACK;
		size += sizeof(u32);
	}
	for (i = 0; i < dp->spec.nargs; i++) {
		const struct ktp_probe_arg *a = &dp->spec.args[i];
		u64 v = ktp_dyn_value(dp, a, regs, flags);
		u32 len;

		if (a->fetch <= KTP_FETCH_U64) {
			h->args[i] = v & ktp_fetch_mask[a->fetch];
			continue;
		}
		len = ktp_dyn_string(rec + size, v, a->fetch == KTP_FETCH_USTR,
				     flags);
		h->args[i] = (u64)len << 32 | size;
		size += len;
	}
	return size;
}

static void ktp_dyn_hit(struct ktp_dyn_probe *dp, struct pt_regs *regs,
			u8 flags)
{
	struct ktp_dyn_set *set = READ_ONCE(ktp_dyn);
	struct ktp_dyn_scratch *sc;
	unsigned long irqflags;
	struct ktp_wr w;
	u32 size, padded;
	u8 *r;

	/* NULL while a set registers: none of its probes records yet. */
	if (!set || !READ_ONCE(set->live))
		return;
	local_irq_save(irqflags);
	/*
	 * Hits count where the session records: a traced CPU, between its
	 * marks, in a task -p/-G keep (an interrupt's hit is its task's).
	 */
	if (!this_cpu_read(ktp_cpus.active) ||
	    !ktp_task_wanted(&ktp_session.cfg, current))
		goto out;
	sc = this_cpu_ptr(&ktp_dyn_scratch);
	if (sc->busy) {
		atomic64_inc(&dp->missed);
		goto out;
	}
	sc->busy = true;
	this_cpu_inc(*dp->hits);
	size = ktp_dyn_fetch(dp, regs, sc->rec, &flags);
	/* Before the reservation: a new stack's own record goes first. */
	if (dp->spec.flags & KTP_PROBE_STACKS)
		*(u32 *)(sc->rec + sizeof(struct ktp_probe_hit) +
			 8 * dp->spec.nargs) =
			ktp_stack_probe(regs, dp->spec.flags);
	padded = ALIGN(size, 4);
	r = ktp_reserve(&w, KTP_REC_PROBE, flags, padded);
	if (r) {
		memcpy(r + sizeof(struct ktp_hdr), sc->rec + sizeof(struct ktp_hdr),
		       size - sizeof(struct ktp_hdr));
		memset(r + size, 0, padded - size);
		ktp_commit(&w);
	}
	sc->busy = false;
out:
	local_irq_restore(irqflags);
}

static int ktp_dyn_kprobe(struct kprobe *kp, struct pt_regs *regs)
{
	ktp_dyn_hit(container_of(kp, struct ktp_dyn_probe, rp.kp), regs, 0);
	return 0;
}

#if KTP_HAVE_KRETPROBES
static int ktp_dyn_kretprobe(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);

	if (rp)
		ktp_dyn_hit(container_of(rp, struct ktp_dyn_probe, rp), regs,
			    KTP_PROBE_HIT_RETURN);
	return 0;
}

static int ktp_dyn_register_kretprobe(struct ktp_dyn_probe *dp)
{
	dp->rp.handler = ktp_dyn_kretprobe;
	return register_kretprobe(&dp->rp);
}
#else
static int ktp_dyn_register_kretprobe(struct ktp_dyn_probe *dp)
{
	return -EOPNOTSUPP;
}
#endif

#if KTP_HAVE_UPROBES
static int ktp_dyn_uprobe(KTP_UPROBE_HANDLER_PROTO)
{
	ktp_dyn_hit(container_of(uc, struct ktp_dyn_probe, uc), regs, 0);
	return 0;
}

static int ktp_dyn_uretprobe(KTP_URETPROBE_HANDLER_PROTO)
{
	ktp_dyn_hit(container_of(uc, struct ktp_dyn_probe, uc), regs,
		    KTP_PROBE_HIT_RETURN);
	return 0;
}
#endif

static int ktp_dyn_check_spec(const struct ktp_probe_spec *s, char *err,
			      size_t errlen)
{
	unsigned int i;

	if (s->kind < KTP_PROBE_KPROBE || s->kind > KTP_PROBE_URETPROBE ||
	    s->nargs > KTP_PROBE_MAX_ARGS || s->id >= KTP_MAX_PROBES ||
	    s->flags & ~(KTP_PROBE_STACKS | KTP_PROBE_AT_ENTRY) ||
	    (s->ref_ctr_offset && ktp_dyn_is_kernel(s)) ||
	    !memchr(s->target, 0, sizeof(s->target)) || !s->target[0]) {
		snprintf(err, errlen, "malformed probe");
		return -EINVAL;
	}
	for (i = 0; i < s->nargs; i++) {
		const struct ktp_probe_arg *a = &s->args[i];
		bool ret = s->kind == KTP_PROBE_KRETPROBE ||
			   s->kind == KTP_PROBE_URETPROBE;

		if ((a->src == KTP_ARG_FN && a->index < 6 && !ret) ||
		    ((a->src == KTP_ARG_REG || a->src == KTP_ARG_MEM) &&
		     a->index < KTP_NR_REGS) ||
		    a->src == KTP_ARG_CONST ||
		    (a->src == KTP_ARG_RET && ret))
			if (a->fetch >= KTP_FETCH_U8 &&
			    a->fetch <= KTP_FETCH_USTR)
				continue;
		snprintf(err, errlen, "%s: malformed argument %u", s->target,
			 i + 1);
		return -EINVAL;
	}
	return 0;
}

/* Hold a uprobe's file: a regular file the sender may read. */
static int ktp_dyn_get_file(struct ktp_dyn_probe *dp, char *err,
			    size_t errlen)
{
	struct inode *inode;
	int ret;

	ret = kern_path(dp->spec.target, LOOKUP_FOLLOW, &dp->path);
	if (ret) {
		snprintf(err, errlen, "%s: cannot open (error %d)",
			 dp->spec.target, ret);
		return ret;
	}
	inode = d_real_inode(dp->path.dentry);
	if (!S_ISREG(inode->i_mode)) {
		snprintf(err, errlen, "%s: not a regular file", dp->spec.target);
		ret = -EINVAL;
	} else if (path_permission(&dp->path, MAY_READ)) {
		snprintf(err, errlen, "%s: not readable by the caller",
			 dp->spec.target);
		ret = -EACCES;
	} else if (dp->spec.offset >= i_size_read(inode) ||
		   dp->spec.ref_ctr_offset >= i_size_read(inode)) {
		snprintf(err, errlen, "%s: offset 0x%llx is beyond the file's end",
			 dp->spec.target,
			 max(dp->spec.offset, dp->spec.ref_ctr_offset));
		ret = -EINVAL;
	}
	if (ret) {
		path_put(&dp->path);
		dp->path.dentry = NULL;
	}
	return ret;
}

struct ktp_dyn_set *ktp_dyn_prepare(const struct ktp_probe_spec *specs,
				    unsigned int n, bool sys_admin, char *err,
				    size_t errlen)
{
	struct ktp_dyn_set *set;
	unsigned int i, k;
	int ret = 0;

	if (!n || n > KTP_MAX_PROBE_SITES) {
		snprintf(err, errlen, "1 to %d probe sites", KTP_MAX_PROBE_SITES);
		return ERR_PTR(-EINVAL);
	}
	set = kzalloc(struct_size(set, probes, n), GFP_KERNEL);
	if (!set)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < n && !ret; i++) {
		struct ktp_dyn_probe *dp = &set->probes[i];

		dp->spec = specs[i];
		atomic64_set(&dp->missed, 0);
		ret = ktp_dyn_check_spec(&dp->spec, err, errlen);
		if (ret)
			break;
		for (k = 0; k < dp->spec.nargs; k++)
			if (dp->spec.args[k].fetch >= KTP_FETCH_STR)
				dp->strings |= 1u << k;
		dp->hits = alloc_percpu(u64);
		if (!dp->hits) {
			ret = -ENOMEM;
			break;
		}
		set->n = i + 1;
		if (ktp_dyn_is_kernel(&dp->spec)) {
			if (!sys_admin) {
				snprintf(err, errlen, "kprobes need CAP_SYS_ADMIN");
				ret = -EPERM;
			} else if (!KTP_HAVE_KPROBES ||
				   (dp->spec.kind == KTP_PROBE_KRETPROBE &&
				    !KTP_HAVE_KRETPROBES)) {
				snprintf(err, errlen, "this kernel has no kprobes (CONFIG_KPROBES)");
				ret = -EOPNOTSUPP;
			}
		} else if (!KTP_HAVE_UPROBES) {
			snprintf(err, errlen, "this kernel has no uprobes (CONFIG_UPROBES)");
			ret = -EOPNOTSUPP;
		} else {
			ret = ktp_dyn_get_file(dp, err, errlen);
		}
	}
	if (ret) {
		ktp_dyn_free(set);
		return ERR_PTR(ret);
	}
	set->n = n;
	return set;
}

void ktp_dyn_free(struct ktp_dyn_set *set)
{
	unsigned int i;

	if (IS_ERR_OR_NULL(set))
		return;
	for (i = 0; i < set->n; i++) {
		free_percpu(set->probes[i].hits);
		if (set->probes[i].path.dentry)
			path_put(&set->probes[i].path);
	}
	kfree(set);
}

static int ktp_dyn_kernel_error(const struct ktp_probe_spec *s, int ret,
				char *err, size_t errlen)
{
	const char *why = "the kernel refused it";

	if (ret == -ENOENT)
		why = "no such kernel function";
	else if (ret == -EINVAL || ret == -EILSEQ)
		why = "cannot be probed (the kprobe blacklist, notrace or __init code, or not an instruction boundary)";
	snprintf(err, errlen, "%s%s+0x%llx: %s (error %d)",
		 s->kind == KTP_PROBE_KRETPROBE ? "kr:" : "k:", s->target,
		 s->offset, why, ret);
	/* EILSEQ (mid-instruction) would read as a text encoding error. */
	return ret == -EILSEQ ? -EINVAL : ret;
}

static int ktp_dyn_register_kernel(struct ktp_dyn_probe *dp, char *err,
				   size_t errlen)
{
	struct kprobe *kp = &dp->rp.kp;
	int ret;

	kp->symbol_name = dp->spec.target;
	kp->offset = dp->spec.offset;
	kp->flags = KPROBE_FLAG_DISABLED;
	if (dp->spec.kind == KTP_PROBE_KPROBE) {
		kp->pre_handler = ktp_dyn_kprobe;
		ret = register_kprobe(kp);
	} else {
		ret = ktp_dyn_register_kretprobe(dp);
	}
	if (ret)
		return ktp_dyn_kernel_error(&dp->spec, ret, err, errlen);
	dp->registered = true;
	/* Its own write path is the one place ktprof cannot record from. */
	if (within_module((unsigned long)kp->addr, THIS_MODULE)) {
		snprintf(err, errlen, "%s: ktprof's own code cannot be probed",
			 dp->spec.target);
		return -EINVAL;
	}
	return 0;
}

#if KTP_HAVE_UPROBES
static int ktp_dyn_register_user(struct ktp_dyn_probe *dp, char *err,
				 size_t errlen)
{
	struct inode *inode = d_real_inode(dp->path.dentry);
	int ret;

	if (dp->spec.kind == KTP_PROBE_UPROBE)
		dp->uc.handler = ktp_dyn_uprobe;
	else
		dp->uc.ret_handler = ktp_dyn_uretprobe;
#if KTP_UPROBE_HANDLE
	dp->uprobe = uprobe_register(inode, dp->spec.offset,
				     dp->spec.ref_ctr_offset, &dp->uc);
	ret = IS_ERR(dp->uprobe) ? PTR_ERR(dp->uprobe) : 0;
#else
	ret = uprobe_register_refctr(inode, dp->spec.offset,
				     dp->spec.ref_ctr_offset, &dp->uc);
#endif
	if (ret) {
		snprintf(err, errlen, "%s+0x%llx: the kernel refused the uprobe (error %d)",
			 dp->spec.target, dp->spec.offset, ret);
		return ret;
	}
	dp->registered = true;
	return 0;
}

static void ktp_dyn_unregister_user(struct ktp_dyn_probe *dp)
{
#if KTP_UPROBE_HANDLE
	uprobe_unregister_nosync(dp->uprobe, &dp->uc);
#else
	uprobe_unregister(d_real_inode(dp->path.dentry), dp->spec.offset,
			  &dp->uc);
#endif
}
#else
static int ktp_dyn_register_user(struct ktp_dyn_probe *dp, char *err,
				 size_t errlen)
{
	return -EOPNOTSUPP;
}

static void ktp_dyn_unregister_user(struct ktp_dyn_probe *dp)
{
}
#endif

static void ktp_dyn_unregister_all(struct ktp_dyn_set *set)
{
	bool user = false;
	unsigned int i;

	WRITE_ONCE(set->live, false);
	for (i = 0; i < set->n; i++) {
		struct ktp_dyn_probe *dp = &set->probes[i];

		if (!dp->registered)
			continue;
		if (dp->spec.kind == KTP_PROBE_KPROBE) {
			unregister_kprobe(&dp->rp.kp);
		} else if (dp->spec.kind == KTP_PROBE_KRETPROBE) {
			unregister_kretprobe(&dp->rp);
		} else {
			ktp_dyn_unregister_user(dp);
			user = true;
		}
		dp->registered = false;
	}
#if KTP_HAVE_UPROBES && KTP_UPROBE_HANDLE
	if (user)
		uprobe_unregister_sync();
#endif
}

/* Under ktp_lock, before the session's start marks; takes @set. */
int ktp_dyn_register(struct ktp_dyn_set *set, char *err, size_t errlen)
{
	unsigned int i;
	int ret = 0;

	lockdep_assert_held(&ktp_lock);
	ktp_dyn_free(ktp_dyn);
	ktp_dyn = NULL;
	if (!set)
		return 0;
	for (i = 0; i < set->n && !ret; i++) {
		struct ktp_dyn_probe *dp = &set->probes[i];

		ret = ktp_dyn_is_kernel(&dp->spec) ?
		      ktp_dyn_register_kernel(dp, err, errlen) :
		      ktp_dyn_register_user(dp, err, errlen);
	}
	if (ret) {
		ktp_dyn_unregister_all(set);
		ktp_dyn_free(set);
		return ret;
	}
	WRITE_ONCE(ktp_dyn, set);
	WRITE_ONCE(set->live, true);
	for (i = 0; i < set->n; i++)
		if (ktp_dyn_is_kernel(&set->probes[i].spec))
			enable_kprobe(&set->probes[i].rp.kp);
	return 0;
}

/* At the stop, after the marks; the set stays for its counts. */
void ktp_dyn_unregister(void)
{
	lockdep_assert_held(&ktp_lock);
	if (ktp_dyn)
		ktp_dyn_unregister_all(ktp_dyn);
}

/* At the module's exit: nothing registered any more. */
void ktp_dyn_release(void)
{
	ktp_dyn_free(ktp_dyn);
	ktp_dyn = NULL;
}

/*
 * Hits and misses by probe id, its sites' summed, @n ids at most; how
 * many ids were put (the highest one's plus one).
 */
unsigned int ktp_dyn_stats(u64 *out, unsigned int n)
{
	struct ktp_dyn_set *set = ktp_dyn;
	unsigned int i, ids = 0;
	int cpu;

	lockdep_assert_held(&ktp_lock);
	if (!set)
		return 0;
	memset(out, 0, 2 * n * sizeof(u64));
	for (i = 0; i < set->n; i++) {
		struct ktp_dyn_probe *dp = &set->probes[i];
		unsigned int id = dp->spec.id;

		if (id >= n)
			continue;
		for_each_possible_cpu(cpu)
			out[2 * id] += *per_cpu_ptr(dp->hits, cpu);
		out[2 * id + 1] += atomic64_read(&dp->missed) +
				   dp->rp.kp.nmissed + dp->rp.nmissed;
		ids = max(ids, id + 1);
	}
	return ids;
}

/* The KTP_PROBE_STACK_* any probe of @set takes. */
u32 ktp_dyn_stack_kinds(const struct ktp_dyn_set *set)
{
	unsigned int i;
	u32 kinds = 0;

	for (i = 0; !IS_ERR_OR_NULL(set) && i < set->n; i++)
		kinds |= set->probes[i].spec.flags & KTP_PROBE_STACKS;
	return kinds;
}
