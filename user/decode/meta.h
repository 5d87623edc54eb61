/* SPDX-License-Identifier: GPL-2.0 */
/* The session metadata the module publishes (debugfs "meta", key=value). */
#ifndef KTPROF_META_H
#define KTPROF_META_H

#include <stdint.h>

struct meta {
	unsigned int abi_major, abi_minor;
	char version[32];
	char kernel[128];	/* uname -r of the traced kernel */
	char machine[32];
	unsigned int nr_cpus;
	char cpus_online[256];
	char state[16];
	int have_session;	/* the fields below are set */
	uint64_t session_id;
	uint64_t clock_boot, clock_mono, clock_real;	/* ns, taken together */
	uint32_t events, events_unavailable;	/* KTP_EV_* */
	uint32_t subbuf_size, n_subbufs;
	int overwrite;
	char cpus[256];		/* traced CPUs, a CPU list */
	char samples[256];	/* sample sources, "cpu-clock@999hz,..." */
	char counters[256];	/* per-switch counters */
	char stacks[64];	/* stacks at switches and wakings, "offcpu,waker" */
	char scx_hooks[128];	/* sched_ext kprobes attached, "dsq_inc_nr,..." */
	char clock[8];		/* the records' clock, "boot" or "tsc"; "" if not said */
};

/*
 * Parse meta text. Returns 0; -EINVAL if malformed or incomplete;
 * -EPROTONOSUPPORT if its ABI major version is not ours (m->abi_* tell it).
 */
int meta_parse(const char *text, struct meta *m);

/* "sched,irq" for a KTP_EV_* mask, into @buf. */
const char *meta_events_str(uint32_t events, char *buf, unsigned int len);
/* KTP_EV_* mask of "sched,irq,..." or "all"; -EINVAL if unknown. */
int meta_parse_events(const char *s, uint32_t *events);

#endif
