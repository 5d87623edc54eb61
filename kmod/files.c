// SPDX-License-Identifier: GPL-2.0
/*
 * FILE records: the path and GNU build id of each file a sample's user
 * frames were mapped from, once per session.
 *
 * The samples queue files on per-CPU queues (maps.c). Each CPU's file_work
 * is its queues' one consumer: it claims each file not yet described this
 * session and hands it, as a job, to this module's workqueue. A job reads
 * the path and build id with no lock held, since the read may block for as
 * long as the file system likes (an NFS server gone, a FUSE daemon that
 * does not answer). It then writes the record on a traced CPU. At most
 * KTP_FILE_DEV_JOBS jobs of one device read at once, the others wait
 * behind them: a file system that hangs holds that many workers, and the
 * other file systems keep the rest.
 *
 * A record dropped for want of room (a full buffer in drop mode) is tried
 * again, once, when a buffer takes records again (ktp_files_room()), not at
 * every sample: the file stays claimed meanwhile, marked lost.
 *
 * Stop waits for the jobs a bounded time (KTP_FILES_WAIT) and gives up on
 * the rest. Those are counted in stats (files_deferred) and, when their
 * read returns at last, write nothing; those still waiting never read. So
 * neither stop, nor hotplug, nor a later session waits on a file system.
 * Only unload waits for jobs still blocked, since their code must stay.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/elf.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/kdev_t.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/random.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/wait.h>

#include "compat.h"
#include "sample.h"

/* The ELF note type of GNU build ids (not in every kernel's headers). */
#define KTP_NT_GNU_BUILD_ID 3

/* How long stop waits for FILE records still being read. */
#define KTP_FILES_WAIT (5 * HZ)
/*
 * Jobs at most, running, waiting, or blocked since earlier sessions:
 * files beyond it are deferred (a later sample queues them again).
 */
#define KTP_FILE_JOBS_MAX 1024

/*
 * The files claimed this session (a job describes each): a table of fixed
 * size, made with the session's sampling. A sampled process, unprivileged
 * too, may map as many files as it likes; they cost no more memory. Each
 * file has two buckets of KTP_FILES_WAYS slots, from a hash keyed anew each
 * session (no process can aim at a bucket), and goes into the emptier one;
 * when both are full it gets no FILE record (counted in files_deferred,
 * each time a sample asks for it). A lookup reads two buckets.
 */
#define KTP_FILES_BUCKETS 2048
#define KTP_FILES_WAYS 8	/* 16,384 files in 256 KiB */

struct ktp_file_seen {
	u64 ino;
	u32 dev;
	u16 state;		/* KTP_SEEN_* */
	u16 lost_gen;		/* LOST: ktp_files_retry_gen when it was */
};

enum {
	KTP_SEEN_FREE,
	KTP_SEEN_CLAIMED,	/* a job describes it, or has */
	KTP_SEEN_LOST,		/* its record was dropped: retried later */
};

struct ktp_files_table {
	siphash_key_t key;
	struct ktp_file_seen slot[KTP_FILES_BUCKETS][KTP_FILES_WAYS];
};

/* Process context only. The table exists while the session samples. */
static DEFINE_MUTEX(ktp_files_lock);
static struct ktp_files_table *ktp_files_seen;

/* Jobs of one device reading at once. */
#define KTP_FILE_DEV_JOBS 2

/*
 * A job's state: who ends it. Writing its record (ktp_file_write_here())
 * and stop giving up on it (ktp_files_flush()) each move it out of ACTIVE,
 * so a record given up on and counted is never written as well.
 */
enum {
	KTP_JOB_ACTIVE,
	KTP_JOB_ENDED,		/* its record written, dropped or not to be */
	KTP_JOB_ABANDONED,	/* stop gave up on it and counted it */
};

/* The jobs of one device (under ktp_file_jobs_lock). */
struct ktp_file_dev {
	struct hlist_node node;
	u32 dev;
	unsigned int running;		/* queued to the workqueue */
	struct list_head waiting;	/* jobs behind them */
};

/*
 * A file being described. The job owns its reference on the file and
 * touches no per-CPU sampling state, which stop may free before the job
 * ends.
 */
struct ktp_file_job {
	struct work_struct work;
	struct list_head node;	/* on ktp_file_jobs while stop waits for it */
	struct list_head wait_node;	/* on its device's waiting list */
	struct ktp_file_dev *fdev;
	struct file *file;
	u64 session;		/* the id of the session that asked */
	u32 dev;
	pid_t tgid;		/* who mapped it: paths as that process sees them */
	unsigned int cpu;	/* whose queue it came from */
	bool started;		/* queued to the workqueue */
	atomic_t state;		/* KTP_JOB_* */
};

/* What a job writes, on the CPU that writes it. */
struct ktp_file_out {
	struct ktp_file_job *job;
	const char *path;
	size_t path_len;
	const u8 *build_id;
	int build_id_len;
	int ret;
};

static struct workqueue_struct *ktp_files_wq;
/* Under it: the jobs not given up on (stop waits for them), the devices. */
static DEFINE_SPINLOCK(ktp_file_jobs_lock);
static LIST_HEAD(ktp_file_jobs);
static DEFINE_HASHTABLE(ktp_file_devs, 4);
/* Jobs that exist, given up on or not: what bounds their memory. */
static unsigned int ktp_file_jobs_live;
static DECLARE_WAIT_QUEUE_HEAD(ktp_file_jobs_wait);

/*
 * Bumped when FILE records are to be tried again: the CPUs' caches of
 * queued files hold the epoch they were filled in, so every file is queued
 * again.
 */
atomic_t ktp_files_epoch = ATOMIC_INIT(1);

/*
 * FILE records dropped (buffer full) wait for a buffer to take records
 * again: then the generation moves on, and a claim of a file lost in an
 * earlier one retries it.
 */
static atomic_t ktp_files_retry_gen;
static atomic_t ktp_files_lost;		/* some wait: bump at the next room */

/* For hash buckets (equality compares dev and ino themselves). */
u64 ktp_file_key(u32 dev, u64 ino)
{
	return hash_64(ino, 64) ^ dev;
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

static void ktp_files_deferred_here(void *n)
{
	this_cpu_add(ktp_cpus.stats[KTP_STAT_FILES_DEFERRED], (unsigned long)n);
}

/* The adders for offline CPUs, which may be several at once (see below). */
static DEFINE_SPINLOCK(ktp_files_offline_lock);

/*
 * Count @n files without a FILE record (files_deferred) on @cpu, the CPU
 * whose samples asked for them. There samples count with this_cpu ops
 * (NMI-safe, not atomic against other CPUs), so the count is added on that
 * CPU, by a cross-CPU call when it is online. When it is offline no sample
 * runs there, but other callers may add for it at the same time (a job,
 * stop's flush: the hotplug lock is shared), so they take a lock.
 * Process context.
 */
static void ktp_files_count_deferred(unsigned int cpu, unsigned long n)
{
	if (!n)
		return;
	cpus_read_lock();
	if (cpu_online(cpu)) {
		smp_call_function_single(cpu, ktp_files_deferred_here,
					 (void *)n, 1);
	} else {
		spin_lock(&ktp_files_offline_lock);
		per_cpu_ptr(&ktp_cpus, cpu)->stats[KTP_STAT_FILES_DEFERRED] += n;
		spin_unlock(&ktp_files_offline_lock);
	}
	cpus_read_unlock();
}

/*
 * Under ktp_files_lock: the slot of @dev:@ino, or NULL and in @free the
 * first free slot of the emptier of its buckets (NULL: both are full).
 */
static struct ktp_file_seen *ktp_file_find(struct ktp_files_table *t, u32 dev,
					   u64 ino, struct ktp_file_seen **free)
{
	u64 h = siphash_2u64(ino, dev, &t->key);
	struct ktp_file_seen *bucket[2] = {
		t->slot[h % KTP_FILES_BUCKETS],
		t->slot[(h >> 32) % KTP_FILES_BUCKETS],
	};
	struct ktp_file_seen *first[2] = {};
	unsigned int i, j, nfree[2] = {};

	for (i = 0; i < 2; i++) {
		for (j = 0; j < KTP_FILES_WAYS; j++) {
			struct ktp_file_seen *seen = &bucket[i][j];

			if (seen->state == KTP_SEEN_FREE) {
				if (!nfree[i]++)
					first[i] = seen;
			} else if (seen->dev == dev && seen->ino == ino) {
				return seen;
			}
		}
	}
	*free = nfree[1] > nfree[0] ? first[1] : first[0];
	return NULL;
}

/*
 * Claim a file for this session's FILE record: 1 claimed, 0 claimed
 * already (or lost, and no buffer has had room since), -ENOSPC no room in
 * the table to remember it (it has no record).
 */
static int ktp_file_claim(u32 dev, u64 ino)
{
	u16 gen = atomic_read(&ktp_files_retry_gen);
	struct ktp_file_seen *seen, *free;
	int ret = -ENOSPC;

	mutex_lock(&ktp_files_lock);
	if (ktp_files_seen) {
		seen = ktp_file_find(ktp_files_seen, dev, ino, &free);
		if (seen) {
			ret = seen->state == KTP_SEEN_LOST && seen->lost_gen != gen;
			if (ret)
				seen->state = KTP_SEEN_CLAIMED;
		} else if (free) {
			*free = (struct ktp_file_seen){
				.ino = ino, .dev = dev, .state = KTP_SEEN_CLAIMED,
			};
			ret = 1;
		}
	}
	mutex_unlock(&ktp_files_lock);
	return ret;
}

/*
 * A claimed file has no record: unclaim it, if its session still runs,
 * and with @requeue let every CPU queue it again (its record was lost:
 * the next sample that needs it retries).
 */
static void ktp_file_unclaim(u64 session, u32 dev, u64 ino, bool requeue)
{
	struct ktp_file_seen *seen, *free;

	mutex_lock(&ktp_files_lock);
	/*
	 * A new session's table comes after its new id: one found while the
	 * id is still ours is ours.
	 */
	if (ktp_files_seen && READ_ONCE(ktp_session.id) == session) {
		seen = ktp_file_find(ktp_files_seen, dev, ino, &free);
		if (seen)
			seen->state = KTP_SEEN_FREE;
	}
	mutex_unlock(&ktp_files_lock);
	if (requeue)
		atomic_inc(&ktp_files_epoch);
}

/*
 * A claimed file's record was dropped (a full buffer) in retry generation
 * @gen: it stays claimed, marked lost, until a buffer has room again.
 */
static void ktp_file_lost(u64 session, u32 dev, u64 ino, u16 gen)
{
	struct ktp_file_seen *seen, *free;

	mutex_lock(&ktp_files_lock);
	if (ktp_files_seen && READ_ONCE(ktp_session.id) == session) {
		seen = ktp_file_find(ktp_files_seen, dev, ino, &free);
		if (seen) {
			seen->state = KTP_SEEN_LOST;
			seen->lost_gen = gen;
		}
	}
	mutex_unlock(&ktp_files_lock);
	atomic_set(&ktp_files_lost, 1);
	/* Room came since the drop, before the flag: retry now. */
	smp_mb__after_atomic();
	if ((u16)atomic_read(&ktp_files_retry_gen) != gen)
		ktp_files_room();
}

/*
 * A CPU's buffer takes records again after it dropped some (drop mode):
 * the FILE records lost until now are tried again. relay's sub-buffer
 * switch, IRQs off; not NMI.
 */
void ktp_files_room(void)
{
	if (!atomic_read(&ktp_files_lost) || !atomic_xchg(&ktp_files_lost, 0))
		return;
	atomic_inc(&ktp_files_retry_gen);
	/* Every CPU queues its files again; claims retry the lost ones. */
	atomic_inc(&ktp_files_epoch);
}

/* The GNU build id of an ELF file; may block. */
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

/*
 * The FILE record, on this CPU (IRQs off: a cross-CPU call): -EAGAIN when
 * this CPU does not record for the job's session, -ENOSPC when the record
 * was dropped (and counted).
 */
static void ktp_file_write_here(void *arg)
{
	struct ktp_file_out *o = arg;
	struct ktp_file_job *job = o->job;
	struct inode *inode = file_inode(job->file);
	size_t size = ALIGN(sizeof(struct ktp_file) + o->path_len + 1, 4);
	struct ktp_file *f;
	struct ktp_wr w;

	if (!this_cpu_read(ktp_cpus.active) ||
	    READ_ONCE(ktp_session.id) != job->session) {
		o->ret = -EAGAIN;
		return;
	}
	/*
	 * This CPU's STOP mark comes after this call (IRQs are off), so a
	 * record that wins the job lands in the session.
	 */
	if (atomic_cmpxchg(&job->state, KTP_JOB_ACTIVE,
			   KTP_JOB_ENDED) != KTP_JOB_ACTIVE) {
		o->ret = -ESTALE;
		return;
	}
	f = ktp_reserve(&w, KTP_REC_FILE, 0, size);
	if (!f) {
		o->ret = -ENOSPC;
		return;
	}
	f->dev = job->dev;
	f->build_id_len = o->build_id_len;
	memset(f->pad, 0, sizeof(f->pad));
	f->ino = inode->i_ino;
	memset(f->build_id, 0, sizeof(f->build_id));
	memcpy(f->build_id, o->build_id, o->build_id_len);
	memcpy(f->path, o->path, o->path_len);
	memset(f->path + o->path_len, 0, size - sizeof(*f) - o->path_len);
	ktp_commit(&w);
	o->ret = 0;
}

/*
 * Write the record on the CPU whose sample asked for it, or else on a
 * traced one; while the session runs with none of them online, wait for
 * one. 0 written, -ENOSPC dropped, -ESTALE given up on by stop.
 */
static int ktp_file_write(struct ktp_file_out *o)
{
	struct ktp_file_job *job = o->job;
	int cpu;

	/* A CPU that goes offline meanwhile refuses the call. */
	o->ret = -EAGAIN;
	smp_call_function_single(job->cpu, ktp_file_write_here, o, 1);
	while (o->ret == -EAGAIN) {
		if (atomic_read(&job->state) != KTP_JOB_ACTIVE)
			return -ESTALE;
		cpu = ktp_sample_traced_cpu();
		if (cpu >= 0)
			smp_call_function_single(cpu, ktp_file_write_here, o, 1);
		if (o->ret != -EAGAIN)
			break;
		/* All traced CPUs offline: look again (stop ends the wait). */
		schedule_timeout_uninterruptible(HZ / 10);
	}
	return o->ret;
}

/* Under ktp_file_jobs_lock: a device with no jobs left goes. */
static void ktp_file_dev_put(struct ktp_file_dev *fdev)
{
	if (!fdev->running && list_empty(&fdev->waiting)) {
		hash_del(&fdev->node);
		kfree(fdev);
	}
}

/*
 * The job is over: it leaves the list stop waits on (unless stop took it
 * off), and the next job of its device, if any, runs.
 */
static void ktp_file_job_done(struct ktp_file_job *job)
{
	struct ktp_file_dev *fdev = job->fdev;
	struct ktp_file_job *next;

	spin_lock(&ktp_file_jobs_lock);
	if (atomic_cmpxchg(&job->state, KTP_JOB_ACTIVE, KTP_JOB_ENDED) !=
	    KTP_JOB_ABANDONED) {
		list_del(&job->node);
		if (list_empty(&ktp_file_jobs))
			wake_up_all(&ktp_file_jobs_wait);
	}
	ktp_file_jobs_live--;
	next = list_first_entry_or_null(&fdev->waiting, struct ktp_file_job,
					wait_node);
	if (next) {
		list_del(&next->wait_node);
		next->started = true;
		queue_work(ktp_files_wq, &next->work);
	} else {
		fdev->running--;
		ktp_file_dev_put(fdev);
	}
	spin_unlock(&ktp_file_jobs_lock);
	fput(job->file);
	kfree(job);
}

static void ktp_file_job_fn(struct work_struct *work)
{
	struct ktp_file_job *job = container_of(work, struct ktp_file_job, work);
	u64 ino = file_inode(job->file)->i_ino;
	u8 id[KTP_BUILD_ID_MAX];
	struct ktp_file_out o = { .job = job, .build_id = id };
	char *pathbuf, *rootbuf;
	u16 gen;

	/* Given up on while it waited: no read of a file system that hung. */
	if (atomic_read(&job->state) != KTP_JOB_ACTIVE)
		goto out;
	pathbuf = __getname();
	rootbuf = __getname();
	if (!pathbuf || !rootbuf) {
		/* No record: a later sample queues the file again. */
		if (atomic_cmpxchg(&job->state, KTP_JOB_ACTIVE,
				   KTP_JOB_ENDED) == KTP_JOB_ACTIVE) {
			ktp_files_count_deferred(job->cpu, 1);
			ktp_file_unclaim(job->session, job->dev, ino, true);
		}
		goto out_names;
	}
	/* The reads that may block: nothing held. */
	o.path = ktp_file_path(job->file, job->tgid, pathbuf, rootbuf);
	o.path_len = strnlen(o.path, KTP_PATH_MAX - 1);
	o.build_id_len = ktp_build_id(job->file, id);
	gen = atomic_read(&ktp_files_retry_gen);
	if (ktp_file_write(&o) == -ENOSPC)
		ktp_file_lost(job->session, job->dev, ino, gen);
out_names:
	if (pathbuf)
		__putname(pathbuf);
	if (rootbuf)
		__putname(rootbuf);
out:
	ktp_file_job_done(job);
}

/* Under ktp_file_jobs_lock: @dev's jobs, made from @spare if new. */
static struct ktp_file_dev *ktp_file_dev_get(u32 dev,
					     struct ktp_file_dev **spare)
{
	struct ktp_file_dev *fdev;

	hash_for_each_possible(ktp_file_devs, fdev, node, dev)
		if (fdev->dev == dev)
			return fdev;
	fdev = *spare;
	*spare = NULL;
	fdev->dev = dev;
	INIT_LIST_HEAD(&fdev->waiting);
	hash_add(ktp_file_devs, &fdev->node, dev);
	return fdev;
}

/*
 * Hand a queued file (and its reference) to a job, or behind its device's
 * running ones: 1 done, else the caller drops the file: 0 it needs no job,
 * -ENOSPC it has no record for now (the caller counts it for @cpu).
 */
static int ktp_file_job_start(struct file *file, pid_t tgid, unsigned int cpu)
{
	struct inode *inode = file_inode(file);
	u32 dev = new_encode_dev(inode->i_sb->s_dev);
	struct ktp_file_dev *spare;
	struct ktp_file_job *job;
	bool full;

	switch (ktp_file_claim(dev, inode->i_ino)) {
	case 1:
		break;
	case -ENOSPC:
		/* No room to remember it: no record, nor any retry now. */
		return -ENOSPC;
	default:
		return 0;
	}
	job = kzalloc_obj(*job, GFP_KERNEL);
	spare = kzalloc_obj(*spare, GFP_KERNEL);
	if (!job || !spare) {
		full = false;
		goto deferred;
	}
	INIT_WORK(&job->work, ktp_file_job_fn);
	job->file = file;
	job->session = READ_ONCE(ktp_session.id);
	job->dev = dev;
	job->tgid = tgid;
	job->cpu = cpu;
	atomic_set(&job->state, KTP_JOB_ACTIVE);
	spin_lock(&ktp_file_jobs_lock);
	full = ktp_file_jobs_live >= KTP_FILE_JOBS_MAX;
	if (full) {
		spin_unlock(&ktp_file_jobs_lock);
		goto deferred;
	}
	job->fdev = ktp_file_dev_get(dev, &spare);
	list_add_tail(&job->node, &ktp_file_jobs);
	ktp_file_jobs_live++;
	if (job->fdev->running < KTP_FILE_DEV_JOBS) {
		job->fdev->running++;
		job->started = true;
		queue_work(ktp_files_wq, &job->work);
	} else {
		list_add_tail(&job->wait_node, &job->fdev->waiting);
	}
	spin_unlock(&ktp_file_jobs_lock);
	kfree(spare);
	return 1;

deferred:
	/*
	 * No memory: every CPU queues it again. Too many jobs (file systems
	 * that hang): only other CPUs, lest each sample here retry it.
	 */
	ktp_file_unclaim(READ_ONCE(ktp_session.id), dev, inode->i_ino, !full);
	kfree(job);
	kfree(spare);
	return -ENOSPC;
}

/*
 * The file_work of a CPU, its queues' one consumer: queued files to jobs.
 * It does not block on file systems, so stop can wait for it.
 */
void ktp_files_fn(struct work_struct *work)
{
	struct ktp_sample_cpu *sc = container_of(work, struct ktp_sample_cpu,
						 file_work);
	unsigned long deferred = 0;
	unsigned int i;
	int ret;

	for (i = 0; i < KTP_NR_CTX; i++) {
		struct ktp_cache *c = &sc->cache[i];

		while (c->pending_tail != READ_ONCE(c->pending_head)) {
			unsigned int slot = c->pending_tail % KTP_PENDING_FILES;
			struct file *file;

			/* The entry after the head that published it. */
			smp_rmb();
			file = c->pending[slot].file;
			ret = ktp_file_job_start(file, c->pending[slot].tgid,
						 sc->cpu);
			if (ret <= 0)
				fput(file);
			deferred += ret == -ENOSPC;
			/* The slot is read before the producer may reuse it. */
			smp_mb();
			WRITE_ONCE(c->pending_tail, c->pending_tail + 1);
		}
	}
	/* Stop runs this on its own CPU: count on the one that queued. */
	ktp_files_count_deferred(sc->cpu, deferred);
}

/* Release files still queued when sampling ends without describing them. */
void ktp_files_drop_pending(struct ktp_sample_cpu *sc)
{
	unsigned long dropped = 0;
	unsigned int i;

	for (i = 0; i < KTP_NR_CTX; i++) {
		struct ktp_cache *c = &sc->cache[i];

		while (c->pending_tail != c->pending_head) {
			fput(c->pending[c->pending_tail % KTP_PENDING_FILES].file);
			c->pending_tail++;
			dropped++;
		}
	}
	ktp_files_count_deferred(sc->cpu, dropped);
}

/* Has every job ended or been given up on? */
static bool ktp_file_jobs_idle(void)
{
	bool idle;

	spin_lock(&ktp_file_jobs_lock);
	idle = list_empty(&ktp_file_jobs);
	spin_unlock(&ktp_file_jobs_lock);
	return idle;
}

/* Files a stop gave up on, by the CPU that queued them (stop's own). */
static DEFINE_PER_CPU(unsigned long, ktp_files_given_up);

/*
 * Stop, after sampling ended and with no lock held: the queued files to
 * jobs, then the jobs' records, waited for at most KTP_FILES_WAIT (less if
 * the stopping task is killed). The jobs left are given up on, counted on
 * the CPU that queued them. One stop at a time (ktp_stop_lock).
 */
void ktp_files_flush(void)
{
	struct ktp_file_job *job, *tmp;
	LIST_HEAD(never_run);
	int cpu;

	for_each_possible_cpu(cpu) {
		struct ktp_sample_cpu *sc = per_cpu(ktp_sample_cpus, cpu);

		if (!sc)
			continue;
		queue_work(ktp_percpu_wq, &sc->file_work);
		flush_work(&sc->file_work);
	}
	wait_event_killable_timeout(ktp_file_jobs_wait,
				    ktp_file_jobs_idle(),
				    KTP_FILES_WAIT);
	spin_lock(&ktp_file_jobs_lock);
	list_for_each_entry_safe(job, tmp, &ktp_file_jobs, node) {
		/* Not one that is writing its record right now. */
		if (atomic_cmpxchg(&job->state, KTP_JOB_ACTIVE,
				   KTP_JOB_ABANDONED) != KTP_JOB_ACTIVE)
			continue;
		list_del(&job->node);
		per_cpu(ktp_files_given_up, job->cpu)++;
		if (job->started)
			continue;
		/* Waiting behind its device: it never runs. */
		list_del(&job->wait_node);
		ktp_file_dev_put(job->fdev);
		ktp_file_jobs_live--;
		list_add(&job->node, &never_run);
	}
	spin_unlock(&ktp_file_jobs_lock);
	list_for_each_entry_safe(job, tmp, &never_run, node) {
		fput(job->file);
		kfree(job);
	}
	for_each_possible_cpu(cpu) {
		ktp_files_count_deferred(cpu, per_cpu(ktp_files_given_up, cpu));
		per_cpu(ktp_files_given_up, cpu) = 0;
	}
}

/* A session that samples: an empty table of the files it describes. */
int ktp_files_start(void)
{
	struct ktp_files_table *t = kvzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return -ENOMEM;
	get_random_bytes(&t->key, sizeof(t->key));
	atomic_set(&ktp_files_lost, 0);
	mutex_lock(&ktp_files_lock);
	swap(ktp_files_seen, t);
	mutex_unlock(&ktp_files_lock);
	kvfree(t);
	return 0;
}

/* The session's sampling is over: a new one describes every file again. */
void ktp_files_forget(void)
{
	struct ktp_files_table *t;

	mutex_lock(&ktp_files_lock);
	t = ktp_files_seen;
	ktp_files_seen = NULL;
	mutex_unlock(&ktp_files_lock);
	kvfree(t);
}

int ktp_files_init(void)
{
	/*
	 * Several at once: reads blocked on one file system leave workers
	 * for the others.
	 */
	ktp_files_wq = alloc_workqueue("ktprof_files", WQ_UNBOUND, 16);
	return ktp_files_wq ? 0 : -ENOMEM;
}

/* At unload, after the last stop: waits for reads still blocked. */
void ktp_files_exit(void)
{
	unsigned int live;

	spin_lock(&ktp_file_jobs_lock);
	live = ktp_file_jobs_live;
	spin_unlock(&ktp_file_jobs_lock);
	if (live)
		pr_warn("unload waits for %u FILE reads blocked on their file systems\n",
			live);
	destroy_workqueue(ktp_files_wq);
}
