// SPDX-License-Identifier: GPL-2.0
/*
 * FILE records: the path and GNU build id of each file a sample's user
 * frames were mapped from, once per session.
 *
 * The samples queue files on per-CPU queues (maps.c). Each CPU's file_work
 * is its queues' one consumer: it claims each file not yet described this
 * session, describes it and writes its record. Nothing in that blocks on
 * a file system: the path is the dentry cache's (d_path()), and the build
 * id is read from the page cache only, as perf's does (the kernel's
 * build_id_parse_nofault()); a file whose ELF headers are not cached gets
 * a record without one, marked KTP_FILE_UNCACHED (the recorder, or the
 * symbolizer, reads the file itself). So no file system can hold the
 * module hostage: a FUSE daemon that stops answering, an NFS server gone,
 * neither delays stop, hotplug, a later session or unload, nor pins
 * their files beyond the file_work's own pass.
 *
 * A record dropped for want of room (a full buffer in drop mode) is tried
 * again, once, when a buffer takes records again (ktp_files_room()), not at
 * every sample: the file stays claimed meanwhile, marked lost.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/elf.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/hash.h>
#include <linux/kdev_t.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/pid.h>
#include <linux/random.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "compat.h"
#include "sample.h"

/* The ELF note type of GNU build ids (not in every kernel's headers). */
#define KTP_NT_GNU_BUILD_ID 3

/* Program headers of an ELF file looked at, and bytes of its notes. */
#define KTP_ELF_PHDRS_MAX 64
#define KTP_ELF_NOTES_MAX 512

/*
 * The files claimed this session (each has a record, or had one dropped):
 * a table of fixed size, made with the session's sampling. A sampled
 * process, unprivileged too, may map as many files as it likes; they cost
 * no more memory. Each file has two buckets of KTP_FILES_WAYS slots, from a
 * hash keyed anew each session (no process can aim at a bucket), and goes
 * into the emptier one; when both are full it gets no FILE record (counted
 * in files_deferred, each time a sample asks for it). A lookup reads two
 * buckets.
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

/* What a file_work writes, on the CPU that writes it. */
struct ktp_file_out {
	u64 session;		/* the id of the session that asked */
	u32 dev;
	u64 ino;
	const char *path;
	size_t path_len;
	const u8 *build_id;
	int build_id_len;	/* -EAGAIN: the headers were not cached */
	int ret;
};

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

/* Selftest: @n files_deferred counted here, on this CPU, as samples do. */
static atomic_t ktp_files_burst_on;

static void ktp_files_deferred_burst(void *n)
{
	unsigned long i;

	atomic_set(&ktp_files_burst_on, 1);
	for (i = 0; i < (unsigned long)n; i++)
		this_cpu_inc(ktp_cpus.stats[KTP_STAT_FILES_DEFERRED]);
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
 * Selftest ("files-deferred N"): another online CPU (*@cpu) counts 20 N
 * files_deferred of its own, as its samples do, while this one counts N
 * for it, as stop and file_work do. Its count must come out at 21 N: none
 * lost. Process context, migration off.
 */
int ktp_files_selftest_deferred(unsigned long n, unsigned int *cpu)
{
	unsigned int other = cpumask_any_but(cpu_online_mask, smp_processor_id());
	unsigned long i;
	int ret;

	if (other >= nr_cpu_ids || n > ULONG_MAX / 21)
		return -EINVAL;
	*cpu = other;
	/* Not waited for: the two count at once, from when it has begun. */
	atomic_set(&ktp_files_burst_on, 0);
	ret = smp_call_function_single(other, ktp_files_deferred_burst,
				       (void *)(20 * n), 0);
	if (ret)
		return ret;
	while (!atomic_read(&ktp_files_burst_on))
		cpu_relax();
	for (i = 0; i < n; i++)
		ktp_files_count_deferred(other, 1);
	return 0;
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

/*
 * @len bytes of @file at @pos from the page cache: 0, or -EAGAIN when a
 * page of them is not there (or not read yet). Never reads the file
 * system nor waits for a page: the folio is looked up and referenced, not
 * locked, and read only once up to date, as filemap_read() does.
 */
static int ktp_file_read_cached(struct file *file, loff_t pos, void *buf,
				size_t len)
{
	struct address_space *mapping = file->f_mapping;

	while (len) {
		size_t off = offset_in_page(pos);
		size_t n = min_t(size_t, len, PAGE_SIZE - off);
		struct folio *folio;
		void *p;

		if (pos < 0 || pos + n > i_size_read(file_inode(file)))
			return -EIO;
		/* NULL (6.1) or an error (6.3 and later) when not cached. */
		folio = filemap_get_folio(mapping, pos >> PAGE_SHIFT);
		if (IS_ERR_OR_NULL(folio))
			return -EAGAIN;
		if (!folio_test_uptodate(folio)) {
			folio_put(folio);
			return -EAGAIN;
		}
		p = kmap_local_folio(folio, offset_in_folio(folio, pos));
		memcpy(buf, p, n);
		kunmap_local(p);
		folio_put(folio);
		buf += n;
		pos += n;
		len -= n;
	}
	return 0;
}

/* The GNU build id in @len bytes of ELF notes, into @id: its length or 0. */
static int ktp_build_id_note(const u8 *notes, u64 len, u8 *id)
{
	u64 off = 0;

	while (off + sizeof(struct elf64_note) <= len) {
		const struct elf64_note *nh = (const void *)(notes + off);
		u64 name = ALIGN(nh->n_namesz, 4), desc = ALIGN(nh->n_descsz, 4);
		const u8 *p = notes + off + sizeof(*nh);

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
	return 0;
}

/*
 * The GNU build id of an ELF file, from the page cache: its length, 0 when
 * it has none (or is no 64-bit ELF file), -EAGAIN when the pages that
 * would tell are not cached.
 */
static int ktp_build_id(struct file *file, u8 *id)
{
	u8 notes[KTP_ELF_NOTES_MAX];
	struct elf64_hdr eh;
	int i, ret;

	ret = ktp_file_read_cached(file, 0, &eh, sizeof(eh));
	if (ret)
		return ret == -EAGAIN ? ret : 0;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(struct elf64_phdr) ||
	    eh.e_phnum > KTP_ELF_PHDRS_MAX)
		return 0;
	for (i = 0; i < eh.e_phnum; i++) {
		struct elf64_phdr ph;
		u64 len;

		ret = ktp_file_read_cached(file, eh.e_phoff + i * sizeof(ph),
					   &ph, sizeof(ph));
		if (ret)
			return ret == -EAGAIN ? ret : 0;
		if (ph.p_type != PT_NOTE)
			continue;
		len = min_t(u64, ph.p_filesz, sizeof(notes));
		ret = ktp_file_read_cached(file, ph.p_offset, notes, len);
		if (ret == -EAGAIN)
			return ret;
		ret = ret ? 0 : ktp_build_id_note(notes, len, id);
		if (ret)
			return ret;
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
 * this CPU does not record for the session, -ENOSPC when the record was
 * dropped (and counted).
 */
static void ktp_file_write_here(void *arg)
{
	struct ktp_file_out *o = arg;
	size_t size = ALIGN(sizeof(struct ktp_file) + o->path_len + 1, 4);
	struct ktp_file *f;
	struct ktp_wr w;

	if (!this_cpu_read(ktp_cpus.active) ||
	    READ_ONCE(ktp_session.id) != o->session) {
		o->ret = -EAGAIN;
		return;
	}
	f = ktp_reserve(&w, KTP_REC_FILE, 0, size);
	if (!f) {
		o->ret = -ENOSPC;
		return;
	}
	f->dev = o->dev;
	f->build_id_len = max(o->build_id_len, 0);
	f->flags = o->build_id_len < 0 ? KTP_FILE_UNCACHED : 0;
	memset(f->pad, 0, sizeof(f->pad));
	f->ino = o->ino;
	memset(f->build_id, 0, sizeof(f->build_id));
	memcpy(f->build_id, o->build_id, f->build_id_len);
	memcpy(f->path, o->path, o->path_len);
	memset(f->path + o->path_len, 0, size - sizeof(*f) - o->path_len);
	ktp_commit(&w);
	o->ret = 0;
}

/*
 * Write the record on @cpu, whose sample asked for it, or else on a
 * traced one: 0 written, -ENOSPC dropped, -EAGAIN no traced CPU online.
 * Stop's flush runs the file_work after the session's last samples and
 * before its STOP marks, so every record lands in the session.
 */
static int ktp_file_write(struct ktp_file_out *o, unsigned int cpu)
{
	int other;

	cpus_read_lock();
	o->ret = -EAGAIN;
	if (cpu_online(cpu))
		smp_call_function_single(cpu, ktp_file_write_here, o, 1);
	if (o->ret == -EAGAIN) {
		other = ktp_sample_traced_cpu();
		if (other >= 0)
			smp_call_function_single(other, ktp_file_write_here, o, 1);
	}
	cpus_read_unlock();
	return o->ret;
}

/* Buffers for a file_work's paths. */
struct ktp_file_names {
	char *path;
	char *root;
};

/*
 * Describe a queued file for the session @session (its record, or it goes
 * unclaimed or lost): 1 described now, 0 claimed before, -ENOSPC no record
 * now (the caller counts it for @cpu). Does not block on the file's file
 * system.
 */
static int ktp_file_describe(struct file *file, pid_t tgid, unsigned int cpu,
			     u64 session, struct ktp_file_names *names)
{
	struct inode *inode = file_inode(file);
	u8 id[KTP_BUILD_ID_MAX];
	struct ktp_file_out o = {
		.session = session,
		.dev = new_encode_dev(inode->i_sb->s_dev),
		.ino = inode->i_ino,
		.build_id = id,
	};
	u16 gen;
	int ret;

	ret = ktp_file_claim(o.dev, o.ino);
	if (ret <= 0)
		return ret;
	if (!names->path || !names->root) {
		/* No memory: a later sample queues it again. */
		ktp_file_unclaim(session, o.dev, o.ino, true);
		return -ENOSPC;
	}
	o.path = ktp_file_path(file, tgid, names->path, names->root);
	o.path_len = strnlen(o.path, KTP_PATH_MAX - 1);
	o.build_id_len = ktp_build_id(file, id);
	gen = atomic_read(&ktp_files_retry_gen);
	ret = ktp_file_write(&o, cpu);
	if (ret == -ENOSPC)
		ktp_file_lost(session, o.dev, o.ino, gen);
	else if (ret == -EAGAIN)
		/* No CPU records: no samples either until one does. */
		ktp_file_unclaim(session, o.dev, o.ino, true);
	return 1;
}

/*
 * The file_work of a CPU, its queues' one consumer: each queued file
 * described. It does not block on file systems, so stop can wait for it.
 */
void ktp_files_fn(struct work_struct *work)
{
	struct ktp_sample_cpu *sc = container_of(work, struct ktp_sample_cpu,
						 file_work);
	u64 session = READ_ONCE(ktp_session.id);
	struct ktp_file_names names = {};
	unsigned long deferred = 0;
	bool named = false;
	unsigned int i;

	/*
	 * Test knob: this CPU's first pass of the session waits, so that its
	 * buffer can fill between the MAP records and their FILE records.
	 */
	if (ktp_session.cfg.files_delay_ms && !sc->files_delayed) {
		sc->files_delayed = true;
		msleep(ktp_session.cfg.files_delay_ms);
	}

	for (i = 0; i < KTP_NR_CTX; i++) {
		struct ktp_cache *c = &sc->cache[i];

		while (c->pending_tail != READ_ONCE(c->pending_head)) {
			unsigned int slot = c->pending_tail % KTP_PENDING_FILES;
			struct file *file;

			/* The entry after the head that published it. */
			smp_rmb();
			file = c->pending[slot].file;
			if (!named) {
				names.path = __getname();
				names.root = __getname();
				named = true;
			}
			deferred += ktp_file_describe(file, c->pending[slot].tgid,
						      sc->cpu, session,
						      &names) == -ENOSPC;
			fput(file);
			/* The slot is read before the producer may reuse it. */
			smp_mb();
			WRITE_ONCE(c->pending_tail, c->pending_tail + 1);
		}
	}
	if (names.path)
		__putname(names.path);
	if (names.root)
		__putname(names.root);
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

/*
 * Stop, after sampling ended and with no lock held: the files still
 * queued described, on each CPU's file_work. Nothing there waits on a file
 * system. One stop at a time (ktp_stop_lock).
 */
void ktp_files_flush(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct ktp_sample_cpu *sc = per_cpu(ktp_sample_cpus, cpu);

		if (!sc)
			continue;
		queue_work(ktp_percpu_wq, &sc->file_work);
		flush_work(&sc->file_work);
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
