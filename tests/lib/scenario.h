/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small fixed scenario with every record type the converter handles, in
 * the order the module writes them (for golden tests): a process with
 * threads, a fork, exec, rename, exit and free, wakeups, preemption,
 * counters, IRQs with names, softirqs, IPIs, a work item, lost records,
 * and user+kernel samples whose FILE record comes after them.
 */
#ifndef KTPROF_SCENARIO_H
#define KTPROF_SCENARIO_H

#include "decode/stream-writer.h"

#define SCENARIO_CPUS 2
#define SCENARIO_COUNTERS "cycles,instructions"

/* Kernel symbols the scenario's addresses resolve to. */
extern const char scenario_kallsyms[];

/* Fill the streams of CPUs 0 and 1 (initialised, starting at @t0). */
void scenario_write(struct stream_writer cpu[SCENARIO_CPUS], uint64_t t0);

#endif
