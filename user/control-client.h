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

#include "ktprof_abi.h"
#include "meta.h"

struct ktp_ctl;

/* A session configuration; 0 / NULL / -1 fields take the module's defaults. */
struct ktp_ctl_config {
	uint32_t events;	/* KTP_EV_* */
	uint32_t subbuf_size;
	uint32_t n_subbufs;
	const char *cpus;	/* CPU list */
	int overwrite;		/* -1 default, 0 drop new, 1 overwrite */
	const char *samples;	/* "cpu-clock@999hz,...", "none" */
	const char *counters;	/* per-switch counters, "cpu-clock,..." */
	const uint32_t *sample_pids;	/* keep samples of these processes */
	unsigned int nr_sample_pids;
	const char *sample_comm;	/* or of tasks with this comm */
	bool stop_with_owner;	/* the module stops when this socket closes */
};

struct ktp_cpu_stats {
	uint32_t cpu;
	uint64_t records, bytes, lost, subbufs, nested, overwritten;
	uint64_t samples, throttled;
	uint64_t dropped[KTP_REC_NR_TYPES];	/* by record type */
};

/*
 * Connect and resolve the family. NULL with errno: ENOENT when the module
 * is not loaded (no such family), else the socket error.
 */
struct ktp_ctl *ktp_ctl_open(void);
void ktp_ctl_close(struct ktp_ctl *c);

/*
 * Each returns 0 or -errno; the module's explanation, if it sent one, is
 * available from ktp_ctl_message() until the next call.
 */
int ktp_ctl_start(struct ktp_ctl *c, const struct ktp_ctl_config *cfg);
int ktp_ctl_stop(struct ktp_ctl *c);
int ktp_ctl_flush(struct ktp_ctl *c);
int ktp_ctl_get_meta(struct ktp_ctl *c, struct ktp_meta *m);
/* *stats is malloc'ed, *n entries (CPUs with a buffer). */
int ktp_ctl_get_stats(struct ktp_ctl *c, struct ktp_cpu_stats **stats,
		      unsigned int *n);

/* The kernel's extended-ack message of the last failed call, or "". */
const char *ktp_ctl_message(const struct ktp_ctl *c);

#endif
