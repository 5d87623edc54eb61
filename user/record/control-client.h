/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Client of the module's generic netlink family "ktprof" (libnl-3): start
 * and stop sessions, flush, read meta and per-CPU stats. Needs
 * CAP_NET_ADMIN, like the module's operations.
 */
#ifndef KTPROF_CONTROL_CLIENT_H
#define KTPROF_CONTROL_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture/cpu-stats.h"
#include "decode/meta.h"
#include "ktprof_abi.h"

struct control_client;

/* A session configuration; 0 / NULL / -1 fields take the module's defaults. */
struct session_config {
	uint32_t events;	/* KTP_EV_* */
	uint32_t subbuf_size;
	uint32_t n_subbufs;
	const char *cpus;	/* CPU list */
	int overwrite;		/* -1 default, 0 drop new, 1 overwrite */
	uint32_t clock;		/* enum ktp_clock_id; AUTO: the module's clock= */
	const char *samples;	/* "cpu-clock@999hz,...", "none" */
	const char *counters;	/* per-switch counters, "cpu-clock,..." */
	const uint32_t *sample_pids;	/* keep samples of these processes */
	unsigned int nr_sample_pids;
	uint64_t sample_cgroup;		/* keep samples in this cgroup v2 subtree, 0: any */
	const char *sample_comm;	/* or of tasks with this comm */
	uint32_t stacks;	/* KTP_STACKS_*: at switches and wakings */
	bool stop_with_owner;	/* the module stops when this socket closes */
	const struct ktp_probe_spec *probes;	/* record --probe's */
	unsigned int nr_probes;
};

/*
 * Connect and resolve the family. NULL with errno: ENOENT when the module
 * is not loaded (no such family), else the socket error.
 */
struct control_client *control_client_open(void);
void control_client_close(struct control_client *c);

/*
 * Each returns 0 or -errno; the module's explanation, if it sent one, is
 * available from control_client_message() until the next call.
 */
int control_client_start(struct control_client *c, const struct session_config *cfg);
int control_client_stop(struct control_client *c);
int control_client_flush(struct control_client *c);
int control_client_get_meta(struct control_client *c, struct meta *m);
/* *stats is malloc'ed, *n entries (CPUs with a buffer). */
int control_client_get_stats(struct control_client *c, struct cpu_stats **stats,
		      unsigned int *n);

/*
 * The session's probes' hits and misses, a pair each by probe id, @max
 * pairs at most into @v; *@n of them (0 without probes).
 */
int control_client_probe_stats(struct control_client *c, uint64_t *v, unsigned int max,
			       unsigned int *n);

/* The kernel's extended-ack message of the last failed call, or "". */
const char *control_client_message(const struct control_client *c);

#endif
