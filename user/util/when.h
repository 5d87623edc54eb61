/* SPDX-License-Identifier: GPL-2.0 */
/*
 * When to do something, as wprof spells it: "@now", "@HH:MM[:SS]" (today,
 * or tomorrow if already past, local time), "+30s" (after launch), or
 * "/10s" (the next multiple of 10 s since the epoch, so several machines
 * act together).
 */
#ifndef KTPROF_WHEN_H
#define KTPROF_WHEN_H

#include <stdint.h>

/*
 * The CLOCK_REALTIME time (ns) @spec names, @now_ns being the launch time.
 * 0 or -EINVAL.
 */
int when_parse(const char *spec, uint64_t now_ns, uint64_t *at_ns);

#endif
