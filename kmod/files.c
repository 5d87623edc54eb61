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
 * does not answer). It then writes the record on a traced CPU.
 *
 * Stop waits for the jobs a bounded time (KTP_FILES_WAIT) and gives up on
 * the rest. Those are counted in stats (files_deferred) and, when their
 * read returns at last, write nothing. So neither stop, nor hotplug, nor
 * a later session waits on a file system. Only unload waits for jobs
 * still blocked, since their code must stay.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/elf.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/kdev_t.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
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
 * Jobs at most, the blocked ones of earlier sessions included: files
 * beyond it are deferred (a later sample queues them again).
 */
#define KTP_FILE_JOBS_MAX 1024

/* Files claimed this session (a job describes each; process context). */
static DEFINE_MUTEX(ktp_files_lock);
static DEFINE_HASHTABLE(ktp_files_seen, 8);
struct ktp_file_seen {
	struct hlist_node node;
	u32 dev;
	u64 ino;
};

/*
 * A file being described. The job owns its reference on the file and
 * touches no per-CPU sampling state, which stop may free before the job
 * ends.
 */
struct ktp_file_job {
	struct work_struct work;
	struct list_head node;	/* on ktp_file_jobs while stop waits for it */
	struct file *file;
	u64 session;		/* the id of the session that asked */
	u32 dev;
	pid_t tgid;		/* who mapped it: paths as that process sees them */
	int cpu;		/* whose queue it came from */
	bool abandoned;		/* stop gave up on it and counted it */
};

/* What a job writes, on the CPU that writes it. */
struct ktp_file_out {
	const struct ktp_file_job *job;
	const char *path;
	size_t path_len;
	const u8 *build_id;
	int build_id_len;
	int ret;
};

static struct workqueue_struct *ktp_files_wq;
/* Jobs not given up on, and stop's wait for them. */
static DEFINE_SPINLOCK(ktp_file_jobs_lock);
static LIST_HEAD(ktp_file_jobs);
static unsigned int ktp_file_jobs_busy;
/* Jobs that exist, given up on or not: what bounds their memory. */
static unsigned int ktp_file_jobs_live;
static DECLARE_WAIT_QUEUE_HEAD(ktp_file_jobs_wait);

/*
 * Bumped when a FILE record is lost: the CPUs' caches of queued files hold
 * the epoch they were filled in, so every file is queued again.
 */
atomic_t ktp_files_epoch = ATOMIC_INIT(1);

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

/* Under ktp_files_lock. */
static struct ktp_file_seen *ktp_file_find(u32 dev, u64 ino)
{
	struct ktp_file_seen *seen;

	hash_for_each_possible(ktp_files_seen, seen, node, ktp_file_key(dev, ino))
		if (seen->dev == dev && seen->ino == ino)
			return seen;
	return NULL;
}

/*
 * Claim a file for this session's FILE record: false when it is claimed
 * already, or there is no memory to remember it (then it is deferred).
 */
static bool ktp_file_claim(u32 dev, u64 ino)
{
	struct ktp_file_seen *seen;
	bool claimed = false;

	mutex_lock(&ktp_files_lock);
	if (!ktp_file_find(dev, ino)) {
		seen = kmalloc_obj(*seen, GFP_KERNEL);
		if (seen) {
			seen->dev = dev;
			seen->ino = ino;
			hash_add(ktp_files_seen, &seen->node,
				 ktp_file_key(dev, ino));
			claimed = true;
		} else {
			this_cpu_inc(ktp_cpus.files_deferred);
		}
	}
	mutex_unlock(&ktp_files_lock);
	return claimed;
}

/*
 * A claimed file's record was lost: unclaim it, if its session still
 * runs, and let every CPU queue it again.
 */
static void ktp_file_unclaim(u64 session, u32 dev, u64 ino)
{
	struct ktp_file_seen *seen;

	mutex_lock(&ktp_files_lock);
	/*
	 * Stop empties the table before another session can start, and
	 * entries are added under this lock: one found while the id is
	 * still ours is ours.
	 */
	if (READ_ONCE(ktp_session.id) == session) {
		seen = ktp_file_find(dev, ino);
		if (seen) {
			hash_del(&seen->node);
			kfree(seen);
		}
	}
	mutex_unlock(&ktp_files_lock);
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
	const struct ktp_file_job *job = o->job;
	struct inode *inode = file_inode(job->file);
	size_t size = ALIGN(sizeof(struct ktp_file) + o->path_len + 1, 4);
	struct ktp_file *f;
	struct ktp_wr w;

	if (!this_cpu_read(ktp_cpus.active) ||
	    READ_ONCE(ktp_session.id) != job->session) {
		o->ret = -EAGAIN;
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
 * Write the record on a traced CPU; while the session runs with none of
 * them online, wait for one. 0 written, -ENOSPC dropped, -ESTALE the
 * session is over.
 */
static int ktp_file_write(struct ktp_file_out *o)
{
	int cpu;

	for (;;) {
		if (READ_ONCE(ktp_session.id) != o->job->session ||
		    READ_ONCE(ktp_session.state) != KTP_SESSION_RUNNING)
			return -ESTALE;
		/* A CPU that goes offline meanwhile refuses the call. */
		cpu = ktp_sample_traced_cpu();
		o->ret = -EAGAIN;
		if (cpu >= 0)
			smp_call_function_single(cpu, ktp_file_write_here, o, 1);
		if (o->ret != -EAGAIN)
			return o->ret;
		/* All traced CPUs offline, or one stopping: look again. */
		schedule_timeout_uninterruptible(HZ / 10);
	}
}

/* The job leaves the list stop waits on (unless stop gave up on it). */
static void ktp_file_job_done(struct ktp_file_job *job)
{
	spin_lock(&ktp_file_jobs_lock);
	ktp_file_jobs_live--;
	if (!job->abandoned) {
		list_del(&job->node);
		if (!--ktp_file_jobs_busy)
			wake_up_all(&ktp_file_jobs_wait);
	}
	spin_unlock(&ktp_file_jobs_lock);
	fput(job->file);
	kfree(job);
}

static void ktp_file_job_fn(struct work_struct *work)
{
	struct ktp_file_job *job = container_of(work, struct ktp_file_job, work);
	char *pathbuf = kmalloc(2 * PATH_MAX, GFP_KERNEL);
	u64 ino = file_inode(job->file)->i_ino;
	u8 id[KTP_BUILD_ID_MAX];
	struct ktp_file_out o = { .job = job, .build_id = id };

	if (!pathbuf) {
		this_cpu_inc(ktp_cpus.files_deferred);
		ktp_file_unclaim(job->session, job->dev, ino);
		goto out;
	}
	/* The reads that may block: nothing held. */
	o.path = ktp_file_path(job->file, job->tgid, pathbuf, pathbuf + PATH_MAX);
	o.path_len = strnlen(o.path, KTP_PATH_MAX - 1);
	o.build_id_len = ktp_build_id(job->file, id);
	if (ktp_file_write(&o) == -ENOSPC)
		ktp_file_unclaim(job->session, job->dev, ino);
	kfree(pathbuf);
out:
	ktp_file_job_done(job);
}

/* Hand a queued file (and its reference) to a job: false if it cannot be. */
static bool ktp_file_job_start(struct file *file, pid_t tgid, int cpu)
{
	struct inode *inode = file_inode(file);
	u32 dev = new_encode_dev(inode->i_sb->s_dev);
	struct ktp_file_job *job;
	bool full;

	spin_lock(&ktp_file_jobs_lock);
	full = ktp_file_jobs_live >= KTP_FILE_JOBS_MAX;
	spin_unlock(&ktp_file_jobs_lock);
	if (full) {
		/* Not claimed: a later sample queues it again. */
		this_cpu_inc(ktp_cpus.files_deferred);
		atomic_inc(&ktp_files_epoch);
		return false;
	}
	if (!ktp_file_claim(dev, inode->i_ino))
		return false;
	job = kzalloc_obj(*job, GFP_KERNEL);
	if (!job) {
		this_cpu_inc(ktp_cpus.files_deferred);
		ktp_file_unclaim(READ_ONCE(ktp_session.id), dev, inode->i_ino);
		return false;
	}
	INIT_WORK(&job->work, ktp_file_job_fn);
	job->file = file;
	job->session = READ_ONCE(ktp_session.id);
	job->dev = dev;
	job->tgid = tgid;
	job->cpu = cpu;
	spin_lock(&ktp_file_jobs_lock);
	list_add_tail(&job->node, &ktp_file_jobs);
	ktp_file_jobs_busy++;
	ktp_file_jobs_live++;
	spin_unlock(&ktp_file_jobs_lock);
	queue_work(ktp_files_wq, &job->work);
	return true;
}

/*
 * The file_work of a CPU, its queues' one consumer: queued files to jobs.
 * It does not block on file systems, so stop can wait for it.
 */
void ktp_files_fn(struct work_struct *work)
{
	struct ktp_sample_cpu *sc = container_of(work, struct ktp_sample_cpu,
						 file_work);
	unsigned int i;

	for (i = 0; i < KTP_NR_CTX; i++) {
		struct ktp_cache *c = &sc->cache[i];

		while (c->pending_tail != READ_ONCE(c->pending_head)) {
			unsigned int slot = c->pending_tail % KTP_PENDING_FILES;
			struct file *file;

			/* The entry after the head that published it. */
			smp_rmb();
			file = c->pending[slot].file;
			if (!ktp_file_job_start(file, c->pending[slot].tgid, sc->cpu))
				fput(file);
			/* The slot is read before the producer may reuse it. */
			smp_mb();
			WRITE_ONCE(c->pending_tail, c->pending_tail + 1);
		}
	}
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

/*
 * Stop, after sampling ended and with no lock held: the queued files to
 * jobs, then the jobs' records, waited for at most KTP_FILES_WAIT (less if
 * the stopping task is killed). The jobs left are given up on, counted on
 * the CPU that queued them: no sample counts there any more.
 */
void ktp_files_flush(void)
{
	struct ktp_file_job *job, *tmp;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct ktp_sample_cpu *sc = per_cpu(ktp_sample_cpus, cpu);

		if (!sc)
			continue;
		queue_work(ktp_percpu_wq, &sc->file_work);
		flush_work(&sc->file_work);
	}
	wait_event_killable_timeout(ktp_file_jobs_wait,
				    !READ_ONCE(ktp_file_jobs_busy),
				    KTP_FILES_WAIT);
	spin_lock(&ktp_file_jobs_lock);
	list_for_each_entry_safe(job, tmp, &ktp_file_jobs, node) {
		list_del(&job->node);
		job->abandoned = true;
		ktp_file_jobs_busy--;
		per_cpu_ptr(&ktp_cpus, job->cpu)->files_deferred++;
	}
	spin_unlock(&ktp_file_jobs_lock);
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
	destroy_workqueue(ktp_files_wq);
}
