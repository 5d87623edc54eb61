// SPDX-License-Identifier: GPL-2.0
/*
 * User mappings and their files, so that samples of processes that have
 * exited by the end of the capture still symbolize. The overflow handler
 * resolves user addresses to file mappings the way BPF stack maps do:
 * mmap_read_trylock(), find_vma(), and an irq_work to unlock when IRQs are
 * off. Each new (process, mapping) goes out once as a MAP record; each new
 * file, referenced, goes to a per-CPU queue, and a work item in process
 * context writes its FILE record (path and GNU build id) once per session.
 *
 * A cache says "done" only once its record is written: a MAP or FILE
 * record that is lost (buffer full) goes out again at the next sample that
 * needs it. What cannot be done now is counted per CPU in stats:
 * unresolved (the mmap lock was busy) and files_deferred (the queue was
 * full; a later sample queues the file again).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/elf.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/kdev_t.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/pid.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "compat.h"
#include "sample.h"

/* The ELF note type of GNU build ids (not in every kernel's headers). */
#define KTP_NT_GNU_BUILD_ID 3

/* Files already described this session (process context, under lock). */
static DEFINE_MUTEX(ktp_files_lock);
static DEFINE_HASHTABLE(ktp_files_seen, 8);
struct ktp_file_seen {
	struct hlist_node node;
	u32 dev;
	u64 ino;
};

/* For hash buckets (equality compares dev and ino themselves). */
static u64 ktp_file_key(u32 dev, u64 ino)
{
	return hash_64(ino, 64) ^ dev;
}

static struct ktp_file_slot *ktp_file_slot(struct ktp_cache *c, u32 dev,
					   u64 ino)
{
	return &c->files[hash_64(ktp_file_key(dev, ino), ilog2(KTP_FILE_CACHE))];
}

bool ktp_files_pending(struct ktp_sample_cpu *sc)
{
	unsigned int i;

	for (i = 0; i < KTP_NR_CTX; i++)
		if (sc->cache[i].pending_head !=
		    READ_ONCE(sc->cache[i].pending_tail))
			return true;
	return false;
}

/*
 * A file needs a FILE record: hand it, referenced, to process context, once
 * per CPU and context. A full queue defers it to a later sample.
 */
static void ktp_queue_file(struct ktp_cache *c, struct file *file, u32 dev,
			   u64 ino)
{
	struct ktp_file_slot *slot = ktp_file_slot(c, dev, ino);

	if (READ_ONCE(slot->used) && slot->ino == ino && slot->dev == dev)
		return;
	if (c->pending_head - READ_ONCE(c->pending_tail) >= KTP_PENDING_FILES) {
		this_cpu_inc(ktp_cpus.files_deferred);
		return;
	}
	slot->ino = ino;
	slot->dev = dev;
	WRITE_ONCE(slot->used, 1);
	get_file(file);
	c->pending[c->pending_head % KTP_PENDING_FILES].file = file;
	c->pending[c->pending_head % KTP_PENDING_FILES].tgid = current->tgid;
	/* The pointer before the head that publishes it. */
	smp_wmb();
	WRITE_ONCE(c->pending_head, c->pending_head + 1);
}

/* The FILE record of a queued file was lost: a later sample queues it. */
static void ktp_forget_file(struct ktp_cache *c, u32 dev, u64 ino)
{
	struct ktp_file_slot *slot = ktp_file_slot(c, dev, ino);

	/* Racing with the producer is harmless: it is a cache. */
	if (slot->ino == ino && slot->dev == dev)
		WRITE_ONCE(slot->used, 0);
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
		this_cpu_inc(ktp_cpus.unresolved);
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

/* Has this session described the file already? Under ktp_files_lock. */
static bool ktp_file_described(u32 dev, u64 ino)
{
	struct ktp_file_seen *seen;

	hash_for_each_possible(ktp_files_seen, seen, node, ktp_file_key(dev, ino))
		if (seen->dev == dev && seen->ino == ino)
			return true;
	return false;
}

/*
 * Write one file's FILE record: its path and build id (reading them may
 * block), then the record on this CPU. -EAGAIN, and nothing written, when
 * this CPU is not traced (an untraced CPU, or one gone offline).
 */
static int ktp_write_file(struct file *file, u32 dev, pid_t tgid,
			  char *pathbuf)
{
	struct inode *inode = file_inode(file);
	struct ktp_file *f;
	struct ktp_wr w;
	const char *path;
	u8 id[KTP_BUILD_ID_MAX];
	size_t len, size;
	int id_len, ret = 0;

	path = ktp_file_path(file, tgid, pathbuf, pathbuf + PATH_MAX);
	len = strnlen(path, KTP_PATH_MAX - 1);
	id_len = ktp_build_id(file, id);
	size = ALIGN(sizeof(*f) + len + 1, 4);
	migrate_disable();
	if (!this_cpu_read(ktp_cpus.active)) {
		ret = -EAGAIN;
		goto out;
	}
	f = ktp_reserve(&w, KTP_REC_FILE, 0, size);
	if (!f) {
		ret = -ENOSPC;	/* counted as a drop */
		goto out;
	}
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
	migrate_enable();
	return ret;
}

/*
 * Describe one file unless done this session: 0 when that is settled (a
 * record lost makes the CPU's cache forget the file, so that a later
 * sample queues it again), -EAGAIN when this CPU cannot write it.
 */
static int ktp_describe_file(struct ktp_cache *c, struct file *file,
			     pid_t tgid, char *pathbuf)
{
	struct inode *inode = file_inode(file);
	u32 dev = new_encode_dev(inode->i_sb->s_dev);
	struct ktp_file_seen *seen;
	int ret = 0;

	mutex_lock(&ktp_files_lock);
	if (ktp_file_described(dev, inode->i_ino))
		goto out;
	seen = kmalloc_obj(*seen, GFP_KERNEL);
	ret = seen ? ktp_write_file(file, dev, tgid, pathbuf) : -ENOMEM;
	if (ret) {
		kfree(seen);
		if (ret != -EAGAIN) {
			ktp_forget_file(c, dev, inode->i_ino);
			ret = 0;
		}
		goto out;
	}
	seen->dev = dev;
	seen->ino = inode->i_ino;
	hash_add(ktp_files_seen, &seen->node, ktp_file_key(dev, inode->i_ino));
out:
	mutex_unlock(&ktp_files_lock);
	return ret;
}

/*
 * The file_work of a CPU: FILE records for the files its samples queued,
 * the queues' one consumer. On a CPU that is not traced (the work moved
 * off a CPU that went offline) it moves to one that is.
 */
void ktp_files_fn(struct work_struct *work)
{
	struct ktp_sample_cpu *sc = container_of(work, struct ktp_sample_cpu,
						 file_work);
	char *pathbuf = kmalloc(2 * PATH_MAX, GFP_KERNEL);
	unsigned int i;
	int cpu;

	for (i = 0; i < KTP_NR_CTX; i++) {
		struct ktp_cache *c = &sc->cache[i];

		while (c->pending_tail != READ_ONCE(c->pending_head)) {
			unsigned int slot = c->pending_tail % KTP_PENDING_FILES;
			struct file *file;
			u32 dev;

			/* The entry after the head that published it. */
			smp_rmb();
			file = c->pending[slot].file;
			if (!pathbuf) {
				dev = new_encode_dev(file_inode(file)->i_sb->s_dev);
				ktp_forget_file(c, dev, file_inode(file)->i_ino);
				this_cpu_inc(ktp_cpus.files_deferred);
			} else if (ktp_describe_file(c, file, c->pending[slot].tgid,
						     pathbuf) == -EAGAIN) {
				cpu = ktp_sample_traced_cpu();
				if (cpu >= 0)
					queue_work_on(cpu, system_wq, work);
				goto out;
			}
			fput(file);
			/* The slot is read before the producer may reuse it. */
			smp_mb();
			WRITE_ONCE(c->pending_tail, c->pending_tail + 1);
		}
	}
out:
	kfree(pathbuf);
}

/* Release files still queued when sampling ends without describing them. */
void ktp_files_drop_pending(struct ktp_sample_cpu *sc)
{
	unsigned int i;

	for (i = 0; i < KTP_NR_CTX; i++) {
		struct ktp_cache *c = &sc->cache[i];

		while (c->pending_tail != c->pending_head) {
			fput(c->pending[c->pending_tail % KTP_PENDING_FILES].file);
			c->pending_tail++;
			per_cpu_ptr(&ktp_cpus, sc->cpu)->files_deferred++;
		}
	}
}

/* A new session describes every file again. */
void ktp_files_forget(void)
{
	struct ktp_file_seen *seen;
	struct hlist_node *tmp;
	int bkt;

	mutex_lock(&ktp_files_lock);
	hash_for_each_safe(ktp_files_seen, bkt, tmp, seen, node) {
		hash_del(&seen->node);
		kfree(seen);
	}
	mutex_unlock(&ktp_files_lock);
}
