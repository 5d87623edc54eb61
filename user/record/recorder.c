// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture-meta.h"
#include "capture/capture-write.h"
#include "capture/cgroup-table.h"
#include "capture/schedstat.h"
#include "record/recorder.h"
#include "record/snapshot.h"
#include "util/byte-queue.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/infile.h"

/* A chunk goes out when this full, or after READER_FLUSH_NS in any case. */
#define READER_CHUNK (1 << 20)
#define READER_FLUSH_NS 1000000000ull
#define READER_POLL_MS 200
#define RECORDER_SYNC_TIMEOUT_S 60	/* -o on a slow disk: the readers write too */

struct reader {
	struct recorder *r;
	uint32_t cpu;
	int fd;
	int wake_fd;		/* an eventfd: recorder_sync() wakes it */
	pthread_t thread;
	_Atomic uint64_t bytes;
	struct byte_queue *queue;	/* its CPU's of cfg.queues, or NULL */
	uint64_t synced;	/* the last sync it drained for (sync_lock) */
	int done;		/* the thread ended (sync_lock) */
	int error;		/* -errno, set by the thread */
};

struct recorder {
	struct recorder_config cfg;
	struct control_client *ctl;
	struct capture_writer *w;
	struct meta meta;
	struct reader **readers;
	unsigned int nr_readers;
	atomic_int stopping;
	int started;
	int joined;
	struct cpu_stats *final;
	unsigned int nr_final;
	struct error err;	/* the last failure's details */
	struct sched_ext scx_start, scx_stop;
	char *schedstat[2];		/* /proc/schedstat at start and stop, or NULL */
	int schedstats;			/* kernel.sched_schedstats in the session, -1: unknown */
	int schedstats_restore;		/* it was turned on here: off again at the end */
	char *cgroups[2];		/* cgroup2 id -> path at start and stop, or NULL */
	char *cgroup_cpu[2];		/* their cpu.stat at start and stop, or NULL */
	char probe_stats[KTP_MAX_PROBES * 48];	/* "ID HITS MISSES" lines at stop */
	/* recorder_sync(): the readers drain what the flush made readable */
	pthread_mutex_t sync_lock;
	pthread_cond_t sync_cond;
	_Atomic uint64_t sync_gen;
};

struct recorder *recorder_new(const struct recorder_config *cfg,
			      struct control_client *ctl)
{
	struct recorder *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->cfg = *cfg;
	r->ctl = ctl;
	r->schedstats = -1;
	pthread_mutex_init(&r->sync_lock, NULL);
	pthread_cond_init(&r->sync_cond, NULL);
	return r;
}

static int flush_chunk(struct reader *rd, const char *buf, size_t len)
{
	if (!len || !rd->r->w)
		return 0;
	return capture_writer_add(rd->r->w, KTPC_STREAM, rd->cpu, buf, len, 1);
}

/* Tell recorder_sync() that the reader drained for sync @gen (or ended). */
static void reader_synced(struct reader *rd, uint64_t gen, int done)
{
	pthread_mutex_lock(&rd->r->sync_lock);
	if (gen > rd->synced)
		rd->synced = gen;
	rd->done |= done;
	pthread_cond_broadcast(&rd->r->sync_cond);
	pthread_mutex_unlock(&rd->r->sync_lock);
}

/* Wait for data, a sync's wakeup, or the poll timeout; 0 or -errno. */
static int reader_wait(struct reader *rd)
{
	struct pollfd pfd[2] = {
		{ .fd = rd->fd, .events = POLLIN },
		{ .fd = rd->wake_fd, .events = POLLIN },
	};
	uint64_t v;

	if (poll(pfd, 2, READER_POLL_MS) < 0)
		return errno == EINTR ? 0 : -errno;
	if ((pfd[1].revents & POLLIN) && read(rd->wake_fd, &v, sizeof(v)) < 0 &&
	    errno != EAGAIN)
		return -errno;
	return 0;
}

static void *reader_main(void *arg)
{
	struct reader *rd = arg;
	char *buf = malloc(READER_CHUNK);
	uint64_t last_flush = clock_ns(CLOCK_MONOTONIC), gen;
	size_t len = 0, at;
	int ret = 0, again = 0;

	if (!buf) {
		rd->error = -ENOMEM;
		reader_synced(rd, 0, 1);
		return NULL;
	}
	for (;;) {
		/* Read the flags before reading: then no data is left behind. */
		int stopping = atomic_load(&rd->r->stopping);
		ssize_t n = 0;

		gen = atomic_load(&rd->r->sync_gen);
		if (!stopping && !again && (ret = reader_wait(rd)))
			break;
		at = len;
		while (len < READER_CHUNK) {
			n = read(rd->fd, buf + len, READER_CHUNK - len);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			len += n;
			atomic_fetch_add(&rd->bytes, n);
		}
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (rd->queue && len > at && (ret = byte_queue_put(rd->queue, buf + at, len - at)))
			break;
		if (!rd->r->w)
			len = 0;	/* nothing to write: the queue has it */
		if (len >= READER_CHUNK / 2 || (stopping && n == 0) ||
		    (len && clock_ns(CLOCK_MONOTONIC) - last_flush > READER_FLUSH_NS)) {
			ret = flush_chunk(rd, buf, len);
			if (ret)
				break;
			len = 0;
			last_flush = clock_ns(CLOCK_MONOTONIC);
		}
		if (stopping && n == 0)
			break;	/* stopped and drained */
		/* Drained after the sync's flush: everything it flushed is in. */
		if (n == 0 && gen > rd->synced)
			reader_synced(rd, gen, 0);
		/* A sync came while reading: drain again, without waiting. */
		again = n != 0 || atomic_load(&rd->r->sync_gen) != gen;
	}
	if (!ret)
		ret = flush_chunk(rd, buf, len);
	rd->error = ret;
	free(buf);
	reader_synced(rd, gen, 1);
	return NULL;
}

static int pin_reader(struct recorder *r, pthread_t t)
{
	cpu_set_t set;

	if (r->cfg.reader_cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(r->cfg.reader_cpu, &set);
	return -pthread_setaffinity_np(t, sizeof(set), &set);
}

static int add_reader(struct recorder *r, uint32_t cpu)
{
	struct reader *rd, **nr;
	char path[512];
	int ret;

	snprintf(path, sizeof(path), "%s/cpu%u", r->cfg.debugfs_dir, cpu);
	rd = calloc(1, sizeof(*rd));
	nr = realloc(r->readers, (r->nr_readers + 1) * sizeof(*nr));
	if (!rd || !nr) {
		free(rd);
		return error_set(&r->err, -ENOMEM, NULL);
	}
	r->readers = nr;
	rd->r = r;
	rd->cpu = cpu;
	rd->queue = cpu < r->cfg.nr_queues ? r->cfg.queues[cpu] : NULL;
	rd->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (rd->wake_fd < 0) {
		ret = error_set(&r->err, -errno, "eventfd: %s", strerror(errno));
		free(rd);
		return ret;
	}
	rd->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (rd->fd < 0) {
		ret = error_set(&r->err, -errno, "%s: %s", path, strerror(errno));
		close(rd->wake_fd);
		free(rd);
		return ret;
	}
	ret = -pthread_create(&rd->thread, NULL, reader_main, rd);
	if (ret) {
		error_set(&r->err, ret, "reader thread: %s", error_str(ret));
		close(rd->fd);
		close(rd->wake_fd);
		free(rd);
		return ret;
	}
	ret = pin_reader(r, rd->thread);
	r->readers[r->nr_readers++] = rd;
	if (ret)
		error_set(&r->err, ret, "cannot pin the reader to CPU %d: %s",
			  r->cfg.reader_cpu, error_str(ret));
	return ret;
}

static int have_reader(struct recorder *r, uint32_t cpu)
{
	unsigned int i;

	for (i = 0; i < r->nr_readers; i++)
		if (r->readers[i]->cpu == cpu)
			return 1;
	return 0;
}

int recorder_poll(struct recorder *r)
{
	DIR *d = opendir(r->cfg.debugfs_dir);
	struct dirent *de;
	int ret = 0;

	if (!d) {
		return error_set(&r->err, -errno, "%s: %s", r->cfg.debugfs_dir,
				 strerror(errno));
	}
	while (!ret && (de = readdir(d)) != NULL) {
		char *end;
		unsigned long cpu;

		if (strncmp(de->d_name, "cpu", 3) || de->d_name[3] < '0' ||
		    de->d_name[3] > '9')
			continue;
		cpu = strtoul(de->d_name + 3, &end, 10);
		if (!*end && !have_reader(r, cpu))
			ret = add_reader(r, cpu);
	}
	closedir(d);
	return ret;
}

int recorder_prepare(struct recorder *r)
{
	int ret;

	if (!r->cfg.output)
		return 0;	/* live only: no capture, no snapshots */
	r->w = capture_writer_open(r->cfg.output, OUTFILE_IN_PLACE);
	if (!r->w) {
		return error_set(&r->err, -errno, "%s: %s", r->cfg.output,
				 strerror(errno));
	}
	ret = snapshot_topology(r->w, &r->err);
	if (ret || !r->cfg.snapshots)
		return ret;
	ret = snapshot_kallsyms(r->w, &r->err);
	if (!ret)
		ret = snapshot_modules(r->w, &r->err);
	if (!ret)
		ret = snapshot_procmaps(r->w, &r->err);
	return ret;
}

static int write_meta(struct recorder *r, uint64_t stop_ns)
{
	struct capture_meta_info info = {
		.meta = &r->meta,
		.sched_ext_start = &r->scx_start,
		.sched_ext_stop = stop_ns ? &r->scx_stop : NULL,
		.schedstat_start = r->schedstat[0],
		.schedstat_stop = stop_ns ? r->schedstat[1] : NULL,
		.has_sched_schedstats = r->schedstats >= 0,
		.sched_schedstats = r->schedstats >= 0 ? r->schedstats : 0,
		.cgroups_start = r->cgroups[0],
		.cgroups_stop = stop_ns ? r->cgroups[1] : NULL,
		.cgroup_cpu_start = r->cgroup_cpu[0],
		.cgroup_cpu_stop = stop_ns ? r->cgroup_cpu[1] : NULL,
		.probes = r->cfg.probes,
		.spans = r->cfg.spans,
		.probe_stats = stop_ns ? r->probe_stats : NULL,
		.recorder = "ktprof record",
		.options = r->cfg.options,
		.nr_options = r->cfg.nr_options,
		.stop_ns = stop_ns,
		.sample_pids = r->cfg.session.sample_pids,
		.nr_sample_pids = r->cfg.session.nr_sample_pids,
		.sample_comm = r->cfg.session.sample_comm,
		.sample_cgroup = r->cfg.session.sample_cgroup,
	};

	return capture_meta_write(r->w, &info);
}

/* Meta the module does not send over netlink, and what it reported. */
static void complete_meta(struct recorder *r)
{
	const struct session_config *s = &r->cfg.session;
	char path[512], *text;
	struct meta full;
	FILE *f;

	/* The debugfs text has everything; netlink is the fallback. */
	snprintf(path, sizeof(path), "%s/meta", r->cfg.debugfs_dir);
	f = fopen(path, "r");
	if (f) {
		text = calloc(1, 1 << 16);
		if (text && fread(text, 1, (1 << 16) - 1, f) > 0 &&
		    !meta_parse(text, &full) && full.session_id == r->meta.session_id)
			r->meta = full;
		free(text);
		fclose(f);
	}
	if (!r->meta.samples[0] && s->samples)
		snprintf(r->meta.samples, sizeof(r->meta.samples), "%s", s->samples);
	if (!r->meta.counters[0] && s->counters)
		snprintf(r->meta.counters, sizeof(r->meta.counters), "%s", s->counters);
	if (!r->meta.stacks[0] && s->stacks)
		snprintf(r->meta.stacks, sizeof(r->meta.stacks), "%s%s%s",
			 s->stacks & KTP_STACKS_OFFCPU ? "offcpu" : "",
			 s->stacks & KTP_STACKS_WAKER ? (s->stacks & KTP_STACKS_OFFCPU ?
							 ",waker" : "waker") : "",
			 s->stacks & KTP_STACKS_USER ? ",user" : "");
}

static int sysctl_write(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, v, strlen(v)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * kernel.sched_schedstats for the session: off by default on most
 * kernels, when only /proc/schedstat's run and wait times count. With
 * --schedstats it is turned on (as perf sched stats does) and later off.
 */
static int schedstats_begin(struct recorder *r)
{
	int ret;

	if (!r->cfg.schedstats_sysctl || infile_read_int(r->cfg.schedstats_sysctl, &r->schedstats) ||
	    r->schedstats < 0)
		r->schedstats = -1;
	if (!r->cfg.schedstats_on || r->schedstats != 0)
		return 0;
	ret = sysctl_write(r->cfg.schedstats_sysctl, "1");
	if (ret)
		return error_set(&r->err, ret, "--schedstats: cannot turn %s on: %s",
				 r->cfg.schedstats_sysctl, error_str(ret));
	r->schedstats = 1;
	r->schedstats_restore = 1;
	return 0;
}

static void schedstats_end(struct recorder *r)
{
	if (!r->schedstats_restore)
		return;
	r->schedstats_restore = 0;
	sysctl_write(r->cfg.schedstats_sysctl, "0");
}

static int start_session(struct recorder *r)
{
	int ret;

	/* What sched_ext ran: a missing or unreadable directory says nothing. */
	if (r->cfg.sched_ext_dir)
		sched_ext_read(r->cfg.sched_ext_dir, &r->scx_start);
	/* A kernel without SCHEDSTATS has no file: the capture has none either. */
	ret = schedstats_begin(r);
	if (ret)
		return ret;
	if (r->cfg.schedstat_path)
		schedstat_read(r->cfg.schedstat_path, &r->schedstat[0]);
	/*
	 * Records name cgroups by id: the tree now, and at stop, names those
	 * that lived through either. Without cgroup2 the capture has none.
	 */
	if (r->cfg.cgroups)
		cgroup_table_read(&r->cgroups[0], &r->cgroup_cpu[0]);
	if (r->cfg.require_scx && !r->scx_start.present)
		return error_set(&r->err, -EOPNOTSUPP,
				 "-e scx: this kernel has no sched_ext (%s absent; "
				 "it needs CONFIG_SCHED_CLASS_EXT)",
				 r->cfg.sched_ext_dir ? r->cfg.sched_ext_dir : "/sys/kernel/sched_ext");
	ret = control_client_start(r->ctl, &r->cfg.session);

	if (ret) {
		return error_set(&r->err, ret, "cannot start the session: %s%s%s",
				 error_str(ret), *control_client_message(r->ctl) ? ": " : "",
				 control_client_message(r->ctl));
	}
	r->started = 1;
	ret = control_client_get_meta(r->ctl, &r->meta);
	if (ret) {
		return error_set(&r->err, ret, "session metadata: %s", error_str(ret));
	}
	complete_meta(r);
	ret = r->w ? write_meta(r, 0) : 0;
	if (ret)
		return error_set(&r->err, ret, "%s: %s", r->cfg.output, error_str(ret));
	return recorder_poll(r);
}

int recorder_start(struct recorder *r)
{
	int ret = start_session(r);

	/* A session that never started leaves no capture (a refused probe, ...). */
	if (ret && !r->started && r->w) {
		capture_writer_discard(r->w);
		r->w = NULL;
	}
	return ret;
}

static int join_readers(struct recorder *r)
{
	unsigned int i;
	int ret = 0;

	if (r->joined)
		return 0;
	r->joined = 1;
	atomic_store(&r->stopping, 1);
	for (i = 0; i < r->nr_readers; i++) {
		struct reader *rd = r->readers[i];

		pthread_join(rd->thread, NULL);
		close(rd->fd);
		close(rd->wake_fd);
		if (rd->error && !ret) {
			ret = error_set(&r->err, rd->error, "reading cpu%u: %s",
					rd->cpu, error_str(rd->error));
		}
	}
	return ret;
}

/* Each probe's hits and misses, as the module counted them, for META. */
static int read_probe_stats(struct recorder *r)
{
	uint64_t v[2 * KTP_MAX_PROBES];
	unsigned int i, n;
	size_t used = 0;
	int ret;

	if (!r->cfg.session.nr_probes)
		return 0;
	ret = control_client_probe_stats(r->ctl, v, KTP_MAX_PROBES, &n);
	if (ret)
		return error_set(&r->err, ret, "probe counts: %s", error_str(ret));
	for (i = 0; i < n; i++)
		used += snprintf(r->probe_stats + used, sizeof(r->probe_stats) - used,
				 "%u %" PRIu64 " %" PRIu64 "\n", i, v[2 * i], v[2 * i + 1]);
	return 0;
}

int recorder_stop(struct recorder *r)
{
	uint64_t stop_ns, *bytes = NULL;
	unsigned int i, j;
	int ret;

	ret = control_client_stop(r->ctl);
	if (ret && ret != -EINVAL) {
		return error_set(&r->err, ret, "cannot stop the session: %s",
				 error_str(ret));
	}
	r->started = 0;
	stop_ns = clock_ns(CLOCK_BOOTTIME);
	if (r->cfg.sched_ext_dir)
		sched_ext_read(r->cfg.sched_ext_dir, &r->scx_stop);
	if (r->cfg.schedstat_path)
		schedstat_read(r->cfg.schedstat_path, &r->schedstat[1]);
	schedstats_end(r);
	if (r->cfg.cgroups)
		cgroup_table_read(&r->cgroups[1], &r->cgroup_cpu[1]);
	ret = join_readers(r);
	if (ret)
		return ret;
	ret = read_probe_stats(r);
	if (ret)
		return ret;
	ret = control_client_get_stats(r->ctl, &r->final, &r->nr_final);
	if (ret) {
		return error_set(&r->err, ret, "module statistics: %s", error_str(ret));
	}
	if (!r->w)
		return 0;
	bytes = calloc(r->nr_final ? r->nr_final : 1, sizeof(*bytes));
	if (!bytes)
		return error_set(&r->err, -ENOMEM, NULL);
	for (i = 0; i < r->nr_final; i++)
		for (j = 0; j < r->nr_readers; j++)
			if (r->readers[j]->cpu == r->final[i].cpu)
				bytes[i] = atomic_load(&r->readers[j]->bytes);
	ret = capture_meta_write_stats(r->w, r->final, r->nr_final, bytes);
	free(bytes);
	if (!ret)
		ret = write_meta(r, stop_ns);
	if (!ret)
		ret = capture_writer_close(r->w);
	else
		capture_writer_abort(r->w);
	r->w = NULL;
	if (ret)
		error_set(&r->err, ret, "%s: %s", r->cfg.output, error_str(ret));
	return ret;
}

void recorder_abort(struct recorder *r)
{
	if (r->started)
		control_client_stop(r->ctl);
	r->started = 0;
	schedstats_end(r);
	join_readers(r);
	if (r->w)
		capture_writer_abort(r->w);
	r->w = NULL;
}

void recorder_progress(struct recorder *r, struct recorder_progress *p)
{
	struct cpu_stats *st;
	unsigned int i, n;

	memset(p, 0, sizeof(*p));
	p->readers = r->nr_readers;
	for (i = 0; i < r->nr_readers; i++)
		p->bytes_read += atomic_load(&r->readers[i]->bytes);
	if (r->w)
		p->file_bytes = capture_writer_bytes(r->w);
	if (control_client_get_stats(r->ctl, &st, &n))
		return;
	for (i = 0; i < n; i++) {
		p->records += st[i].records;
		p->lost += st[i].lost;
	}
	free(st);
}

/* Whether every reader drained for sync @gen or ended; under sync_lock. */
static int all_synced(const struct recorder *r, uint64_t gen)
{
	unsigned int i;

	for (i = 0; i < r->nr_readers; i++)
		if (r->readers[i]->synced < gen && !r->readers[i]->done)
			return 0;
	return 1;
}

static void wake_readers(struct recorder *r)
{
	uint64_t one = 1;
	unsigned int i;

	for (i = 0; i < r->nr_readers; i++)
		if (write(r->readers[i]->wake_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
			break;	/* then its poll's timeout wakes it */
}

/* Whether our session still runs: stopped by another program, it would record nothing. */
static int check_running(struct recorder *r)
{
	struct meta now;
	int ret = control_client_get_meta(r->ctl, &now);

	if (ret)
		return error_set(&r->err, ret, "module metadata: %s", error_str(ret));
	if (strcmp(now.state, "running") || now.session_id != r->meta.session_id)
		return error_set(&r->err, -ESRCH,
				 "the session is no longer running (the module's state: %s): "
				 "stopped by another program?", now.state);
	return 0;
}

int recorder_sync(struct recorder *r, uint64_t *ts)
{
	struct timespec deadline;
	uint64_t gen;
	int ret = 0;

	/*
	 * Every record stamped before @ts was written before the flush's IPI
	 * reached its CPU (the module writes with interrupts off), so the
	 * flush made it readable, and a reader that drains after it takes it.
	 */
	*ts = clock_ns(CLOCK_BOOTTIME);
	ret = control_client_flush(r->ctl);
	if (ret)
		return error_set(&r->err, ret, "cannot flush the session: %s", error_str(ret));
	ret = check_running(r);
	if (ret)
		return ret;
	/*
	 * A CPU that came online before the flush wrote records before @ts:
	 * its reader starts now, and the sync waits for it too.
	 */
	ret = recorder_poll(r);
	if (ret)
		return ret;
	gen = atomic_fetch_add(&r->sync_gen, 1) + 1;
	wake_readers(r);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += RECORDER_SYNC_TIMEOUT_S;
	pthread_mutex_lock(&r->sync_lock);
	while (!all_synced(r, gen) && !ret)
		ret = -pthread_cond_timedwait(&r->sync_cond, &r->sync_lock, &deadline);
	pthread_mutex_unlock(&r->sync_lock);
	if (ret)
		return error_set(&r->err, ret == -ETIMEDOUT ? -ETIMEDOUT : ret,
				 "the readers did not drain the module's buffers within %d s",
				 RECORDER_SYNC_TIMEOUT_S);
	return 0;
}

int recorder_reader_error(struct recorder *r)
{
	unsigned int i;
	int ret = 0;

	pthread_mutex_lock(&r->sync_lock);
	for (i = 0; i < r->nr_readers && !ret; i++)
		if (r->readers[i]->done && r->readers[i]->error)
			ret = error_set(&r->err, r->readers[i]->error, "reading cpu%u: %s",
					r->readers[i]->cpu, error_str(r->readers[i]->error));
	pthread_mutex_unlock(&r->sync_lock);
	return ret;
}

const struct meta *recorder_meta(const struct recorder *r)
{
	return &r->meta;
}

const char *recorder_strerror(const struct recorder *r)
{
	return error_msg(&r->err);
}

uint64_t recorder_session_start_ns(const struct recorder *r)
{
	return r->meta.clock_boot;
}

const struct cpu_stats *recorder_final_stats(const struct recorder *r,
						 unsigned int *n)
{
	*n = r->nr_final;
	return r->final;
}

void recorder_free(struct recorder *r)
{
	unsigned int i;

	if (!r)
		return;
	if (r->started || r->w)
		recorder_abort(r);
	schedstats_end(r);
	for (i = 0; i < r->nr_readers; i++)
		free(r->readers[i]);
	free(r->readers);
	free(r->final);
	free(r->schedstat[0]);
	free(r->schedstat[1]);
	free(r->cgroups[0]);
	free(r->cgroups[1]);
	free(r->cgroup_cpu[0]);
	free(r->cgroup_cpu[1]);
	pthread_mutex_destroy(&r->sync_lock);
	pthread_cond_destroy(&r->sync_cond);
	free(r);
}
