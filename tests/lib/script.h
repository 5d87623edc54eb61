/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capture scripts: a scenario written as text, one record per line, for
 * known-answer tests whose expected values are worked out by hand from the
 * same text. gen-capture -t FILE turns a script into a capture.
 *
 *   # comment
 *   cpus N                         CPUs (first, once)
 *   stop T                         the session stopped at T (default: none)
 *   cgroup_path ID PATH [stop]       a line of the cgroup id -> path table
 *   cgroup_cpu ID KEY=N... [start|stop]  a line of the cgroups' cpu.stat
 *   schedstat start|stop WORDS...    a line of /proc/schedstat at start or stop
 *   schedstats_enabled 0|1           kernel.sched_schedstats in the session
 *                                  of the start (or the stop)
 *   topology CPU PKG CORE LLC NODE [khz=N] [idle=NAME:US,NAME:US...]
 *                                  the recorded topology of one CPU (with
 *                                  its frequency and idle states)
 *   online CPULIST                 CPUs online at the start (default all)
 *   probe SPEC WORDS...            a line of the probe list (record --probe's
 *                                  syntax), probe ids in their order
 *   probe_stats ID HITS MISSES     the module's count of a probe
 *   span NAME=BEGIN,END            a line of the span list (record --span)
 *   T CPU RECORD [KEY=VALUE|FLAG]...
 *   repeat N STEP [FIRST]          the lines up to "end", N times, their
 *   ...                            times shifted by FIRST + i * STEP
 *   end
 *
 * T is ns after the session's start; on each CPU, times never go back.
 * RECORD and its keys (all optional but the ones a record cannot do without):
 *   start|online|stop|offline pid=   per-CPU marks (pid running there)
 *   task pid= tgid= ppid= comm= state=S prio=  [snapshot kthread fork exec rename]
 *   switch prev= state=R|R+|S|D|I|T|X|Z next= prev_prio= next_prio=
 *   waking pid= target= prio= [new]
 *   probe id= pid= args=V,V... [ret]   a probe hit: V a number (as the
 *                                  module keeps it: masked to its width) or
 *                                  s:TEXT, a string
 *   mark pid= text=WORD [begin|end]  a marker
 *   migrate pid= from= to=
 *   fork parent= child= tgid= [thread]
 *   exec pid= old= file=           old: the pid before exec (default: pid)
 *   exit pid= tgid= code=
 *   free pid=
 *   irq_entry irq= | irq_exit irq= ret= | irq_name irq= name=
 *   softirq_entry vec= | softirq_exit vec=
 *   ipi cpu= callback=  |  ipi cpus=0,2,3 callback=
 *   wq_start fn= work= | wq_end fn= work=
 *   sample pid= tid= k=ADDR,ADDR u=ADDR source=
 *   wakeup pid= target=  sched_wakeup (-e wakeup)
 *   idle state=N|exit    power:cpu_idle (-e power)
 *   freq khz= cpu=       power:cpu_frequency
 *   scx_task pid= at=in|out|waking slice= weight= vtime=    sched_ext (-e scx)
 *   scx_dsq pid= dsq=global|local|N nr= cpu= slice= uid= [insert]
 *                        (uid: which DSQ of that id; default one a CPU for
 *                        local, else one)
 *   scx_op kind=enable|bypass|exit|event value= name=
 *   scx_dump line=WORD
 *   lost n=              N records lost before T: a new sub-buffer at T says so
 *   skip n=              N sub-buffers overwritten before T (with lost n=)
 */
#ifndef KTPROF_SCRIPT_H
#define KTPROF_SCRIPT_H

#include <stdint.h>
#include <stdio.h>

#include "decode/stream-writer.h"

#define SCRIPT_MAX_CPUS 256

struct script_topo {
	int cpu, package, core, llc, node;
	unsigned int khz;		/* khz=N: the frequency at the start */
	char idle[128];			/* idle=NAME:US,...: cpuidle's states */
};

struct script {
	unsigned int nr_cpus;
	struct stream_writer cpu[SCRIPT_MAX_CPUS];
	uint64_t start;		/* CLOCK_BOOTTIME of time 0 */
	uint64_t stop;		/* absolute; 0: not given */
	uint64_t offset;	/* added to times (repeat blocks) */
	struct script_topo topo[SCRIPT_MAX_CPUS];
	unsigned int nr_topo;
	char online[64];	/* CPUs online at the start; "": all */
	/* "cgroup_path ID PATH [stop]": the id -> path tables, at start and stop */
	char cgroups[2][4096];
	/* "cgroup_cpu ID KEY=N... start|stop": cpu.stat lines, at start and stop */
	char cgroup_cpu[2][4096];
	char schedstat[2][4096];	/* "schedstat start|stop ...": /proc/schedstat */
	int schedstats_enabled;		/* -1: not given */
	char probes[4096];		/* "probe SPEC...": the probe list */
	char probe_stats[1024];		/* "probe_stats ID HITS MISSES" */
	char spans[1024];		/* "span NAME=BEGIN,END": the span list */
	char error[256];	/* why script_read() failed: "line 12: ..." */
	int cycles;		/* SCRIPT_CYCLES given */
};

/* Stamps from a counter, as the module's with the TSC (stream_writer_use_cycles). */
#define SCRIPT_CYCLES 0x1

/*
 * Read a script and write its records into s->cpu[] (initialised here, at
 * @start; @flags SCRIPT_*). 0, or -1 with s->error set. stream_writer_fini()
 * each CPU afterwards.
 */
int script_read(struct script *s, FILE *in, uint64_t start, unsigned int flags);

#endif
