// SPDX-License-Identifier: GPL-2.0
/*
 * User mappings and their files, so that samples of processes that have
 * exited by the end of the capture still symbolize. The overflow handler
 * resolves user addresses to file mappings the way BPF stack maps do:
 * mmap_read_trylock(), find_vma(), and an irq_work to unlock when IRQs are
 * off. Each new (process, mapping) goes out once as a MAP record; each new
 * file, referenced, goes to a per-CPU queue for its FILE record (files.c).
 *
 * A cache says "done" only once its record is written: a MAP record that
 * is lost (buffer full) goes out again at the next sample that needs it;
 * FILE records lost so are retried when a buffer has room again, which
 * empties every file cache (ktp_files_epoch). What
 * cannot be done now is counted per CPU in stats: unresolved (the mmap
 * lock was busy) and files_deferred (the queue was full; a later sample
 * queues the file again).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/kdev_t.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>

#include "sample.h"

static struct ktp_file_slot *ktp_file_slot(struct ktp_cache *c, u32 dev,
					   u64 ino)
{
	return &c->files[hash_64(ktp_file_key(dev, ino), ilog2(KTP_FILE_CACHE))];
}

/*
 * A file needs a FILE record: hand it, referenced, to process context, once
 * per CPU and context. A full queue defers it to a later sample.
 */
static void ktp_queue_file(struct ktp_cache *c, struct file *file, u32 dev,
			   u64 ino)
{
	struct ktp_file_slot *slot = ktp_file_slot(c, dev, ino);
	u32 epoch = atomic_read(&ktp_files_epoch);

	/*
	 * Regular files only: reading a device or a socket that a process
	 * mapped (a GPU node, a packet ring) could wait for an event, and
	 * would take it from the process.
	 */
	if (!S_ISREG(file_inode(file)->i_mode))
		return;
	if (READ_ONCE(slot->epoch) == epoch && slot->ino == ino &&
	    slot->dev == dev)
		return;
	if (c->pending_head - READ_ONCE(c->pending_tail) >= KTP_PENDING_FILES) {
		this_cpu_inc(ktp_cpus.stats[KTP_STAT_FILES_DEFERRED]);
		return;
	}
	slot->ino = ino;
	slot->dev = dev;
	WRITE_ONCE(slot->epoch, epoch);
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

	dev = new_encode_dev(inode->i_sb->s_dev);
	slot = &c->maps[hash_64(start_time ^ vma->vm_start ^ current->tgid,
				ilog2(KTP_MAP_CACHE))];
	if (slot->start_time == start_time && slot->pid == current->tgid &&
	    slot->start == vma->vm_start && slot->end == vma->vm_end &&
	    slot->ino == inode->i_ino) {
		/* Known mapping; its file may still need its FILE record. */
		ktp_queue_file(c, vma->vm_file, dev, inode->i_ino);
		return;
	}
	m = (struct ktp_map){
		.h = { .type = KTP_REC_MAP, .size = sizeof(m) },
		.pid = current->tgid,
		.dev = dev,
		.ino = inode->i_ino,
		.start = vma->vm_start,
		.end = vma->vm_end,
		.pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT,
	};
	/* Lost (buffer full): the next sample here tries again. */
	if (!ktp_emit(sc, &m, staged))
		return;
	*slot = (struct ktp_map_slot){
		.start_time = start_time, .pid = current->tgid,
		.start = vma->vm_start, .end = vma->vm_end, .ino = inode->i_ino,
	};
	ktp_queue_file(c, vma->vm_file, dev, inode->i_ino);
}

/*
 * Resolve the user frames' mappings under a trylock of the mmap lock; with
 * IRQs off the unlock is deferred to an irq_work (as BPF stack maps do).
 */
void ktp_maps_resolve(struct ktp_sample_cpu *sc, struct ktp_cache *c,
		      const u64 *ips, unsigned int n, bool staged)
{
	struct mm_struct *mm = current->mm;
	bool deferred = irqs_disabled();
	unsigned long last_end = 0, last_start = 0;
	unsigned int i;

	if (!mm || !n)
		return;
	if ((deferred && irq_work_is_busy(&c->unlock_work)) ||
	    !mmap_read_trylock(mm)) {
		this_cpu_inc(ktp_cpus.stats[KTP_STAT_UNRESOLVED]);
		return;
	}
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

void ktp_unlock_fn(struct irq_work *work)
{
	struct ktp_cache *c = container_of(work, struct ktp_cache, unlock_work);

	mmap_read_unlock_non_owner(c->unlock_mm);
}
