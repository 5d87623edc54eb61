// SPDX-License-Identifier: GPL-2.0
/*
 * CPU sampling and per-switch counters with kernel perf events.
 *
 * Sample sources are per-CPU sampling events; counters are per-CPU counting
 * events read at every context switch. Both live in a CPU hotplug state set
 * up at session start, so CPUs that come online get their events and going
 * offline releases them; a source that cannot be opened on some CPU fails
 * the start as a whole (cpuhp_setup_state() rolls back).
 *
 * The overflow handler takes the kernel stack with the ORC unwinder (from
 * regs->ip, as perf does), the user stack with a bounded frame-pointer walk
 * (copy_from_user_nofault), and resolves user addresses to file mappings
 * the way BPF stack maps do: mmap_read_trylock(), find_vma(), and an
 * irq_work to unlock when IRQs are off. Each new (process, mapping) goes
 * out once as a MAP record and each new file once as a FILE record (path
 * and build id, from a work item in process context), so samples of
 * processes that have exited by the end of the capture still symbolize.
 *
 * Hardware events overflow in NMI, where relay must not be called: their
 * records are staged in a per-CPU ring and moved to relay by an irq_work;
 * a full ring counts as loss. Software events (cpu-clock) overflow in
 * hardirq and write directly, unless the sample_defer test knob routes them
 * through the NMI path too.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/elf.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/pid.h>
#include <linux/sched/task.h>
#include <linux/hashtable.h>
#include <linux/irq_work.h>
#include <linux/kdev_t.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/perf_event.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <asm/unwind.h>

#include "ktprof.h"

/* The ELF note type of GNU build ids (not in every kernel's headers). */
#define KTP_NT_GNU_BUILD_ID 3

/* kernel/events/core.c: hw.interrupts of a throttled event. */
#define KTP_PERF_THROTTLED (~0ULL)

#define KTP_STAGE_SIZE (64 << 10)	/* per-CPU NMI staging ring, bytes */
#define KTP_MAP_CACHE 256		/* per-CPU, per context */
#define KTP_FILE_CACHE 64
#define KTP_PENDING_FILES 32

static const struct {
	const char *name;
	u32 type;
	u64 config;
} ktp_event_names[] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
};

/*
 * Parse one event spec: NAME or rHEX, optionally @NNNhz or @period=N.
 * @sampling: a rate is allowed (and defaults to 999 Hz).
 */
static int ktp_parse_event(char *spec, bool sampling, struct ktp_event_spec *e)
{
	char *rate = strchr(spec, '@');
	size_t i;

	memset(e, 0, sizeof(*e));
	if (rate)
		*rate++ = '\0';
	if (strscpy(e->name, spec, sizeof(e->name)) < 0 || !*spec)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(ktp_event_names); i++)
		if (!strcmp(spec, ktp_event_names[i].name))
			break;
	if (i < ARRAY_SIZE(ktp_event_names)) {
		e->type = ktp_event_names[i].type;
		e->config = ktp_event_names[i].config;
	} else if (spec[0] == 'r' && spec[1] && !kstrtou64(spec + 1, 16, &e->config)) {
		e->type = PERF_TYPE_RAW;
	} else {
		return -ENOENT;
	}
	if (!sampling)
		return rate ? -EINVAL : 0;
	e->freq = true;
	e->rate = 999;
	if (!rate)
		return 0;
	if (!strncmp(rate, "period=", 7)) {
		e->freq = false;
		if (kstrtou64(rate + 7, 0, &e->rate) || !e->rate)
			return -EINVAL;
		return 0;
	}
	i = strlen(rate);
	if (i < 3 || strcmp(rate + i - 2, "hz"))
		return -EINVAL;
	rate[i - 2] = '\0';
	if (kstrtou64(rate, 10, &e->rate) || !e->rate || e->rate > 100000)
		return -EINVAL;
	return 0;
}

/*
 * Parse a comma list of specs into @out (at most @max). Returns the count,
 * or -errno with the bad spec copied to @bad.
 */
int ktp_parse_event_list(const char *list, bool sampling,
			 struct ktp_event_spec *out, unsigned int max,
			 char *bad, size_t badlen)
{
	char buf[KTP_EVENT_LIST_MAX], *p = buf, *tok;
	unsigned int n = 0;
	int ret;

	if (strscpy(buf, list, sizeof(buf)) < 0)
		return -E2BIG;
	while ((tok = strsep(&p, ",")) != NULL) {
		tok = strim(tok);
		if (!*tok || !strcmp(tok, "none"))
			continue;
		strscpy(bad, tok, badlen);
		if (n == max)
			return -E2BIG;
		ret = ktp_parse_event(tok, sampling, &out[n]);
		if (ret)
			return ret;
		n++;
	}
	return n;
}

/* Per-CPU sampling state. */
struct ktp_stage {
	u32 head;		/* written by the NMI producer */
	u32 tail;		/* written by the irq_work consumer */
	u64 dropped;		/* NMI producer only */
	u64 dropped_seen;	/* consumer: part of it already in kc->lost */
	u8 data[KTP_STAGE_SIZE];
};

struct ktp_map_slot {
	u64 start_time;		/* the process's start: pid reuse */
	u64 start, end, ino;
	u32 pid;
};

/* Caches per context: an NMI may interrupt the hardirq handler. */
struct ktp_cache {
	struct ktp_map_slot maps[KTP_MAP_CACHE];
	u64 files[KTP_FILE_CACHE];	/* ktp_file_key() of files queued */
	/* Files waiting for their FILE record: this context produces. */
	struct {
		struct file *file;
		pid_t tgid;	/* who mapped it: paths as that process sees them */
	} pending[KTP_PENDING_FILES];
	u32 pending_head, pending_tail;
	struct irq_work unlock_work;	/* deferred mmap_read_unlock */
	struct mm_struct *unlock_mm;
	u8 scratch[sizeof(struct ktp_sample) + 2 * KTP_MAX_FRAMES * 8];
};

struct ktp_sample_cpu {
	struct perf_event *sources[KTP_MAX_SOURCES];
	struct perf_event *counters[KTP_MAX_COUNTERS];
	u64 counter_last[KTP_MAX_COUNTERS];
	struct ktp_stage *stage;
	struct irq_work drain_work;	/* staging ring -> relay, files */
	struct work_struct file_work;	/* FILE records, process context */
	struct ktp_cache cache[2];	/* [0] IRQ/task, [1] NMI */
};

static DEFINE_PER_CPU(struct ktp_sample_cpu *, ktp_sample_cpus);
static enum cpuhp_state ktp_sample_hp;
static bool ktp_sample_hp_set;
static unsigned int ktp_nr_counters;

/* Which source failed to open where, for the start's error message. */
static struct {
	int cpu, err;
	const struct ktp_event_spec *spec;
} ktp_sample_failure;

/* Files already described this session (process context, under lock). */
static DEFINE_MUTEX(ktp_files_lock);
static DEFINE_HASHTABLE(ktp_files_seen, 8);
struct ktp_file_seen {
	struct hlist_node node;
	u32 dev;
	u64 ino;
};

static u64 ktp_file_key(u32 dev, u64 ino)
{
	return ((u64)dev << 44) ^ ino;
}

/* Write @rec (a complete record with its header) to this CPU's buffer. */
static void ktp_write_copy(const void *rec)
{
	const struct ktp_hdr *src = rec;
	struct ktp_wr w;
	void *p;

	p = ktp_reserve(&w, src->type, src->flags, src->size);
	if (!p)
		return;
	memcpy(p + sizeof(struct ktp_hdr), rec + sizeof(struct ktp_hdr),
	       src->size - sizeof(struct ktp_hdr));
	ktp_commit(&w);
}

/* NMI side: copy a record into the staging ring, or count it lost. */
static void ktp_stage_push(struct ktp_sample_cpu *sc, const void *rec)
{
	struct ktp_stage *st = sc->stage;
	u32 size = ((const struct ktp_hdr *)rec)->size;
	u32 head = st->head, tail = READ_ONCE(st->tail);
	u32 off = head % KTP_STAGE_SIZE, room = KTP_STAGE_SIZE - off;
	u32 need = size + (room < size ? room : 0);

	if (KTP_STAGE_SIZE - (head - tail) < need) {
		st->dropped++;
		return;
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
}

/* irq_work side (IRQs off, this CPU): staged records into relay. */
static void ktp_stage_drain(struct ktp_sample_cpu *sc)
{
	struct ktp_stage *st = sc->stage;
	u32 head = READ_ONCE(st->head), tail = st->tail;
	u64 dropped;

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
	dropped = READ_ONCE(st->dropped);
	if (dropped != st->dropped_seen) {
		struct ktp_cpu *kc = this_cpu_ptr(&ktp_cpus);

		kc->lost += dropped - st->dropped_seen;
		kc->dropped[KTP_REC_SAMPLE] += dropped - st->dropped_seen;
		st->dropped_seen = dropped;
	}
}

/* Emit a record now, or stage it when relay cannot be called here. */
static void ktp_emit(struct ktp_sample_cpu *sc, const void *rec, bool staged)
{
	if (staged)
		ktp_stage_push(sc, rec);
	else
		ktp_write_copy(rec);
}

static bool ktp_files_pending(struct ktp_sample_cpu *sc)
{
	return sc->cache[0].pending_head != READ_ONCE(sc->cache[0].pending_tail) ||
	       sc->cache[1].pending_head != READ_ONCE(sc->cache[1].pending_tail);
}

/*
 * A file needs a FILE record: hand it, referenced, to process context, once
 * per CPU and context. A full queue skips it; a later sample retries.
 */
static void ktp_queue_file(struct ktp_cache *c, struct file *file, u32 dev,
			   u64 ino)
{
	u64 key = ktp_file_key(dev, ino);
	unsigned int slot = hash_64(key, ilog2(KTP_FILE_CACHE));

	if (c->files[slot] == key)
		return;
	if (c->pending_head - READ_ONCE(c->pending_tail) >= KTP_PENDING_FILES)
		return;
	c->files[slot] = key;
	get_file(file);
	c->pending[c->pending_head % KTP_PENDING_FILES].file = file;
	c->pending[c->pending_head % KTP_PENDING_FILES].tgid = current->tgid;
	/* The pointer before the head that publishes it. */
	smp_wmb();
	WRITE_ONCE(c->pending_head, c->pending_head + 1);
}

/* A MAP record for each mapping this process's samples land in, once. */
static void ktp_note_mapping(struct ktp_sample_cpu *sc, struct ktp_cache *c,
			     struct vm_area_struct *vma, bool staged)
{
	struct inode *inode = file_inode(vma->vm_file);
	u64 start_time = current->group_leader->start_time;
	struct ktp_map_slot *slot;
	struct ktp_map m;
	u32 dev;

	slot = &c->maps[hash_64(start_time ^ vma->vm_start ^ current->tgid,
				ilog2(KTP_MAP_CACHE))];
	if (slot->start_time == start_time && slot->pid == current->tgid &&
	    slot->start == vma->vm_start && slot->end == vma->vm_end &&
	    slot->ino == inode->i_ino)
		return;
	*slot = (struct ktp_map_slot){
		.start_time = start_time, .pid = current->tgid,
		.start = vma->vm_start, .end = vma->vm_end, .ino = inode->i_ino,
	};
	dev = new_encode_dev(inode->i_sb->s_dev);
	m = (struct ktp_map){
		.h = { .type = KTP_REC_MAP, .size = sizeof(m) },
		.pid = current->tgid,
		.dev = dev,
		.ino = inode->i_ino,
		.start = vma->vm_start,
		.end = vma->vm_end,
		.pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT,
	};
	ktp_emit(sc, &m, staged);
	ktp_queue_file(c, vma->vm_file, dev, inode->i_ino);
}

/*
 * Resolve the user frames' mappings under a trylock of the mmap lock; with
 * IRQs off the unlock is deferred to an irq_work (as BPF stack maps do).
 */
static void ktp_resolve_user(struct ktp_sample_cpu *sc, struct ktp_cache *c,
			     const u64 *ips, unsigned int n, bool staged)
{
	struct mm_struct *mm = current->mm;
	bool deferred = irqs_disabled();
	unsigned long last_end = 0, last_start = 0;
	unsigned int i;

	if (!mm || !n)
		return;
	if (deferred && irq_work_is_busy(&c->unlock_work))
		return;
	if (!mmap_read_trylock(mm))
		return;
	for (i = 0; i < n; i++) {
		struct vm_area_struct *vma;

		if (ips[i] >= last_start && ips[i] < last_end)
			continue;
		vma = find_vma(mm, ips[i]);
		if (!vma || vma->vm_start > ips[i] || !vma->vm_file)
			continue;
		last_start = vma->vm_start;
		last_end = vma->vm_end;
		ktp_note_mapping(sc, c, vma, staged);
	}
	if (!deferred) {
		mmap_read_unlock(mm);
		return;
	}
	c->unlock_mm = mm;
	/* Released by the irq_work; tell lockdep it is released now. */
	rwsem_release(&mm->mmap_lock.dep_map, _RET_IP_);
	irq_work_queue(&c->unlock_work);
}

static void ktp_unlock_fn(struct irq_work *work)
{
	struct ktp_cache *c = container_of(work, struct ktp_cache, unlock_work);

	mmap_read_unlock_non_owner(c->unlock_mm);
}

/* perf's test: regs from a real interrupt, or made up by software events. */
static bool ktp_hw_regs(struct pt_regs *regs)
{
	return regs->flags & X86_EFLAGS_FIXED;
}

static unsigned int ktp_kernel_stack(struct pt_regs *regs, u64 *ips,
				     bool *truncated)
{
	struct unwind_state state;
	unsigned int n = 0;

	ips[n++] = regs->ip;
	if (ktp_hw_regs(regs))
		unwind_start(&state, current, regs, NULL);
	else
		unwind_start(&state, current, NULL, (void *)regs->sp);
	for (; !unwind_done(&state); unwind_next_frame(&state)) {
		unsigned long addr = unwind_get_return_address(&state);

		if (!addr)
			break;
		if (n == KTP_MAX_FRAMES) {
			*truncated = true;
			break;
		}
		ips[n++] = addr;
	}
	return n;
}

/* Frame-pointer walk of the user stack, bounded, faults tolerated. */
static unsigned int ktp_user_stack(struct pt_regs *uregs, u64 *ips,
				   bool *truncated)
{
	unsigned long fp = uregs->bp;
	unsigned int n = 0;

	ips[n++] = uregs->ip;
	while (fp && !(fp & (sizeof(long) - 1))) {
		struct {
			unsigned long next_fp;
			unsigned long ret;
		} frame;

		if (copy_from_user_nofault(&frame, (void __user *)fp,
					   sizeof(frame)))
			break;
		if (!frame.ret)
			break;
		if (n == KTP_MAX_FRAMES) {
			*truncated = true;
			break;
		}
		ips[n++] = frame.ret;
		if (frame.next_fp <= fp)
			break;
		fp = frame.next_fp;
	}
	return n;
}

/* The kernel-side sample filter: cheap, so it runs before any unwinding. */
static bool ktp_sample_wanted(const struct ktp_config *cfg)
{
	unsigned int i;

	if (!cfg->nr_sample_pids && !cfg->sample_comm[0])
		return true;
	for (i = 0; i < cfg->nr_sample_pids; i++)
		if (cfg->sample_pids[i] == current->tgid)
			return true;
	return cfg->sample_comm[0] &&
	       !strncmp(current->comm, cfg->sample_comm, TASK_COMM_LEN);
}

static void ktp_overflow(struct perf_event *event, struct perf_sample_data *data,
			 struct pt_regs *regs)
{
	struct ktp_sample_cpu *sc = this_cpu_read(ktp_sample_cpus);
	bool staged = in_nmi() || READ_ONCE(ktp_session.cfg.sample_defer);
	bool ktrunc = false, utrunc = false;
	struct pt_regs *uregs = NULL;
	struct ktp_sample *s;
	struct ktp_cache *c;
	unsigned int nk = 0, nu = 0;
	u64 *ips;

	if (!sc || !this_cpu_read(ktp_cpus.active) ||
	    !ktp_sample_wanted(&ktp_session.cfg))
		return;
	c = &sc->cache[in_nmi() ? 1 : 0];
	s = (struct ktp_sample *)c->scratch;
	ips = (u64 *)(s + 1);

	if (event->hw.interrupts == KTP_PERF_THROTTLED) {
		struct ktp_throttle t = {
			.h = { .type = KTP_REC_THROTTLE, .size = sizeof(t) },
			.source = (unsigned long)event->overflow_handler_context,
		};

		/* this_cpu ops: an NMI source may interrupt an IRQ one. */
		this_cpu_inc(ktp_cpus.throttled);
		ktp_emit(sc, &t, staged);
	}
	if (!user_mode(regs))
		nk = ktp_kernel_stack(regs, ips, &ktrunc);
	if (user_mode(regs))
		uregs = regs;
	else if (current->mm && !(current->flags & PF_KTHREAD))
		uregs = task_pt_regs(current);
	if (uregs) {
		nu = ktp_user_stack(uregs, ips + nk, &utrunc);
		ktp_resolve_user(sc, c, ips + nk, nu, staged);
	}
	s->h = (struct ktp_hdr){
		.type = KTP_REC_SAMPLE,
		.flags = (user_mode(regs) ? KTP_SAMPLE_USER : 0) |
			 (ktrunc ? KTP_SAMPLE_KTRUNC : 0) |
			 (utrunc ? KTP_SAMPLE_UTRUNC : 0) |
			 (staged ? KTP_SAMPLE_DEFERRED : 0),
		.size = sizeof(*s) + (nk + nu) * sizeof(u64),
	};
	s->ts = ktime_get_boot_fast_ns();
	s->pid = current->tgid;
	s->tid = current->pid;
	s->source = (unsigned long)event->overflow_handler_context;
	s->pad = 0;
	s->nr_kernel = nk;
	s->nr_user = nu;
	s->pad2 = 0;
	this_cpu_inc(ktp_cpus.samples);
	ktp_emit(sc, s, staged);
	if (staged || ktp_files_pending(sc))
		irq_work_queue(&sc->drain_work);
}

static void ktp_drain_fn(struct irq_work *work)
{
	struct ktp_sample_cpu *sc = container_of(work, struct ktp_sample_cpu,
						 drain_work);

	ktp_stage_drain(sc);
	if (ktp_files_pending(sc))
		queue_work_on(smp_processor_id(), system_wq, &sc->file_work);
}

/* The GNU build id of an ELF file, read in process context. */
static int ktp_build_id(struct file *file, u8 *id)
{
	struct elf64_hdr eh;
	loff_t pos = 0;
	int i;

	if (kernel_read(file, &eh, sizeof(eh), &pos) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(struct elf64_phdr) || eh.e_phnum > 64)
		return 0;
	for (i = 0; i < eh.e_phnum; i++) {
		struct elf64_phdr ph;
		u8 notes[512];
		u64 off = 0, len;

		pos = eh.e_phoff + i * sizeof(ph);
		if (kernel_read(file, &ph, sizeof(ph), &pos) != sizeof(ph))
			return 0;
		if (ph.p_type != PT_NOTE)
			continue;
		len = min_t(u64, ph.p_filesz, sizeof(notes));
		pos = ph.p_offset;
		if (kernel_read(file, notes, len, &pos) != len)
			continue;
		while (off + sizeof(struct elf64_note) <= len) {
			struct elf64_note *nh = (void *)(notes + off);
			u64 name = ALIGN(nh->n_namesz, 4), desc = ALIGN(nh->n_descsz, 4);
			u8 *p = notes + off + sizeof(*nh);

			if (off + sizeof(*nh) + name + desc > len)
				break;
			if (nh->n_type == KTP_NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(p, "GNU", 4) && nh->n_descsz &&
			    nh->n_descsz <= KTP_BUILD_ID_MAX) {
				memcpy(id, p + name, nh->n_descsz);
				return nh->n_descsz;
			}
			off += sizeof(*nh) + name + desc;
		}
	}
	return 0;
}

/*
 * @file's path as process @tgid sees it (inside its chroot, say), which is
 * what its maps show; the global path if the process is gone.
 */
static const char *ktp_file_path(struct file *file, pid_t tgid, char *buf,
				 char *rootbuf)
{
	struct task_struct *task = NULL;
	const char *path, *root = NULL;
	struct path root_path;
	struct pid *pid;
	size_t len;

	path = d_path(&file->f_path, buf, PATH_MAX);
	if (IS_ERR(path))
		return "";
	pid = find_get_pid(tgid);
	if (pid)
		task = get_pid_task(pid, PIDTYPE_PID);
	put_pid(pid);
	if (!task)
		return path;
	task_lock(task);
	if (task->fs) {
		get_fs_root(task->fs, &root_path);
		root = "";
	}
	task_unlock(task);
	put_task_struct(task);
	if (!root)
		return path;
	root = d_path(&root_path, rootbuf, PATH_MAX);
	path_put(&root_path);
	if (IS_ERR(root) || !strcmp(root, "/"))
		return path;
	len = strlen(root);
	if (!strncmp(path, root, len) && path[len] == '/')
		path += len;
	return path;
}

/* Describe one file (path and build id) unless done this session. */
static void ktp_describe_file(struct file *file, pid_t tgid, char *pathbuf)
{
	struct inode *inode = file_inode(file);
	u32 dev = new_encode_dev(inode->i_sb->s_dev);
	struct ktp_file_seen *seen;
	struct ktp_file *f;
	struct ktp_wr w;
	const char *path;
	u8 id[KTP_BUILD_ID_MAX];
	size_t len, size;
	int id_len;

	mutex_lock(&ktp_files_lock);
	hash_for_each_possible(ktp_files_seen, seen, node,
			       ktp_file_key(dev, inode->i_ino))
		if (seen->dev == dev && seen->ino == inode->i_ino)
			goto out;
	seen = kmalloc(sizeof(*seen), GFP_KERNEL);
	if (!seen)
		goto out;
	seen->dev = dev;
	seen->ino = inode->i_ino;
	hash_add(ktp_files_seen, &seen->node, ktp_file_key(dev, inode->i_ino));

	path = ktp_file_path(file, tgid, pathbuf, pathbuf + PATH_MAX);
	len = strnlen(path, KTP_PATH_MAX - 1);
	id_len = ktp_build_id(file, id);
	size = ALIGN(sizeof(*f) + len + 1, 4);
	f = ktp_reserve(&w, KTP_REC_FILE, 0, size);
	if (!f)
		goto out;
	f->dev = dev;
	f->build_id_len = id_len;
	memset(f->pad, 0, sizeof(f->pad));
	f->ino = inode->i_ino;
	memset(f->build_id, 0, sizeof(f->build_id));
	memcpy(f->build_id, id, id_len);
	memcpy(f->path, path, len);
	memset(f->path + len, 0, size - sizeof(*f) - len);
	ktp_commit(&w);
out:
	mutex_unlock(&ktp_files_lock);
}

static void ktp_file_fn(struct work_struct *work)
{
	struct ktp_sample_cpu *sc = container_of(work, struct ktp_sample_cpu,
						 file_work);
	char *pathbuf = kmalloc(2 * PATH_MAX, GFP_KERNEL);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sc->cache); i++) {
		struct ktp_cache *c = &sc->cache[i];

		while (c->pending_tail != READ_ONCE(c->pending_head)) {
			unsigned int slot = c->pending_tail % KTP_PENDING_FILES;
			struct file *file;

			/* The entry after the head that published it. */
			smp_rmb();
			file = c->pending[slot].file;
			if (pathbuf)
				ktp_describe_file(file, c->pending[slot].tgid,
						  pathbuf);
			fput(file);
			/* The slot is read before the producer may reuse it. */
			smp_mb();
			WRITE_ONCE(c->pending_tail, c->pending_tail + 1);
		}
	}
	kfree(pathbuf);
}

static struct perf_event *ktp_open_event(const struct ktp_event_spec *spec,
					 int cpu, bool sampling,
					 unsigned long index)
{
	struct perf_event_attr attr = {
		.type = spec->type,
		.size = sizeof(attr),
		.config = spec->config,
		.pinned = 1,
		.disabled = 1,
	};

	if (sampling) {
		attr.freq = spec->freq;
		attr.sample_period = spec->rate;	/* or sample_freq */
	}
	return perf_event_create_kernel_counter(&attr, cpu, NULL,
						sampling ? ktp_overflow : NULL,
						(void *)index);
}

static void ktp_sample_cpu_free(struct ktp_sample_cpu *sc)
{
	unsigned int i;

	for (i = 0; i < KTP_MAX_SOURCES; i++)
		if (sc->sources[i])
			perf_event_release_kernel(sc->sources[i]);
	for (i = 0; i < KTP_MAX_COUNTERS; i++)
		if (sc->counters[i])
			perf_event_release_kernel(sc->counters[i]);
	irq_work_sync(&sc->drain_work);
	for (i = 0; i < ARRAY_SIZE(sc->cache); i++)
		irq_work_sync(&sc->cache[i].unlock_work);
	/* Describe the files still queued, while this CPU is traced. */
	cancel_work_sync(&sc->file_work);
	ktp_file_fn(&sc->file_work);
	vfree(sc->stage);
	kfree(sc);
}

/* CPU comes up (and at start, on each online CPU): create its events. */
static int ktp_sample_cpu_up(unsigned int cpu)
{
	const struct ktp_config *cfg = &ktp_session.cfg;
	struct ktp_sample_cpu *sc;
	struct perf_event *ev;
	unsigned int i;

	if (!cpumask_test_cpu(cpu, &cfg->cpus))
		return 0;
	sc = kzalloc(sizeof(*sc), GFP_KERNEL);
	if (!sc)
		return -ENOMEM;
	sc->stage = vzalloc(sizeof(*sc->stage));
	if (!sc->stage) {
		kfree(sc);
		return -ENOMEM;
	}
	init_irq_work(&sc->drain_work, ktp_drain_fn);
	init_irq_work(&sc->cache[0].unlock_work, ktp_unlock_fn);
	init_irq_work(&sc->cache[1].unlock_work, ktp_unlock_fn);
	INIT_WORK(&sc->file_work, ktp_file_fn);

	for (i = 0; i < cfg->nr_samples + cfg->nr_counters; i++) {
		bool sampling = i < cfg->nr_samples;
		const struct ktp_event_spec *spec = sampling ?
			&cfg->samples[i] : &cfg->counters[i - cfg->nr_samples];

		ev = ktp_open_event(spec, cpu, sampling, i);
		if (IS_ERR(ev)) {
			ktp_sample_failure.cpu = cpu;
			ktp_sample_failure.err = PTR_ERR(ev);
			ktp_sample_failure.spec = spec;
			ktp_sample_cpu_free(sc);
			return PTR_ERR(ev);
		}
		if (sampling)
			sc->sources[i] = ev;
		else
			sc->counters[i - cfg->nr_samples] = ev;
	}
	/* Visible before the events run, since the handler looks it up. */
	per_cpu(ktp_sample_cpus, cpu) = sc;
	for (i = 0; i < cfg->nr_samples; i++)
		perf_event_enable(sc->sources[i]);
	for (i = 0; i < cfg->nr_counters; i++)
		perf_event_enable(sc->counters[i]);
	return 0;
}

/* CPU goes down (and at stop, on each online CPU): release its events. */
static int ktp_sample_cpu_down(unsigned int cpu)
{
	struct ktp_sample_cpu *sc = per_cpu(ktp_sample_cpus, cpu);
	unsigned int i;

	if (!sc)
		return 0;
	for (i = 0; i < KTP_MAX_SOURCES; i++)
		if (sc->sources[i])
			perf_event_disable(sc->sources[i]);
	/* The switch probe runs with IRQs off: it sees all or nothing. */
	local_irq_disable();
	ktp_stage_drain(sc);
	per_cpu(ktp_sample_cpus, cpu) = NULL;
	local_irq_enable();
	ktp_sample_cpu_free(sc);
	return 0;
}

static const char *ktp_errno_hint(int err)
{
	switch (err) {
	case -ENOENT:
	case -EOPNOTSUPP:
		return "this machine cannot count it (no hardware PMU, e.g. under qemu TCG?)";
	case -EINVAL:
		return "invalid for this CPU or rate too high";
	case -EACCES:
	case -EPERM:
		return "not permitted";
	case -EBUSY:
		return "the PMU is in use";
	}
	return "cannot open it";
}

int ktp_sample_start(char *err, size_t errlen)
{
	const struct ktp_config *cfg = &ktp_session.cfg;
	int ret;

	ktp_nr_counters = 0;
	if (!cfg->nr_samples && !cfg->nr_counters)
		return 0;
	memset(&ktp_sample_failure, 0, sizeof(ktp_sample_failure));
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "ktprof:sample",
				ktp_sample_cpu_up, ktp_sample_cpu_down);
	if (ret < 0) {
		if (ktp_sample_failure.spec)
			snprintf(err, errlen, "event %s on CPU %d: error %d: %s",
				 ktp_sample_failure.spec->name,
				 ktp_sample_failure.cpu, ktp_sample_failure.err,
				 ktp_errno_hint(ktp_sample_failure.err));
		else
			snprintf(err, errlen, "cannot set up sampling: error %d",
				 ret);
		return ktp_sample_failure.spec ? ktp_sample_failure.err : ret;
	}
	ktp_sample_hp = ret;
	ktp_sample_hp_set = true;
	ktp_nr_counters = cfg->nr_counters;
	return 0;
}

void ktp_sample_stop(void)
{
	struct ktp_file_seen *seen;
	struct hlist_node *tmp;
	int bkt;

	/* Switch records stop carrying counters before the counters go. */
	WRITE_ONCE(ktp_nr_counters, 0);
	if (ktp_sample_hp_set) {
		cpuhp_remove_state(ktp_sample_hp);
		ktp_sample_hp_set = false;
	}
	mutex_lock(&ktp_files_lock);
	hash_for_each_safe(ktp_files_seen, bkt, tmp, seen, node) {
		hash_del(&seen->node);
		kfree(seen);
	}
	mutex_unlock(&ktp_files_lock);
}

/* Per-switch counters: this CPU's deltas since the last switch. IRQs off. */
unsigned int ktp_counters_read(u64 *deltas)
{
	struct ktp_sample_cpu *sc = this_cpu_read(ktp_sample_cpus);
	unsigned int i, n = READ_ONCE(ktp_nr_counters);

	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		struct perf_event *ev = sc ? sc->counters[i] : NULL;
		u64 v;

		deltas[i] = 0;
		if (!ev || ev->state != PERF_EVENT_STATE_ACTIVE ||
		    ev->oncpu != smp_processor_id())
			continue;
		ev->pmu->read(ev);
		v = local64_read(&ev->count);
		deltas[i] = v - sc->counter_last[i];
		sc->counter_last[i] = v;
	}
	return n;
}

/* Start counting afresh on this CPU (its START or ONLINE mark). IRQs off. */
void ktp_counters_reset_local(void)
{
	u64 unused[KTP_MAX_COUNTERS];

	ktp_counters_read(unused);
}

/* Staged records go out before this CPU's STOP mark. IRQs off. */
void ktp_sample_drain_local(void)
{
	struct ktp_sample_cpu *sc = this_cpu_read(ktp_sample_cpus);

	if (sc)
		ktp_stage_drain(sc);
}
