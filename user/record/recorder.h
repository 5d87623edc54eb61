/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recording engine behind `ktprof record`: starts a session over
 * netlink, copies every CPU's relay file into the capture with one reader
 * thread per CPU (poll with a timeout, then read), picks up CPUs that come
 * online, and at stop drains everything and writes the final statistics.
 * Readers copy bytes; they never decode records.
 */
#ifndef KTPROF_RECORDER_H
#define KTPROF_RECORDER_H

#include <stddef.h>
#include <stdint.h>

#include "record/control-client.h"

struct byte_queue;

struct recorder_config {
	const char *output;		/* capture file path; NULL: none (live only) */
	/* The live tap: what the reader of CPU i reads goes to queues[i] too
	 * (i < nr_queues, not NULL), for an analysis as it runs (`ktprof top`). */
	struct byte_queue **queues;
	unsigned int nr_queues;
	const char *debugfs_dir;	/* the module's debugfs directory */
	const char *sched_ext_dir;	/* /sys/kernel/sched_ext, or NULL */
	struct session_config session;	/* what the module records */
	int reader_cpu;			/* pin readers here; -1: no pinning */
	char *const *options;		/* effective options, for the capture */
	unsigned int nr_options;
	int snapshots;			/* kallsyms, modules, maps (1: yes) */
	int require_scx;		/* fail when the kernel has no sched_ext */
	const char *schedstat_path;	/* /proc/schedstat, or NULL */
	/* kernel.sched_schedstats (/proc/sys/...), or NULL; with @schedstats_on
	 * turned on for the session if it is off, and back off at its end */
	const char *schedstats_sysctl;
	int schedstats_on;
	int cgroups;			/* the cgroup2 id -> path table (1: yes) */
	const char *probes;		/* --probe's list for the capture, or NULL */
	const char *spans;		/* --span's list for the capture, or NULL */
};

struct recorder_progress {
	uint64_t bytes_read;		/* from the relay files */
	uint64_t file_bytes;		/* written to the capture */
	uint64_t records, lost;		/* the module's counters */
	unsigned int readers;
};

struct recorder;

/* Uses @ctl, an open control connection (owned by the caller). */
struct recorder *recorder_new(const struct recorder_config *cfg,
			      struct control_client *ctl);
void recorder_free(struct recorder *r);

/*
 * Each returns 0 or a negative error; recorder_strerror() says what went
 * wrong.
 * prepare: create the capture file and write the system snapshots.
 * start: start the session, write its metadata, start the readers.
 * poll: start readers for CPUs that came online (call it regularly).
 * stop: stop the session, drain every reader, write stats, close the file.
 */
int recorder_prepare(struct recorder *r);
int recorder_start(struct recorder *r);
int recorder_poll(struct recorder *r);
int recorder_stop(struct recorder *r);

/*
 * For a live analysis: flush the module's buffers and wait until every
 * reader has taken what the flush made readable into its queue. Then every
 * record stamped before *@ts (CLOCK_BOOTTIME, read before the flush) is in
 * the queues. 0 or a negative error (a reader stuck: -ETIMEDOUT).
 */
int recorder_sync(struct recorder *r, uint64_t *ts);

/* The first error a reader ended with (its CPU's file), or 0. */
int recorder_reader_error(struct recorder *r);

/* The session's metadata (after start). */
struct meta;
const struct meta *recorder_meta(const struct recorder *r);

/* The last failure: "cannot start the session: ...". */
const char *recorder_strerror(const struct recorder *r);

/* Stop the session if it runs; leave the file as it is (truncated). */
void recorder_abort(struct recorder *r);

/* Counters so far (asks the module: not for hot loops). */
void recorder_progress(struct recorder *r, struct recorder_progress *p);

/* CLOCK_BOOTTIME ns at which the session started (after start). */
uint64_t recorder_session_start_ns(const struct recorder *r);

/* The module's final per-CPU counters, after stop. */
const struct cpu_stats *recorder_final_stats(const struct recorder *r,
						 unsigned int *n);

#endif
