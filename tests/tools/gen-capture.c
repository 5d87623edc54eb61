// SPDX-License-Identifier: GPL-2.0
/*
 * Synthetic captures for tests and benchmarks: N records over C CPUs that
 * look like a scheduler-heavy workload (switch sequences that chain, wakings,
 * irqs and softirqs, forks, CPU samples with kernel stacks), written as a
 * capture file or as a raw dump directory. Deterministic for a given seed.
 *
 * With -S, the fixed scenario of tests/lib/scenario.c instead (2 CPUs); with
 * -t FILE, the capture script FILE (tests/lib/script.h).
 *
 * usage: gen-capture (-n RECORDS [-c CPUS] [-s SEED] [-l LOST] | -S | -t FILE)
 *                    [-i SESSION_ID] [-k] (-o FILE [-u] | -d DIR)
 * -u stores the chunks uncompressed (fuzz corpora); -i sets the session id
 * (default 0x5e5510), which names the capture in ktprof export's files; -k
 * stamps records with a 2 GHz counter and CLOCK records, as the module
 * does with the TSC (the same times, exactly convertible).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture/capture-meta.h"
#include "capture/capture-write.h"
#include "scenario.h"
#include "script.h"
#include "decode/stream-writer.h"

#define NR_TASKS 64
#define FLUSH_BYTES (1 << 20)

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 T entry_SYSCALL_64\n"
	"ffffffff81002000 T do_syscall_64\n"
	"ffffffff81003000 T __x64_sys_read\n"
	"ffffffff81004000 T schedule\n"
	"ffffffff81005000 T pv_native_safe_halt\n"
	/* For stacks at the switch: the scheduler's and locks' text, blockers. */
	"ffffffff82000000 T __sched_text_start\n"
	"ffffffff82000100 T __schedule\n"
	"ffffffff82000200 T schedule_timeout\n"
	"ffffffff82000300 T do_nanosleep\n"
	"ffffffff82000400 T __mutex_lock_slowpath\n"
	"ffffffff82001000 T __sched_text_end\n"
	"ffffffff82001100 T pipe_read\n"
	"ffffffff82001200 T hrtimer_nanosleep\n"
	"ffffffff82001300 T futex_wait_queue\n"
	"ffffffff82001400 T __traceiter_sched_switch\n"
	"ffffffff82001500 T anon_pipe_write\n"
	"ffffffff82001600 T try_to_wake_up\n"
	"ffffffff82001700 T mutex_lock\n"
	"ffffffff82001800 T __lock_text_start\n"
	"ffffffff82001900 T _raw_spin_lock_irqsave\n"
	"ffffffff82002000 T __lock_text_end\n"
	"ffffffff82002100 T ksys_read\n"
	"ffffffff82002200 T ksys_write\n";

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state % n);
}

struct gen_cpu {
	struct stream_writer w;
	uint32_t cur;		/* running pid */
	uint64_t ts;
	FILE *raw;		/* -d: the cpuN file */
};

static void sample(struct stream_writer *w, uint64_t ts, uint32_t pid)
{
	uint8_t buf[sizeof(struct ktp_sample) + 4 * 8];
	struct ktp_sample s = { .ts = ts, .pid = pid, .tid = pid, .nr_kernel = 4 };
	static const uint64_t stack[4] = {
		0xffffffff81003010ull, 0xffffffff81002020ull,
		0xffffffff81001030ull, 0xffffffff81000040ull,
	};

	memcpy(buf, &s, sizeof(s));
	memcpy(buf + sizeof(s), stack, sizeof(stack));
	stream_writer_record(w, buf, KTP_REC_SAMPLE, 0, sizeof(buf), ts);
}

static void one_record(struct gen_cpu *c, unsigned int cpu, unsigned int ncpus)
{
	struct stream_writer *w = &c->w;
	uint32_t r = rnd(100), next;

	c->ts += 200 + rnd(3000);
	if (r < 40) {
		next = c->cur ? (rnd(3) ? 0 : 100 + rnd(NR_TASKS)) : 100 + rnd(NR_TASKS);
		stream_writer_switch(w, c->ts, c->cur, c->cur ? (rnd(2) ? KTP_STATE_PREEMPTED :
				     KTP_STATE_INTERRUPTIBLE) : 0, next);
		c->cur = next;
	} else if (r < 65) {
		stream_writer_waking(w, c->ts, 100 + rnd(NR_TASKS), rnd(ncpus));
	} else if (r < 75) {
		struct ktp_irq irq = { .irq = 10 + cpu };

		stream_writer_record(w, &irq, KTP_REC_IRQ_ENTRY, 0, sizeof(irq), c->ts);
		c->ts += 500;
		stream_writer_record(w, &irq, KTP_REC_IRQ_EXIT, 0, sizeof(irq), c->ts);
	} else if (r < 85) {
		struct ktp_softirq si = { .vec = rnd(10) };

		stream_writer_record(w, &si, KTP_REC_SOFTIRQ_ENTRY, 0, sizeof(si), c->ts);
		c->ts += 800;
		stream_writer_record(w, &si, KTP_REC_SOFTIRQ_EXIT, 0, sizeof(si), c->ts);
	} else if (r < 95) {
		sample(w, c->ts, c->cur);
	} else {
		struct ktp_migrate m = { .pid = 100 + rnd(NR_TASKS), .orig_cpu = cpu,
					 .dest_cpu = rnd(ncpus) };

		stream_writer_record(w, &m, KTP_REC_MIGRATE, 0, sizeof(m), c->ts);
	}
}

static int flush_cpu(struct gen_cpu *c, unsigned int cpu, struct capture_writer *cw)
{
	int ret = 0;

	if (!c->w.len)
		return 0;
	if (cw)
		ret = capture_writer_add(cw, KTPC_STREAM, cpu, c->w.buf, c->w.len, 1);
	else if (fwrite(c->w.buf, 1, c->w.len, c->raw) != c->w.len)
		ret = -EIO;
	c->w.len = 0;
	return ret;
}

/* A script's topology, if it has one. */
static int write_topology(struct capture_writer *cw, const struct script *s)
{
	struct topology_cpu t[SCRIPT_MAX_CPUS];
	unsigned int i;

	for (i = 0; i < s->nr_topo; i++) {
		const char *p = s->topo[i].idle;

		memset(&t[i], 0, sizeof(t[i]));
		t[i].cpu = s->topo[i].cpu;
		t[i].package = s->topo[i].package;
		t[i].core = s->topo[i].core;
		t[i].llc = s->topo[i].llc;
		t[i].node = s->topo[i].node;
		t[i].online = 1;
		t[i].cur_khz = s->topo[i].khz;
		/* "POLL:0,C1:2": names and exit latencies, in index order. */
		while (*p && t[i].nr_idle < TOPOLOGY_IDLE_STATES) {
			struct topology_idle *st = &t[i].idle[t[i].nr_idle++];
			size_t n = strcspn(p, ":,");

			snprintf(st->name, sizeof(st->name), "%.*s", (int)n, p);
			p += n;
			if (*p == ':')
				st->exit_us = strtoul(p + 1, (char **)&p, 10);
			if (*p == ',')
				p++;
		}
	}
	return s->nr_topo ? capture_meta_write_topology(cw, t, s->nr_topo) : 0;
}

static int write_raw_side_files(const char *dir, const struct meta *m,
				const struct gen_cpu *cpus, unsigned int n, const char *symbols,
				const struct script *s)
{
	char path[4096], ev[64];
	unsigned int i;
	FILE *f;

	if (s->nr_topo) {
		snprintf(path, sizeof(path), "%s/topology", dir);
		f = fopen(path, "w");
		if (!f)
			return -errno;
		for (i = 0; i < s->nr_topo; i++)
			fprintf(f, "%d %d %d %d %d\n", s->topo[i].cpu, s->topo[i].package,
				s->topo[i].core, s->topo[i].llc, s->topo[i].node);
		fclose(f);
	}

	snprintf(path, sizeof(path), "%s/meta", dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "abi=%u.%u\nversion=gen\nkernel=%s\nmachine=x86_64\nnr_cpus=%u\n"
		"cpus_online=%s\nstate=stopped\nevents_unavailable=\nsession_id=%" PRIu64
		"\nclock_boottime_ns=%" PRIu64 "\nclock_monotonic_ns=%" PRIu64
		"\nclock_realtime_ns=%" PRIu64 "\nevents=%s\nsubbuf_size=%u\nn_subbufs=%u\n"
		"overwrite=0\ncpus=0-%u\nsamples=cpu-clock@999hz\ncounters=%s\nclock=%s\n",
		m->abi_major, m->abi_minor, m->kernel, n, m->cpus_online, m->session_id,
		m->clock_boot, m->clock_mono, m->clock_real,
		meta_events_str(m->events, ev, sizeof(ev)), m->subbuf_size, m->n_subbufs,
		n - 1, m->counters, m->clock[0] ? m->clock : "boot");
	fclose(f);
	snprintf(path, sizeof(path), "%s/stats", dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	for (i = 0; i < n; i++)
		fprintf(f, "cpu=%u records=%" PRIu64 " bytes=0 lost=%" PRIu64 "\n", i,
			cpus[i].w.records, cpus[i].w.lost);
	fclose(f);
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs(symbols, f);
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t n = 0, i, lost_every = 0;
	unsigned int ncpus = 4, c;
	const char *out = NULL, *dir = NULL;
	struct capture_writer *cw = NULL;
	struct gen_cpu *cpus;
	struct meta m = {
		.abi_major = KTP_ABI_MAJOR, .abi_minor = KTP_ABI_MINOR,
		.kernel = "6.12.0-synthetic", .machine = "x86_64", .have_session = 1,
		.session_id = 0x5e5510, .clock_boot = 1000000000ull,
		.clock_mono = 900000000ull, .clock_real = 1700000000000000000ull,
		.events = KTP_EV_ALL, .subbuf_size = 262144, .n_subbufs = 8,
		.version = "gen", .samples = "cpu-clock@999hz",
	};
	struct capture_meta_info info = { .meta = &m, .recorder = "gen-capture" };
	const char *symbols = kallsyms, *script_path = NULL;
	static struct script script;
	int opt, ret = 0, scenario = 0, stored = 0, cycles = 0;

	rng_state = 88172645463325252ull;
	while ((opt = getopt(argc, argv, "n:c:s:l:o:d:St:ui:k")) != -1) {
		switch (opt) {
		case 'S': scenario = 1; break;
		case 't': script_path = optarg; break;
		case 'n': n = strtoull(optarg, NULL, 10); break;
		case 'c': ncpus = strtoul(optarg, NULL, 10); break;
		case 's': rng_state = strtoull(optarg, NULL, 10) | 1; break;
		case 'l': lost_every = strtoull(optarg, NULL, 10); break;
		case 'o': out = optarg; break;
		case 'd': dir = optarg; break;
		case 'u': stored = 1; break;
		case 'i': m.session_id = strtoull(optarg, NULL, 0); break;
		case 'k': cycles = 1; snprintf(m.clock, sizeof(m.clock), "tsc"); break;
		default: goto usage;
		}
	}
	if (scenario) {
		n = 0;
		ncpus = SCENARIO_CPUS;
		symbols = scenario_kallsyms;
		snprintf(m.counters, sizeof(m.counters), "%s", SCENARIO_COUNTERS);
	} else if (script_path) {
		FILE *f = fopen(script_path, "r");

		if (!f || script_read(&script, f, m.clock_boot, cycles ? SCRIPT_CYCLES : 0)) {
			fprintf(stderr, "gen-capture: %s: %s\n", script_path,
				f ? script.error : strerror(errno));
			return 1;
		}
		fclose(f);
		n = 0;
		scenario = 2;
		ncpus = script.nr_cpus;
		info.stop_ns = script.stop;
		info.cgroups_start = script.cgroups[0][0] ? script.cgroups[0] : NULL;
		info.cgroups_stop = script.cgroups[1][0] ? script.cgroups[1] : NULL;
		info.cgroup_cpu_start = script.cgroup_cpu[0][0] ? script.cgroup_cpu[0] : NULL;
		info.schedstat_start = script.schedstat[0][0] ? script.schedstat[0] : NULL;
		info.schedstat_stop = script.schedstat[1][0] ? script.schedstat[1] : NULL;
		info.has_sched_schedstats = script.schedstats_enabled >= 0;
		info.sched_schedstats = script.schedstats_enabled > 0;
		info.cgroup_cpu_stop = script.cgroup_cpu[1][0] ? script.cgroup_cpu[1] : NULL;
		info.probes = script.probes[0] ? script.probes : NULL;
		info.probe_stats = script.probe_stats[0] ? script.probe_stats : NULL;
		info.spans = script.spans[0] ? script.spans : NULL;
	} else if (!n) {
		goto usage;
	}
	if (!ncpus || ncpus > 256 || !!out == !!dir)
		goto usage;
	snprintf(m.cpus, sizeof(m.cpus), "0-%u", ncpus - 1);
	if (script.online[0])
		snprintf(m.cpus_online, sizeof(m.cpus_online), "%s", script.online);
	else
		snprintf(m.cpus_online, sizeof(m.cpus_online), "0-%u", ncpus - 1);
	m.nr_cpus = ncpus;
	cpus = calloc(ncpus, sizeof(*cpus));
	if (out) {
		cw = capture_writer_open(out, 0);
		if (cw && stored)
			capture_writer_set_compress(cw, 0);
		if (!cw || capture_meta_write(cw, &info) ||
		    capture_writer_add(cw, KTPC_KALLSYMS, 0, symbols, strlen(symbols), 1) ||
		    write_topology(cw, &script)) {
			perror(out);
			return 1;
		}
	} else {
		mkdir(dir, 0755);
	}
	for (c = 0; c < ncpus; c++) {
		char path[4096];

		stream_writer_init(&cpus[c].w, c, 262144, m.clock_boot);
		if (cycles)
			stream_writer_use_cycles(&cpus[c].w);
		cpus[c].ts = m.clock_boot;
		if (!scenario)
			stream_writer_cpu_mark(&cpus[c].w, cpus[c].ts, KTP_CPU_START, 0);
		if (dir) {
			snprintf(path, sizeof(path), "%s/cpu%u", dir, c);
			cpus[c].raw = fopen(path, "w");
			if (!cpus[c].raw) {
				perror(path);
				return 1;
			}
		}
	}
	if (scenario == 1) {
		struct stream_writer w[SCENARIO_CPUS];

		for (c = 0; c < ncpus; c++)
			w[c] = cpus[c].w;
		scenario_write(w, m.clock_boot);
		for (c = 0; c < ncpus; c++)
			cpus[c].w = w[c];
	} else if (scenario == 2) {
		for (c = 0; c < ncpus; c++) {
			stream_writer_fini(&cpus[c].w);
			cpus[c].w = script.cpu[c];
		}
	}
	/* The start snapshot: processes of 4 threads, spread over the CPUs. */
	for (i = 0; i < NR_TASKS && !scenario; i++) {
		unsigned int proc = i / 4, thread = i % 4;
		char comm[16];

		c = i % ncpus;
		snprintf(comm, sizeof(comm), "task-%u-%u", proc, thread);
		stream_writer_task(&cpus[c].w, cpus[c].ts, 100 + i, 100 + proc * 4, comm);
	}
	for (i = 0; i < n && !ret; i++) {
		c = i % ncpus;
		one_record(&cpus[c], c, ncpus);
		if (lost_every && i % lost_every == lost_every - 1)
			stream_writer_drop(&cpus[c].w, 10);
		if (cpus[c].w.len >= FLUSH_BYTES)
			ret = flush_cpu(&cpus[c], c, cw);
	}
	for (c = 0; c < ncpus && !ret; c++) {
		if (!scenario)
			stream_writer_cpu_mark(&cpus[c].w, cpus[c].ts + 1000, KTP_CPU_STOP, cpus[c].cur);
		ret = flush_cpu(&cpus[c], c, cw);
		if (cpus[c].raw)
			fclose(cpus[c].raw);
	}
	if (!ret && cw)
		ret = capture_writer_close(cw);
	if (!ret && dir)
		ret = write_raw_side_files(dir, &m, cpus, ncpus, symbols, &script);
	if (ret) {
		fprintf(stderr, "gen-capture: %s\n", strerror(-ret));
		return 1;
	}
	for (c = 0; c < ncpus; c++)
		stream_writer_fini(&cpus[c].w);
	free(cpus);
	return 0;
usage:
	fprintf(stderr, "usage: gen-capture (-n RECORDS [-c CPUS] [-s SEED] [-l LOST_EVERY] | -S | -t SCRIPT) [-i SESSION_ID] [-k] (-o FILE [-u] | -d DIR)\n");
	return 2;
}
