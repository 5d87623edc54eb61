/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --probe: the probes of a session, parsed (decode/probe-spec.h)
 * and resolved for the module: a uprobe's file to its real path, its
 * symbol to the file offset of the function's first instruction (from
 * the file's ELF symbols), a USDT probe to its sites (the file's
 * .note.stapsdt: each site's offset, semaphore and where its arguments
 * are), the rest as given. The kernel resolves a kprobe's symbol itself,
 * and refuses what it cannot probe.
 */
#ifndef KTPROF_PROBE_SET_H
#define KTPROF_PROBE_SET_H

#include "decode/probe-spec.h"
#include "ktprof_abi.h"
#include "util/error.h"

struct probe_set {
	unsigned int n;			/* probes, ids 0..n-1 */
	struct probe_spec specs[KTP_MAX_PROBES];
	unsigned int nk;		/* their sites */
	struct ktp_probe_spec k[KTP_MAX_PROBE_SITES];	/* KTP_A_PROBES */
};

/* Parse and resolve @text as the next probe; -errno with the reason in @err. */
int probe_set_add(struct probe_set *s, const char *text, struct error *err);

/* The capture's probe list (META's probes), malloc'ed; NULL without memory. */
char *probe_set_text(const struct probe_set *s);

#endif
